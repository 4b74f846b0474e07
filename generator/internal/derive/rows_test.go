package derive

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

// regionalFixture is the fixture site with alpha.8x priced per region
// (on-demand in us-east and eu-west, a history of the us-east price) and
// a 12-month committed price.
func regionalFixture(t *testing.T) *catalog.Catalog {
	t.Helper()
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(testcat.FixtureRoot())); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, "data", "offers", "acme.toml")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	const after = "dataset = \"demo-set\"\n"
	s := strings.Replace(string(b), after, after+`
[[offers.prices]]
billing = "on-demand"
price = 36.0
region = "us-east"
as_of = 2025-09-01
source = "https://acme.example/pricing"
evidence = "first-party"

[[offers.prices]]
billing = "on-demand"
price = 38.0
region = "us-east"
as_of = 2025-03-01
source = "https://acme.example/pricing-march"
evidence = "third-party"

[[offers.prices]]
billing = "on-demand"
price = 44.0
region = "eu-west"
as_of = 2025-09-01
source = "https://acme.example/pricing"
evidence = "first-party"

[[offers.prices]]
billing = "committed"
price = 20000
unit = "month"
term_months = 12
payment = "no-upfront"
region = "us-east"
as_of = 2025-09-01
source = "https://acme.example/reserved"
evidence = "first-party"
`, 1)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	c, d := catalog.Load(root, testcat.FixtureNow)
	if c == nil {
		t.Fatalf("does not load: %v", d.Errors())
	}
	return c
}

func TestRowsHeadlineAndHistory(t *testing.T) {
	c := regionalFixture(t)
	d := New(c, testcat.FixtureNow)
	rows := d.RegionRows("acme/alpha-8x")
	// Current prices: on-demand (all regions), spot, on-demand us-east, on-demand eu-west, committed us-east.
	if len(rows) != 5 {
		t.Fatalf("%d current rows, want 5: %+v", len(rows), rows)
	}
	byKey := map[string]*Row{}
	for _, r := range rows {
		byKey[r.Price.Billing+"/"+r.Region] = r
	}
	us := byKey["on-demand/us-east"]
	if us == nil || us.Price.Price != 36 || len(us.History) != 2 || us.History[0].Price != 38 || us.History[0].Evidence != "third-party" ||
		!us.History[1].AsOf.Equal(time.Date(2025, 9, 1, 0, 0, 0, 0, time.UTC)) || us.RegionName != "Ashburn" || strings.Join(us.Regions, ",") != "us-east" {
		t.Errorf("us-east on-demand row %+v", us)
	}
	all := byKey["on-demand/"]
	if all == nil || strings.Join(all.Regions, ",") != "us-east,eu-west" || len(all.History) != 1 || all.Evidence != "" {
		t.Errorf("all-regions on-demand row %+v", all)
	}
	if s := byKey["spot/"]; s == nil || s.Evidence != "community-dataset" {
		t.Errorf("spot row %+v, want the dataset's evidence", s)
	}
	cm := byKey["committed/us-east"]
	if cm == nil || cm.TermMonths != 12 || cm.Payment != "no-upfront" || cm.Unit != "month" ||
		math.Abs(cm.HourlyEquivalent-20000.0/730) > 1e-9 || math.Abs(cm.PerGPU-20000.0/730/8) > 1e-9 || math.Abs(cm.PerGPUDC-cm.PerGPU) > 1e-9 {
		t.Errorf("committed row %+v", cm)
	}

	// Headline: one row per mode, the cheapest region, with the spread.
	head := d.OfferRows("acme/alpha-8x")
	if len(head) != 3 {
		t.Fatalf("%d headline rows, want 3 (on-demand, spot, committed): %+v", len(head), head)
	}
	od := head[0]
	if od.Price.Billing != "on-demand" || od.Region != "us-east" || od.Spread == nil || od.Spread.N != 3 ||
		od.Spread.Cheapest != "us-east" || od.Spread.Dearest != "eu-west" || od.Spread.MaxDC != 44.0/8 {
		t.Errorf("on-demand headline %+v (spread %+v)", od, od.Spread)
	}
	if head[1].Spread != nil {
		t.Errorf("spot is priced once: no spread, got %+v", head[1].Spread)
	}
	if us.Spread != nil {
		t.Error("a regional row carries no spread")
	}
	modes := d.GPUModes("alpha-80gb")
	if len(modes) != 3 || modes[0].Billing != "on-demand" || modes[1].Billing != "committed" || modes[1].TermMonths != 12 || modes[2].Billing != "spot" {
		t.Errorf("modes %+v", modes)
	}
	// Stats count offers, not regions: alpha.8x (cheapest region 36/8 = 4.5) and drachen gpu.a1 (28 CNY).
	st := d.GPUStats("alpha-80gb", "on-demand")
	if st.N != 2 || st.MinRow.Offer.ID != "acme/alpha-8x" && st.MinRow.Offer.ID != "drachen/gpu-a1" {
		t.Errorf("stats %+v", st)
	}
	if n := len(d.Rows); n != 7 {
		t.Errorf("%d rows in all, want 7 (alpha 5, beta 1, drachen 1)", n)
	}
}
