package catalog

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// fixtureNow is the date the fixture site (testdata/site) is judged on.
var fixtureNow = time.Date(2025, 11, 1, 0, 0, 0, 0, time.UTC)

// fixtureSite copies the fixture site's data into a temporary root.
func fixtureSite(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	src := filepath.Join("..", "..", "..", "testdata", "site", "data")
	if err := os.CopyFS(filepath.Join(root, "data"), os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return root
}

// appendTo appends text to a data file of the site.
func appendTo(t *testing.T, root, rel, text string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, append(b, []byte(text)...), 0o644); err != nil {
		t.Fatal(err)
	}
}

func replaceIn(t *testing.T, root, rel, old, new string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s does not contain %q", rel, old)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func diagLines(t *testing.T, root string) (*Catalog, []string) {
	t.Helper()
	c, d := Load(root, fixtureNow)
	var got []string
	for _, x := range d.Sorted() {
		got = append(got, x.String())
	}
	return c, got
}

// loadWithFile loads the fixture site with text written to data/sub/name,
// and returns the catalog and its errors (warnings left out).
func loadWithFile(t *testing.T, sub, name, text string) (*Catalog, []string) {
	t.Helper()
	root := fixtureSite(t)
	dir := filepath.Join(root, "data", sub)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cat, got := diagLines(t, root)
	var errs []string
	for _, l := range got {
		if !strings.Contains(l, ": warning: ") {
			errs = append(errs, l)
		}
	}
	return cat, errs
}

// The fixture's acme.toml is 38 lines; its last offer (beta.1x, region
// us-east, one on-demand price of 0.75 on 2023-03-01) ends the file, so a
// price block appended to it starts at line 40.
const acme = "data/offers/acme.toml"

func TestPriceChecks(t *testing.T) {
	tests := []struct {
		name   string
		append string // appended to acme.toml: lines 39 (blank), 40 ([[offers.prices]]), 41, ...
		want   []string
	}{
		{"history: an older observation is fine", `
[[offers.prices]]
billing = "on-demand"
price = 0.80
as_of = 2022-01-10
source = "https://acme.example/old-pricing"
evidence = "first-party"
`, nil},
		{"the same key twice on one date", `
[[offers.prices]]
billing = "on-demand"
price = 0.80
as_of = 2023-03-01
source = "https://acme.example/pricing"
`, []string{`data/offers/acme.toml:43:9: price "on-demand" is observed twice on 2023-03-01 (first at line 34): give each observation its own as_of date`}},
		{"committed without a term", `
[[offers.prices]]
billing = "committed"
price = 0.5
as_of = 2025-06-01
source = "https://acme.example/reserved"
`, []string{`data/offers/acme.toml:41:11: a committed price needs term_months (1 for a monthly subscription, 12, 36, ...), or unit = "day" or "week" for a prepaid day or week`}},
		{"an on-demand price quoted per day", `
[[offers.prices]]
billing = "on-demand"
price = 12
unit = "day"
as_of = 2025-06-01
source = "https://acme.example/daily"
`, []string{`data/offers/acme.toml:43:8: billing "on-demand" is paid by the hour: a price per day is a prepaid period, write billing = "committed" (a day or week needs no term_months; a month is term_months = 1)`}},
		{"a term on an on-demand price", `
[[offers.prices]]
billing = "on-demand"
price = 0.7
term_months = 12
as_of = 2025-06-01
source = "https://acme.example/pricing"
`, []string{`data/offers/acme.toml:43:15: term_months is only for committed prices (billing = "committed"), not on-demand`}},
		{"a legacy mode contradicted by its term", `
[[offers.prices]]
billing = "reserved-1y"
price = 0.5
term_months = 36
as_of = 2025-06-01
source = "https://acme.example/reserved"
`, []string{`data/offers/acme.toml:43:15: term_months 36 contradicts billing "reserved-1y" (a 12-month term): write billing = "committed" with the term`}},
		{"term out of range", `
[[offers.prices]]
billing = "committed"
price = 0.5
term_months = 0
as_of = 2025-06-01
source = "https://acme.example/reserved"
`, []string{`data/offers/acme.toml:43:15: term_months 0 is out of range (1..60)`}},
		{"payment misspelt", `
[[offers.prices]]
billing = "committed"
price = 0.5
term_months = 12
payment = "no-upfrnt"
as_of = 2025-06-01
source = "https://acme.example/reserved"
`, []string{`data/offers/acme.toml:44:11: payment "no-upfrnt" is not one of: no-upfront, partial-upfront, all-upfront (did you mean "no-upfront"?)`}},
		{"unit misspelt", `
[[offers.prices]]
billing = "on-demand"
price = 16
unit = "days"
as_of = 2025-06-01
source = "https://acme.example/pricing"
`, []string{`data/offers/acme.toml:43:8: unit "days" is not one of: hour, day, week, month (did you mean "day"?)`}},
		{"unknown region", `
[[offers.prices]]
billing = "on-demand"
price = 0.7
region = "us-eats"
as_of = 2025-06-01
source = "https://acme.example/pricing"
`, []string{`data/offers/acme.toml:43:10: unknown region "us-eats" of provider acme (did you mean "us-east"?)`}},
		{"a region the offer does not list", `
[[offers.prices]]
billing = "on-demand"
price = 0.7
region = "eu-west"
as_of = 2025-06-01
source = "https://acme.example/pricing"
`, []string{`data/offers/acme.toml:43:10: warning: region "eu-west" is not in the offer's regions [us-east]: add it there`}},
		{"evidence misspelt", `
[[offers.prices]]
billing = "on-demand"
price = 0.7
as_of = 2022-06-01
source = "https://acme.example/pricing"
evidence = "first party"
`, []string{`data/offers/acme.toml:45:12: evidence "first party" is not one of: first-party, first-party-docs-repo, third-party, community-dataset (did you mean "first-party"?)`}},
		{"evidence contradicts the dataset", `
[[offers.prices]]
billing = "spot"
price = 0.3
as_of = 2025-06-01
source = "https://example.org/demo"
dataset = "demo-set"
evidence = "first-party"
`, []string{`data/offers/acme.toml:46:12: evidence "first-party" contradicts dataset "demo-set": a price from a dataset is community-dataset evidence (drop evidence, or the dataset)`}},
		{"date basis misspelt", `
[[offers.prices]]
billing = "on-demand"
price = 0.7
as_of = 2022-06-01
date_basis = "commit"
source = "https://acme.example/pricing"
`, []string{`data/offers/acme.toml:44:14: date_basis "commit" is not one of: page-date, commit-date, accessed, dataset-row-date, api-retrieved, page-captured (did you mean "commit-date"?)`}},
		{"a source on a branch", `
[[offers.prices]]
billing = "on-demand"
price = 0.7
as_of = 2022-06-01
date_basis = "commit-date"
source = "https://raw.githubusercontent.com/acme/prices/refs/heads/main/gpu.yml"
evidence = "third-party"
`, []string{`data/offers/acme.toml:45:10: warning: source "https://raw.githubusercontent.com/acme/prices/refs/heads/main/gpu.yml" names a branch, whose file changes: pin it to the commit the figure was read from (.../blob/<commit>/path)`}},
		{"a monthly price above on-demand", `
[[offers.prices]]
billing = "committed"
price = 600
unit = "month"
term_months = 1
as_of = 2025-06-01
source = "https://acme.example/monthly"
evidence = "first-party"
`, []string{`data/offers/acme.toml:42:9: committed price 600 per month (0.8219 per hour) is above the on-demand price 0.75`}},
		{"an implausible monthly price", `
[[offers.prices]]
billing = "committed"
term_months = 1
price = 8000000
unit = "month"
as_of = 2025-06-01
source = "https://acme.example/monthly"
`, []string{`data/offers/acme.toml:43:9: committed price 8000000 per month (1.096e+04 per hour) is above the on-demand price 0.75`, `data/offers/acme.toml:43:9: price 8000000 per month (10958.90 per instance-hour) is implausible`}},
		{"an old spot price above a newer on-demand one is judged on current prices", `
[[offers.prices]]
billing = "spot"
price = 0.7
as_of = 2022-06-01
source = "https://acme.example/spot"

[[offers.prices]]
billing = "spot"
price = 0.76
as_of = 2021-06-01
source = "https://acme.example/spot"
`, []string{`data/offers/acme.toml:43:9: warning: price is 1249 days old (older than warn_days = 730 in data/site.toml): check it against https://acme.example/spot`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := fixtureSite(t)
			appendTo(t, root, acme, tt.append)
			_, got := diagLines(t, root)
			for _, w := range tt.want {
				if !slices.Contains(got, w) {
					t.Errorf("want\n  %s\ngot\n  %s", w, strings.Join(got, "\n  "))
				}
			}
			// Besides the fixture's one old-price warning, nothing else.
			if n := len(got) - len(tt.want); n != 1 {
				t.Errorf("%d other diagnostics, want 1 (the fixture's old price):\n  %s", n, strings.Join(got, "\n  "))
			}
		})
	}
}

func TestRequireEvidence(t *testing.T) {
	root := fixtureSite(t)
	replaceIn(t, root, "data/site.toml", `display_currency = "USD"`, "display_currency = \"USD\"\nrequire_evidence = true")
	_, got := diagLines(t, root)
	// acme.toml's three prices: two lack evidence, the spot price has a dataset.
	for _, w := range []string{
		`data/offers/acme.toml:12:1: missing required key "evidence" in [offers.prices] (one of: first-party, first-party-docs-repo, third-party, community-dataset; data/site.toml sets require_evidence)`,
		`data/offers/acme.toml:34:1: missing required key "evidence" in [offers.prices] (one of: first-party, first-party-docs-repo, third-party, community-dataset; data/site.toml sets require_evidence)`,
	} {
		if !slices.Contains(got, w) {
			t.Errorf("want %s\ngot\n  %s", w, strings.Join(got, "\n  "))
		}
	}
	for _, g := range got {
		if strings.Contains(g, ":18:") {
			t.Errorf("the spot price has a dataset, so its evidence is implied: %s", g)
		}
	}
}

func TestPriceModel(t *testing.T) {
	root := fixtureSite(t)
	appendTo(t, root, acme, `
[[offers.prices]]
billing = "on-demand"
price = 0.80
as_of = 2022-01-10
source = "https://acme.example/old-pricing"
evidence = "first-party"

[[offers.prices]]
billing = "reserved-1y"
price = 0.5
as_of = 2025-06-01
source = "https://acme.example/reserved"
evidence = "first-party"

[[offers.prices]]
billing = "committed"
price = 300
unit = "month"
term_months = 1
commitment = "subscription"
as_of = 2025-06-01
source = "https://acme.example/monthly"
evidence = "first-party"
`)
	c, got := diagLines(t, root)
	if c == nil {
		t.Fatalf("does not load:\n%s", strings.Join(got, "\n"))
	}
	var beta, alpha *Offer
	for _, o := range c.Offers {
		switch o.Instance {
		case "beta.1x":
			beta = o
		case "alpha.8x":
			alpha = o
		}
	}
	cur := beta.Current()
	if len(cur) != 3 {
		t.Fatalf("current prices %+v, want 3 (on-demand, committed 12, committed 1 per month)", cur)
	}
	if cur[0].Price != 0.75 || !cur[0].AsOf.Equal(time.Date(2023, 3, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("current on-demand %+v, want the newest observation 0.75 of 2023-03-01", cur[0])
	}
	if cur[1].Billing != "committed" || cur[1].TermMonths != 12 || cur[1].Unit != "hour" {
		t.Errorf("legacy reserved-1y normalised to %+v, want committed, 12 months, per hour", cur[1])
	}
	if h := cur[2].Hourly(); math.Abs(h-300.0/730) > 1e-12 {
		t.Errorf("hourly equivalent of 300 per month = %v, want 300/730", h)
	}
	hist := beta.Histories()[cur[0].Key()]
	if len(hist) != 2 || hist[0].Price != 0.80 || hist[1].Price != 0.75 {
		t.Errorf("history %+v, want 0.80 (2022) then 0.75 (2023)", hist)
	}
	if p, ok := beta.Price("reserved-1y"); !ok || p.Price != 0.5 {
		t.Errorf(`Price("reserved-1y") = %+v, %v; want the 12-month committed price`, p, ok)
	}
	if p, ok := beta.Price("committed"); !ok || p.Unit != "month" {
		t.Errorf(`Price("committed") = %+v, want the cheaper hourly equivalent (300/730 < 0.5)`, p)
	}
	if _, ok := beta.Price("reserved-3y"); ok {
		t.Error(`Price("reserved-3y") found a price; there is no 36-month term`)
	}
	spot, _ := alpha.Price("spot")
	if spot.Evidence != "community-dataset" {
		t.Errorf("a price with a dataset has evidence %q, want community-dataset", spot.Evidence)
	}
	if k := cur[2].Key().String(); k != "committed 1 months, subscription, per month" {
		t.Errorf("key string %q", k)
	}
}

// TestHistories: each price is in its key's history once, the history is
// oldest first, and observations of one date keep their file order.
func TestHistories(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2025, 1, d, 0, 0, 0, 0, time.UTC) }
	o := &Offer{Prices: []Price{
		{Billing: "on-demand", Price: 3, AsOf: day(3)},
		{Billing: "on-demand", Region: "eu", Price: 9, AsOf: day(1)},
		{Billing: "on-demand", Price: 1, AsOf: day(1)},
		{Billing: "spot", Price: 0.5, AsOf: day(2)},
		{Billing: "on-demand", Price: 2, AsOf: day(2), Source: "first"},
		{Billing: "on-demand", Price: 2.5, AsOf: day(2), Source: "second"},
		{Billing: "on-demand", Unit: "hour", Price: 4, AsOf: day(4)}, // unit "hour" is the default's key
	}}
	h := o.Histories()
	prices := func(k PriceKey) []float64 {
		var out []float64
		for _, p := range h[k] {
			out = append(out, p.Price)
		}
		return out
	}
	cases := []struct {
		key  PriceKey
		want []float64
	}{
		{PriceKey{Billing: "on-demand", Unit: "hour"}, []float64{1, 2, 2.5, 3, 4}},
		{PriceKey{Billing: "on-demand", Unit: "hour", Region: "eu"}, []float64{9}},
		{PriceKey{Billing: "spot", Unit: "hour"}, []float64{0.5}},
	}
	n := 0
	for _, c := range cases {
		if got := prices(c.key); !slices.Equal(got, c.want) {
			t.Errorf("history of %v = %v, want %v", c.key, got, c.want)
		}
		n += len(h[c.key])
	}
	if len(h) != len(cases) || n != len(o.Prices) {
		t.Errorf("%d keys holding %d prices, want %d keys holding every one of the %d prices", len(h), n, len(cases), len(o.Prices))
	}
}

// TestComputedFromI18n: a price's computed_from takes versions in other
// languages; a version without a computed_from to translate is an error
// at the i18n key.
func TestComputedFromI18n(t *testing.T) {
	root := fixtureSite(t)
	replaceIn(t, root, "data/offers/acme.toml", "price = 40.0\n", "price = 40.0\ncomputed_from = \"8 x 5 USD/h\"\ni18n = { zh = { computed_from = \"5 USD/h × 8\" } }\n")
	c, got := diagLines(t, root)
	if c == nil {
		t.Fatalf("does not load:\n%s", strings.Join(got, "\n"))
	}
	i := slices.IndexFunc(c.Offers, func(o *Offer) bool { return o.ID == "acme/alpha-8x" })
	if i < 0 {
		t.Fatal("no acme/alpha-8x")
	}
	p := c.Offers[i].Prices[0]
	if p.ComputedFromIn("zh") != "5 USD/h × 8" || p.ComputedFromIn("de") != "8 x 5 USD/h" {
		t.Errorf("computed_from in zh %q, in de %q", p.ComputedFromIn("zh"), p.ComputedFromIn("de"))
	}

	root = fixtureSite(t)
	replaceIn(t, root, "data/offers/acme.toml", "price = 40.0\n", "price = 40.0\ni18n = { zh = { computed_from = \"5 USD/h × 8\" } }\n")
	_, got = diagLines(t, root)
	if !slices.ContainsFunc(got, func(l string) bool {
		return strings.Contains(l, "i18n holds computed_from in another language, but the price has no computed_from")
	}) {
		t.Errorf("a version without computed_from is not reported:\n%s", strings.Join(got, "\n"))
	}
}
