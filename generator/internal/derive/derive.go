// Package derive computes what pages need from a validated catalog: price
// statistics per GPU, the flat price table, price ages and cheapest offers.
// It performs no I/O.
package derive

import (
	"math"
	"sort"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
)

// Row is one priced offer in one billing mode, with derived figures.
type Row struct {
	Offer    *catalog.Offer
	Price    catalog.Price
	PerGPU   float64 // in the offer's currency
	PerGPUDC float64 // per GPU-hour in the display currency
	InstDC   float64 // per instance-hour in the display currency
	AgeDays  int
	Band     string // fresh, ageing, stale
	// TFLOPSPerDC is dense BF16 TFLOPS per display-currency unit per hour, 0 if unknown.
	TFLOPSPerDC float64
}

// Stats summarises per-GPU-hour prices in the display currency.
type Stats struct {
	N                int
	Min, Median, Max float64
	MinRow           *Row
}

// Data is the derived view of a catalog.
type Data struct {
	Cat      *catalog.Catalog
	Now      time.Time
	Currency string // display currency
	Rows     []*Row // every price, sorted by GPU, billing, per-GPU price
	byGPU    map[string][]*Row
	byOffer  map[string][]*Row
	fits     map[string]int // memo of minGPUs
}

// New derives the data of c. now fixes "today" for price ages.
func New(c *catalog.Catalog, now time.Time) *Data {
	d := &Data{Cat: c, Now: now, Currency: c.Site.DisplayCurrency, byGPU: map[string][]*Row{}, byOffer: map[string][]*Row{}, fits: map[string]int{}}
	if d.Currency == "" {
		d.Currency = c.FX.Base
	}
	for _, o := range c.Offers {
		for _, p := range o.Prices {
			r := &Row{Offer: o, Price: p, PerGPU: p.PerGPU(o)}
			r.InstDC, _ = c.FX.Convert(p.Price, o.Currency, d.Currency)
			r.PerGPUDC = r.InstDC / float64(o.GPUCount)
			r.AgeDays = AgeDays(p.AsOf, now)
			r.Band = Band(r.AgeDays, c.Site.Staleness)
			if o.GPU.BF16TFLOPS != nil && r.PerGPUDC > 0 {
				r.TFLOPSPerDC = *o.GPU.BF16TFLOPS / r.PerGPUDC
			}
			d.Rows = append(d.Rows, r)
			d.byGPU[o.GPU.ID] = append(d.byGPU[o.GPU.ID], r)
			d.byOffer[o.ID] = append(d.byOffer[o.ID], r)
		}
	}
	sort.SliceStable(d.Rows, func(i, j int) bool { return rowLess(d.Rows[i], d.Rows[j]) })
	for _, rows := range d.byGPU {
		sort.SliceStable(rows, func(i, j int) bool { return rowLess(rows[i], rows[j]) })
	}
	return d
}

func modeIndex(m string) int {
	for i, x := range catalog.BillingModes() {
		if x == m {
			return i
		}
	}
	return len(catalog.BillingModes())
}

func rowLess(a, b *Row) bool {
	if a.Offer.GPU.ID != b.Offer.GPU.ID {
		return a.Offer.GPU.ID < b.Offer.GPU.ID
	}
	if a.Price.Billing != b.Price.Billing {
		return modeIndex(a.Price.Billing) < modeIndex(b.Price.Billing)
	}
	if a.PerGPUDC != b.PerGPUDC {
		return a.PerGPUDC < b.PerGPUDC
	}
	return a.Offer.ID < b.Offer.ID
}

// AgeDays is the number of whole days from asOf to now (never negative).
func AgeDays(asOf, now time.Time) int {
	a := time.Date(asOf.Year(), asOf.Month(), asOf.Day(), 0, 0, 0, 0, time.UTC)
	n := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	days := int(n.Sub(a).Hours() / 24)
	if days < 0 {
		return 0
	}
	return days
}

// Band names a price age: "fresh" up to FreshDays, "ageing" up to
// StaleDays, "stale" beyond.
func Band(days int, s catalog.Staleness) string {
	switch {
	case days <= s.FreshDays:
		return "fresh"
	case days <= s.StaleDays:
		return "ageing"
	default:
		return "stale"
	}
}

// GPURows returns the GPU's price rows (sorted by billing mode, then price).
func (d *Data) GPURows(id string) []*Row { return d.byGPU[id] }

// OfferRows returns the offer's price rows in file order.
func (d *Data) OfferRows(offerID string) []*Row { return d.byOffer[offerID] }

// GPUStats returns per-GPU-hour price statistics for one GPU and billing mode.
func (d *Data) GPUStats(id, billing string) Stats {
	var vals []float64
	var s Stats
	for _, r := range d.byGPU[id] {
		if r.Price.Billing != billing {
			continue
		}
		vals = append(vals, r.PerGPUDC)
		if s.MinRow == nil || r.PerGPUDC < s.MinRow.PerGPUDC {
			s.MinRow = r
		}
	}
	if len(vals) == 0 {
		return s
	}
	sort.Float64s(vals)
	s.N = len(vals)
	s.Min, s.Max = vals[0], vals[len(vals)-1]
	if len(vals)%2 == 1 {
		s.Median = vals[len(vals)/2]
	} else {
		s.Median = (vals[len(vals)/2-1] + vals[len(vals)/2]) / 2
	}
	return s
}

// Cheapest returns the cheapest on-demand row for a GPU, or nil.
func (d *Data) Cheapest(id string) *Row { return d.GPUStats(id, "on-demand").MinRow }

// Round2 rounds to cents for display and exports.
func Round2(v float64) float64 { return math.Round(v*100) / 100 }
