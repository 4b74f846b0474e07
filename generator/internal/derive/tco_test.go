package derive

import (
	"math"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
)

func ptr[T any](v T) *T { return &v }

// loaded normalises prices the way catalog.Load does (units default to
// hour, legacy modes become committed).
func offerOf(prov *catalog.Provider, prices ...catalog.Price) *catalog.Offer {
	for i := range prices {
		if prices[i].Unit == "" {
			prices[i].Unit = "hour"
		}
		if prices[i].AsOf.IsZero() {
			prices[i].AsOf = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		}
	}
	return &catalog.Offer{Provider: prov, GPUCount: 1, Currency: "USD", Regions: []string{"r1", "r2"}, Prices: prices}
}

func TestTCO(t *testing.T) {
	fx := &catalog.FX{Base: "USD", Rates: map[string]float64{"EUR": 0.5}}
	prov := &catalog.Provider{ID: "p", Billing: catalog.Billing{Increment: "per-hour", MinimumSeconds: ptr(3600)},
		HiddenCosts: &catalog.HiddenCosts{Currency: "EUR", EgressPerGB: ptr(0.05), StoragePerGBMonth: ptr(0.1)}}
	o := offerOf(prov, catalog.Price{Billing: "on-demand", Price: 2},
		catalog.Price{Billing: "committed", TermMonths: 12, Price: 1.2}, catalog.Price{Billing: "spot", Price: 0.8})
	tests := []struct {
		name      string
		in        TCOInput
		wantTotal map[string]float64
		missing   int
	}{
		// 50 % of 730 h = 365 h; extras: 100 GB storage x 0.1 EUR = 10 EUR = 20 USD; 200 GB egress x 0.05 EUR = 10 EUR = 20 USD.
		{"half month with storage and egress", TCOInput{Utilisation: 0.5, StorageGB: 100, EgressGB: 200},
			map[string]float64{"on-demand": 365*2 + 40, "committed": 730*1.2 + 40, "spot": 365*0.8 + 40}, 0},
		// 73 h in runs of 0.5 h: 146 runs, each billed a full hour (per-hour increment) = 146 h.
		{"short runs round up to the hour", TCOInput{Utilisation: 0.1, JobHours: 0.5},
			map[string]float64{"on-demand": 146 * 2, "committed": 730 * 1.2, "spot": 146 * 0.8}, 0},
		{"public IP not recorded", TCOInput{Utilisation: 1, PublicIPs: 1},
			map[string]float64{"on-demand": 1460, "committed": 876, "spot": 584}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := TCO(o, tt.in, fx)
			if len(r.Lines) != 3 || r.Lines[0].Billing != "on-demand" || r.Lines[1].Billing != "committed" || r.Lines[2].Billing != "spot" {
				t.Fatalf("lines %+v, want on-demand, committed, spot", r.Lines)
			}
			for _, l := range r.Lines {
				if math.Abs(l.Total-tt.wantTotal[l.Billing]) > 1e-9 {
					t.Errorf("%s: total %v, want %v", l.Billing, l.Total, tt.wantTotal[l.Billing])
				}
			}
			if len(r.Missing) != tt.missing {
				t.Errorf("missing %v", r.Missing)
			}
			if l := r.Lines[1]; !l.HasBreakEven || math.Abs(l.BreakEven-0.6) > 1e-12 {
				t.Errorf("break-even %v, want 0.6 (1.2 / 2)", l.BreakEven)
			}
			if r.Lines[0].HasBreakEven || r.Lines[2].HasBreakEven {
				t.Error("only committed prices have a break-even")
			}
		})
	}
}

func TestTCORegionsUnitsAndExtraCosts(t *testing.T) {
	fx := &catalog.FX{Base: "USD", Rates: map[string]float64{"CNY": 7}}
	asOf := time.Date(2026, 7, 30, 0, 0, 0, 0, time.UTC)
	prov := &catalog.Provider{ID: "p", Billing: catalog.Billing{Increment: "per-second"},
		HiddenCosts: &catalog.HiddenCosts{Currency: "USD", EgressPerGB: ptr(9.0)}, // superseded by extra_costs
		ExtraCosts: []catalog.ExtraCost{
			{Kind: "egress", Currency: "USD", Unit: "gb", AsOf: asOf, Tiers: []catalog.Tier{{UpToGB: ptr(100.0), Price: 0}, {Price: 0.1}}},
			{Kind: "public-ipv4", Currency: "CNY", Unit: "month", Price: ptr(35.0), AsOf: asOf},
			{Kind: "block-storage", Region: "r2", Currency: "USD", Unit: "gb-month", Price: ptr(0.2), AsOf: asOf},
			{Kind: "stopped-instance", Currency: "USD", ComputeBilled: ptr(false), AsOf: asOf},
		}}
	o := offerOf(prov,
		catalog.Price{Billing: "on-demand", Price: 3, Region: "r1"},
		catalog.Price{Billing: "on-demand", Price: 2, Region: "r2"},
		catalog.Price{Billing: "committed", TermMonths: 36, Price: 1, Region: "r2"},
		catalog.Price{Billing: "committed", TermMonths: 1, Price: 1095, Unit: "month"}, // all regions: 1.5 per hour
		catalog.Price{Billing: "spot", Price: 48, Unit: "day"},                         // all regions: 2 per hour
		catalog.Price{Billing: "committed", Price: 40, Unit: "day"},                    // a prepaid day, all regions
	)
	if got := TCORegions(o); len(got) != 2 || got[0] != "r1" || got[1] != "r2" {
		t.Errorf("regions %v", got)
	}
	if r := TCODefaultRegion(o); r != "r2" {
		t.Errorf("default region %q, want r2 (the cheapest on-demand)", r)
	}
	in := TCOInput{Utilisation: 0.1, StorageGB: 50, EgressGB: 600, PublicIPs: 2}
	r := TCO(o, in, fx)
	// Extras: egress 500 GB x 0.1 = 50; 2 addresses x 35 CNY = 10 USD; storage 50 x 0.2 = 10 (r2 only).
	want := []struct {
		billing      string
		term         int
		hours, total float64
		be           float64
	}{
		{"on-demand", 0, 73, 73*2 + 70, 0},
		{"committed", 0, 96, 4*40 + 70, 0}, // 73 h in prepaid days: 4 days, no break-even
		{"committed", 1, 730, 1095 + 70, 0.75},
		{"committed", 36, 730, 730 + 70, 0.5},
		{"spot", 0, 96, 4*48 + 70, 0}, // 73 h in whole days: 4 days
	}
	if len(r.Lines) != len(want) {
		t.Fatalf("lines %+v", r.Lines)
	}
	for i, w := range want {
		l := r.Lines[i]
		if l.Billing != w.billing || l.TermMonths != w.term || math.Abs(l.BilledHours-w.hours) > 1e-9 || math.Abs(l.Total-w.total) > 1e-9 || math.Abs(l.BreakEven-w.be) > 1e-12 {
			t.Errorf("line %d: %+v, want %+v", i, l, w)
		}
	}
	if len(r.Missing) != 0 || len(r.Costs) != 3 || r.Stopped == nil {
		t.Errorf("missing %v, costs %+v, stopped %v", r.Missing, r.Costs, r.Stopped)
	}
	// In r1 there is no storage price and no committed 36-month price.
	r1 := TCOIn(o, "r1", in, fx)
	if len(r1.Lines) != 4 || r1.Lines[0].Price != 3 || len(r1.Missing) != 1 || r1.Missing[0] != "storage" {
		t.Errorf("r1: lines %+v, missing %v", r1.Lines, r1.Missing)
	}
}
