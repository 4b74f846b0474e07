// Package search builds the site's search index at build time: a compact
// JSON array of entries (GPUs, providers, instances, model presets and
// guides) that static/js/search.js fetches and ranks in the browser. It
// performs no I/O.
package search

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"html/template"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/content"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/message"
)

// IndexPath is where the index is served, relative to the site root. The
// search input's data-index attribute names its URL.
const IndexPath = "search/index.json"

// Kinds of entries.
const (
	KindGPU      = "gpu"
	KindProvider = "provider"
	KindOffer    = "offer"
	KindModel    = "model"
	KindGuide    = "guide"
	// UnpricedProvider is the KindKeywords key of a provider with no
	// offers.
	UnpricedProvider = "provider-unpriced"
)

// Entry is one searchable page. The JSON keys are one letter to keep the
// index small.
type Entry struct {
	// Title is what is shown and ranked first.
	Title string `json:"t"`
	// URL is the page path relative to the base URL, e.g.
	// "gpus/h100-sxm5-80gb/".
	URL string `json:"u"`
	// Kind is one of the Kind constants (or the caller's own, for Extra).
	Kind string `json:"k"`
	// Summary is a short line shown under the title, ranked last.
	Summary string `json:"s,omitempty"`
	// Keywords are extra lowercase words, space-separated, ranked after
	// the title: words already in the title or summary are left out.
	Keywords string `json:"x,omitempty"`
	// Aliases are other names of what the title names, ranked as the
	// title: the edition's rendering of a glossary term in it ("昇腾" for
	// "Ascend 910B").
	Aliases string `json:"a,omitempty"`
	// Related are words of terms the summary names, ranked as the summary.
	Related string `json:"w,omitempty"`
	// SummaryLang is the summary's language when it is not the edition's
	// (a provider description with no version in it yet: "en"), so the
	// page marks it.
	SummaryLang string `json:"l,omitempty"`
	// Body is the distinct words of a guide's text not already in the
	// fields above, ranked last: a guide is found by what it says
	// ("AutoDL", "vLLM") without outranking the pages about it.
	Body string `json:"b,omitempty"`
}

// Input is what the index is built from.
type Input struct {
	Catalog *catalog.Catalog
	// Pages are the guides (and other content pages) to index.
	Pages []*content.Page
	// GuidePath returns a page's path relative to the base URL. When nil,
	// pages of top-level sections are at "<slug>/", others at
	// "guides/<slug>/".
	GuidePath func(*content.Page) string
	// Extra entries are appended as given (e.g. the calculator page).
	Extra []Entry
	// Lang is the edition's language code; for one other than English,
	// entries are localized (see localize) with Glossary and KindKeywords.
	Lang string
	// Glossary is the site's glossary (data/glossary.toml).
	Glossary []catalog.Term
	// KindKeywords are extra keywords for every entry of a kind, in the
	// edition's language (a GPU page is about its "价格", say); a provider
	// with no offers gets those of UnpricedProvider instead (it has no
	// prices to find).
	KindKeywords map[string]string
	// Now dates an offer's price in its summary; with it, a price older
	// than the catalog's stale_days is not the one summarised when a
	// current one exists, and says its date either way.
	Now time.Time
	// Phrasing writes the summaries of offers and models in the edition's
	// language (English when a field is empty).
	Phrasing Phrasing
}

// Phrasing is the formats of the generated summaries (package message):
// Billing labels a billing mode ("on-demand": "按量计费"); Price is
// "{0} {1} {2}/h" (mode, price, currency); Params, Active and Context take
// a figure ("{0} parameters", "{0} active", "{0} context").
type Phrasing struct {
	Billing                        map[string]string
	Price, Params, Active, Context string
	// Date writes a price's date in the edition's style (ISO when nil).
	Date func(time.Time) string
}

func (w Phrasing) date(t time.Time) string {
	if w.Date == nil {
		return t.Format(time.DateOnly)
	}
	return w.Date(t)
}

func (w Phrasing) or(f, def string) string {
	if f == "" {
		return def
	}
	return f
}

func defaultGuidePath(p *content.Page) string {
	if content.TopLevel(p.Section) {
		return p.Slug + "/"
	}
	return "guides/" + p.Slug + "/"
}

// Index returns the index as a JSON array of entries (see Entries).
func Index(in Input) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	entries := Entries(in)
	if entries == nil {
		entries = []Entry{}
	}
	if err := enc.Encode(entries); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Entries returns the index entries in a fixed order: GPUs, providers,
// offers (one per instance) and model presets in catalog order, then the
// pages in the order given, then Extra.
func Entries(in Input) []Entry {
	var out []Entry
	if c := in.Catalog; c != nil {
		for _, g := range c.GPUs {
			out = append(out, gpuEntry(g, in.Lang))
		}
		for _, p := range c.Providers {
			out = append(out, providerEntry(p, in.Lang))
		}
		for _, o := range c.Offers {
			out = append(out, offerEntry(o, in.Lang, in.Phrasing, in.Now, c.Site.Staleness))
		}
		for _, m := range c.Models {
			out = append(out, modelEntry(m, in.Phrasing))
		}
	}
	path := in.GuidePath
	if path == nil {
		path = defaultGuidePath
	}
	for _, p := range in.Pages {
		var hs []string
		for _, h := range p.Headings {
			hs = append(hs, h.Text)
		}
		e := entry(p.Title, path(p), KindGuide, p.Description, append(hs, p.Section)...)
		e.Body = bodyWords(pageText(p.HTML), e.Title+" "+e.Summary+" "+e.Keywords)
		out = append(out, e)
	}
	return localize(append(out, in.Extra...), in)
}

// entry builds an entry, reducing the keyword texts to the distinct
// words of two or more characters that are neither in the title or
// summary nor stop words.
func entry(title, url, kind, summary string, keywords ...string) Entry {
	seen := map[string]bool{}
	for _, w := range Words(title + " " + summary) {
		seen[w] = true
	}
	var kw []string
	for _, k := range keywords {
		for _, w := range Words(k) {
			if !seen[w] && len([]rune(w)) > 1 && !stopWord(w) {
				seen[w] = true
				kw = append(kw, w)
			}
		}
	}
	return Entry{Title: title, URL: url, Kind: kind, Summary: summary, Keywords: strings.Join(kw, " ")}
}

// bodyWords is the distinct words of text (two or more characters, no
// stop words) that seen does not hold, space-separated.
func bodyWords(text, seen string) string {
	have := map[string]bool{}
	for _, w := range Words(seen) {
		have[w] = true
	}
	var out []string
	for _, w := range Words(text) {
		if !have[w] && len([]rune(w)) > 1 && !stopWord(w) {
			have[w] = true
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

// Words splits s into lowercase words at every character that is not a
// letter or digit, as search.js does.
func Words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
}

func stopWord(w string) bool {
	switch w {
	case "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "how", "in", "is", "it",
		"its", "not", "of", "on", "or", "than", "that", "the", "this", "to", "what", "when", "which", "why", "with", "you", "your":
		return true
	}
	return false
}

func join(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " · ")
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func gpuEntry(g *catalog.GPU, lang string) Entry {
	year := ""
	if g.ReleaseYear > 0 {
		year = strconv.Itoa(g.ReleaseYear)
	}
	s := join(g.Vendor+" "+g.Architecture, num(g.MemoryGB)+" GB "+g.MemoryType, g.FormFactor, year)
	return entry(g.LocalName(lang), "gpus/"+g.ID+"/", KindGPU, s, g.ID, g.Segment, g.Interconnect.Kind, g.ExportVariantOf)
}

// providerEntry describes a provider in the edition's language: its local
// name and description (the English name stays a keyword).
func providerEntry(p *catalog.Provider, lang string) Entry {
	kw := []string{p.ID, p.Name, p.Kind, p.Country}
	for _, r := range p.Regions {
		kw = append(kw, r.City, r.Country)
	}
	e := entry(p.LocalName(lang), "providers/"+p.ID+"/", KindProvider, short(p.DescriptionIn(lang), 110), kw...)
	if lang != "" && e.Summary != "" && !catalog.WrittenIn(e.Summary, lang) {
		e.SummaryLang = strings.SplitN(catalog.TextLang(e.Summary), "-", 2)[0]
	}
	return e
}

// offerEntry describes an instance: its GPUs, memory and cheapest current
// price (on-demand when it has one; a stale one only when it has no
// current price), exactly as the catalog holds it, with its date.
func offerEntry(o *catalog.Offer, lang string, w Phrasing, now time.Time, st catalog.Staleness) Entry {
	price := ""
	if cur := o.Current(); len(cur) > 0 {
		best := -1
		rank := func(p catalog.Price) int {
			r := 0
			if !st.CurrentAt(p.AsOf, now) {
				r += 2
			}
			if p.Billing != "on-demand" {
				r++
			}
			return r
		}
		for i, p := range cur {
			if best < 0 || rank(p) < rank(cur[best]) || (rank(p) == rank(cur[best]) && p.Hourly() < cur[best].Hourly()) {
				best = i
			}
		}
		p := cur[best]
		mode := p.Billing
		if l := w.Billing[mode]; l != "" {
			mode = l
		}
		price = message.Fill(w.or(w.Price, "{0} {1} {2}/h"), []string{mode, num(p.Price), o.Currency}, nil) + " (" + w.date(p.AsOf) + ")"
	}
	s := join(fmt.Sprintf("%d× %s", o.GPUCount, o.GPU.LocalName(lang)), num(o.VRAMTotalGB)+" GB", price)
	kw := []string{o.GPU.ID}
	for _, p := range o.Prices {
		kw = append(kw, p.Billing)
	}
	kw = append(kw, o.Provider.Name)
	return entry(o.Provider.LocalName(lang)+" "+o.Instance, "providers/"+o.Provider.ID+"/", KindOffer, s, kw...)
}

func modelEntry(m *catalog.Model, w Phrasing) Entry {
	params := message.Fill(w.or(w.Params, "{0} parameters"), []string{Params(m.Params)}, nil)
	if m.ActiveParams > 0 {
		params += " (" + message.Fill(w.or(w.Active, "{0} active"), []string{Params(m.ActiveParams)}, nil) + ")"
	}
	s := join(m.Family, params, message.Fill(w.or(w.Context, "{0} context"), []string{strconv.Itoa(m.MaxContext)}, nil))
	kw := []string{m.ID}
	if m.Experts > 0 {
		kw = append(kw, "moe mixture of experts")
	}
	return entry(m.Name, "models/"+m.ID+"/", KindModel, s, kw...)
}

// Params formats a parameter count with three significant digits:
// 46.7B, 6.74B, 1.56B, 405B, 335M.
func Params(n int64) string {
	f := func(v float64, unit string) string {
		d := 0
		switch {
		case v < 10:
			d = 2
		case v < 100:
			d = 1
		}
		return strconv.FormatFloat(v, 'f', d, 64) + unit
	}
	switch {
	case n >= 1e9:
		return f(float64(n)/1e9, "B")
	case n >= 1e6:
		return f(float64(n)/1e6, "M")
	}
	return strconv.FormatInt(n, 10)
}

// short cuts s to at most n characters at a word boundary, adding "…".
func short(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := string(r[:n])
	if i := strings.LastIndexByte(cut, ' '); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:.") + "…"
}

// pageText is the text of a page's HTML: its tags dropped and its
// entities decoded, for the index's keywords.
func pageText(h template.HTML) string {
	var b strings.Builder
	in := false
	for _, r := range string(h) {
		switch {
		case r == '<':
			in = true
			b.WriteByte(' ')
		case r == '>':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return html.UnescapeString(b.String())
}
