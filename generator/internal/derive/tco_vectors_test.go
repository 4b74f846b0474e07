package derive

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
)

var update = flag.Bool("update", false, "rewrite static/js/test/testdata/tco-vectors.json")

// tcoVectorsFile holds the TCO page script's test vectors: inputs and what
// TCOIn computes for them, which static/js/test/tco.test.mjs checks
// _tco.mjs against (make test-js), so the script's copy of the arithmetic
// cannot drift from Go's without a failing test.
const tcoVectorsFile = "../../../static/js/test/testdata/tco-vectors.json"

type tcoVector struct {
	Name  string    `json:"name"`
	Offer TCOScript `json:"offer"`
	Input struct {
		Util    float64 `json:"util"`
		Job     float64 `json:"job"`
		Storage float64 `json:"storage"`
		Egress  float64 `json:"egress"`
		IPs     int     `json:"ips"`
	} `json:"input"`
	Want struct {
		Lines   []tcoVectorLine `json:"lines"`
		Missing []string        `json:"missing"`
	} `json:"want"`
}

type tcoVectorLine struct {
	Hours   float64 `json:"hours"`
	Compute float64 `json:"compute"`
	Extras  float64 `json:"extras"`
	Total   float64 `json:"total"`
}

// tcoVectorOffers are offers that between them take every branch of the
// arithmetic: billing increments and minimums; on-demand, committed terms,
// prepaid days, day and month units, spot; the legacy hidden-cost table;
// egress tiers and free volumes in GB and GiB; storage per GB-month,
// GiB-month and GB-hour; addresses charged alike, only when idle, per
// month, in a currency fx lacks; costs not recorded.
func tcoVectorOffers() (map[string]*catalog.Offer, []string) {
	asOf := time.Date(2026, 7, 30, 0, 0, 0, 0, time.UTC)
	hourly := &catalog.Provider{ID: "hourly", Billing: catalog.Billing{Increment: "per-hour", MinimumSeconds: ptr(3600)},
		HiddenCosts: &catalog.HiddenCosts{Currency: "EUR", EgressPerGB: ptr(0.05), StoragePerGBMonth: ptr(0.1), PublicIPPerHour: ptr(0.004)}}
	eip := &catalog.Provider{ID: "eip", Billing: catalog.Billing{Increment: "per-second"},
		ExtraCosts: []catalog.ExtraCost{
			{Kind: "egress", Currency: "CNY", Unit: "gb", AsOf: asOf, Tiers: []catalog.Tier{{UpToGB: ptr(100.0), Price: 0}, {UpToGB: ptr(1024.0), Price: 0.8}, {UpToGB: ptr(10240.0), Price: 0.6}, {Price: 0.5}}},
			{Kind: "block-storage", Currency: "CNY", Unit: "gib-month", AsOf: asOf, FreeGB: ptr(50.0), Price: ptr(0.35)},
			{Kind: "public-ipv4", Name: "in use", Applies: "bound", Currency: "CNY", Unit: "hour", AsOf: asOf, Price: ptr(0.0)},
			{Kind: "public-ipv4", Name: "unused", Applies: "idle", Region: "r1", Currency: "CNY", Unit: "hour", AsOf: asOf, Price: ptr(0.2)},
		}}
	minute := &catalog.Provider{ID: "minute", Billing: catalog.Billing{Increment: "per-minute", MinimumSeconds: ptr(600)},
		ExtraCosts: []catalog.ExtraCost{
			{Kind: "egress", Currency: "USD", Unit: "gib", AsOf: asOf, FreeGB: ptr(10.0), Price: ptr(0.12)},
			{Kind: "block-storage", Currency: "USD", Unit: "gb-hour", AsOf: asOf, Price: ptr(0.0001)},
			{Kind: "public-ipv4", Currency: "CNY", Unit: "month", AsOf: asOf, Price: ptr(30.0)},
		}}
	sparse := &catalog.Provider{ID: "sparse", Billing: catalog.Billing{Increment: "per-second"},
		ExtraCosts: []catalog.ExtraCost{
			{Kind: "public-ipv4", Applies: "bound", Currency: "USD", Unit: "hour", AsOf: asOf, Price: ptr(0.005)},
			{Kind: "block-storage", Currency: "XYZ", Unit: "gb-month", AsOf: asOf, Price: ptr(1.0)}, // no rate to convert it
		}}
	cny := func(o *catalog.Offer) *catalog.Offer { o.Currency = "CNY"; return o }
	offers := map[string]*catalog.Offer{
		"hourly, legacy hidden costs": offerOf(hourly, catalog.Price{Billing: "on-demand", Price: 2},
			catalog.Price{Billing: "committed", TermMonths: 12, Price: 1.2}, catalog.Price{Billing: "spot", Price: 0.8}),
		"per-second, bound and idle addresses, tiers and free volumes": cny(offerOf(eip, catalog.Price{Billing: "on-demand", Price: 28, Region: "r1"},
			catalog.Price{Billing: "spot", Price: 240, Unit: "day", Region: "r1"},
			catalog.Price{Billing: "committed", TermMonths: 1, Price: 15000, Unit: "month"},
			catalog.Price{Billing: "committed", Price: 600, Unit: "day"},
			catalog.Price{Billing: "committed", TermMonths: 36, Price: 14, Region: "r1"})),
		"per-minute, a monthly address fee": offerOf(minute, catalog.Price{Billing: "on-demand", Price: 1.1},
			catalog.Price{Billing: "committed", TermMonths: 6, Payment: "all-upfront", Price: 0.7}),
		"not recorded: idle addresses, egress, storage in an unknown currency": offerOf(sparse, catalog.Price{Billing: "on-demand", Price: 4}),
	}
	names := []string{"hourly, legacy hidden costs", "per-second, bound and idle addresses, tiers and free volumes",
		"per-minute, a monthly address fee", "not recorded: idle addresses, egress, storage in an unknown currency"}
	return offers, names
}

func tcoVectors() []tcoVector {
	fx := &catalog.FX{Base: "USD", Rates: map[string]float64{"EUR": 0.5, "CNY": 7}}
	offers, names := tcoVectorOffers()
	extras := []struct {
		storage, egress float64
		ips             int
	}{{0, 0, 0}, {500, 100, 1}, {40, 150, 2}, {2000, 20000, 3}, {50, 0, 1}, {0, 1500, 0}}
	var out []tcoVector
	for _, name := range names {
		o := offers[name]
		region := TCODefaultRegion(o)
		k := 0
		for _, util := range []float64{0, 0.1, 0.5, 1, 1.3} {
			for _, job := range []float64{0, 0.25, 8, 100} {
				e := extras[k%len(extras)]
				k++
				v := tcoVector{Name: fmt.Sprintf("%s: util %v, job %v h, %v GB stored, %v GB out, %d IPs", name, util, job, e.storage, e.egress, e.ips),
					Offer: TCOScriptIn(o, region, fx)}
				v.Input.Util, v.Input.Job, v.Input.Storage, v.Input.Egress, v.Input.IPs = util, job, e.storage, e.egress, e.ips
				r := TCOIn(o, region, TCOInput{Utilisation: util, JobHours: job, StorageGB: e.storage, EgressGB: e.egress, PublicIPs: e.ips}, fx)
				v.Want.Missing = append([]string{}, r.Missing...)
				for _, l := range r.Lines {
					v.Want.Lines = append(v.Want.Lines, tcoVectorLine{Hours: l.BilledHours, Compute: l.Compute, Extras: l.Extras, Total: l.Total})
				}
				out = append(out, v)
			}
		}
	}
	return out
}

// TestTCOVectors: the committed vectors are what TCOIn computes now (go
// test -update rewrites them; then make test-js checks the script).
func TestTCOVectors(t *testing.T) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", " ")
	if err := enc.Encode(tcoVectors()); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.MkdirAll(filepath.Dir(tcoVectorsFile), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(tcoVectorsFile, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(tcoVectorsFile)
	if err != nil {
		t.Fatalf("%v (go test ./generator/internal/derive -run TestTCOVectors -update writes it)", err)
	}
	if !bytes.Equal(got, b.Bytes()) {
		t.Errorf("%s is not what TCOIn computes now: run go test ./generator/internal/derive -run TestTCOVectors -update, then make test-js to check static/js/_tco.mjs against it", tcoVectorsFile)
	}
}

// TestTCOConditions: hidden costs apply by their conditions. An address
// bound to the running instance pays the bound rate (Tencent's EIP pays
// nothing then), the idle rate only for the hours the instance is off;
// free volumes come off before tiers; a monthly fee is paid once; a cost
// the data lacks is reported missing, not charged as zero.
func TestTCOConditions(t *testing.T) {
	fx := &catalog.FX{Base: "USD", Rates: map[string]float64{"EUR": 0.5, "CNY": 7}}
	offers, _ := tcoVectorOffers()
	eip := offers["per-second, bound and idle addresses, tiers and free volumes"]
	near := func(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
	for _, tc := range []struct {
		name   string
		offer  *catalog.Offer
		in     TCOInput
		extras float64
		miss   []string
	}{
		{"always on: a bound EIP is free", eip, TCOInput{Utilisation: 1, PublicIPs: 1}, 0, nil},
		{"half the month: idle for 365 h at 0.2", eip, TCOInput{Utilisation: 0.5, PublicIPs: 2}, 2 * 365 * 0.2, nil},
		{"never running: idle all month", eip, TCOInput{PublicIPs: 1}, 730 * 0.2, nil},
		// 1500 GB out: the first 100 free, then 924 at 0.8, 476 at 0.6.
		{"egress: a free tier, then tiers", eip, TCOInput{Utilisation: 1, EgressGB: 1500}, 924*0.8 + 476*0.6, nil},
		{"egress within the free volume", eip, TCOInput{Utilisation: 1, EgressGB: 80}, 0, nil},
		// 100 GB = 93.13 GiB; 50 GiB free; 43.13 GiB at 0.35.
		{"storage: free GiB", eip, TCOInput{Utilisation: 1, StorageGB: 100}, (100*1e9/(1<<30) - 50) * 0.35, nil},
		// 100 GB = 93.13 GiB; 10 GiB free; 83.13 GiB at 0.12.
		{"egress: a free volume, then a flat price", offers["per-minute, a monthly address fee"], TCOInput{Utilisation: 1, EgressGB: 100}, (100*1e9/(1<<30) - 10) * 0.12, nil},
		{"a monthly address fee", offers["per-minute, a monthly address fee"], TCOInput{Utilisation: 0.3, PublicIPs: 2}, 2 * 30.0 / 7, nil},
		{"idle addresses not recorded", offers["not recorded: idle addresses, egress, storage in an unknown currency"], TCOInput{Utilisation: 0.5, PublicIPs: 1, StorageGB: 10, EgressGB: 10},
			365 * 0.005, []string{"storage", "egress", "public IP"}},
		{"always on: the bound rate is all that applies", offers["not recorded: idle addresses, egress, storage in an unknown currency"], TCOInput{Utilisation: 1, PublicIPs: 1}, 730 * 0.005, nil},
	} {
		r := TCOIn(tc.offer, TCODefaultRegion(tc.offer), tc.in, fx)
		if len(r.Lines) == 0 || !near(r.Lines[0].Extras, tc.extras) {
			t.Errorf("%s: extras %v, want %v", tc.name, r.Lines[0].Extras, tc.extras)
		}
		if fmt.Sprint(r.Missing) != fmt.Sprint(tc.miss) {
			t.Errorf("%s: missing %v, want %v", tc.name, r.Missing, tc.miss)
		}
	}
}
