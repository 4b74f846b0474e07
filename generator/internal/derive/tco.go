package derive

import (
	"math"
	"sort"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
)

// HoursPerMonth is the average month, 365 × 24 / 12 hours.
const HoursPerMonth = 730

// TCOInput is a monthly usage pattern for one offer.
type TCOInput struct {
	Utilisation float64 // share of the month the instance runs, 0..1
	JobHours    float64 // length of one run; billing rounds each run up to the increment/minimum (0: ignore)
	StorageGB   float64 // block storage kept all month
	EgressGB    float64 // data out per month
	PublicIPs   int     // public addresses kept all month
}

// TCOLine is the monthly cost of one current price of the offer in the
// chosen region, in the offer's currency.
type TCOLine struct {
	Billing    string // on-demand, committed or spot
	TermMonths int    // committed only
	Payment    string // committed only, may be empty
	Commitment string // committed only, may be empty
	Unit       string // the price's unit
	Region     string // the price's region; "" when it applies to all the offer's regions
	Price      float64
	Hourly     float64 // the hourly equivalent
	// Overlay marks a price from a team's overlay (catalog.Price.Overlay).
	Overlay *catalog.Overlay
	// BilledHours are the hours paid for: usage rounded up to the billing
	// increment and minimum, then to whole units for day/week/month
	// prices and prepaid days or weeks; every hour of the month for a
	// committed term.
	BilledHours float64
	Compute     float64 // what the billed hours cost
	Extras      float64 // storage, egress and public IPs (only those the provider data records)
	Total       float64
	// BreakEven is, for a committed price with an on-demand price beside
	// it, the utilisation above which the commitment is cheaper (its
	// hourly equivalent / the on-demand one); HasBreakEven says whether it
	// is set.
	BreakEven    float64
	HasBreakEven bool
}

// TCOCost is one hidden cost counted, converted into the offer's currency.
type TCOCost struct {
	Kind   string  // egress, public-ipv4, block-storage
	Amount float64 // per month, in the offer's currency
	// Entry is the dated provider entry it was computed from; Legacy is
	// true when it came from the undated [hidden_costs] table instead.
	Entry  catalog.ExtraCost
	Legacy bool
}

// TCOResult is the monthly cost of an offer in every mode it is priced in
// the region, with the break-even utilisation of each commitment.
type TCOResult struct {
	Region string // the region priced; "" when the offer's prices name none
	Lines  []TCOLine
	Costs  []TCOCost
	// Missing names the hidden costs asked for that the provider data
	// does not record ("storage", "egress", "public IP").
	Missing []string
	// Stopped is the provider's stopped-instance entry for the region,
	// when it records one.
	Stopped *catalog.ExtraCost
}

// billedHours rounds usage up to the provider's billing increment and
// minimum charge, run by run.
func billedHours(in TCOInput, p *catalog.Provider) float64 {
	used := in.Utilisation * HoursPerMonth
	if in.JobHours <= 0 || used <= 0 {
		return used
	}
	runs := math.Ceil(used / in.JobHours)
	per := in.JobHours * 3600 // seconds per run
	switch p.Billing.Increment {
	case "per-hour":
		per = math.Ceil(per/3600) * 3600
	case "per-minute":
		per = math.Ceil(per/60) * 60
	}
	if p.Billing.MinimumSeconds != nil && per < float64(*p.Billing.MinimumSeconds) {
		per = float64(*p.Billing.MinimumSeconds)
	}
	return runs * per / 3600
}

// TCORegions returns the regions the offer's TCO can be priced in: the
// regions its on-demand prices name (file order), or [""] when its prices
// name none.
func TCORegions(o *catalog.Offer) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range o.Current() {
		if p.Region != "" && !seen[p.Region] {
			seen[p.Region] = true
			out = append(out, p.Region)
		}
	}
	if len(out) == 0 {
		return []string{""}
	}
	return out
}

// TCODefaultRegion is the region the TCO page prices an offer in by
// default: that of its cheapest current on-demand price (else of its
// cheapest price).
func TCODefaultRegion(o *catalog.Offer) string {
	if p, ok := o.Price("on-demand"); ok {
		return p.Region
	}
	best := -1.0
	region := ""
	for _, p := range o.Current() {
		if best < 0 || p.Hourly() < best {
			best, region = p.Hourly(), p.Region
		}
	}
	return region
}

// regionPrices returns the offer's current prices that apply in region:
// per mode, the price naming the region, else the one naming none. They
// are ordered on-demand, committed (by term), spot.
func regionPrices(o *catalog.Offer, region string) []catalog.Price {
	byMode := map[catalog.PriceKey]catalog.Price{}
	var order []catalog.PriceKey
	for _, p := range o.Current() {
		if p.Region != region && p.Region != "" {
			continue
		}
		m := p.Key().Mode()
		if q, ok := byMode[m]; !ok {
			order = append(order, m)
			byMode[m] = p
		} else if q.Region == "" && p.Region == region {
			byMode[m] = p
		}
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if a.Billing != b.Billing {
			return modeIndex(a.Billing) < modeIndex(b.Billing)
		}
		return a.TermMonths < b.TermMonths
	})
	out := make([]catalog.Price, len(order))
	for i, m := range order {
		out[i] = byMode[m]
	}
	return out
}

// TCO computes the monthly cost of an offer in its default region
// (TCODefaultRegion).
func TCO(o *catalog.Offer, in TCOInput, fx *catalog.FX) TCOResult {
	return TCOIn(o, TCODefaultRegion(o), in, fx)
}

// TCOIn computes the monthly cost of an offer priced in a region (""
// for prices that name none). Amounts are in the offer's currency; hidden
// costs recorded in another currency are converted with fx. Hidden costs
// come from the provider's current [[extra_costs]] for the region (see
// catalog.Provider.CostFor), else from its [hidden_costs] table.
func TCOIn(o *catalog.Offer, region string, in TCOInput, fx *catalog.FX) TCOResult {
	res := TCOResult{Region: region}
	p := o.Provider
	costRegion := region
	if costRegion == "" && len(o.Regions) > 0 {
		costRegion = o.Regions[0]
	}
	extras := 0.0
	for _, k := range []struct {
		kind, name string
		qty        float64
		legacy     *float64
		legacyQty  float64
	}{
		{"block-storage", "storage", in.StorageGB, legacyRate(p, "storage"), in.StorageGB},
		{"egress", "egress", in.EgressGB, legacyRate(p, "egress"), in.EgressGB},
		{"public-ipv4", "public IP", float64(in.PublicIPs), legacyRate(p, "ip"), float64(in.PublicIPs) * HoursPerMonth},
	} {
		if k.qty <= 0 {
			continue
		}
		if e, ok := p.CostFor(k.kind, costRegion); ok {
			if amt, ok := e.Amount(k.qty); ok {
				if v, ok := fx.Convert(amt, e.Currency, o.Currency); ok {
					extras += v
					res.Costs = append(res.Costs, TCOCost{Kind: k.kind, Amount: v, Entry: e})
					continue
				}
			}
		}
		if k.legacy != nil {
			if v, ok := fx.Convert(*k.legacy*k.legacyQty, p.HiddenCosts.Currency, o.Currency); ok {
				extras += v
				res.Costs = append(res.Costs, TCOCost{Kind: k.kind, Amount: v, Legacy: true})
				continue
			}
		}
		res.Missing = append(res.Missing, k.name)
	}
	if e, ok := p.CostFor("stopped-instance", costRegion); ok {
		res.Stopped = &e
	}
	billed := billedHours(in, p)
	prices := regionPrices(o, region)
	var od *catalog.Price
	for i := range prices {
		if prices[i].Billing == "on-demand" {
			od = &prices[i]
			break
		}
	}
	for _, pr := range prices {
		l := TCOLine{Billing: pr.Billing, TermMonths: pr.TermMonths, Payment: pr.Payment, Commitment: pr.Commitment,
			Unit: pr.Unit, Region: pr.Region, Price: pr.Price, Hourly: pr.Hourly(), Extras: extras, Overlay: pr.Overlay}
		switch {
		case pr.Billing == "committed" && pr.TermMonths == 0 && pr.HoursPerUnit() > 1:
			// A prepaid day or week (包日, 包周): whole periods cover the usage.
			units := math.Ceil(billed/pr.HoursPerUnit() - 1e-9)
			l.BilledHours = units * pr.HoursPerUnit()
			l.Compute = units * pr.Price
		case pr.Billing == "committed":
			l.BilledHours = HoursPerMonth
			l.Compute = HoursPerMonth * pr.Hourly()
			if od != nil && od.Hourly() > 0 {
				l.BreakEven, l.HasBreakEven = pr.Hourly()/od.Hourly(), true
			}
		case pr.HoursPerUnit() > 1:
			// Rented by the day, week or month: whole units cover the usage.
			units := math.Ceil(billed/pr.HoursPerUnit() - 1e-9)
			l.BilledHours = units * pr.HoursPerUnit()
			l.Compute = units * pr.Price
		default:
			l.BilledHours = billed
			l.Compute = billed * pr.Price
		}
		l.Total = l.Compute + l.Extras
		res.Lines = append(res.Lines, l)
	}
	return res
}

// legacyRate returns a rate of the provider's [hidden_costs] table, or nil.
func legacyRate(p *catalog.Provider, which string) *float64 {
	h := p.HiddenCosts
	if h == nil {
		return nil
	}
	switch which {
	case "storage":
		return h.StoragePerGBMonth
	case "egress":
		return h.EgressPerGB
	case "ip":
		return h.PublicIPPerHour
	}
	return nil
}
