package derive

import (
	"math"
	"sort"
	"strings"
	"time"

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
	Hourly     float64   // the hourly equivalent
	AsOf       time.Time // the date the price was true
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
	Kind string // egress, public-ipv4, block-storage
	// Applies is, for an address, the condition charged ("bound",
	// "idle"; "": either).
	Applies string
	Amount  float64 // per month, in the offer's currency
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
// for prices that name none). Amounts are in the offer's currency, with
// the hidden-cost rates of TCORatesIn. Addresses are bound to the instance
// while it runs (Utilisation of the month) and idle the rest of the month.
func TCOIn(o *catalog.Offer, region string, in TCOInput, fx *catalog.FX) TCOResult {
	res := TCOResult{Region: region}
	rates := TCORatesIn(o, region, fx)
	run := RunHours(in.Utilisation)
	extras := 0.0
	for _, k := range []struct {
		kind, name string
		rate       *VolumeRate
		qty        float64
	}{
		{"block-storage", "storage", rates.Storage, in.StorageGB},
		{"egress", "egress", rates.Egress, in.EgressGB},
	} {
		if k.qty <= 0 {
			continue
		}
		if k.rate == nil {
			res.Missing = append(res.Missing, k.name)
			continue
		}
		v := k.rate.Charge(k.qty)
		extras += v
		res.Costs = append(res.Costs, TCOCost{Kind: k.kind, Amount: v, Entry: k.rate.entry, Legacy: k.rate.legacy})
	}
	if n := float64(in.PublicIPs); n > 0 {
		if rates.AddressesMissing(run) {
			res.Missing = append(res.Missing, "public IP")
		}
		for _, a := range rates.Addresses {
			v := a.Charge(n, run)
			extras += v
			res.Costs = append(res.Costs, TCOCost{Kind: "public-ipv4", Applies: a.On, Amount: v, Entry: a.entry, Legacy: a.legacy})
		}
	}
	if e, ok := o.Provider.CostFor("stopped-instance", costRegion(o, region)); ok {
		res.Stopped = &e
	}
	billed := billedHours(in, o.Provider)
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
			Unit: pr.Unit, Region: pr.Region, Price: pr.Price, Hourly: pr.Hourly(), AsOf: pr.AsOf, Extras: extras, Overlay: pr.Overlay}
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

// TCOScript is what the TCO page's script needs of an offer priced in a
// region to compute TCOIn for any input (static/js/_tco.mjs): its price
// lines, its provider's billing increment and minimum, and the hidden-cost
// rates.
type TCOScript struct {
	Lines []TCOScriptLine `json:"lines"`
	Inc   string          `json:"inc"`
	Min   int             `json:"min"` // seconds
	TCORates
}

// TCOScriptLine is a price line of TCOScript, in TCOIn's order.
type TCOScriptLine struct {
	Billing   string  `json:"billing"`
	Term      int     `json:"term"` // committed: months; 0 for a prepaid day or week
	Price     float64 `json:"price"`
	Hourly    float64 `json:"hourly"`
	UnitHours float64 `json:"unitHours"`
}

// TCOScriptIn returns the script's data for an offer priced in a region.
func TCOScriptIn(o *catalog.Offer, region string, fx *catalog.FX) TCOScript {
	s := TCOScript{Inc: o.Provider.Billing.Increment, TCORates: TCORatesIn(o, region, fx), Lines: []TCOScriptLine{}}
	if m := o.Provider.Billing.MinimumSeconds; m != nil {
		s.Min = *m
	}
	for _, p := range regionPrices(o, region) {
		s.Lines = append(s.Lines, TCOScriptLine{Billing: p.Billing, Term: p.TermMonths, Price: p.Price, Hourly: p.Hourly(), UnitHours: p.HoursPerUnit()})
	}
	return s
}

// RunHours is the hours of the month an instance runs at a utilisation
// (clamped to 0..1).
func RunHours(utilisation float64) float64 {
	return min(max(utilisation, 0), 1) * HoursPerMonth
}

// costRegion is the region whose hidden costs apply to an offer priced in
// region: that region, else the offer's first.
func costRegion(o *catalog.Offer, region string) string {
	if region == "" && len(o.Regions) > 0 {
		return o.Regions[0]
	}
	return region
}

// TCORates are the hidden-cost rates of an offer in a region, converted
// into the offer's currency and into GB (10^9 bytes): what TCOIn charges,
// and what the TCO page's script charges with (static/js/_tco.mjs, the
// same arithmetic, checked against TestTCOVectors' vectors). A nil rate is
// not recorded.
type TCORates struct {
	Storage *VolumeRate `json:"storage,omitempty"` // per GB-month kept
	Egress  *VolumeRate `json:"egress,omitempty"`  // per GB moved out in a month
	// Addresses are the charges per public IPv4 address kept all month;
	// NoAddress names the conditions ("bound", "idle") none covers.
	Addresses []AddressRate `json:"ip,omitempty"`
	NoAddress []string      `json:"noIP,omitempty"`
}

// VolumeRate charges a monthly volume in GB: FreeGB free, then the tiers
// (a flat price is one unbounded tier) on the volume above it.
type VolumeRate struct {
	FreeGB float64    `json:"free"`
	Tiers  []TierRate `json:"tiers"`
	entry  catalog.ExtraCost
	legacy bool
}

// TierRate is a volume tier: the price per GB up to UpToGB (nil: no bound)
// above the previous tier's bound.
type TierRate struct {
	UpToGB *float64 `json:"upTo"`
	Price  float64  `json:"price"`
}

// Charge is the cost of gb in a month.
func (v *VolumeRate) Charge(gb float64) float64 {
	vol := max(gb-v.FreeGB, 0)
	total, below := 0.0, 0.0
	for _, t := range v.Tiers {
		upper := math.Inf(1)
		if t.UpToGB != nil {
			upper = *t.UpToGB
		}
		if vol > below {
			total += (min(vol, upper) - below) * t.Price
		}
		below = upper
	}
	return total
}

// AddressRate is one charge per public address: PerHour for every hour it
// spends in its condition On ("bound": its instance runs; "idle": the rest
// of the month; "": every hour), or PerMonth once when it spends any.
type AddressRate struct {
	On       string  `json:"on"`
	PerHour  float64 `json:"hour"`
	PerMonth float64 `json:"month"`
	entry    catalog.ExtraCost
	legacy   bool
}

// Charge is the cost of n addresses for a month in which the instance
// runs run hours.
func (a AddressRate) Charge(n, run float64) float64 {
	hours := float64(HoursPerMonth)
	switch a.On {
	case "bound":
		hours = run
	case "idle":
		hours = HoursPerMonth - run
	}
	if hours <= 0 {
		return 0
	}
	return n * (a.PerHour*hours + a.PerMonth)
}

// AddressesMissing says whether addresses spend hours of a month with run
// hours of use in a condition no charge is recorded for.
func (r TCORates) AddressesMissing(run float64) bool {
	for _, c := range r.NoAddress {
		if (c == "bound" && run > 0) || (c == "idle" && run < HoursPerMonth) {
			return true
		}
	}
	return false
}

// TCORatesIn returns the hidden-cost rates of an offer priced in a region:
// the provider's current [[extra_costs]] for the region (see
// catalog.Provider.CostFor; addresses by condition, CostWhen), else its
// [hidden_costs] table. A rate recorded in a currency fx cannot convert
// is not recorded.
func TCORatesIn(o *catalog.Offer, region string, fx *catalog.FX) TCORates {
	p := o.Provider
	reg := costRegion(o, region)
	conv := func(v float64, cur string) (float64, bool) { return fx.Convert(v, cur, o.Currency) }
	var r TCORates
	for _, kind := range []string{"block-storage", "egress"} {
		var rate *VolumeRate
		if e, ok := p.CostFor(kind, reg); ok {
			rate = volumeRate(e, conv)
		}
		if legacy := legacyRate(p, kind); rate == nil && legacy != nil {
			if v, ok := conv(*legacy, p.HiddenCosts.Currency); ok {
				rate = &VolumeRate{Tiers: []TierRate{{Price: v}}, legacy: true}
			}
		}
		if kind == "egress" {
			r.Egress = rate
		} else {
			r.Storage = rate
		}
	}
	bound, okB := p.CostWhen("public-ipv4", "bound", reg)
	idle, okI := p.CostWhen("public-ipv4", "idle", reg)
	switch {
	case okB && okI && bound.Key() == idle.Key():
		// One charge whatever the address's state.
		r.addAddress("", bound, conv)
	case okB || okI:
		if okB {
			r.addAddress("bound", bound, conv)
		} else {
			r.NoAddress = append(r.NoAddress, "bound")
		}
		if okI {
			r.addAddress("idle", idle, conv)
		} else {
			r.NoAddress = append(r.NoAddress, "idle")
		}
	default:
		if legacy := legacyRate(p, "public-ipv4"); legacy != nil {
			if v, ok := conv(*legacy, p.HiddenCosts.Currency); ok {
				r.Addresses = append(r.Addresses, AddressRate{PerHour: v, legacy: true})
				break
			}
		}
		r.NoAddress = []string{"bound", "idle"}
	}
	return r
}

// addAddress adds the charge of a public-ipv4 entry in a condition, or
// records the condition as missing when it cannot be converted.
func (r *TCORates) addAddress(on string, e catalog.ExtraCost, conv func(float64, string) (float64, bool)) {
	v, ok := 0.0, e.Price != nil
	if ok {
		v, ok = conv(*e.Price, e.Currency)
	}
	if !ok {
		if on == "" {
			r.NoAddress = append(r.NoAddress, "bound", "idle")
		} else {
			r.NoAddress = append(r.NoAddress, on)
		}
		return
	}
	a := AddressRate{On: on, entry: e}
	if e.Unit == "month" {
		a.PerMonth = v
	} else {
		a.PerHour = v
	}
	r.Addresses = append(r.Addresses, a)
}

// volumeRate converts an egress or block-storage entry into a rate per GB
// (per GB-month for storage) in the offer's currency; nil when it has no
// price or cannot be converted.
func volumeRate(e catalog.ExtraCost, conv func(float64, string) (float64, bool)) *VolumeRate {
	// Per GiB x GiB per GB is per GB; a GiB bound b is b / (GiB per GB) GB.
	scale := 1.0
	if strings.HasPrefix(e.Unit, "gib") {
		scale = gibPerGB
	}
	hours := 1.0
	if strings.HasSuffix(e.Unit, "-hour") {
		hours = HoursPerMonth
	}
	tiers := e.Tiers
	if len(tiers) == 0 {
		if e.Price == nil {
			return nil
		}
		tiers = []catalog.Tier{{Price: *e.Price}}
	}
	v := &VolumeRate{entry: e}
	if e.FreeGB != nil {
		v.FreeGB = *e.FreeGB / scale
	}
	for _, t := range tiers {
		price, ok := conv(t.Price*scale*hours, e.Currency)
		if !ok {
			return nil
		}
		tr := TierRate{Price: price}
		if t.UpToGB != nil {
			b := *t.UpToGB / scale
			tr.UpToGB = &b
		}
		v.Tiers = append(v.Tiers, tr)
	}
	return v
}

// gibPerGB is how many GiB one GB (10^9 bytes) is.
const gibPerGB = 1e9 / (1 << 30)

// legacyRate returns a rate of the provider's [hidden_costs] table, or nil.
func legacyRate(p *catalog.Provider, which string) *float64 {
	h := p.HiddenCosts
	if h == nil {
		return nil
	}
	switch which {
	case "block-storage":
		return h.StoragePerGBMonth
	case "egress":
		return h.EgressPerGB
	case "public-ipv4":
		return h.PublicIPPerHour
	}
	return nil
}
