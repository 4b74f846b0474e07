package derive

import (
	"slices"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

// TestCurrentAtEveryPickingPoint moves the clock over the fixture's
// on-demand prices of alpha-80gb (acme alpha.8x of 2025-06-01, drachen
// gpu.a1 of 2025-09-01; stale_days 365) and checks that every picking
// point (the cheapest price, the statistics, the cheapest fitting offer,
// the cost per million tokens) answers from current prices only, and
// words the stale ones as stale when nothing current is left.
func TestCurrentAtEveryPickingPoint(t *testing.T) {
	c := testcat.Fixture(t)
	m := c.Models[0]
	for _, tc := range []struct {
		name       string
		now        time.Time
		cheapest   string // offer id of Cheapest("alpha-80gb")
		current    bool   // whether that row is current
		statsN     int
		statsStale bool
		offers     int // on-demand offers with a current price
		// serve: whether a current offer holds a serving replica (the
		// batch needs 2 GPUs: only acme's 8-GPU offer holds one)
		serve bool
	}{
		{"both current", time.Date(2025, 11, 1, 0, 0, 0, 0, time.UTC), "", true, 2, false, 2, true},
		{"acme stale", time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC), "drachen/gpu-a1", true, 1, false, 1, false},
		{"two years ahead", time.Date(2027, 11, 1, 0, 0, 0, 0, time.UTC), "", false, 2, true, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := New(c, tc.now)
			r := d.Cheapest("alpha-80gb")
			if r == nil || r.Current != tc.current || (tc.cheapest != "" && r.Offer.ID != tc.cheapest) {
				t.Fatalf("Cheapest: %+v, want offer %q current %v", r, tc.cheapest, tc.current)
			}
			if r.Current != c.Site.Staleness.Current(AgeDays(r.Price.AsOf, tc.now)) {
				t.Errorf("Row.Current disagrees with the rule")
			}
			st := d.GPUStats("alpha-80gb", "on-demand")
			if st.N != tc.statsN || st.Stale != tc.statsStale {
				t.Errorf("GPUStats: N %d stale %v, want %d %v", st.N, st.Stale, tc.statsN, tc.statsStale)
			}
			for _, row := range d.GPURows("alpha-80gb") {
				if row.Price.Billing == "on-demand" && st.MinRow != nil && row.Current && !st.Stale && row.PerGPUDC < st.Min {
					t.Errorf("a current row %s is cheaper than the statistics' minimum", row.Offer.ID)
				}
			}
			cur, stale := d.CheapestFitting(map[string]int{"alpha-80gb": 1})
			for _, r := range cur {
				if !r.Current {
					t.Errorf("CheapestFitting returned a stale row %s (%s) as current", r.Offer.ID, r.Price.AsOf.Format(time.DateOnly))
				}
			}
			for _, r := range stale {
				if r.Current || slices.ContainsFunc(cur, func(c *Row) bool { return c.Price.Billing == r.Price.Billing }) {
					t.Errorf("CheapestFitting: stale row %s in a mode that has a current one", r.Offer.ID)
				}
			}
			sv, ok := d.serving(m, c.GPU("alpha-80gb"))
			if !ok || sv.Batch.N != 2 {
				t.Fatalf("the fixture's model no longer needs 2 alpha GPUs at the serving batch (%v, %d): fix the test's premise", ok, sv.Batch.N)
			}
			{
				switch {
				case tc.serve && (sv.Offer == nil || !c.Site.Staleness.CurrentAt(sv.AsOf, tc.now) || sv.Stale != nil):
					t.Errorf("serving cost from %v (as of %s), want a current offer and no stale fallback", sv.Offer, sv.AsOf.Format(time.DateOnly))
				case !tc.serve && sv.Offer != nil:
					t.Errorf("serving cost from %s of %s: no current price holds a replica", sv.Offer.ID, sv.AsOf.Format(time.DateOnly))
				case !tc.serve && (sv.Stale == nil || c.Site.Staleness.CurrentAt(sv.Stale.AsOf, tc.now)):
					t.Errorf("serving: want the stale fallback, worded as stale: %+v", sv.Stale)
				}
			}
			offers, staleOffers, _ := OfferAges(d.GPURows("alpha-80gb"))
			if offers-staleOffers < tc.offers {
				t.Errorf("OfferAges: %d of %d stale", staleOffers, offers)
			}
		})
	}
}

// TestCountriesAreWhereTheGPURuns: a row's countries come from its
// regions, never from the provider's headquarters.
func TestCountriesAreWhereTheGPURuns(t *testing.T) {
	c := testcat.Fixture(t)
	c.Providers[0].Country = "ZZ" // a headquarters the regions do not share
	d := New(c, time.Date(2025, 11, 1, 0, 0, 0, 0, time.UTC))
	for _, r := range d.Rows {
		var want []string
		for _, id := range r.Regions {
			for _, reg := range r.Offer.Provider.Regions {
				if reg.ID == id && !slices.Contains(want, reg.Country) {
					want = append(want, reg.Country)
				}
			}
		}
		if !slices.Equal(r.Countries, want) || slices.Contains(r.Countries, "ZZ") {
			t.Errorf("%s: countries %v, want %v (the regions')", r.Offer.ID, r.Countries, want)
		}
	}
}
