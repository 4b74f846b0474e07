// Package feed renders the site's Atom 1.0 feeds (RFC 4287): the guides
// and the catalog's price observations by date. It performs no I/O and
// writes every text through encoding/xml, so it is escaped; the output
// depends only on its input (no clock).
package feed

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"html"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/content"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/message"
)

// Output paths of the feeds, relative to the site root.
const (
	GuidesPath  = "guides.atom"
	ChangesPath = "changes.atom"
)

// MaxChangeDates is how many dates (entries) the changes feed keeps.
const MaxChangeDates = 50

// Options describe the site the feeds belong to.
type Options struct {
	// BaseURL is the edition's base URL: absolute ("https://host/sub/")
	// or a path ("/", "/sub/"). With a host, links are absolute URLs;
	// without one, root-relative paths (readers resolve them against the
	// feed's URL). Ids never depend on it: they are "urn:gpu-atlas:..."
	// URNs, with Edition in them, so moving the site changes no id.
	BaseURL string
	// Edition is the edition's language code, "" for the default edition
	// (whose ids carry none, as before editions had feeds of their own).
	Edition string
	// Words are the feeds' texts in the edition's language; the zero
	// value is English.
	Words Words
	// Describe writes an observation's line in the changes feed; nil:
	// Observation.Text (English).
	Describe func(Observation) string
	// Title is the site title: the feed titles start with it and it is
	// the feeds' author.
	Title string
	// Lang is the feeds' xml:lang (e.g. "en"); omitted when empty.
	Lang string
	// GuidePath returns a guide's page path relative to the base URL
	// (e.g. "guides/why-cloud-gpus/"). When nil, pages of top-level
	// sections are at "<slug>/" and others at "guides/<slug>/".
	GuidePath func(*content.Page) string
	// PricingPath is the page the changes feed's entries link to,
	// relative to the base URL; "pricing/" when empty.
	PricingPath string
	// Now is the feed's updated time when it has no entries (otherwise
	// the newest entry's date is used, so the feed does not change with
	// the build date).
	Now time.Time
}

// Words are the feeds' texts, with their arguments as {0} {1} (package
// message): GuidesTitle and ChangesTitle take the site title,
// ChangesSubtitle the number of dates, Day and DayOne the number of prices
// and the date, Changed the number of changed prices.
type Words struct {
	GuidesTitle, ChangesTitle, ChangesSubtitle, Day, DayOne, Changed string
}

// English are the feeds' English texts.
var English = Words{
	GuidesTitle:     "{0}: guides",
	ChangesTitle:    "{0}: price observations and changes",
	ChangesSubtitle: "Catalog prices grouped by the date they were observed (their as-of date), newest {0} dates. An entry lists the prices read on that date; a price with an earlier observation shows what it was (a changed price), the others were observed for the first time.",
	Day:             "{0} prices observed on {1}",
	DayOne:          "{0} price observed on {1}",
	Changed:         " ({0} changed)",
}

func (o Options) words() Words {
	if o.Words.GuidesTitle == "" {
		return English
	}
	return o.Words
}

// Atom 1.0 elements.
type atomFeed struct {
	XMLName  xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	Lang     string      `xml:"xml:lang,attr,omitempty"`
	ID       string      `xml:"id"`
	Title    string      `xml:"title"`
	Subtitle string      `xml:"subtitle,omitempty"`
	Updated  string      `xml:"updated"`
	Links    []atomLink  `xml:"link"`
	Author   atomAuthor  `xml:"author"`
	Entries  []atomEntry `xml:"entry"`
}

type atomLink struct {
	Rel  string `xml:"rel,attr"`
	Type string `xml:"type,attr,omitempty"`
	Href string `xml:"href,attr"`
}

type atomAuthor struct {
	Name string `xml:"name"`
}

type atomText struct {
	Type string `xml:"type,attr,omitempty"`
	Body string `xml:",chardata"`
}

type atomCategory struct {
	Term string `xml:"term,attr"`
}

type atomEntry struct {
	ID       string        `xml:"id"`
	Title    string        `xml:"title"`
	Updated  string        `xml:"updated"`
	Link     atomLink      `xml:"link"`
	Category *atomCategory `xml:"category"`
	Summary  *atomText     `xml:"summary"`
	Content  *atomText     `xml:"content"`
}

// site resolves paths against the base URL.
type site struct {
	origin string // "https://host" or ""
	base   string // "/sub/"
}

func newSite(base string) (site, error) {
	u, err := url.Parse(base)
	if err != nil {
		return site{}, fmt.Errorf("feed: base URL: %w", err)
	}
	if u.Scheme != "" && u.Host == "" {
		return site{}, fmt.Errorf("feed: base URL %q has a scheme but no host", base)
	}
	s := site{base: u.Path}
	if u.Host != "" {
		s.origin = u.Scheme + "://" + u.Host
	}
	if !strings.HasPrefix(s.base, "/") {
		s.base = "/" + s.base
	}
	if !strings.HasSuffix(s.base, "/") {
		s.base += "/"
	}
	return s, nil
}

// link is the URL of a page path (relative to the base).
func (s site) link(p string) string { return s.origin + s.base + strings.TrimPrefix(p, "/") }

// id is the URN "urn:gpu-atlas:" + the edition + urn: the same wherever
// the site is served, and unique per edition.
func (o Options) id(urn string) string {
	if o.Edition != "" {
		return "urn:gpu-atlas:" + o.Edition + ":" + urn
	}
	return "urn:gpu-atlas:" + urn
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func defaultGuidePath(p *content.Page) string {
	if content.TopLevel(p.Section) {
		return p.Slug + "/"
	}
	return "guides/" + p.Slug + "/"
}

// Guides returns guides.atom: one entry per page, newest updated date
// first (then by title), with the page's description as summary and its
// section as category. Pages without an updated date are left out: they
// have no date to announce. Pass only the pages the feed should list.
func Guides(pages []*content.Page, o Options) ([]byte, error) {
	s, err := newSite(o.BaseURL)
	if err != nil {
		return nil, err
	}
	path := o.GuidePath
	if path == nil {
		path = defaultGuidePath
	}
	var dated []*content.Page
	for _, p := range pages {
		if !p.Updated.IsZero() {
			dated = append(dated, p)
		}
	}
	sort.SliceStable(dated, func(i, j int) bool {
		a, b := dated[i], dated[j]
		if !a.Updated.Equal(b.Updated) {
			return a.Updated.After(b.Updated)
		}
		if a.Title != b.Title {
			return a.Title < b.Title
		}
		return a.Slug < b.Slug
	})
	f := atomFeed{
		Lang:  o.Lang,
		ID:    o.id("feed:guides"),
		Title: message.Fill(o.words().GuidesTitle, []string{o.Title}, nil),
		Links: []atomLink{
			{Rel: "self", Type: "application/atom+xml", Href: s.link(GuidesPath)},
			{Rel: "alternate", Type: "text/html", Href: s.link("guides/")},
		},
		Author:  atomAuthor{Name: o.Title},
		Updated: stamp(o.Now),
	}
	for i, p := range dated {
		if i == 0 {
			f.Updated = stamp(p.Updated)
		}
		pp := path(p)
		e := atomEntry{
			ID:      o.id("guide:" + p.Slug),
			Title:   p.Title,
			Updated: stamp(p.Updated),
			Link:    atomLink{Rel: "alternate", Type: "text/html", Href: s.link(pp)},
		}
		if p.Section != "" {
			e.Category = &atomCategory{Term: p.Section}
		}
		if p.Description != "" {
			e.Summary = &atomText{Type: "text", Body: p.Description}
		}
		f.Entries = append(f.Entries, e)
	}
	return marshal(f)
}

// Observation is one price as the changes feed lists it: a dated
// observation of one price key, with the observation before it when there
// is one (then the entry is a price change).
type Observation struct {
	Provider string // provider name
	Instance string
	Offer    *catalog.Offer // the offer observed, for a caller's own wording
	Key      catalog.PriceKey
	Billing  string  // the price key as text: "on-demand", "committed 12 months in us-east-1"
	Price    float64 // as quoted, per Unit, in Currency
	Currency string
	AsOf     time.Time
	Unit     string // hour when empty
	// Prev is the previous observation of the same price key, nil for
	// the first.
	Prev *Previous
}

// Previous is the observation a price changed from.
type Previous struct {
	Price float64
	AsOf  time.Time
}

// Text is the observation's line in the feed, e.g. "Price of Lambda
// gpu_1x_h100_sxm5 (on-demand) as of 2026-09-25: 3.29 USD per hour", and
// for a change "... : 2.99 USD per hour, was 3.29 USD as of 2026-01-10
// (-9.1%)". Prices are printed exactly as the catalog holds them.
func (ob Observation) Text() string {
	unit := ob.Unit
	if unit == "" {
		unit = "hour"
	}
	s := fmt.Sprintf("Price of %s %s (%s) as of %s: %s %s per %s", ob.Provider, ob.Instance, ob.Billing,
		ob.AsOf.Format(time.DateOnly), strconv.FormatFloat(ob.Price, 'f', -1, 64), ob.Currency, unit)
	if p := ob.Prev; p != nil {
		s += fmt.Sprintf(", was %s %s as of %s", strconv.FormatFloat(p.Price, 'f', -1, 64), ob.Currency, p.AsOf.Format(time.DateOnly))
		if p.Price > 0 {
			s += fmt.Sprintf(" (%+.1f%%)", (ob.Price-p.Price)/p.Price*100)
		}
	}
	return s
}

// Changed reports whether the observation changes an earlier price.
func (ob Observation) Changed() bool { return ob.Prev != nil && ob.Prev.Price != ob.Price }

// Day is the price observations of one date.
type Day struct {
	Date         time.Time
	Observations []Observation
}

// Changes counts the day's observations that change an earlier price.
func (d Day) Changes() int {
	n := 0
	for _, ob := range d.Observations {
		if ob.Changed() {
			n++
		}
	}
	return n
}

// Observations groups every price observation of c by its as_of date,
// newest date first, keeping at most limit dates (all when limit <= 0).
// Within a date, observations are in catalog order (offers by provider
// then file order, prices in file order). An observation with an earlier
// one of the same price key carries it as Prev.
func Observations(c *catalog.Catalog, limit int) []Day {
	by := map[time.Time][]Observation{}
	for _, o := range c.Offers {
		hist := o.Histories()
		for _, p := range o.Prices {
			d := time.Date(p.AsOf.Year(), p.AsOf.Month(), p.AsOf.Day(), 0, 0, 0, 0, time.UTC)
			ob := Observation{Offer: o, Provider: o.Provider.Name, Instance: o.Instance, Key: p.Key(), Billing: p.Key().String(),
				Price: p.Price, Currency: o.Currency, AsOf: d, Unit: p.Unit}
			for _, h := range hist[p.Key()] {
				if h.AsOf.Before(p.AsOf) {
					ob.Prev = &Previous{Price: h.Price, AsOf: h.AsOf}
				}
			}
			by[d] = append(by[d], ob)
		}
	}
	days := make([]Day, 0, len(by))
	for d, obs := range by {
		days = append(days, Day{Date: d, Observations: obs})
	}
	sort.Slice(days, func(i, j int) bool { return days[i].Date.After(days[j].Date) })
	if limit > 0 && len(days) > limit {
		days = days[:limit]
	}
	return days
}

// Changes returns changes.atom: one entry per date on which catalog
// prices were observed (their as_of date), newest MaxChangeDates dates
// first, each listing that date's prices; a price with an earlier
// observation of the same key is listed as a change from it (old -> new,
// both dates), and the entry's title counts the changes.
func Changes(c *catalog.Catalog, o Options) ([]byte, error) {
	s, err := newSite(o.BaseURL)
	if err != nil {
		return nil, err
	}
	pricing := o.PricingPath
	if pricing == "" {
		pricing = "pricing/"
	}
	w, describe := o.words(), o.Describe
	if describe == nil {
		describe = Observation.Text
	}
	f := atomFeed{
		Lang:     o.Lang,
		ID:       o.id("feed:changes"),
		Title:    message.Fill(w.ChangesTitle, []string{o.Title}, nil),
		Subtitle: message.Fill(w.ChangesSubtitle, []string{strconv.Itoa(MaxChangeDates)}, nil),
		Links: []atomLink{
			{Rel: "self", Type: "application/atom+xml", Href: s.link(ChangesPath)},
			{Rel: "alternate", Type: "text/html", Href: s.link(pricing)},
		},
		Author:  atomAuthor{Name: o.Title},
		Updated: stamp(o.Now),
	}
	for i, d := range Observations(c, MaxChangeDates) {
		day := d.Date.Format(time.DateOnly)
		if i == 0 {
			f.Updated = stamp(d.Date)
		}
		var b strings.Builder
		b.WriteString("<ul>")
		for _, ob := range d.Observations {
			b.WriteString("<li>" + html.EscapeString(describe(ob)) + "</li>")
		}
		b.WriteString("</ul>")
		format := w.Day
		if len(d.Observations) == 1 {
			format = w.DayOne
		}
		title := message.Fill(format, []string{strconv.Itoa(len(d.Observations)), day}, nil)
		if n := d.Changes(); n > 0 {
			title += message.Fill(w.Changed, []string{strconv.Itoa(n)}, nil)
		}
		id := o.id("prices:" + day)
		f.Entries = append(f.Entries, atomEntry{
			ID:      id,
			Title:   title,
			Updated: stamp(d.Date),
			Link:    atomLink{Rel: "alternate", Type: "text/html", Href: s.link(pricing)},
			Content: &atomText{Type: "html", Body: b.String()},
		})
	}
	return marshal(f)
}

func marshal(f atomFeed) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", " ")
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}
