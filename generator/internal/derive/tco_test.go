package derive

import (
	"math"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
)

func ptr[T any](v T) *T { return &v }

func TestTCO(t *testing.T) {
	fx := &catalog.FX{Base: "USD", Rates: map[string]float64{"EUR": 0.5}}
	prov := &catalog.Provider{ID: "p", Billing: catalog.Billing{Increment: "per-hour", MinimumSeconds: ptr(3600)},
		HiddenCosts: &catalog.HiddenCosts{Currency: "EUR", EgressPerGB: ptr(0.05), StoragePerGBMonth: ptr(0.1)}}
	o := &catalog.Offer{Provider: prov, GPUCount: 1, Currency: "USD", Prices: []catalog.Price{
		{Billing: "on-demand", Price: 2}, {Billing: "reserved-1y", Price: 1.2}, {Billing: "spot", Price: 0.8}}}
	tests := []struct {
		name      string
		in        TCOInput
		wantTotal map[string]float64
		missing   int
	}{
		// 50 % of 730 h = 365 h; extras: 100 GB storage x 0.1 EUR = 10 EUR = 20 USD; 200 GB egress x 0.05 EUR = 10 EUR = 20 USD.
		{"half month with storage and egress", TCOInput{Utilisation: 0.5, StorageGB: 100, EgressGB: 200},
			map[string]float64{"on-demand": 365*2 + 40, "reserved-1y": 730*1.2 + 40, "spot": 365*0.8 + 40}, 0},
		// 73 h in runs of 0.5 h: 146 runs, each billed a full hour (per-hour increment) = 146 h.
		{"short runs round up to the hour", TCOInput{Utilisation: 0.1, JobHours: 0.5},
			map[string]float64{"on-demand": 146 * 2, "reserved-1y": 730 * 1.2, "spot": 146 * 0.8}, 0},
		{"public IP not recorded", TCOInput{Utilisation: 1, PublicIPs: 1},
			map[string]float64{"on-demand": 1460, "reserved-1y": 876, "spot": 584}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := TCO(o, tt.in, fx)
			for _, l := range r.Lines {
				if math.Abs(l.Total-tt.wantTotal[l.Billing]) > 1e-9 {
					t.Errorf("%s: total %v, want %v", l.Billing, l.Total, tt.wantTotal[l.Billing])
				}
			}
			if len(r.Missing) != tt.missing {
				t.Errorf("missing %v", r.Missing)
			}
			if be := r.BreakEven["reserved-1y"]; math.Abs(be-0.6) > 1e-12 {
				t.Errorf("break-even %v, want 0.6 (1.2 / 2)", be)
			}
		})
	}
}
