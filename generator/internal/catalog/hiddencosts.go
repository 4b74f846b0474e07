package catalog

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/tomlpos"
)

// ExtraCost is one dated, sourced observation of a charge beyond the
// instance price, in a provider file's [[extra_costs]]:
//
//   - egress: internet egress per GB (or GiB), flat (price) or by monthly
//     volume tiers;
//   - public-ipv4: a public IPv4 address per hour or month;
//   - block-storage: block storage per GB-month (GiB-month, GB-hour);
//   - stopped-instance: what a stopped instance costs: whether instance
//     hours are still billed (compute_billed), and any charge of its own.
//
// Entries with the same kind, name, region and unit are the history of one
// charge; the newest is current (see Provider.CurrentCosts).
type ExtraCost struct {
	Kind string `toml:"kind" doc:"egress (internet egress), public-ipv4 (an address), block-storage, or stopped-instance (what a stopped instance costs)."`
	// Name tells apart charges of one kind: the storage class, the tier,
	// "in use" or "unused" for addresses. Optional.
	Name string `toml:"name" doc:"Tells apart charges of one kind: storage class, network tier, \"in use\" or \"unused\" addresses."`
	// Region is one of the provider's region ids; empty: all regions.
	Region   string   `toml:"region" doc:"A region id of this provider the charge applies to; absent: all regions."`
	Currency string   `toml:"currency" doc:"The currency of the amounts; a currency of data/fx.toml."`
	Price    *float64 `toml:"price" doc:"The charge per unit (egress may give tiers instead)."`
	Unit     string   `toml:"unit" doc:"egress: gb or gib; public-ipv4: hour or month; block-storage: gb-month, gib-month, gb-hour or gib-hour; stopped-instance: hour, month or gb-month."`
	Tiers    []Tier   `toml:"tiers" doc:"Egress volume tiers per month, in order; the last has no up_to_gb."`
	// Applies is, for a public-ipv4 entry, when the charge applies:
	// "bound" (the address is attached to a running instance) or "idle"
	// (unattached, or its instance stopped); empty: either way.
	Applies string `toml:"applies" doc:"public-ipv4 only: bound (the charge while the address is attached to a running instance) or idle (unattached, or its instance stopped); absent: either way."`
	// FreeGB is, for egress and block storage priced flat, the monthly
	// volume (in the entry's unit, GB or GiB) the provider does not charge
	// for; the price applies to the volume above it. Tiered egress gives
	// a free volume as a first tier priced 0.
	FreeGB *float64 `toml:"free_gb" doc:"egress and block-storage priced flat only: the volume per month (in the entry's unit, GB or GiB) that is free; the price applies above it. With tiers, make the free volume a first tier priced 0."`
	// ComputeBilled says, for a stopped-instance entry, whether the
	// instance's hourly price is still charged while it is stopped.
	ComputeBilled *bool               `toml:"compute_billed" doc:"stopped-instance only: whether the instance price is still charged while it is stopped."`
	AsOf          time.Time           `toml:"as_of" doc:"The date the charge was true (a TOML local date)."`
	DateBasis     string              `toml:"date_basis" doc:"How as_of was established."`
	Source        string              `toml:"source" doc:"The URL the charge was read from."`
	Evidence      string              `toml:"evidence" doc:"first-party, first-party-docs-repo, third-party or community-dataset."`
	Notes         string              `toml:"notes" doc:"What else is charged or free; shown on the provider page."`
	I18n          map[string]CostText `toml:"i18n" doc:"The name and notes in other languages: i18n = { zh = { name = \"...\", notes = \"...\" } }."`
}

// Tier is one volume tier of an egress charge: the price per unit for the
// monthly volume up to UpToGB (in the entry's unit, GB or GiB), above the
// previous tier's bound. The last tier has no bound.
type Tier struct {
	UpToGB *float64 `toml:"up_to_gb" doc:"The tier's upper bound of monthly volume, in the entry's unit (GB or GiB); absent on the last tier."`
	Price  float64  `toml:"price" doc:"The price per unit within the tier."`
}

// CostKey identifies one charge across its observations.
type CostKey struct{ Kind, Name, Region, Unit string }

// Key returns the entry's key.
func (e ExtraCost) Key() CostKey { return CostKey{e.Kind, e.Name, e.Region, e.Unit} }

// CurrentCosts returns the current observation of each extra cost (the
// newest of each key), in the order the keys first appear in the file.
func (p *Provider) CurrentCosts() []ExtraCost {
	newest := map[CostKey]int{}
	var order []CostKey
	for i, e := range p.ExtraCosts {
		k := e.Key()
		j, ok := newest[k]
		switch {
		case !ok:
			order = append(order, k)
			newest[k] = i
		case e.AsOf.After(p.ExtraCosts[j].AsOf):
			newest[k] = i
		}
	}
	out := make([]ExtraCost, 0, len(order))
	for _, k := range order {
		out = append(out, p.ExtraCosts[newest[k]])
	}
	return out
}

// CostHistory returns every observation of the key, oldest first.
func (p *Provider) CostHistory(k CostKey) []ExtraCost {
	var out []ExtraCost
	for _, e := range p.ExtraCosts {
		if e.Key() == k {
			out = append(out, e)
		}
	}
	slices.SortStableFunc(out, func(a, b ExtraCost) int { return a.AsOf.Compare(b.AsOf) })
	return out
}

// CostFor returns the current entry of a kind that applies to a region:
// the first (in file order) current entry of the kind naming that region,
// else the first naming no region. region "" asks for an all-regions
// entry only.
func (p *Provider) CostFor(kind, region string) (ExtraCost, bool) {
	return p.CostWhen(kind, "", region)
}

// CostWhen is CostFor among the entries that apply in a condition
// (ExtraCost.Applies): those naming it and those naming none. applies ""
// accepts every entry.
func (p *Provider) CostWhen(kind, applies, region string) (ExtraCost, bool) {
	var all *ExtraCost
	cur := p.CurrentCosts()
	for i := range cur {
		e := &cur[i]
		if e.Kind != kind || (applies != "" && e.Applies != "" && e.Applies != applies) {
			continue
		}
		if region != "" && e.Region == region {
			return *e, true
		}
		if e.Region == "" && all == nil {
			all = e
		}
	}
	if all != nil {
		return *all, true
	}
	return ExtraCost{}, false
}

// checkExtraCosts validates a provider's [[extra_costs]] entries; the
// currencies are checked by checkCostCurrencies once data/fx.toml is
// known.
func checkExtraCosts(c checker, p *Provider) {
	known := map[string]bool{}
	var ids []string
	for _, r := range p.Regions {
		known[r.ID] = true
		ids = append(ids, r.ID)
	}
	seen := map[string]int{}
	p.costPos = make([]tomlpos.Pos, len(p.ExtraCosts))
	for i, e := range p.ExtraCosts {
		pre := fmt.Sprintf("extra_costs.%d", i)
		line, col := c.pos(pre + ".currency")
		p.costPos[i] = tomlpos.Pos{Line: line, Col: col}
		c.require(pre, requiredOf[ExtraCost]()...)
		c.oneOf(pre+".kind", e.Kind, ExtraCostKinds()...)
		units := ExtraCostUnits(e.Kind)
		if units != nil {
			c.oneOf(pre+".unit", e.Unit, units...)
		}
		c.oneOf(pre+".date_basis", e.DateBasis, DateBases()...)
		c.oneOf(pre+".evidence", e.Evidence, EvidenceKinds()...)
		c.date(pre+".as_of", e.AsOf)
		c.url(pre+".source", e.Source)
		if c.has(pre+".region") && !known[e.Region] {
			c.hintf(pre+".region", diag.DidYouMean(e.Region, ids), "unknown region %q of provider %s", e.Region, p.ID)
		}
		if e.Price != nil && *e.Price < 0 {
			c.errorf(pre+".price", "price must not be negative, got %v", *e.Price)
		}
		if e.Price != nil && !c.has(pre+".unit") && units != nil {
			c.errorf(pre+".price", "a price needs its unit (unit = one of: %s)", strings.Join(units, ", "))
		}
		checkCostKind(c, pre, e, units)
		if c.has(pre+".as_of") && c.has(pre+".kind") {
			id := fmt.Sprint(e.Key()) + e.AsOf.Format(time.DateOnly)
			if first, dup := seen[id]; dup {
				c.errorf(pre+".as_of", "this %s charge is observed twice on %s (first at line %d): give each observation its own as_of date", e.Kind, e.AsOf.Format(time.DateOnly), first)
			}
			l, _ := c.pos(pre)
			seen[id] = l
		}
	}
}

// checkCostKind checks the fields of the extra cost e at pre that depend
// on its kind: an egress entry's flat price or tiers (in one of units),
// the price a public-ipv4 or block-storage entry needs, a stopped-instance
// entry's compute_billed, and the fields other kinds may not have.
func checkCostKind(c checker, pre string, e ExtraCost, units []string) {
	switch e.Kind {
	case "egress":
		switch {
		case e.Price != nil && len(e.Tiers) > 0:
			c.errorf(pre+".price", "give egress either a flat price or [[extra_costs.tiers]], not both")
		case e.Price == nil && len(e.Tiers) == 0 && c.has(pre+".kind"):
			c.errorf(pre+".kind", "an egress entry needs a price or [[extra_costs.tiers]]")
		}
		if len(e.Tiers) > 0 && !c.has(pre+".unit") {
			c.errorf(pre+".tiers", "tiers need the entry's unit (unit = one of: %s)", strings.Join(units, ", "))
		}
		checkTiers(c, pre, e.Tiers)
	case "public-ipv4", "block-storage":
		if e.Price == nil && c.has(pre+".kind") {
			c.errorf(pre+".kind", "a %s entry needs a price and its unit", e.Kind)
		}
	case "stopped-instance":
		if e.ComputeBilled == nil {
			c.errorf(pre+".kind", "a stopped-instance entry needs compute_billed = true or false: is the instance price still charged while it is stopped?")
		}
	}
	if e.Kind != "egress" && len(e.Tiers) > 0 {
		c.errorf(pre+".tiers", "tiers are for egress entries only")
	}
	if c.has(pre + ".applies") {
		if e.Kind != "public-ipv4" {
			c.errorf(pre+".applies", "applies is for public-ipv4 entries only (bound or idle addresses)")
		} else {
			c.oneOf(pre+".applies", e.Applies, AddressStates()...)
		}
	}
	if e.FreeGB != nil {
		switch {
		case e.Kind != "egress" && e.Kind != "block-storage":
			c.errorf(pre+".free_gb", "free_gb is for egress and block-storage entries only")
		case *e.FreeGB < 0:
			c.errorf(pre+".free_gb", "free_gb must not be negative, got %v", *e.FreeGB)
		case len(e.Tiers) > 0:
			c.errorf(pre+".free_gb", "with tiers, give the free volume as the first tier (up_to_gb = %v, price = 0) instead of free_gb", *e.FreeGB)
		}
	}
	if e.Kind != "stopped-instance" && e.ComputeBilled != nil {
		c.errorf(pre+".compute_billed", "compute_billed is for stopped-instance entries only")
	}
}

// checkTiers reports tiers out of order: every tier but the last has an
// increasing up_to_gb, the last has none.
func checkTiers(c checker, pre string, tiers []Tier) {
	prev := 0.0
	for i, t := range tiers {
		tp := fmt.Sprintf("%s.tiers.%d", pre, i)
		c.require(tp, requiredOf[Tier]()...)
		if t.Price < 0 {
			c.errorf(tp+".price", "price must not be negative, got %v", t.Price)
		}
		last := i == len(tiers)-1
		switch {
		case t.UpToGB == nil && !last:
			c.errorf(tp, "only the last tier may leave out up_to_gb (it covers everything above the previous tier)")
		case t.UpToGB != nil && last:
			c.errorf(tp+".up_to_gb", "the last tier covers everything above the previous one: leave out up_to_gb")
		case t.UpToGB != nil && !(*t.UpToGB > prev):
			c.errorf(tp+".up_to_gb", "up_to_gb %v must be greater than the previous tier's %v", *t.UpToGB, prev)
		}
		if t.UpToGB != nil {
			prev = *t.UpToGB
		}
	}
}

// checkCostCurrencies reports extra_costs currencies that data/fx.toml
// lacks.
func checkCostCurrencies(d *diag.List, p *Provider, currencies map[string]bool) {
	for i, e := range p.ExtraCosts {
		if e.Currency == "" || currencies == nil || currencies[e.Currency] || i >= len(p.costPos) {
			continue
		}
		at := p.costPos[i]
		d.Hintf(p.File, at.Line, at.Col, diag.DidYouMean(e.Currency, mapKeys(currencies)), "currency %q is not in data/fx.toml", e.Currency)
	}
}

// ComputeState is "billed" or "not-billed" for a stopped-instance entry
// (whether the instance price is still charged while it is stopped), ""
// otherwise: a key suffix for templates.
func (e ExtraCost) ComputeState() string {
	switch {
	case e.ComputeBilled == nil:
		return ""
	case *e.ComputeBilled:
		return "billed"
	}
	return "not-billed"
}

// RegionName is the display name of the entry's region in the provider's
// regions ("" for an all-regions entry).
func (p *Provider) RegionName(id string) string {
	for _, r := range p.Regions {
		if r.ID == id {
			return r.DisplayName()
		}
	}
	return id
}
