package browsertest

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/pages"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/site"
)

// pricingGo is what the pricing page must show, computed in Go from the
// catalog the build read, on the build's date (site.Today, as BuildRepo).
type pricingGo struct {
	cat  *catalog.Catalog
	dd   *derive.Data
	rows []*derive.Row // every price row in the page's order: cheapest per GPU-hour first, then by offer id
}

func loadPricing(t *testing.T) pricingGo {
	t.Helper()
	now, err := site.Today()
	if err != nil {
		t.Fatal(err)
	}
	cat, d := catalog.Load(testcat.RepoRoot(), now)
	if cat == nil || d.HasErrors() {
		var b strings.Builder
		d.Print(&b)
		t.Fatalf("loading the catalog:\n%s", b.String())
	}
	dd := derive.New(cat, now)
	rows := slices.Clone(dd.Rows)
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].PerGPUDC != rows[j].PerGPUDC {
			return rows[i].PerGPUDC < rows[j].PerGPUDC
		}
		return rows[i].Offer.ID < rows[j].Offer.ID
	})
	if dd.Currency != pricingDefaults["cur"] {
		t.Fatalf("the display currency is %s: update pricingDefaults", dd.Currency)
	}
	if len(rows) <= pages.PricingLimit {
		t.Fatalf("the catalog has %d price rows, not more than the %d /pricing/ shows first: the tests of the rest would test nothing", len(rows), pages.PricingLimit)
	}
	return pricingGo{cat: cat, dd: dd, rows: rows}
}

// rate is what one unit of the display currency is worth in cur (the
// page's data-fx, from data/fx.toml).
func (g pricingGo) rate(t *testing.T, cur string) float64 {
	t.Helper()
	r, ok := g.cat.FX.Convert(1, g.dd.Currency, cur)
	if !ok {
		t.Fatalf("no exchange rate for %s", cur)
	}
	return r
}

// rowKey names a price row as its data-key does: the offer, the price's
// key (billing, unit, term, region) and its date.
func rowKey(r *derive.Row) string {
	return r.Offer.ID + " " + r.Price.Key().String() + " " + r.Price.AsOf.Format(time.DateOnly)
}

func rowKeys(rows []*derive.Row) []string {
	var keys []string
	for _, r := range rows {
		keys = append(keys, rowKey(r))
	}
	return keys
}

// pricingControls are the names of the filter form's controls, in the
// order of the form (and of the query string the page writes).
var pricingControls = []string{"gpu", "vendor", "form", "min-vram", "count", "provider", "country", "region", "billing", "ic", "evidence", "max-price", "sort", "dir", "cur"}

// pricingDefaults are the values the page leaves out of the URL.
var pricingDefaults = map[string]string{"sort": "pergpu", "dir": "asc", "cur": "USD"}

// pricingQuery is the query string (with its "?", or "" for none) the page
// writes for the form values, in form order.
func pricingQuery(set map[string]string, all bool) string {
	var parts []string
	for _, name := range pricingControls {
		if v := set[name]; v != "" && v != pricingDefaults[name] {
			parts = append(parts, url.QueryEscape(name)+"="+url.QueryEscape(v))
		}
	}
	if all {
		parts = append(parts, "all=1")
	}
	if len(parts) == 0 {
		return ""
	}
	return "?" + strings.Join(parts, "&")
}

// filter returns the rows that match the form values, in the page's
// order (the static/js/pricing.js rules: facets equal, min VRAM, max price
// per GPU-hour in the chosen currency).
func (g pricingGo) filter(t *testing.T, set map[string]string) []*derive.Row {
	t.Helper()
	cur := set["cur"]
	if cur == "" {
		cur = g.dd.Currency
	}
	rate := g.rate(t, cur)
	var out []*derive.Row
	for _, r := range g.rows {
		o := r.Offer
		ok := true
		for name, v := range set {
			switch name {
			case "gpu":
				ok = ok && o.GPU.ID == v
			case "vendor":
				ok = ok && o.GPU.Vendor == v
			case "provider":
				ok = ok && o.Provider.ID == v
			case "billing":
				ok = ok && r.Price.Billing == v
			case "count":
				ok = ok && strconv.Itoa(o.GPUCount) == v
			case "evidence": // the checkbox "first-party prices only"
				ok = ok && strings.HasPrefix(r.Evidence, "first-party")
			case "region":
				ok = ok && slices.Contains(r.Regions, v)
			case "country":
				ok = ok && slices.Contains(r.Countries, v)
			case "min-vram":
				ok = ok && o.VRAMPerGPUGB >= atof(t, v)
			case "max-price":
				ok = ok && r.PerGPUDC*rate <= atof(t, v)
			case "sort", "dir", "cur":
			default:
				t.Fatalf("the test does not know the filter %q", name)
			}
		}
		if ok {
			out = append(out, r)
		}
	}
	return out
}

// shownText is the #shown line the script writes for n visible rows.
func (g pricingGo) shownText(n int, filtering bool, matches int) string {
	total := len(g.rows)
	if n == total {
		return fmt.Sprintf("%d offers shown", n)
	}
	s := fmt.Sprintf("%d of %d prices shown", n, total)
	if filtering && matches != n {
		s += fmt.Sprintf(" (%d match the filters)", matches)
	}
	return s
}

// pageRow is a visible row of #prices as the page shows it.
type pageRow struct {
	Key        string            `json:"key"`
	Data       map[string]string `json:"data"`
	Inst       string            `json:"inst"`       // the quoted price per instance-hour
	PerGPU     string            `json:"pergpu"`     // the quoted price per GPU-hour
	InstConv   string            `json:"instConv"`   // its converted line, "" for none
	PerGPUConv string            `json:"pergpuConv"` // its converted line, "" for none
}

// visibleRows reads the rows of #prices that are rendered (not hidden), in
// order, and checks that every row is either hidden or rendered.
func visibleRows(t *testing.T, b *Browser) []pageRow {
	t.Helper()
	var res struct {
		Rows     []pageRow `json:"rows"`
		Unhidden int       `json:"unhidden"`
	}
	b.Eval(`(() => {
		const body = document.querySelector("#prices tbody");
		const conv = (c) => { const e = c.querySelector(".conv"); return e ? e.textContent.trim() : ""; };
		const rows = [...body.rows].filter((r) => r.getClientRects().length > 0).map((r) => ({
			key: r.dataset.key,
			data: Object.assign({}, r.dataset),
			inst: r.querySelector(".c-price").firstChild.textContent.trim(),
			pergpu: r.querySelector(".c-pergpu").firstChild.textContent.trim(),
			instConv: conv(r.querySelector(".c-price")),
			pergpuConv: conv(r.querySelector(".c-pergpu")),
		}));
		return {rows, unhidden: [...body.rows].filter((r) => !r.hidden).length};
	})()`, &res)
	if res.Unhidden != len(res.Rows) {
		t.Errorf("%d rows are not hidden but %d are rendered", res.Unhidden, len(res.Rows))
	}
	return res.Rows
}

func pageKeys(rows []pageRow) []string {
	var keys []string
	for _, r := range rows {
		keys = append(keys, r.Key)
	}
	return keys
}

// diffKeys describes how two row lists differ, briefly.
func diffKeys(got, want []string) string {
	if slices.Equal(got, want) {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d rows, want %d", len(got), len(want))
	for i := 0; i < max(len(got), len(want)); i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			fmt.Fprintf(&b, "; first difference at row %d: %q, want %q", i+1, g, w)
			break
		}
	}
	return b.String()
}

// waitPricing waits until the page shows the query string and the #shown
// line given: the script has fetched /pricing/all/ if it needed to, and
// applied the form.
func waitPricing(b *Browser, query, shown string) {
	b.t.Helper()
	b.Poll(`location.search === `+jsStr(query)+` && document.getElementById("shown").textContent === `+jsStr(shown),
		"location.search", `document.getElementById("shown").textContent`)
}

// jsStr is s as a JavaScript string literal.
func jsStr(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// filtering reports whether the form values filter rows (sort, order and
// currency do not).
func filtering(set map[string]string) bool {
	for k := range set {
		if k != "sort" && k != "dir" && k != "cur" {
			return true
		}
	}
	return false
}

// setPricing sets form controls in form order, as a user would.
func setPricing(b *Browser, set map[string]string) {
	b.t.Helper()
	for _, name := range pricingControls {
		if v, ok := set[name]; ok {
			if name == "evidence" { // a checkbox
				b.SetChecked(`#f-evidence`, v != "")
				continue
			}
			b.SetValue(`#filters [name="`+name+`"]`, v)
		}
	}
}

// readPricingForm returns the form's non-empty values by control name.
func readPricingForm(b *Browser) map[string]string {
	b.t.Helper()
	var v map[string]string
	b.Eval(`(() => { const v = {}; for (const el of document.getElementById("filters").elements) if (el.name && el.value && (el.type !== "checkbox" || el.checked)) v[el.name] = el.value; return v; })()`, &v)
	return v
}

func withDefaults(set map[string]string) map[string]string {
	v := map[string]string{}
	for k, x := range pricingDefaults {
		v[k] = x
	}
	for k, x := range set {
		v[k] = x
	}
	return v
}

// most returns the value of key shared by the most rows (ties: the
// smallest value; "" counts for none), for picking filter values the
// catalog has plenty of.
func most(rows []*derive.Row, key func(*derive.Row) string) string {
	n := map[string]int{}
	for _, r := range rows {
		if k := key(r); k != "" {
			n[k]++
		}
	}
	best := ""
	for k, c := range n {
		if best == "" || c > n[best] || c == n[best] && k < best {
			best = k
		}
	}
	return best
}

// TestPricingFilters sets filters through the form and compares the visible
// rows of #prices with the catalog's rows that match, in order; the count
// line, the URL, and the same view after reloading that URL.
func TestPricingFilters(t *testing.T) {
	t.Parallel()
	base := Site(t)
	g := loadPricing(t)
	provider := most(g.rows, func(r *derive.Row) string { return r.Offer.Provider.ID })
	cases := []struct {
		name string
		set  map[string]string
	}{
		{"gpu", map[string]string{"gpu": "h100-sxm5-80gb"}},
		{"provider with the most prices", map[string]string{"provider": provider}},
		{"spot billing", map[string]string{"billing": "spot"}},
		{"min VRAM 80 GB", map[string]string{"min-vram": "80"}},
		{"max 1.2 USD per GPU-hour", map[string]string{"max-price": "1.2"}},
		{"on-demand, 48 GB or more, at most 2.5 USD", map[string]string{"billing": "on-demand", "min-vram": "48", "max-price": "2.5"}},
		{"max price in EUR", map[string]string{"cur": "EUR", "max-price": "1.5"}},
		{"first-party prices only", map[string]string{"evidence": "first-party"}},
		// The country is where the GPU runs (the regions'), not the
		// provider's headquarters: platforms with no headquarters country
		// whose every region is in China match 中国.
		{"China, H20", map[string]string{"country": "CN", "gpu": "h20-96gb"}},
		{"China, RTX 4090", map[string]string{"country": "CN", "gpu": "rtx-4090"}},
		{"first-party on-demand in a region", map[string]string{"evidence": "first-party", "billing": "on-demand", "region": most(g.rows, func(r *derive.Row) string {
			if len(r.Regions) == 1 && strings.HasPrefix(r.Evidence, "first-party") && r.Price.Billing == "on-demand" {
				return r.Regions[0]
			}
			return ""
		})}},
	}
	browser := New(t, base)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := browser.For(t)
			want := g.filter(t, c.set)
			if len(want) == 0 || len(want) == len(g.rows) {
				t.Fatalf("the filter %v matches %d of %d rows in the catalog: choose one that tells rows apart", c.set, len(want), len(g.rows))
			}
			b.Navigate("pricing/")
			setPricing(b, c.set)
			query := pricingQuery(c.set, false)
			// The first pages.PricingLimit matching rows, until "show all".
			n := min(len(want), pages.PricingLimit)
			shown := g.shownText(n, true, len(want))
			waitPricing(b, query, shown)
			check := func(when string) {
				t.Helper()
				rows := visibleRows(t, b)
				if d := diffKeys(pageKeys(rows), rowKeys(want[:n])); d != "" {
					t.Errorf("%s: the visible rows differ from the catalog's matching rows: %s", when, d)
				}
				rate := g.rate(t, withDefaults(c.set)["cur"])
				for _, r := range rows {
					for name, v := range c.set {
						var ok bool
						switch name {
						case "min-vram":
							ok = atof(t, r.Data["vram"]) >= atof(t, v)
						case "max-price":
							ok = atof(t, r.Data["pergpu"])*rate <= atof(t, v)
						case "cur":
							ok = true
						case "evidence":
							ok = strings.HasPrefix(r.Data["evidence"], "first-party")
						case "region":
							ok = slices.Contains(strings.Fields(r.Data["regions"]), v)
						case "country":
							ok = slices.Contains(strings.Fields(r.Data["countries"]), v)
						default:
							ok = r.Data[name] == v
						}
						if !ok {
							t.Errorf("%s: row %s (data %v) does not match %s=%s", when, r.Key, r.Data, name, v)
						}
					}
				}
				if got := b.Text("#shown"); got != shown {
					t.Errorf("%s: #shown = %q, want %q", when, got, shown)
				}
				if got, want := readPricingForm(b), withDefaults(c.set); !mapsEqual(got, want) {
					t.Errorf("%s: the form holds %v, want %v", when, got, want)
				}
				cur := withDefaults(c.set)["cur"]
				if got, want := b.Text(`label[for="f-max-price"]`), "Max per GPU-hour ("+cur+")"; got != want {
					t.Errorf("%s: the max-price label is %q, want %q (the filter compares prices in the chosen currency)", when, got, want)
				}
			}
			check("after filtering")
			loc := b.Location()
			u, err := url.Parse(loc)
			if err != nil {
				t.Fatal(err)
			}
			if "?"+u.RawQuery != query {
				t.Errorf("URL %s, want the query %s", loc, query)
			}
			b.Navigate(loc)
			waitPricing(b, query, shown)
			check("after reloading " + loc)
		})
	}
}

// sortValue is a row's value for a numeric sort key of the page.
func sortValue(r *derive.Row, key string) float64 {
	switch key {
	case "pergpu":
		return r.PerGPUDC
	case "inst":
		return r.InstDC
	case "tpd":
		return r.TFLOPSPerDC
	case "vram":
		return r.Offer.VRAMPerGPUGB
	case "count":
		return float64(r.Offer.GPUCount)
	case "age":
		return float64(r.AgeDays)
	}
	panic("no numeric sort key " + key)
}

// billingLabels are the billing column's labels (templates/i18n), which
// it sorts by (the term and region after a label do not count).
var billingLabels = map[string]string{"billing.on-demand": "On-demand", "billing.committed": "Committed", "billing.spot": "Spot",
	"billing.prepaid.day": "Prepaid day", "billing.prepaid.week": "Prepaid week"}

// billingLabel is a row's billing label (pages.BillingKey names it).
func billingLabel(r *derive.Row) string {
	return billingLabels[pages.BillingKey(r.Price.Billing, r.Unit, r.TermMonths)]
}

// sorted returns the rows sorted as the page sorts them: by the key's
// value, ties in the page's default order (stable).
func sorted(rows []*derive.Row, key, dir string) []*derive.Row {
	out := slices.Clone(rows)
	cmp := func(a, b *derive.Row) int {
		if key == "billing" {
			return strings.Compare(billingLabel(a), billingLabel(b))
		}
		va, vb := sortValue(a, key), sortValue(b, key)
		switch {
		case va < vb:
			return -1
		case va > vb:
			return 1
		}
		return 0
	}
	slices.SortStableFunc(out, func(a, b *derive.Row) int {
		if dir == "desc" {
			return -cmp(a, b)
		}
		return cmp(a, b)
	})
	return out
}

// TestPricingSort clicks the sort buttons of the header: the visible rows
// are the first rows of the catalog sorted that way, aria-sort marks the
// column, the URL holds the sort, a second click reverses it and a reload
// restores it.
func TestPricingSort(t *testing.T) {
	t.Parallel()
	base := Site(t)
	g := loadPricing(t)
	cases := []struct {
		name, key string
		dirs      []string // the direction after each click
	}{
		// The table starts sorted by price per GPU-hour, ascending: the first
		// click on that column reverses it.
		{"per GPU-hour", "pergpu", []string{"desc", "asc"}},
		{"VRAM", "vram", []string{"asc", "desc"}},
		{"GPU count", "count", []string{"asc", "desc"}},
		{"per instance-hour", "inst", []string{"asc", "desc"}},
		{"billing", "billing", []string{"asc", "desc"}},
	}
	browser := New(t, base)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := browser.For(t)
			b.Navigate("pricing/")
			var initial string
			b.Eval(`document.querySelector('th[data-sort="pergpu"]').getAttribute("aria-sort")`, &initial)
			if initial != "ascending" {
				t.Errorf(`before any click the per-GPU-hour column has aria-sort=%q, want "ascending" (the server's order)`, initial)
			}
			th := `th[data-sort="` + c.key + `"]`
			for i, dir := range c.dirs {
				b.Click(th + " button.sort")
				set := map[string]string{"sort": c.key, "dir": dir}
				query := pricingQuery(set, false)
				aria := map[string]string{"asc": "ascending", "desc": "descending"}[dir]
				ariaJS := `document.querySelector('` + th + `').getAttribute("aria-sort")`
				b.Poll(ariaJS+` === "`+aria+`"`, ariaJS, "location.search")
				waitPricing(b, query, g.shownText(pages.PricingLimit, false, 0))
				check := func(when string) {
					t.Helper()
					rows := visibleRows(t, b)
					want := sorted(g.rows, c.key, dir)[:pages.PricingLimit]
					if d := diffKeys(pageKeys(rows), rowKeys(want)); d != "" {
						t.Errorf("%s: the visible rows differ from the catalog sorted by %s %s: %s", when, c.key, dir, d)
					}
					if c.key != "billing" {
						for i := 1; i < len(rows); i++ {
							a, z := atof(t, rows[i-1].Data[c.key]), atof(t, rows[i].Data[c.key])
							if dir == "asc" && a > z || dir == "desc" && a < z {
								t.Errorf("%s: rows %d and %d are out of order: data-%s %v then %v", when, i, i+1, c.key, a, z)
								break
							}
						}
					}
					var marks map[string]string
					b.Eval(`Object.fromEntries([...document.querySelectorAll("#prices thead th[aria-sort]")].map((th) => [th.dataset.sort, th.getAttribute("aria-sort")]))`, &marks)
					if !mapsEqual(marks, map[string]string{c.key: aria}) {
						t.Errorf("%s: aria-sort is set on %v, want only %s=%s", when, marks, c.key, aria)
					}
					if got, want := readPricingForm(b), withDefaults(set); !mapsEqual(got, want) {
						t.Errorf("%s: the form holds %v, want %v", when, got, want)
					}
				}
				when := fmt.Sprintf("after click %d", i+1)
				check(when)
				loc := b.Location()
				if u, _ := url.Parse(loc); query != "" && "?"+u.RawQuery != query {
					t.Errorf("%s the URL is %s, want the query %s", when, u, query)
				}
				b.Navigate(loc)
				b.Poll(ariaJS+` === "`+aria+`"`, ariaJS, "location.search")
				if query != "" {
					waitPricing(b, query, g.shownText(pages.PricingLimit, false, 0))
				} else { // the default order: the page stays as the server rendered it
					waitPricing(b, "", fmt.Sprintf("%d cheapest of %d prices per GPU-hour shown", pages.PricingLimit, len(g.rows)))
				}
				check(when + ", after reloading " + loc)
			}
		})
	}
}

// TestPricingCurrency switches the display currency: every visible price
// gets a converted line in that currency (data-pergpu and data-inst times
// the rate of data/fx.toml), except prices quoted in it; the quoted
// prices stay; the URL holds cur and a reload restores it.
func TestPricingCurrency(t *testing.T) {
	t.Parallel()
	base := Site(t)
	g := loadPricing(t)
	var foreign *derive.Row // a row quoted in another currency than the display one
	for _, r := range g.rows {
		if r.Offer.Currency != g.dd.Currency {
			foreign = r
			break
		}
	}
	if foreign == nil {
		t.Fatal("every offer is quoted in the display currency: the test of a quoted-currency view would test nothing")
	}
	cases := []struct {
		name string
		set  map[string]string
	}{
		{"EUR", map[string]string{"cur": "EUR"}},
		{"GBP, GPU filter", map[string]string{"cur": "GBP", "gpu": "h100-sxm5-80gb"}},
		{"the quoted currency " + foreign.Offer.Currency + " of " + foreign.Offer.Provider.ID, map[string]string{"cur": foreign.Offer.Currency, "provider": foreign.Offer.Provider.ID}},
	}
	browser := New(t, base)
	byKey := map[string]*derive.Row{}
	for _, r := range g.rows {
		byKey[rowKey(r)] = r
	}
	// checkPrices compares the price cells of the visible rows with Go.
	checkPrices := func(t *testing.T, b *Browser, cur, when string) []pageRow {
		t.Helper()
		rate := g.rate(t, cur)
		rows := visibleRows(t, b)
		for _, pr := range rows {
			r := byKey[pr.Key]
			if r == nil {
				t.Fatalf("%s: row %s is not in the catalog", when, pr.Key)
			}
			o := r.Offer
			if want := render.Money(r.HourlyEquivalent, o.Currency); pr.Inst != want {
				t.Errorf("%s: %s: the quoted price is %q, want %q", when, pr.Key, pr.Inst, want)
			}
			if want := render.Money(r.PerGPU, o.Currency); pr.PerGPU != want {
				t.Errorf("%s: %s: the quoted per-GPU price is %q, want %q", when, pr.Key, pr.PerGPU, want)
			}
			wantInst, wantPer := "", ""
			if o.Currency != cur {
				// The page multiplies data-inst and data-pergpu (display
				// currency) by data-fx[cur], as this does.
				wantInst = "≈ " + jsMoney(atof(t, pr.Data["inst"])*rate, cur)
				wantPer = "≈ " + jsMoney(atof(t, pr.Data["pergpu"])*rate, cur)
				// ... which is the catalog's conversion of the quoted price.
				if conv, _ := g.cat.FX.Convert(r.HourlyEquivalent, o.Currency, cur); jsMoney(conv, cur) != jsMoney(r.InstDC*rate, cur) {
					t.Logf("%s: %s: FX.Convert of the quoted price gives %s, the page's two-step conversion %s", when, pr.Key, jsMoney(conv, cur), jsMoney(r.InstDC*rate, cur))
				}
				if pr.Data["inst"] != fmt.Sprint(r.InstDC) || pr.Data["pergpu"] != fmt.Sprint(r.PerGPUDC) {
					t.Errorf("%s: %s: data-inst %s and data-pergpu %s, want %v and %v", when, pr.Key, pr.Data["inst"], pr.Data["pergpu"], r.InstDC, r.PerGPUDC)
				}
			}
			if pr.InstConv != wantInst || pr.PerGPUConv != wantPer {
				t.Errorf("%s: %s (quoted in %s): converted lines %q and %q, want %q and %q", when, pr.Key, o.Currency, pr.InstConv, pr.PerGPUConv, wantInst, wantPer)
			}
		}
		return rows
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := browser.For(t)
			b.Navigate("pricing/")
			setPricing(b, c.set)
			want := g.filter(t, c.set)
			filter := filtering(c.set)
			n := min(len(want), pages.PricingLimit)
			query, shown := pricingQuery(c.set, false), g.shownText(n, filter, len(want))
			waitPricing(b, query, shown)
			rows := checkPrices(t, b, c.set["cur"], "after choosing "+c.set["cur"])
			if d := diffKeys(pageKeys(rows), rowKeys(want[:n])); d != "" {
				t.Errorf("the visible rows: %s", d)
			}
			if u, _ := url.Parse(b.Location()); u.Query().Get("cur") != c.set["cur"] {
				t.Errorf("URL %s does not hold cur=%s", u, c.set["cur"])
			}
			loc := b.Location()
			b.Navigate(loc)
			waitPricing(b, query, shown)
			checkPrices(t, b, c.set["cur"], "after reloading "+loc)
			if got := readPricingForm(b)["cur"]; got != c.set["cur"] {
				t.Errorf("after reloading %s the currency select holds %q", loc, got)
			}

			// Back to the display currency: prices quoted in it lose their
			// converted line, the others convert to it again.
			b.SetValue("#f-cur", g.dd.Currency)
			delete(c.set, "cur")
			waitPricing(b, pricingQuery(c.set, false), shown)
			checkPrices(t, b, g.dd.Currency, "back in "+g.dd.Currency)
		})
	}
}

// TestPricingShowAll: /pricing/ shows the cheapest rows; "Show all N
// prices" shows every price row of the catalog, and the URL keeps it.
func TestPricingShowAll(t *testing.T) {
	t.Parallel()
	base := Site(t)
	g := loadPricing(t)
	b := New(t, base)
	b.Navigate("pricing/")
	first := fmt.Sprintf("%d cheapest of %d prices per GPU-hour shown", pages.PricingLimit, len(g.rows))
	if got := b.Text("#shown"); got != first {
		t.Errorf("#shown = %q, want %q", got, first)
	}
	if d := diffKeys(pageKeys(visibleRows(t, b)), rowKeys(g.rows[:pages.PricingLimit])); d != "" {
		t.Errorf("the first view: %s", d)
	}
	link := fmt.Sprintf("Show all %d prices", len(g.rows))
	if got := b.Text("#show-all"); got != link || !b.Visible("#show-all") {
		t.Errorf("the show-all link reads %q (visible: %v), want %q", got, b.Visible("#show-all"), link)
	}
	b.Click("#show-all")
	all := fmt.Sprintf("%d offers shown", len(g.rows))
	waitPricing(b, "?all=1", all)
	check := func(when string) {
		t.Helper()
		rows := visibleRows(t, b)
		if len(rows) != len(g.dd.Rows) {
			t.Errorf("%s: %d rows visible, the catalog has %d price rows", when, len(rows), len(g.dd.Rows))
		}
		if d := diffKeys(pageKeys(rows), rowKeys(g.rows)); d != "" {
			t.Errorf("%s: %s", when, d)
		}
		if b.Visible("#show-all") {
			t.Errorf("%s: the show-all link is still shown", when)
		}
	}
	check("after clicking the link")
	loc := b.Location()
	b.Navigate(loc)
	waitPricing(b, "?all=1", all)
	check("after reloading " + loc)

	// Under a filter that matches more rows than the first view holds,
	// the link offers every matching row, and shows them.
	set := map[string]string{"gpu": most(g.rows, func(r *derive.Row) string { return r.Offer.GPU.ID })}
	want := g.filter(t, set)
	if len(want) <= pages.PricingLimit {
		t.Fatalf("the most-priced GPU has %d rows, not more than %d: the test would test nothing", len(want), pages.PricingLimit)
	}
	b.Navigate("pricing/")
	setPricing(b, set)
	waitPricing(b, pricingQuery(set, false), g.shownText(pages.PricingLimit, true, len(want)))
	if got, link := b.Text("#show-all"), fmt.Sprintf("Show all %d matching prices", len(want)); got != link || !b.Visible("#show-all") {
		t.Errorf("filtered: the show-all link reads %q (visible: %v), want %q", got, b.Visible("#show-all"), link)
	}
	b.Click("#show-all")
	waitPricing(b, pricingQuery(set, true), g.shownText(len(want), true, len(want)))
	if d := diffKeys(pageKeys(visibleRows(t, b)), rowKeys(want)); d != "" {
		t.Errorf("filtered, all shown: %s", d)
	}
	if b.Visible("#show-all") {
		t.Errorf("filtered, all shown: the show-all link is still shown")
	}
}

// TestPricingPages: the full price list is split into pages of
// pages.PricingPageRows rows (/pricing/all/, /pricing/all/2/, ...) that
// together hold every price row of the catalog once, in the list's order
// (cheapest per GPU-hour first), each naming its range; without
// JavaScript a reader pages through them with the numbered, previous and
// next links, and a page holds no filter form (the pricing script is not
// on it). With JavaScript, /pricing/ still filters every row: the other
// tests of this file wait for all pages to arrive.
func TestPricingPages(t *testing.T) {
	t.Parallel()
	base := Site(t)
	g := loadPricing(t)
	n := (len(g.rows) + pages.PricingPageRows - 1) / pages.PricingPageRows
	if n < 3 {
		t.Fatalf("%d price rows make %d pages of %d: the test needs a first, a middle and a last page", len(g.rows), n, pages.PricingPageRows)
	}
	page := func(k int) string {
		if k == 1 {
			return "pricing/all/"
		}
		return "pricing/all/" + strconv.Itoa(k) + "/"
	}
	// The pages' files, as built: every row once, in order.
	keyRE := regexp.MustCompile(`<tr data-gpu[^>]* data-key="([^"]*)"`)
	var keys []string
	for k := 1; k <= n; k++ {
		buf, err := os.ReadFile(filepath.Join(SiteDir(base), filepath.FromSlash(page(k)), "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		got := 0
		for _, m := range keyRE.FindAllStringSubmatch(string(buf), -1) {
			keys = append(keys, html.UnescapeString(m[1]))
			got++
		}
		if want := min(pages.PricingPageRows, len(g.rows)-(k-1)*pages.PricingPageRows); got != want {
			t.Errorf("/%s holds %d rows, want %d", page(k), got, want)
		}
	}
	if d := diffKeys(keys, rowKeys(g.rows)); d != "" {
		t.Errorf("the pages' rows in order: %s", d)
	}
	if _, err := os.Stat(filepath.Join(SiteDir(base), filepath.FromSlash(page(n+1)))); err == nil {
		t.Errorf("/%s exists after the last page", page(n+1))
	}

	// Without JavaScript: the first page, next, the last page, previous.
	b := New(t, base)
	noJS(b, true)
	type view struct {
		Shown   string   `json:"shown"`
		Links   []string `json:"links"`
		Current string   `json:"current"`
		Prev    bool     `json:"prev"`
		Next    bool     `json:"next"`
		Form    bool     `json:"form"`
		Script  bool     `json:"script"`
	}
	read := func() view {
		var v view
		b.Eval(`(() => {
			const nav = document.querySelector("nav.pages");
			const links = nav ? [...nav.querySelectorAll("a:not([rel])")].map((a) => a.textContent) : [];
			const cur = nav && nav.querySelector("a[aria-current=page]");
			return {shown: document.getElementById("shown").textContent, links, current: cur ? cur.textContent : "",
				prev: !!(nav && nav.querySelector("a[rel=prev]")), next: !!(nav && nav.querySelector("a[rel=next]")),
				form: !!document.getElementById("filters"), script: [...document.scripts].some((s) => /pricing\./.test(s.src))};
		})()`, &v)
		return v
	}
	check := func(k int) {
		t.Helper()
		v := read()
		lo, hi := (k-1)*pages.PricingPageRows, min(k*pages.PricingPageRows, len(g.rows))
		shown := fmt.Sprintf("Prices %d–%d of %d, the cheapest per GPU-hour first (page %d of %d).", lo+1, hi, len(g.rows), k, n)
		if !strings.HasPrefix(v.Shown, shown) {
			t.Errorf("page %d says %q, want it to start %q", k, v.Shown, shown)
		}
		if len(v.Links) != n || v.Current != strconv.Itoa(k) || v.Prev != (k > 1) || v.Next != (k < n) {
			t.Errorf("page %d: %d page links, current %q, previous %v, next %v; want %d, %d, %v, %v", k, len(v.Links), v.Current, v.Prev, v.Next, n, k, k > 1, k < n)
		}
		if v.Form || v.Script {
			t.Errorf("page %d: filter form %v, pricing script %v; want neither", k, v.Form, v.Script)
		}
		if d := diffKeys(pageKeys(visibleRows(t, b)), rowKeys(g.rows[lo:hi])); d != "" {
			t.Errorf("page %d: %s", k, d)
		}
	}
	b.Navigate(page(1))
	check(1)
	b.Follow(0, func() { b.Click("nav.pages a[rel=next]") })
	check(2)
	b.Follow(0, func() { b.Click("nav.pages li:nth-last-child(2) a") })
	check(n)
	b.Follow(0, func() { b.Click("nav.pages a[rel=prev]") })
	check(n - 1)
	noJS(b, false)
}

// TestPricingCSV downloads the CSV: its rows are every row the filters
// select (not only the first shown), in the table's order,
// with the prices converted to the chosen currency.
func TestPricingCSV(t *testing.T) {
	t.Parallel()
	base := Site(t)
	g := loadPricing(t)
	byKey := map[string]*derive.Row{}
	for _, r := range g.rows {
		byKey[rowKey(r)] = r
	}
	provider := most(g.rows, func(r *derive.Row) string { return r.Offer.Provider.ID })
	cases := []struct {
		name  string
		set   map[string]string
		sortN int // clicks on the VRAM column's sort button
	}{
		{name: "no filter: the rows shown", set: map[string]string{}},
		{name: "provider in EUR", set: map[string]string{"provider": provider, "cur": "EUR"}},
		{name: "min VRAM sorted by VRAM descending in JPY", set: map[string]string{"min-vram": "40", "cur": "JPY"}, sortN: 2},
	}
	browser := New(t, base)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := browser.For(t)
			b.Navigate("pricing/")
			setPricing(b, c.set)
			for i := 0; i < c.sortN; i++ {
				b.Click(`th[data-sort="vram"] button.sort`)
			}
			cur := withDefaults(c.set)["cur"]
			if c.sortN > 0 {
				c.set["sort"] = "vram"
				c.set["dir"] = map[int]string{1: "asc", 2: "desc"}[c.sortN]
			}
			want := g.filter(t, c.set)
			filter := filtering(c.set)
			n, matches := min(len(want), pages.PricingLimit), len(want)
			if c.sortN > 0 {
				want = sorted(want, "vram", c.set["dir"])
			}
			// The CSV holds every row the filters select; the table the
			// first n.
			all := want
			want = want[:n]
			if len(c.set) > 0 {
				waitPricing(b, pricingQuery(c.set, false), g.shownText(n, filter, matches))
			}
			visible := visibleRows(t, b)
			if d := diffKeys(pageKeys(visible), rowKeys(want)); d != "" {
				t.Fatalf("before the download, the visible rows: %s", d)
			}
			name, data := b.Download("#f-csv")
			if name != "gpu-atlas-offers.csv" {
				t.Errorf("the download is named %q", name)
			}
			recs, err := csv.NewReader(strings.NewReader(string(data))).ReadAll()
			if err != nil {
				t.Fatalf("the CSV: %v\n%s", err, data)
			}
			head := "gpu,provider,instance,gpu_count,vram_per_gpu_gb,billing,price_per_hour_quoted,currency,price_per_hour_" + cur + ",price_per_gpu_hour_" + cur + ",as_of,source"
			if len(recs) == 0 || strings.Join(recs[0], ",") != head {
				t.Fatalf("the CSV header is %q, want %q", recs[:min(1, len(recs))], head)
			}
			recs = recs[1:]
			// The visible rows after the download: the table must not change.
			after := visibleRows(t, b)
			if d := diffKeys(pageKeys(after), pageKeys(visible)); d != "" {
				t.Errorf("the download changed the visible rows: %s", d)
			}
			if got := b.Text("#shown"); len(c.set) > 0 && got != g.shownText(n, filter, matches) {
				t.Errorf("after the download #shown = %q", got)
			}
			if len(recs) != len(all) {
				t.Errorf("the CSV has %d rows, the filters select %d", len(recs), len(all))
			}
			rate := g.rate(t, cur)
			for i := 0; i < min(len(recs), len(all)); i++ {
				r := all[i]
				o := r.Offer
				quoted := strconv.FormatFloat(r.HourlyEquivalent, 'f', -1, 64) // the catalog's exact figure, per hour
				wantRec := []string{o.GPU.ID, o.Provider.ID, o.Instance, strconv.Itoa(o.GPUCount), fmt.Sprint(o.VRAMPerGPUGB), r.Price.Billing,
					quoted, o.Currency, jsToFixed(r.InstDC*rate, 4), jsToFixed(r.PerGPUDC*rate, 4), r.Price.AsOf.Format("2006-01-02"), r.Price.Source}
				got := recs[i]
				if len(got) == len(wantRec) && got[11] != wantRec[11] {
					// The page writes the link's resolved href.
					if u, err := url.Parse(wantRec[11]); err == nil && u.Path == "" && got[11] == wantRec[11]+"/" {
						wantRec[11] = got[11]
					}
				}
				if !slices.Equal(got, wantRec) {
					t.Errorf("CSV row %d:\n got %q\nwant %q", i+1, got, wantRec)
				}
			}
		})
	}
}

// TestPricingHeaderSortButtons: the price tables' headers hold sort buttons
// only on the page whose script sorts (/pricing/); on a page of the full
// list (/pricing/all/), a GPU or a provider page a button would do
// nothing. A GPU page has no GPU column and a provider page no provider
// column: one sortable column less.
func TestPricingHeaderSortButtons(t *testing.T) {
	t.Parallel()
	base := Site(t)
	b := New(t, base)
	for _, c := range []struct {
		page              string
		buttons, sortable int
	}{{"pricing/", 9, 9}, {"pricing/all/", 0, 9}, {"gpus/h100-sxm5-80gb/", 0, 8}, {"providers/aws/", 0, 8}} {
		t.Run(c.page, func(t *testing.T) {
			b := b.For(t)
			b.Navigate(c.page)
			var n, sortable int
			b.Eval(`document.querySelectorAll("table thead th button.sort").length`, &n)
			b.Eval(`document.querySelectorAll("table thead th[data-sort]").length`, &sortable)
			if n != c.buttons || sortable != c.sortable {
				t.Errorf("%d sort buttons in %d sortable header cells, want %d buttons in %d", n, sortable, c.buttons, c.sortable)
			}
		})
	}
}

// offerView is what an offer table shows: which optional columns render,
// the chooser's boxes, the rows rendered and the URL.
type offerView struct {
	Cols    []string `json:"cols"`    // optional columns with a rendered header cell
	Checked []string `json:"checked"` // ticked column boxes
	Stale   bool     `json:"stale"`   // "hide stale" ticked
	Rows    int      `json:"rows"`    // rows rendered
	StaleN  int      `json:"staleN"`  // stale rows rendered
	Search  string   `json:"search"`
	VCPU    []string `json:"vcpu"` // the vCPU cells of the rendered rows
	IDs     []string `json:"ids"`
}

func readOffers(b *Browser) offerView {
	b.t.Helper()
	var v offerView
	b.Eval(`(() => {
		const shown = (el) => el.getClientRects().length > 0;
		const rows = [...document.querySelectorAll("table.offers tbody tr")].filter(shown);
		return {
			cols: [...document.querySelectorAll("table.offers thead th.opt")].filter(shown).map((th) => th.className.split(" ")[0].slice(2)),
			checked: [...document.querySelectorAll("input[data-col]")].filter((c) => c.checked).map((c) => c.dataset.col),
			stale: document.getElementById("hide-stale").checked,
			rows: rows.length,
			staleN: rows.filter((r) => r.dataset.band === "stale").length,
			search: location.search,
			vcpu: rows.map((r) => r.querySelector(".c-vcpu").textContent.trim()),
			ids: rows.map((r) => r.dataset.id),
		};
	})()`, &v)
	return v
}

// TestOfferColumns: the column chooser shows the optional columns ticked,
// keeps them in the URL (?cols=) and restores them from it; the vCPU
// column holds each offer's vCPU count from the catalog; on the pricing
// page the columns and a filter share the URL; without JavaScript the
// chooser still shows and hides the columns.
func TestOfferColumns(t *testing.T) {
	t.Parallel()
	base := Site(t)
	g := loadPricing(t)
	b := New(t, base)
	page := "gpus/h100-sxm5-80gb/"
	b.Navigate(page)
	if v := readOffers(b); len(v.Cols) != 0 || v.Rows == 0 {
		t.Fatalf("by default: optional columns %q, %d rows; want none and some rows", v.Cols, v.Rows)
	}
	b.Click(".offer-tools details.cols summary")
	b.SetChecked("#col-vcpu", true)
	b.SetChecked("#col-pergb", true)
	v := readOffers(b)
	if !slices.Equal(v.Cols, []string{"vcpu", "pergb"}) || v.Search != "?cols=vcpu,pergb" {
		t.Errorf("after ticking vCPU and price per GB: columns %q, URL %q; want [vcpu pergb] and ?cols=vcpu,pergb", v.Cols, v.Search)
	}
	offers := map[string]*catalog.Offer{}
	for _, o := range g.cat.Offers {
		offers[o.ID] = o
	}
	for i, id := range v.IDs {
		o := offers[id]
		want := "–"
		if o.VCPU != nil {
			want = strconv.Itoa(*o.VCPU)
		}
		if v.VCPU[i] != want {
			t.Errorf("row %d (%s): vCPU %q, want %q", i, id, v.VCPU[i], want)
		}
	}
	b.Reload()
	if v := readOffers(b); !slices.Equal(v.Cols, []string{"vcpu", "pergb"}) || !slices.Equal(v.Checked, []string{"vcpu", "pergb"}) {
		t.Errorf("after reloading ?cols=vcpu,pergb: columns %q, ticked %q", v.Cols, v.Checked)
	}
	b.SetChecked("#col-vcpu", false)
	if v := readOffers(b); !slices.Equal(v.Cols, []string{"pergb"}) || v.Search != "?cols=pergb" {
		t.Errorf("after unticking vCPU: columns %q, URL %q", v.Cols, v.Search)
	}

	// The pricing page: a filter and the columns in one URL.
	b.Navigate("pricing/")
	b.SetValue(`#filters [name="billing"]`, "spot")
	// Clicked once the filtered rows are in, so that the page does not
	// change height under the pointer.
	b.Poll(`new URLSearchParams(location.search).get("billing") === "spot"`, "location.search")
	b.Click(".offer-tools details.cols summary")
	b.SetChecked("#col-ram", true)
	b.Poll(`new URLSearchParams(location.search).get("billing") === "spot" && new URLSearchParams(location.search).get("cols") === "ram"`, "location.search")
	b.Reload()
	b.Poll(`document.querySelector('#filters [name="billing"]').value === "spot"`, "location.search")
	if v := readOffers(b); !slices.Equal(v.Cols, []string{"ram"}) {
		t.Errorf("pricing page after reload: columns %q, want [ram]", v.Cols)
	}

	// Without JavaScript the boxes still show and hide the columns.
	noJS(b, true)
	defer noJS(b, false)
	b.Navigate(page)
	b.Click(".offer-tools details.cols summary")
	b.Click("#col-ic")
	if v := readOffers(b); !slices.Equal(v.Cols, []string{"ic"}) {
		t.Errorf("without JavaScript, after ticking interconnect: columns %q", v.Cols)
	}
}

// noJS turns script execution in the tab off or on.
func noJS(b *Browser, off bool) {
	b.t.Helper()
	run(b, "script execution", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: off})
		return err
	}))
}

// TestHideStale: "hide stale" hides exactly the stale rows, on a GPU page
// (kept in the URL as stale=hide, also without JavaScript) and on the
// pricing page, whose count and rows then match the catalog's non-stale
// prices.
func TestHideStale(t *testing.T) {
	t.Parallel()
	base := Site(t)
	g := loadPricing(t)
	b := New(t, base)
	page := "gpus/h100-sxm5-80gb/"
	b.Navigate(page)
	before := readOffers(b)
	if before.StaleN == 0 || before.StaleN == before.Rows {
		t.Fatalf("%s renders %d stale rows of %d: the test needs both kinds", page, before.StaleN, before.Rows)
	}
	b.SetChecked("#hide-stale", true)
	v := readOffers(b)
	if v.StaleN != 0 || v.Rows != before.Rows-before.StaleN || v.Search != "?stale=hide" {
		t.Errorf("after hide stale: %d rows, %d stale, URL %q; want %d rows, none stale, ?stale=hide", v.Rows, v.StaleN, v.Search, before.Rows-before.StaleN)
	}
	b.Reload()
	if v := readOffers(b); !v.Stale || v.StaleN != 0 {
		t.Errorf("after reloading ?stale=hide: box ticked %v, %d stale rows", v.Stale, v.StaleN)
	}
	noJS(b, true)
	b.Navigate(page)
	b.Click("#hide-stale")
	if v := readOffers(b); v.StaleN != 0 || v.Rows != before.Rows-before.StaleN {
		t.Errorf("without JavaScript: %d rows, %d stale", v.Rows, v.StaleN)
	}
	noJS(b, false)

	var fresh []*derive.Row
	for _, r := range g.rows {
		if r.Band != "stale" {
			fresh = append(fresh, r)
		}
	}
	b.Navigate("pricing/")
	b.SetChecked("#hide-stale", true)
	n := min(len(fresh), pages.PricingLimit)
	waitPricing(b, "?stale=hide", g.shownText(n, true, len(fresh)))
	if d := diffKeys(pageKeys(visibleRows(t, b)), rowKeys(fresh[:n])); d != "" {
		t.Errorf("pricing page, stale hidden: %s", d)
	}
}

// TestOfferCardsPhone: on a 390 px phone an offer table is a list of
// cards: no header row shows, nothing scrolls sideways, and every card
// shows what it is (GPU or provider), its price per GPU-hour on its first
// line and its age badge, all inside the screen; the compare box sits at
// the card's right edge, and the instance price keeps its figure and
// currency on one line.
func TestOfferCardsPhone(t *testing.T) {
	t.Parallel()
	base := Site(t)
	b := New(t, base)
	setViewport(b, 390, 844, true)
	for _, c := range []struct{ page, title string }{
		{"gpus/h100-sxm5-80gb/", ".c-prov"}, {"providers/aws/", ".c-gpu"}, {"pricing/", ".c-gpu"},
	} {
		t.Run(pageName(c.page), func(t *testing.T) {
			b := b.For(t)
			b.Navigate(c.page)
			var r struct {
				Head     float64  `json:"head"`
				Scroll   bool     `json:"scroll"`
				Rows     int      `json:"rows"`
				Problems []string `json:"problems"`
			}
			b.Eval(`((title) => {
				const vw = document.documentElement.clientWidth;
				const wrap = document.querySelector(".offers-wrap");
				const rows = [...document.querySelectorAll("table.offers tbody tr")].filter((r) => r.getClientRects().length).slice(0, 20);
				const problems = [];
				for (const row of rows) {
					const id = row.dataset.key;
					const box = row.getBoundingClientRect();
					for (const sel of [title, ".c-pergpu", ".c-age .badge"]) {
						const el = row.querySelector(sel);
						const q = el && el.getBoundingClientRect();
						if (!q || q.width === 0) problems.push(id + ": " + sel + " not shown");
						else if (q.left < 0 || q.right > vw) problems.push(id + ": " + sel + " outside the screen (" + Math.round(q.left) + " to " + Math.round(q.right) + ")");
					}
					const price = row.querySelector(".c-pergpu").getBoundingClientRect();
					if (price.top - box.top > 16) problems.push(id + ": the price is not on the card's first line");
					const pick = row.querySelector(".c-pick label").getBoundingClientRect();
					if (box.right - pick.right > 2) problems.push(id + ": the compare box ends " + Math.round(box.right - pick.right) + " px before the card's right edge");
					const inst = row.querySelector(".c-price").firstChild;
					if (inst && inst.nodeType === Node.TEXT_NODE) {
						const range = document.createRange();
						range.selectNodeContents(inst);
						if (new Set([...range.getClientRects()].map((q) => Math.round(q.top))).size > 1) problems.push(id + ": the instance price " + JSON.stringify(inst.data) + " breaks over lines");
					}
				}
				return {head: document.querySelector("table.offers thead").getBoundingClientRect().height,
					scroll: wrap.scrollWidth > wrap.clientWidth + 1 || document.documentElement.scrollWidth > vw + 1, rows: rows.length, problems};
			})(`+jsString(c.title)+`)`, &r)
			if r.Rows == 0 || r.Head > 1 || r.Scroll {
				t.Errorf("%d cards, header %v px tall, sideways scroll %v; want cards, no header, no scroll", r.Rows, r.Head, r.Scroll)
			}
			for _, p := range r.Problems {
				t.Error(p)
			}
		})
	}
}

// TestOfferTableFitsDesktop: at 1280 px an offer table with its default
// columns fits its box, so no column (the links at the end) is cut off
// behind a sideways scroll: on GPU pages, provider pages (the largest
// providers' too) and the pricing page, which has both a GPU and a
// provider column.
func TestOfferTableFitsDesktop(t *testing.T) {
	t.Parallel()
	base := Site(t)
	g := loadPricing(t)
	pages := []string{"pricing/", "gpus/h100-sxm5-80gb/", "gpus/a100-sxm4-80gb/", "providers/aws/"}
	if p := most(g.rows, func(r *derive.Row) string { return r.Offer.Provider.ID }); p != "aws" {
		pages = append(pages, "providers/"+p+"/")
	}
	b := New(t, base)
	setViewport(b, 1280, 900, false)
	for _, p := range pages {
		b.Navigate(p)
		var w struct{ Client, Scroll int }
		b.Eval(`(() => { const w = document.querySelector(".offers-wrap"); return {Client: w.clientWidth, Scroll: w.scrollWidth}; })()`, &w)
		if w.Scroll > w.Client {
			t.Errorf("%s: the offer table is %d px wide in a %d px box", p, w.Scroll, w.Client)
		}
	}
}
