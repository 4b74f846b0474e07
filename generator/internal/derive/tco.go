package derive

import (
	"math"

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

// TCOLine is the monthly cost of one billing mode, in the offer's currency.
type TCOLine struct {
	Billing     string
	Compute     float64 // instance hours billed x hourly price
	Extras      float64 // storage, egress and public IPs (0 where the provider data records none)
	Total       float64
	BilledHours float64
}

// TCOResult is the monthly cost of an offer in every mode it is priced in,
// with the break-even utilisation between on-demand and each other mode.
type TCOResult struct {
	Lines []TCOLine
	// BreakEven maps "reserved-1y" etc. to the utilisation above which it
	// is cheaper than on-demand (reserved is paid for every hour of the
	// month; spot is billed per hour used, so it has no break-even).
	BreakEven map[string]float64
	// Missing names the hidden costs the provider data does not record.
	Missing []string
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

// TCO computes the monthly cost of an offer. Amounts are in the offer's
// currency; hidden costs recorded in another currency are converted with fx.
func TCO(o *catalog.Offer, in TCOInput, fx *catalog.FX) TCOResult {
	res := TCOResult{BreakEven: map[string]float64{}}
	p := o.Provider
	extras := 0.0
	h := p.HiddenCosts
	add := func(name string, rate *float64, qty float64) {
		if qty <= 0 {
			return
		}
		if h == nil || rate == nil {
			res.Missing = append(res.Missing, name)
			return
		}
		v, ok := fx.Convert(*rate*qty, h.Currency, o.Currency)
		if !ok {
			res.Missing = append(res.Missing, name)
			return
		}
		extras += v
	}
	if h != nil {
		add("storage", h.StoragePerGBMonth, in.StorageGB)
		add("egress", h.EgressPerGB, in.EgressGB)
		add("public IP", h.PublicIPPerHour, float64(in.PublicIPs)*HoursPerMonth)
	} else {
		add("storage", nil, in.StorageGB)
		add("egress", nil, in.EgressGB)
		add("public IP", nil, float64(in.PublicIPs))
	}
	billed := billedHours(in, p)
	od, hasOD := o.Price("on-demand")
	for _, pr := range o.Prices {
		l := TCOLine{Billing: pr.Billing, Extras: extras}
		switch pr.Billing {
		case "reserved-1y", "reserved-3y":
			l.BilledHours = HoursPerMonth
			if hasOD && od.Price > 0 {
				res.BreakEven[pr.Billing] = pr.Price / od.Price
			}
		default:
			l.BilledHours = billed
		}
		l.Compute = l.BilledHours * pr.Price
		l.Total = l.Compute + l.Extras
		res.Lines = append(res.Lines, l)
	}
	return res
}
