// Package derive computes what pages need from a validated catalog: price
// statistics per GPU, the flat price table, price ages, price histories
// and cheapest offers. It performs no I/O.
package derive

import (
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
)

// Row is one current price of an offer: the newest observation of one
// price key (billing mode, unit, term, payment, commitment, region), with
// derived figures and the key's history.
type Row struct {
	Offer *catalog.Offer
	// Price is the current observation (the newest of its key).
	Price catalog.Price
	// Evidence is the price's evidence kind: first-party,
	// first-party-docs-repo, third-party or community-dataset ("" where
	// the catalog records none).
	Evidence string
	// Region is the provider region id the price applies to; "" when it
	// applies to all of the offer's regions (Regions lists them).
	Region string
	// RegionName is the region's display name ("" with Region "").
	RegionName string
	// Regions are the region ids the row applies to: Region, or the
	// offer's regions; Cities their cities' keys (catalog.Region.CityKey),
	// each once.
	Regions []string
	Cities  []string
	// Countries are the ISO codes of those regions' countries, each once:
	// where the GPU runs, not where the provider has its headquarters
	// (empty when no region states one).
	Countries []string
	// TermMonths is the commitment term of a committed price, 0 otherwise.
	TermMonths int
	// Payment and Commitment describe a committed price ("" when not
	// stated).
	Payment, Commitment string
	// Unit is what the price is quoted per: hour, day, week or month.
	Unit string
	// HourlyEquivalent is the price per instance-hour in the offer's
	// currency: the price divided by the hours of its unit.
	HourlyEquivalent float64
	// History is every observation of the price's key, oldest first (the
	// current one last); a chart is drawn where it has two or more.
	History []HistoryPoint
	// Spread is set on a headline row (GPURows, OfferRows) whose mode is
	// priced in more than one region: the regional range.
	Spread *Spread

	// BehindDays is, for a spot or committed price observed more than a
	// year before the offer's newest on-demand price, how many days
	// before (0 otherwise): shown beside the on-demand price it is not a
	// current figure of the same offer, and pages mark it.
	BehindDays int

	PerGPU   float64 // hourly equivalent per GPU, in the offer's currency
	PerGPUDC float64 // hourly equivalent per GPU in the display currency
	InstDC   float64 // hourly equivalent per instance in the display currency
	AgeDays  int
	Band     string // fresh, ageing, stale
	// Current is the site's rule (catalog.Staleness.Current): the price
	// is at most stale_days old. Only current rows answer a question.
	Current bool
	// TFLOPSPerDC is dense BF16 TFLOPS per display-currency unit per hour, 0 if unknown.
	TFLOPSPerDC float64
	// Overlay is set when the price comes from a team's overlay
	// (Price.Overlay); PublicPerGPUDC is then the public price it
	// replaces, per GPU-hour in the display currency (0: none).
	Overlay        *catalog.Overlay
	PublicPerGPUDC float64
}

// HistoryPoint is one observation of a price.
type HistoryPoint struct {
	AsOf     time.Time
	Price    float64 // as quoted, per unit, in the offer's currency
	Hourly   float64 // the hourly equivalent, in the offer's currency
	Source   string
	Capture  string // the stored capture it was read from, if any (catalog.Price.Capture)
	Evidence string
}

// Spread is the range of one price mode across an offer's regions, per
// GPU-hour in the display currency.
type Spread struct {
	N                 int     // regions priced
	MinDC, MaxDC      float64 // cheapest and dearest region
	Cheapest, Dearest string  // their region ids
}

// Mode is a kind of price, whatever its region: a billing mode with its
// term (committed) and unit.
type Mode struct {
	Billing    string
	TermMonths int
	Payment    string
	Commitment string
	Unit       string
}

// Mode returns the row's mode.
func (r *Row) Mode() Mode {
	return Mode{Billing: r.Price.Billing, TermMonths: r.TermMonths, Payment: r.Payment, Commitment: r.Commitment, Unit: r.Unit}
}

// Stats summarises per-GPU-hour prices in the display currency: over the
// current rows only, or, where the GPU has none in the mode, over its
// stale rows with Stale set (pages then say so instead of presenting
// them as today's figures).
type Stats struct {
	N                int
	Min, Median, Max float64
	MinRow           *Row
	Stale            bool
	// Oldest and Newest are the dates of the prices the figures are
	// computed from, so a page can say how old its summary is.
	Oldest, Newest time.Time
}

// Data is the derived view of a catalog.
type Data struct {
	Cat      *catalog.Catalog
	Now      time.Time
	Currency string // display currency
	// Rows is every current price, each region separately, sorted by GPU,
	// billing mode, per-GPU price.
	Rows []*Row
	// Headline is one row per offer and mode: the cheapest region's, with
	// the regional Spread; the same order as Rows.
	Headline []*Row
	byGPU    map[string][]*Row // headline rows
	byOffer  map[string][]*Row // headline rows, in file order of their modes
	regional map[string][]*Row // every row of an offer, in file order
	sizes    *Fits             // memo of minGPUs
	serves   map[string]served // memo of serving, guarded by servesMu
	servesMu sync.Mutex
	offersOf map[*catalog.GPU][]*catalog.Offer
}

// New derives the data of c. now fixes "today" for price ages.
func New(c *catalog.Catalog, now time.Time) *Data { return NewWith(c, now, NewFits()) }

// NewWith is New with the sizing answers memoised in fits, which may be
// shared with other Data (see Fits).
func NewWith(c *catalog.Catalog, now time.Time, fits *Fits) *Data {
	d := &Data{Cat: c, Now: now, Currency: c.Site.DisplayCurrency, byGPU: map[string][]*Row{}, byOffer: map[string][]*Row{},
		regional: map[string][]*Row{}, sizes: fits, serves: map[string]served{}, offersOf: map[*catalog.GPU][]*catalog.Offer{}}
	if d.Currency == "" {
		d.Currency = c.FX.Base
	}
	for _, o := range c.Offers {
		d.offersOf[o.GPU] = append(d.offersOf[o.GPU], o)
		var rows []*Row
		hist := o.Histories()
		for _, p := range o.Current() {
			r := d.row(o, p, hist[p.Key()])
			rows = append(rows, r)
			d.Rows = append(d.Rows, r)
		}
		d.regional[o.ID] = rows
		markBehind(rows)
		// Headline rows: per mode, the cheapest region (first in file
		// order among equals).
		var order []Mode
		best := map[Mode]*Row{}
		all := map[Mode][]*Row{}
		for _, r := range rows {
			m := r.Mode()
			if best[m] == nil {
				order = append(order, m)
				best[m] = r
			} else if r.PerGPUDC < best[m].PerGPUDC {
				best[m] = r
			}
			all[m] = append(all[m], r)
		}
		for _, m := range order {
			h := best[m]
			if rs := all[m]; len(rs) > 1 {
				cp := *h
				s := &Spread{N: len(rs), MinDC: h.PerGPUDC, MaxDC: h.PerGPUDC, Cheapest: h.Region, Dearest: h.Region}
				for _, r := range rs {
					if r.PerGPUDC > s.MaxDC {
						s.MaxDC, s.Dearest = r.PerGPUDC, r.Region
					}
				}
				cp.Spread = s
				h = &cp
			}
			d.Headline = append(d.Headline, h)
			d.byGPU[o.GPU.ID] = append(d.byGPU[o.GPU.ID], h)
			d.byOffer[o.ID] = append(d.byOffer[o.ID], h)
		}
	}
	sort.SliceStable(d.Rows, func(i, j int) bool { return rowLess(d.Rows[i], d.Rows[j]) })
	sort.SliceStable(d.Headline, func(i, j int) bool { return rowLess(d.Headline[i], d.Headline[j]) })
	for _, rows := range d.byGPU {
		sort.SliceStable(rows, func(i, j int) bool { return rowLess(rows[i], rows[j]) })
	}
	return d
}

// row derives the row of one current price, whose observations, oldest
// first, are history (Offer.History of its key).
func (d *Data) row(o *catalog.Offer, p catalog.Price, history []catalog.Price) *Row {
	c := d.Cat
	r := &Row{Offer: o, Price: p, Evidence: p.EvidenceKind(), Region: p.Region, TermMonths: p.TermMonths,
		Payment: p.Payment, Commitment: p.Commitment, Unit: p.Unit, HourlyEquivalent: p.Hourly(), PerGPU: p.HourlyPerGPU(o)}
	if r.Region != "" {
		r.Regions = []string{r.Region}
		for _, reg := range o.Provider.Regions {
			if reg.ID == r.Region {
				r.RegionName = reg.DisplayName()
			}
		}
	} else {
		r.Regions = o.Regions
	}
	for _, id := range r.Regions {
		for _, reg := range o.Provider.Regions {
			if reg.ID != id {
				continue
			}
			if k := reg.CityKey(); k != "" && !slices.Contains(r.Cities, k) {
				r.Cities = append(r.Cities, k)
			}
			if reg.Country != "" && !slices.Contains(r.Countries, reg.Country) {
				r.Countries = append(r.Countries, reg.Country)
			}
		}
	}
	for _, h := range history {
		if m := h.Overlay; m != nil && m.Public != nil {
			h = *m.Public // the chart and history are the public observations
		}
		r.History = append(r.History, HistoryPoint{AsOf: h.AsOf, Price: h.Price, Hourly: h.Hourly(), Source: h.Source, Capture: h.Capture, Evidence: h.EvidenceKind()})
	}
	r.InstDC, _ = c.FX.Convert(r.HourlyEquivalent, o.Currency, d.Currency)
	r.PerGPUDC = r.InstDC / float64(o.GPUCount)
	if m := p.Overlay; m != nil {
		r.Overlay = m
		if m.Public != nil {
			pub, _ := c.FX.Convert(m.Public.Hourly(), o.Currency, d.Currency)
			r.PublicPerGPUDC = pub / float64(o.GPUCount)
		}
	}
	r.AgeDays = AgeDays(p.AsOf, d.Now)
	r.Band = Band(r.AgeDays, c.Site.Staleness)
	r.Current = c.Site.Staleness.Current(r.AgeDays)
	if o.GPU.BF16TFLOPS != nil && r.PerGPUDC > 0 {
		r.TFLOPSPerDC = *o.GPU.BF16TFLOPS / r.PerGPUDC
	}
	return r
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
	if a.TermMonths != b.TermMonths {
		return a.TermMonths < b.TermMonths
	}
	if a.PerGPUDC != b.PerGPUDC {
		return a.PerGPUDC < b.PerGPUDC
	}
	if a.Offer.ID != b.Offer.ID {
		return a.Offer.ID < b.Offer.ID
	}
	return a.Region < b.Region
}

// AgeDays is the number of whole days from asOf to now (never negative):
// catalog.AgeDays.
func AgeDays(asOf, now time.Time) int { return catalog.AgeDays(asOf, now) }

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

// GPURows returns the GPU's headline rows: one per offer and mode, at the
// offer's cheapest region (sorted by billing mode, term, then price).
func (d *Data) GPURows(id string) []*Row { return d.byGPU[id] }

// OfferRows returns the offer's headline rows (one per mode), in the order
// the modes first appear in its file.
func (d *Data) OfferRows(offerID string) []*Row { return d.byOffer[offerID] }

// RegionRows returns every current price of the offer, each region
// separately, in file order.
func (d *Data) RegionRows(offerID string) []*Row { return d.regional[offerID] }

// GPUModes returns the modes the GPU's offers are priced in, in display
// order (billing mode, then term, then unit).
func (d *Data) GPUModes(id string) []Mode {
	seen := map[Mode]bool{}
	var out []Mode
	for _, r := range d.byGPU[id] {
		m := Mode{Billing: r.Price.Billing, TermMonths: r.TermMonths}
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Billing != out[j].Billing {
			return modeIndex(out[i].Billing) < modeIndex(out[j].Billing)
		}
		return out[i].TermMonths < out[j].TermMonths
	})
	return out
}

// GPUStats returns per-GPU-hour price statistics for one GPU and billing
// mode, over its offers' current headline rows (one per offer and mode;
// see Stats for a GPU without current ones).
func (d *Data) GPUStats(id, billing string) Stats {
	return d.stats(id, func(r *Row) bool { return r.Price.Billing == billing })
}

// GPUModeStats returns the statistics of one GPU for a billing mode and
// term (as GPUModes lists them).
func (d *Data) GPUModeStats(id string, m Mode) Stats {
	return d.stats(id, func(r *Row) bool { return r.Price.Billing == m.Billing && r.TermMonths == m.TermMonths })
}

func (d *Data) stats(id string, keep func(*Row) bool) Stats {
	current := false
	for _, r := range d.byGPU[id] {
		if keep(r) && r.Current {
			current = true
			break
		}
	}
	var vals []float64
	s := Stats{Stale: !current}
	for _, r := range d.byGPU[id] {
		if !keep(r) || r.Current != current {
			continue
		}
		vals = append(vals, r.PerGPUDC)
		if at := r.Price.AsOf; s.Oldest.IsZero() || at.Before(s.Oldest) {
			s.Oldest = at
		}
		if at := r.Price.AsOf; at.After(s.Newest) {
			s.Newest = at
		}
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

// markBehind sets BehindDays on an offer's spot and committed rows
// observed over a year before its newest on-demand price.
func markBehind(rows []*Row) {
	var od time.Time
	for _, r := range rows {
		if r.Price.Billing == "on-demand" && r.Price.AsOf.After(od) {
			od = r.Price.AsOf
		}
	}
	if od.IsZero() {
		return
	}
	for _, r := range rows {
		if days := int(od.Sub(r.Price.AsOf).Hours() / 24); r.Price.Billing != "on-demand" && days > 365 {
			r.BehindDays = days
		}
	}
}

// Newest returns the date of a provider's newest current price and its
// age band (fresh, ageing, stale); a zero time and "" when it has none.
func (d *Data) Newest(p *catalog.Provider) (time.Time, string) {
	var newest time.Time
	for _, o := range p.Offers {
		for _, pr := range o.Current() {
			if pr.AsOf.After(newest) {
				newest = pr.AsOf
			}
		}
	}
	if newest.IsZero() {
		return newest, ""
	}
	return newest, Band(int(d.Now.Sub(newest).Hours()/24), d.Cat.Site.Staleness)
}

// Cheapest returns the cheapest current on-demand row for a GPU, else
// (every on-demand price of the GPU is stale) the cheapest stale one,
// whose Current is false and pages word as stale; nil when the GPU has no
// on-demand price. A ranking
// of current prices does not put a six-year-old figure first.
func (d *Data) Cheapest(id string) *Row {
	var best, stale *Row
	for _, r := range d.byGPU[id] {
		if r.Price.Billing != "on-demand" {
			continue
		}
		at := &best
		if !r.Current {
			at = &stale
		}
		if *at == nil || r.PerGPUDC < (*at).PerGPUDC {
			*at = r
		}
	}
	if best != nil {
		return best
	}
	return stale
}

// OfferAges counts the offers of rows (headline or regional rows of any
// set of offers) and those with no current row (stale offers), and
// returns the date of the newest price among the rows.
func OfferAges(rows []*Row) (offers, stale int, newest time.Time) {
	current := map[*catalog.Offer]bool{}
	for _, r := range rows {
		current[r.Offer] = current[r.Offer] || r.Current
		if r.Price.AsOf.After(newest) {
			newest = r.Price.AsOf
		}
	}
	for _, c := range current {
		if !c {
			stale++
		}
	}
	return len(current), stale, newest
}
