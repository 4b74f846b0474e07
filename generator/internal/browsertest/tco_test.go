package browsertest

import (
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
)

// tcoFields are the TCO form's controls besides the offer, in form order.
var tcoFields = []string{"util", "job", "storage", "egress", "ips"}

type tcoCase struct {
	name  string
	offer *catalog.Offer
	set   map[string]string // util, job, storage, egress, ips
}

// tcoShown is what the result section shows.
type tcoShown struct {
	Title     string     `json:"title"`
	Caption   string     `json:"caption"`
	Rows      [][]string `json:"rows"`
	BreakEven string     `json:"breakEven"`
	Missing   string     `json:"missing"`
	Region    string     `json:"region"`
	Labels    []string   `json:"labels"` // the line labels the page's data gives the offer (from the Go build)
	// Dates are each line's price date: "2026-01-21", or
	// "stale 2023-06-30" where the line is badged stale.
	Dates []string `json:"dates"`
	Form  map[string]string
}

func readTCO(b *Browser) tcoShown {
	b.t.Helper()
	var s tcoShown
	b.Eval(`(() => {
		const t = document.getElementById("t-result");
		const form = {};
		for (const el of document.getElementById("tco").elements) if (el.name) form[el.name] = el.value;
		return {
			title: document.getElementById("t-title").textContent.trim(),
			caption: t.caption.textContent.trim(),
			// A row header is the line's label, then its price's date.
			rows: [...t.tBodies[0].rows].map((r) => [...r.cells].map((c, i) => (i === 0 ? c.firstChild.textContent : c.textContent).trim())),
			dates: [...t.tBodies[0].rows].map((r) => {
				const time = r.cells[0].querySelector(".sub time[datetime]");
				return (r.cells[0].querySelector(".sub .badge.stale") ? "stale " : "") + (time ? time.dateTime : "no date");
			}),
			breakEven: document.getElementById("t-breakeven").textContent.trim(),
			missing: document.getElementById("t-missing").textContent.trim(),
			region: document.getElementById("t-region").textContent.trim(),
			labels: JSON.parse(document.getElementById("tco-data").textContent).offers[form.offer].labels,
			Form: form,
		};
	})()`, &s)
	return s
}

// wantTCO is what the page must show for the case: derive.TCO's result,
// formatted as static/js/tco.js formats it.
func wantTCO(t *testing.T, cat *catalog.Catalog, now time.Time, c tcoCase, labels []string) tcoShown {
	t.Helper()
	util := min(max(atof(t, c.set["util"]), 0), 100) / 100
	ips, err := strconv.Atoi(c.set["ips"])
	if err != nil {
		t.Fatal(err)
	}
	in := derive.TCOInput{Utilisation: util, JobHours: atof(t, c.set["job"]), StorageGB: atof(t, c.set["storage"]),
		EgressGB: atof(t, c.set["egress"]), PublicIPs: ips}
	fx := &cat.FX
	res := derive.TCO(c.offer, in, fx)
	o := c.offer
	cur := o.Currency
	w := tcoShown{
		Title:   o.Provider.Name + " " + o.Instance + " (" + render.Num(float64(o.GPUCount)) + "× " + o.GPU.Name + ")",
		Caption: "Monthly cost in " + cur + " (730 hours a month; committed capacity is paid for every hour)",
		Form:    map[string]string{"offer": o.ID},
	}
	for k, v := range c.set {
		w.Form[k] = v
	}
	var notes []string
	if len(labels) != len(res.Lines) {
		t.Fatalf("derive.TCO gives lines %+v; the page's data labels %q", res.Lines, labels)
	}
	for i, l := range res.Lines {
		label := labels[i]
		if !strings.HasPrefix(label, map[string]string{"on-demand": "On-demand", "committed": "Committed", "spot": "Spot"}[l.Billing]) {
			t.Errorf("line %d (%s) is labelled %q", i, l.Billing, label)
		}
		extras, total := jsMoney(l.Extras, cur), jsMoney(l.Total, cur)
		if len(res.Missing) > 0 {
			// A cost not recorded is said, and the total is a lower bound.
			extras, total = "not recorded", "at least "+total
			if l.Extras > 0 {
				extras = jsMoney(l.Extras, cur) + " + not recorded"
			}
		}
		w.Rows = append(w.Rows, []string{label, total, jsMoney(l.Compute, cur), extras, jsToFixed(l.BilledHours, 1)})
		date := l.AsOf.Format(time.DateOnly)
		if !cat.Site.Staleness.CurrentAt(l.AsOf, now) {
			date = "stale " + date
		}
		w.Dates = append(w.Dates, date)
		if l.HasBreakEven {
			notes = append(notes, label+" is cheaper than on-demand above "+jsToFixed(l.BreakEven*100, 0)+" % utilisation.")
		}
	}
	w.BreakEven = strings.Join(notes, " ")
	if len(notes) == 0 {
		w.BreakEven = "This offer has no committed price (reserved instance, savings plan, committed-use discount, subscription) in the catalog, so there is no break-even to show."
	}
	w.Labels = labels
	if len(res.Missing) > 0 {
		w.Missing = "Not recorded for this provider, so not counted: " + strings.Join(res.Missing, ", ") + "."
	}
	return w
}

// runTCO opens /tco/?offer=, fills the form and compares the result with
// derive.TCO; then the URL, and the same after reloading it.
func runTCO(t *testing.T, b *Browser, cat *catalog.Catalog, now time.Time, c tcoCase) {
	t.Helper()
	b.Navigate("tco/?offer=" + url.QueryEscape(c.offer.ID))
	if got := readTCO(b).Form["offer"]; got != c.offer.ID {
		t.Fatalf("/tco/?offer=%s selects the offer %q", c.offer.ID, got)
	}
	for _, name := range tcoFields {
		b.SetValue("#t-"+name, c.set[name])
	}
	q := "?offer=" + url.QueryEscape(c.offer.ID)
	for _, name := range tcoFields {
		q += "&" + name + "=" + url.QueryEscape(c.set[name])
	}
	b.Poll("location.search === "+jsStr(q), "location.search")
	want := wantTCO(t, cat, now, c, readTCO(b).Labels)
	check := func(when string) {
		t.Helper()
		got := readTCO(b)
		if region := derive.TCODefaultRegion(c.offer); region != "" && !strings.Contains(got.Region, region) {
			t.Errorf("%s: region line %q does not name the region priced, %s", when, got.Region, region)
		}
		if got.Title != want.Title || got.Caption != want.Caption {
			t.Errorf("%s: title %q, caption %q; want %q, %q", when, got.Title, got.Caption, want.Title, want.Caption)
		}
		if !slices.EqualFunc(got.Rows, want.Rows, slices.Equal) {
			t.Errorf("%s: the result table\n%q\nwant (derive.TCO)\n%q", when, got.Rows, want.Rows)
		}
		if !slices.Equal(got.Dates, want.Dates) {
			t.Errorf("%s: the lines' price dates %q, want %q", when, got.Dates, want.Dates)
		}
		if got.BreakEven != want.BreakEven {
			t.Errorf("%s: break-even %q, want %q", when, got.BreakEven, want.BreakEven)
		}
		if got.Missing != want.Missing {
			t.Errorf("%s: missing costs %q, want %q", when, got.Missing, want.Missing)
		}
		if !mapsEqual(got.Form, want.Form) {
			t.Errorf("%s: the form holds %v, want %v", when, got.Form, want.Form)
		}
	}
	check("after filling the form")
	loc := b.Location()
	if u, _ := url.Parse(loc); "?"+u.RawQuery != q {
		t.Errorf("URL %s, want the query %s", loc, q)
	}
	b.Navigate(loc)
	check("after reloading " + loc)
}

// hasCosts reports whether the provider data records hidden costs.
func hasCosts(p *catalog.Provider) bool { return p.HiddenCosts != nil || len(p.ExtraCosts) > 0 }

// hasPrices reports whether the offer is priced in every mode given.
func hasPrices(o *catalog.Offer, modes ...string) bool {
	for _, m := range modes {
		if _, ok := o.Price(m); !ok {
			return false
		}
	}
	return true
}

// TestTCO sets a usage pattern on the cost page for offers of the real
// catalog and compares the monthly costs, break-even and missing hidden
// costs with derive.TCO.
func TestTCO(t *testing.T) {
	t.Parallel()
	base := Site(t)
	g := loadCatalog(t)
	// An offer with on-demand and reserved prices shows a break-even; the
	// catalog may have none, then an offer with on-demand and spot prices.
	pick := func(ok func(*catalog.Offer) bool) *catalog.Offer {
		for _, o := range g.cat.Offers {
			if ok(o) {
				return o
			}
		}
		return nil
	}
	reserved := pick(func(o *catalog.Offer) bool {
		return hasPrices(o, "on-demand", "committed") && derive.TCO(o, derive.TCOInput{}, &g.cat.FX).Lines[0].Billing == "on-demand"
	})
	hidden := pick(func(o *catalog.Offer) bool {
		return hasPrices(o, "on-demand", "spot") && hasCosts(o.Provider)
	})
	if hidden == nil {
		hidden = pick(func(o *catalog.Offer) bool { return hasPrices(o, "on-demand") && hasCosts(o.Provider) })
	}
	minimum := pick(func(o *catalog.Offer) bool {
		return hasPrices(o, "on-demand", "spot") && o.Provider.Billing.MinimumSeconds != nil && !hasCosts(o.Provider)
	})
	foreign := pick(func(o *catalog.Offer) bool { return o.Currency != g.cat.FX.Base })
	// An address charged only while idle (Tencent's EIP is free while
	// bound to a running instance).
	idle := pick(func(o *catalog.Offer) bool {
		r := derive.TCORatesIn(o, derive.TCODefaultRegion(o), &g.cat.FX)
		return hasPrices(o, "on-demand") && slices.ContainsFunc(r.Addresses, func(a derive.AddressRate) bool { return a.On == "idle" })
	})
	var cases []tcoCase
	if idle != nil {
		cases = append(cases,
			tcoCase{"always on, address bound all month: " + idle.ID, idle, map[string]string{"util": "100", "job": "0", "storage": "0", "egress": "0", "ips": "1"}},
			tcoCase{"half the month, address idle the rest: " + idle.ID, idle, map[string]string{"util": "50", "job": "0", "storage": "0", "egress": "0", "ips": "2"}})
	}
	if reserved != nil {
		cases = append(cases, tcoCase{"on-demand and reserved: " + reserved.ID, reserved,
			map[string]string{"util": "65", "job": "24", "storage": "1000", "egress": "250", "ips": "1"}})
	} else {
		t.Logf("no offer of the catalog has a committed price: the break-even is tested on a fixture copy (TestTCOBreakEven)")
	}
	if hidden != nil {
		cases = append(cases, tcoCase{"hidden costs recorded: " + hidden.ID, hidden,
			map[string]string{"util": "37", "job": "2.5", "storage": "200", "egress": "1000", "ips": "2"}})
	}
	if minimum != nil {
		cases = append(cases,
			tcoCase{"short runs under the minimum charge, no hidden costs recorded: " + minimum.ID, minimum,
				map[string]string{"util": "20", "job": "0.01", "storage": "50", "egress": "0", "ips": "0"}},
			tcoCase{"no extras, utilisation above 100 is clamped: " + minimum.ID, minimum,
				map[string]string{"util": "120", "job": "0", "storage": "0", "egress": "0", "ips": "0"}})
	}
	if foreign != nil {
		cases = append(cases, tcoCase{"an offer quoted in " + foreign.Currency + ": " + foreign.ID, foreign,
			map[string]string{"util": "80", "job": "12", "storage": "300", "egress": "500", "ips": "1"}})
	}
	if len(cases) < 2 {
		t.Fatalf("the catalog has too few offers for the cases (reserved %v, hidden costs %v, minimum charge %v)", reserved != nil, hidden != nil, minimum != nil)
	}
	browser := New(t, base)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			runTCO(t, browser.For(t), g.cat, g.now, c)
		})
	}
}

// TestTCOBreakEven runs the cost page on a copy of the fixture whose
// offer has reserved prices, for the break-even the real catalog may lack.
func TestTCOBreakEven(t *testing.T) {
	t.Parallel()
	root, base := BuildFixtureCopy(t, func(root string) {
		p := filepath.Join(root, "data", "offers", "acme.toml")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		const after = "dataset = \"demo-set\"\n"
		if !strings.Contains(string(b), after) {
			t.Fatalf("%s has no %q to add the reserved prices after", p, after)
		}
		s := strings.Replace(string(b), after, after+`
[[offers.prices]]
billing = "reserved-1y"
price = 26.0
as_of = 2025-06-01
source = "https://acme.example/reserved"

[[offers.prices]]
billing = "reserved-3y"
price = 17.5
as_of = 2025-06-01
source = "https://acme.example/reserved"
`, 1)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	cat, d := catalog.Load(root, testcat.FixtureNow)
	if cat == nil || d.HasErrors() {
		var b strings.Builder
		d.Print(&b)
		t.Fatalf("loading the fixture copy:\n%s", b.String())
	}
	var offer *catalog.Offer
	for _, o := range cat.Offers {
		if hasPrices(o, "on-demand", "reserved-1y", "reserved-3y", "spot") {
			offer = o
		}
	}
	if offer == nil {
		t.Fatal("the fixture copy has no offer with on-demand, reserved and spot prices")
	}
	b := New(t, base)
	for _, c := range []tcoCase{
		{"half the month", offer, map[string]string{"util": "50", "job": "8", "storage": "500", "egress": "100", "ips": "1"}},
		{"around the clock", offer, map[string]string{"util": "100", "job": "730", "storage": "0", "egress": "2000", "ips": "0"}},
	} {
		t.Run(c.name, func(t *testing.T) { runTCO(t, b.For(t), cat, testcat.FixtureNow, c) })
	}
}

// TestTCOOfferFilter, in both editions: the filter above the offer list
// keeps the options whose label holds every word typed and the chosen
// one, counts them, and changes neither the chosen offer nor the figures.
func TestTCOOfferFilter(t *testing.T) {
	t.Parallel()
	base := Site(t)
	b := New(t, base)
	type state struct {
		Chosen, Total, ChosenLabel string
		Labels                     []string
		Count                      string
		Shown                      bool
	}
	read := func() state {
		var s state
		b.Eval(`(() => { const sel = document.getElementById("t-offer");
			return {Chosen: sel.value, ChosenLabel: sel.selectedOptions[0].textContent, Total: document.querySelector("#t-result td.total").textContent,
				Labels: [...sel.options].map((o) => o.textContent),
				Count: document.getElementById("t-filter-count").textContent,
				Shown: !document.getElementById("t-filter-box").hasAttribute("data-needs-js") && getComputedStyle(document.getElementById("t-filter-box")).visibility === "visible"}; })()`, &s)
		return s
	}
	for _, page := range []string{"tco/", "zh/tco/"} {
		b.Navigate(page)
		before := read()
		if !before.Shown || len(before.Labels) < 3 {
			t.Fatalf("/%s: filter shown %v, %d offers; want the filter and at least 3 offers", page, before.Shown, len(before.Labels))
		}
		// A word of the last option's label that the chosen one lacks.
		word := ""
		for _, w := range strings.Fields(before.Labels[len(before.Labels)-1]) {
			if !strings.Contains(strings.ToLower(before.ChosenLabel), strings.ToLower(w)) && len(w) > 2 {
				word = w
				break
			}
		}
		if word == "" {
			t.Fatalf("/%s: no word to filter by in %q", page, before.Labels)
		}
		b.SetValue("#t-filter", word)
		after := read()
		if after.Chosen != before.Chosen || after.Total != before.Total {
			t.Errorf("/%s: filtering changed the offer (%s -> %s) or its total (%s -> %s)", page, before.Chosen, after.Chosen, before.Total, after.Total)
		}
		if len(after.Labels) >= len(before.Labels) || after.Count == "" {
			t.Errorf("/%s: %q kept %d of %d options, count %q", page, word, len(after.Labels), len(before.Labels), after.Count)
		}
		for _, l := range after.Labels {
			if !strings.Contains(strings.ToLower(l), strings.ToLower(word)) && l != before.ChosenLabel {
				t.Errorf("/%s: %q kept %q", page, word, l)
			}
		}
		b.SetValue("#t-filter", "")
		if again := read(); len(again.Labels) != len(before.Labels) || again.Count != "" {
			t.Errorf("/%s: clearing the filter left %d of %d options, count %q", page, len(again.Labels), len(before.Labels), again.Count)
		}
	}
}
