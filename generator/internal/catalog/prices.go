package catalog

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

// A price entry is one dated observation. Entries of an offer with the
// same key (billing mode, unit, term, payment, commitment, region) are
// the history of one price: the newest is the current price, the older
// ones are history. Two entries with the same key and the same as_of are
// an error.

// PriceKey identifies one price of an offer across its observations.
type PriceKey struct {
	Billing    string // on-demand, committed or spot (legacy modes normalised)
	Unit       string // hour, day, week or month
	TermMonths int    // committed only
	Payment    string // committed only, may be empty
	Commitment string // committed only, may be empty
	Region     string // a provider region id; empty: the offer's regions
}

// Key returns the price's key. Call it on loaded prices (normalised).
func (p Price) Key() PriceKey {
	return PriceKey{Billing: p.Billing, Unit: unitOr(p.Unit), TermMonths: p.TermMonths, Payment: p.Payment, Commitment: p.Commitment, Region: p.Region}
}

// Mode is the key without its region: what a price is, wherever it
// applies.
func (k PriceKey) Mode() PriceKey { k.Region = ""; return k }

// String describes the key for messages: "on-demand", "committed 12
// months, no-upfront, savings-plan, per month in us-east-1".
func (k PriceKey) String() string {
	s := k.Billing
	if k.Billing == "committed" {
		s += " " + strconv.Itoa(k.TermMonths) + " months"
		for _, x := range []string{k.Payment, k.Commitment} {
			if x != "" {
				s += ", " + x
			}
		}
	}
	if k.Unit != "" && k.Unit != "hour" {
		s += ", per " + k.Unit
	}
	if k.Region != "" {
		s += " in " + k.Region
	}
	return s
}

func unitOr(u string) string {
	if u == "" {
		return "hour"
	}
	return u
}

// HoursPerUnit is the hours the price's unit stands for (1 for an hourly
// price; day 24, week 168, month 730).
func (p Price) HoursPerUnit() float64 { return UnitHours(p.Unit) }

// Hourly is the hourly equivalent of the price per instance: the price
// divided by the hours of its unit. For an hourly price it is the price.
func (p Price) Hourly() float64 {
	h := p.HoursPerUnit()
	if h == 0 {
		return 0
	}
	return p.Price / h
}

// HourlyPerGPU is the hourly equivalent per GPU.
func (p Price) HourlyPerGPU(o *Offer) float64 { return p.Hourly() / float64(o.GPUCount) }

// EvidenceKind is the price's evidence kind; a price with a dataset and no
// stated kind is community-dataset evidence (Load fills it in).
func (p Price) EvidenceKind() string {
	if p.Evidence == "" && p.Dataset != "" {
		return "community-dataset"
	}
	return p.Evidence
}

// Current returns the offer's current prices: the newest observation of
// each price key, in the order the keys first appear in the file.
func (o *Offer) Current() []Price {
	if o.current == nil {
		o.index()
	}
	out := make([]Price, len(o.current))
	for i, j := range o.current {
		out[i] = o.Prices[j]
	}
	return out
}

// Histories returns every observation of each key of the offer's prices,
// oldest first (in file order within a date), made in one pass over them:
// a cloud's offer is priced in dozens of regions, each its own key, and
// reading every price once per key was a tenth of a dev rebuild.
func (o *Offer) Histories() map[PriceKey][]Price {
	out := map[PriceKey][]Price{}
	for _, p := range o.Prices {
		k := p.Key()
		out[k] = append(out[k], p)
	}
	for _, h := range out {
		slices.SortStableFunc(h, func(a, b Price) int { return a.AsOf.Compare(b.AsOf) })
	}
	return out
}

// index computes the current observation of each key.
func (o *Offer) index() {
	newest := map[PriceKey]int{}
	var order []PriceKey
	for i, p := range o.Prices {
		k := p.Key()
		j, ok := newest[k]
		if !ok {
			order = append(order, k)
			newest[k] = i
		} else if p.AsOf.After(o.Prices[j].AsOf) {
			newest[k] = i
		}
	}
	o.current = make([]int, 0, len(order))
	for _, k := range order {
		o.current = append(o.current, newest[k])
	}
}

// Price returns the offer's current price in a billing mode: the one with
// the lowest hourly equivalent when the mode is priced in several regions
// or terms (the first in file order among equals). billing is on-demand,
// spot or committed, or a legacy mode (reserved-1y, reserved-3y: a
// committed price of that term).
func (o *Offer) Price(billing string) (Price, bool) {
	term, legacy := legacyTerm(billing)
	var best Price
	found := false
	for _, j := range o.currentIndexes() {
		p := o.Prices[j]
		switch {
		case legacy && (p.Billing != "committed" || p.TermMonths != term):
			continue
		case !legacy && p.Billing != billing:
			continue
		}
		if !found || p.Hourly() < best.Hourly() {
			best, found = p, true
		}
	}
	return best, found
}

// branchURL matches a repository file URL that names a branch (main,
// master) instead of a commit.
var branchURL = regexp.MustCompile(`^https://(github\.com/[^/]+/[^/]+/(blob|raw|tree)/(main|master)/|raw\.githubusercontent\.com/[^/]+/[^/]+/(refs/heads/)?(main|master)/)`)

// normalisePrice rewrites a legacy billing mode as committed with its
// term, an empty unit as hour, and an empty evidence kind with a dataset
// as community-dataset.
func normalisePrice(p *Price) {
	if term, ok := legacyTerm(p.Billing); ok {
		p.Billing = "committed"
		if p.TermMonths == 0 {
			p.TermMonths = term
		}
	}
	if p.Unit == "" {
		p.Unit = "hour"
	}
	p.Evidence = p.EvidenceKind()
}

// checkPrices validates an offer's [[offers.prices]] entries: required
// keys, billing modes and their terms, units, regions, dates, sources,
// evidence kinds, datasets, plausibility, duplicate observations, and
// spot and committed prices against on-demand. It normalises the prices
// (normalisePrice) and indexes their current observations.
func checkPrices(c checker, pre string, o *Offer, cat *Catalog, p *Provider, datasets map[string]bool) {
	if p != nil {
		c.providerID = p.ID
	}
	regionIDs, known := regionsOf(p)
	modes := append(BillingModes(), LegacyBillingModes()...)
	seen := map[string]int{}
	valid := make([]bool, len(o.Prices))
	required := requiredOf[Price]()
	for i := range o.Prices {
		pr := &o.Prices[i]
		pp := pre + ".prices." + strconv.Itoa(i)
		c.require(pp, required...)
		ok := checkBilling(c, pp, pr, modes)
		if !checkPriceRegion(c, pp, pr, p, o, regionIDs, known) {
			ok = false
		}
		if !checkAmount(c, pp, pr) {
			ok = false
		}
		checkProvenance(c, pp, pr, cat, datasets)
		if len(pr.I18n) > 0 { // few prices have one: no work for the rest
			checkI18n(c, []Text{{Key: pp + ".computed_from", I18nKey: pp + ".i18n", Field: "computed_from", Text: pr.ComputedFrom,
				Versions: versions(pr.I18n, func(t PriceText) string { return t.ComputedFrom })}}, nil)
			if pr.ComputedFrom == "" {
				c.errorf(pp+".i18n", "i18n holds computed_from in another language, but the price has no computed_from")
			}
		}
		if !ok || !c.has(pp+".as_of") {
			continue
		}
		valid[i] = firstObservation(c, pp, *pr, seen)
	}
	for i := range o.Prices {
		normalisePrice(&o.Prices[i])
	}
	o.index()
	checkAgainstOnDemand(c, pre, o, valid)
	checkStalePrices(c, pre, o, cat.Site.Staleness.WarnDays)
}

// regionsOf returns the ids of p's regions, in file order and as a set.
func regionsOf(p *Provider) (ids []string, known map[string]bool) {
	ids = make([]string, 0, len(p.Regions))
	known = map[string]bool{}
	for _, r := range p.Regions {
		ids = append(ids, r.ID)
		known[r.ID] = true
	}
	return ids, known
}

// checkBilling checks the price at pp's billing mode (one of modes) and
// what depends on it: a legacy mode's term, the term, payment and
// commitment of a committed price, and the unit. It reports whether they
// let the price be indexed.
func checkBilling(c checker, pp string, pr *Price, modes []string) bool {
	ok := c.has(pp+".billing") && !c.blank[pp+".billing"] && slices.Contains(modes, pr.Billing)
	c.oneOf(pp+".billing", pr.Billing, modes...)
	committed := pr.Billing == "committed"
	if term, legacy := legacyTerm(pr.Billing); legacy {
		committed = true
		if c.has(pp+".term_months") && pr.TermMonths != term {
			c.errorf(pp+".term_months", "term_months %d contradicts billing %q (a %d-month term): write billing = \"committed\" with the term", pr.TermMonths, pr.Billing, term)
			ok = false
		}
	}
	ok = checkBillingTerm(c, pp, pr, committed, ok)
	if committed {
		c.oneOf(pp+".payment", pr.Payment, PaymentOptions()...)
		c.oneOf(pp+".commitment", pr.Commitment, CommitmentKinds()...)
	}
	c.oneOf(pp+".unit", pr.Unit, PriceUnits()...)
	if c.has(pp+".unit") && UnitHours(pr.Unit) == 0 {
		ok = false
	}
	return ok
}

// checkBillingTerm checks the term of the price at pp against its billing
// mode: a committed price has term_months (or a day or week unit, its
// term), an on-demand or spot price neither a unit longer than an hour
// nor a committed price's keys. committed is whether the mode is
// committed or a legacy committed mode; ok whether the mode is valid so
// far. It returns ok, made false by an error.
func checkBillingTerm(c checker, pp string, pr *Price, committed, ok bool) bool {
	// A price per day or week is a prepaid period (包日, 包周): its unit
	// is its term. On-demand and spot prices are pay-as-you-go, by
	// the hour or finer.
	period := pr.Unit == "day" || pr.Unit == "week"
	switch {
	case !committed && ok && c.has(pp+".unit") && pr.Unit != "" && pr.Unit != "hour" && UnitHours(pr.Unit) > 0:
		c.errorf(pp+".unit", "billing %q is paid by the hour: a price per %s is a prepaid period, write billing = \"committed\" (a day or week needs no term_months; a month is term_months = 1)", pr.Billing, pr.Unit)
		ok = false
	case committed && pr.Billing == "committed" && !c.has(pp+".term_months") && period:
		// the unit is the term
	case committed && pr.Billing == "committed" && !c.has(pp+".term_months"):
		c.errorf(pp+".billing", "a committed price needs term_months (1 for a monthly subscription, 12, 36, ...), or unit = \"day\" or \"week\" for a prepaid day or week")
		ok = false
	case committed && c.has(pp+".term_months") && (pr.TermMonths < 1 || pr.TermMonths > 60):
		c.errorf(pp+".term_months", "term_months %d is out of range (1..60)", pr.TermMonths)
		ok = false
	case !committed && ok:
		for _, k := range []string{"term_months", "payment", "commitment"} {
			if c.has(pp + "." + k) {
				c.errorf(pp+"."+k, "%s is only for committed prices (billing = \"committed\"), not %s", k, pr.Billing)
				ok = false
			}
		}
	}
	return ok
}

// checkPriceRegion checks the region of the price at pp, when it names
// one: it must be one of the provider p's regions (ids, known), and
// should be one of the offer o's. It reports whether the region lets the
// price be indexed.
func checkPriceRegion(c checker, pp string, pr *Price, p *Provider, o *Offer, ids []string, known map[string]bool) bool {
	if !c.has(pp + ".region") {
		return true
	}
	switch {
	case !known[pr.Region]:
		c.hintf(pp+".region", diag.DidYouMean(pr.Region, ids), "unknown region %q of provider %s", pr.Region, p.ID)
		return false
	case len(o.Regions) > 0 && !slices.Contains(o.Regions, pr.Region):
		c.warnf(pp+".region", "region %q is not in the offer's regions %v: add it there", pr.Region, o.Regions)
	}
	return true
}

// checkAmount checks the amount of the price at pp: above zero, and a
// plausible price per instance-hour. It reports whether the amount lets
// the price be indexed (an implausible one does).
func checkAmount(c checker, pp string, pr *Price) bool {
	if !c.has(pp + ".price") {
		return true
	}
	hours := UnitHours(pr.Unit)
	switch {
	case !(pr.Price > 0):
		c.errorf(pp+".price", "price must be greater than 0, got %v", pr.Price)
		return false
	case hours == 1 && pr.Price > 10000:
		c.errorf(pp+".price", "price %v per instance-hour is implausible", pr.Price)
	case hours > 1 && pr.Price/hours > 10000:
		c.errorf(pp+".price", "price %s per %s (%.2f per instance-hour) is implausible", strconv.FormatFloat(pr.Price, 'f', -1, 64), pr.Unit, pr.Price/hours)
	}
	return true
}

// checkProvenance checks where the price at pp comes from: its date and
// date basis, source, evidence kind, capture and dataset (one of
// datasets), and the evidence cat's site requires.
func checkProvenance(c checker, pp string, pr *Price, cat *Catalog, datasets map[string]bool) {
	c.date(pp+".as_of", pr.AsOf)
	c.oneOf(pp+".date_basis", pr.DateBasis, DateBases()...)
	if c.has(pp+".source") && !c.blank[pp+".source"] && strings.TrimSpace(pr.Source) == "" {
		c.errorf(pp+".source", "source is empty: give the URL the price was read from")
	}
	if c.emptyString(pp + ".evidence") {
		c.errorf(pp+".evidence", "required key %q is empty (one of: %s)", "evidence", strings.Join(EvidenceKinds(), ", "))
		c.blank[pp+".evidence"] = true
	}
	c.oneOf(pp+".evidence", pr.Evidence, EvidenceKinds()...)
	checkCapture(c, pp, pr)
	if branchURL.MatchString(pr.Source) {
		c.warnf(pp+".source", "source %q names a branch, whose file changes: pin it to the commit the figure was read from (.../blob/<commit>/path)", pr.Source)
	}
	switch {
	case pr.Dataset != "" && c.has(pp+".evidence") && pr.Evidence != "community-dataset" && slices.Contains(EvidenceKinds(), pr.Evidence):
		c.errorf(pp+".evidence", "evidence %q contradicts dataset %q: a price from a dataset is community-dataset evidence (drop evidence, or the dataset)", pr.Evidence, pr.Dataset)
	case pr.Dataset == "" && !c.has(pp+".evidence") && cat.Site.RequireEvidence:
		c.errorf(pp, "missing required key %q in [offers.prices] (one of: %s; data/site.toml sets require_evidence)", "evidence", strings.Join(EvidenceKinds(), ", "))
	}
	if pr.Dataset != "" && !datasets[pr.Dataset] {
		c.hintf(pp+".dataset", diag.DidYouMean(pr.Dataset, mapKeys(datasets)), "unknown dataset %q (declare it under [[datasets]] in data/site.toml)", pr.Dataset)
	}
}

// firstObservation reports whether the price pr at pp is the first
// observation of its key on its date, and reports it when it is not.
// seen holds the line of each key and date's first observation; it
// records pr's when it is the first.
func firstObservation(c checker, pp string, pr Price, seen map[string]int) bool {
	normalisePrice(&pr)
	id := pr.Key().String() + "\x00" + pr.AsOf.Format(time.DateOnly)
	if first, dup := seen[id]; dup {
		c.errorf(pp+".as_of", "price %q is observed twice on %s (first at line %d): give each observation its own as_of date", pr.Key().String(), pr.AsOf.Format(time.DateOnly), first)
		return false
	}
	line, _ := c.pos(pp)
	seen[id] = line
	return true
}

// checkStalePrices warns of each current price of o older than warn days
// (none when warn is not positive).
func checkStalePrices(c checker, pre string, o *Offer, warn int) {
	if warn <= 0 {
		return
	}
	for _, j := range o.current {
		pp := fmt.Sprintf("%s.prices.%d", pre, j)
		pr := o.Prices[j]
		if !c.has(pp + ".as_of") {
			continue
		}
		if days := int(c.now.Sub(pr.AsOf).Hours() / 24); days > warn {
			c.warnf(pp+".as_of", "price is %d days old (older than warn_days = %d in data/site.toml): check it against %s", days, warn, pr.Source)
		}
	}
}

// checkAgainstOnDemand reports a current spot or committed price whose
// hourly equivalent is above the current on-demand price of the same
// region (or of the whole offer when no on-demand price names the region).
func checkAgainstOnDemand(c checker, pre string, o *Offer, valid []bool) {
	onDemand := map[string]Price{} // by region
	for _, j := range o.current {
		if p := o.Prices[j]; p.Billing == "on-demand" && valid[j] {
			if q, ok := onDemand[p.Region]; !ok || p.Hourly() < q.Hourly() {
				onDemand[p.Region] = p
			}
		}
	}
	for _, j := range o.current {
		p := o.Prices[j]
		if p.Billing == "on-demand" || !valid[j] {
			continue
		}
		od, ok := onDemand[p.Region]
		if !ok {
			od, ok = onDemand[""]
		}
		if !ok || !(p.Hourly() > od.Hourly()+1e-9) {
			continue
		}
		c.errorf(fmt.Sprintf("%s.prices.%d.price", pre, j), "%s price %s is above the on-demand price %s", p.Billing, describe(p), describe(od))
	}
}

// describe writes a price for a message: "40", or "600 per month (0.8219
// per hour)" when it is not hourly.
func describe(p Price) string {
	if p.Unit == "hour" || p.Unit == "" {
		return fmt.Sprint(p.Price)
	}
	return fmt.Sprintf("%s per %s (%.4g per hour)", strconv.FormatFloat(p.Price, 'f', -1, 64), p.Unit, p.Hourly())
}
