package catdiff

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
)

// ExpiryWarningDays is how far ahead OverlayReport lists a contract or
// discount that ends.
const ExpiryWarningDays = 30

// Overlay is a team's overlay directory (see catalog.Layer), to read an
// upstream update from the team's side.
type Overlay struct {
	Dir   string
	Label string // prefix of its paths in messages (default: Dir + "/")
}

func (o Overlay) layer() catalog.Layer {
	label := o.Label
	if label == "" {
		label = filepath.ToSlash(filepath.Clean(o.Dir)) + "/"
	}
	return catalog.Layer{Dir: o.Dir, Label: label}
}

// RunOverlay is Run followed by a section on what the update from base to
// head changes for a team that builds the site with the overlay ov (the
// same overlay on both sides: the update is upstream's). It returns a
// *LoadError (Side "overlay") when the overlay's own files do not decode;
// an overlay that does not build on head is reported in the section.
func RunOverlay(base, head Side, ov Overlay, now time.Time) (string, error) {
	bc, err := load("base", base, now)
	if err != nil {
		return "", err
	}
	hc, err := load("head", head, now)
	if err != nil {
		return "", err
	}
	layer := ov.layer()
	terms, d := catalog.ReadOverlayTerms(layer)
	if terms == nil {
		return "", &LoadError{Side: "overlay", Label: strings.TrimSuffix(layer.Label, "/"), Diags: d.Errors()}
	}
	var loadErrs []string
	if ho, hd := catalog.LoadLayered(head.Root, layer, now); ho == nil {
		for _, e := range hd.Errors() {
			loadErrs = append(loadErrs, e.String())
		}
	}
	lines := OverlayReport(bc, hc, terms, loadErrs, now)
	var b strings.Builder
	b.WriteString(Report(bc, hc))
	fmt.Fprintf(&b, "\n### Your overlay (%s)\n\n", strings.TrimSuffix(layer.Label, "/"))
	if len(lines) == 0 {
		b.WriteString("No changes for your overlay.\n")
	}
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	return b.String(), nil
}

// OverlayReport lists, as Markdown list items, what the update from the
// public catalog base to head changes for a team's overlay (terms, read
// by catalog.ReadOverlayTerms):
//
//   - an override or hidden id naming an offer, provider or GPU the update
//     removes (the overlay does not build on head until the entry goes);
//   - a contract price above a public price it replaces on head ("now
//     above" when it was not above it on base; contracts that ended
//     replace nothing);
//   - contracts and discounts ending within ExpiryWarningDays of now, or
//     ended (the public price is shown instead);
//   - providers and GPUs the update adds that the overlay does not hide
//     (they show on the team's site);
//   - headErrs: the errors of loading head with the overlay, when it
//     does not load.
func OverlayReport(base, head *catalog.Catalog, terms *catalog.OverlayTerms, headErrs []string, now time.Time) []string {
	bOffers, hOffers := offersByID(base), offersByID(head)
	var out []string
	out = append(out, removedEntries(base, head, terms, bOffers, hOffers)...)
	out = append(out, contractsAbove(base, head, terms, now)...)
	out = append(out, endingTerms(terms, hOffers, now)...)
	out = append(out, addedEntities(base, head, terms.Hide)...)
	if len(headErrs) > 0 {
		out = append(out, "- the overlay does not load on the updated catalog:")
		for _, e := range headErrs {
			out = append(out, "  - "+e)
		}
	}
	return out
}

// position writes a file and line for a message: "data/overrides.toml:3".
func position(file string, line int) string { return fmt.Sprintf("%s:%d", file, line) }

// offersByID indexes c's offers by their id.
func offersByID(c *catalog.Catalog) map[string]*catalog.Offer {
	m := map[string]*catalog.Offer{}
	for _, o := range c.Offers {
		m[o.ID] = o
	}
	return m
}

// removedEntries lists the overlay's contracts, discounts and hidden
// providers and GPUs (in that order) that name an offer, provider or GPU
// the update from base to head removes. bOffers and hOffers are base's and
// head's offers by id.
func removedEntries(base, head *catalog.Catalog, terms *catalog.OverlayTerms, bOffers, hOffers map[string]*catalog.Offer) []string {
	var out []string
	gone := func(what, id, where string) {
		out = append(out, fmt.Sprintf("- %s names %s, which the update removes: change or delete the entry (%s); until then the overlay does not build", what, id, where))
	}
	removedOffer := func(id string) (string, bool) {
		if o := bOffers[id]; o != nil && hOffers[id] == nil {
			return offerName(o), true
		}
		return "", false
	}
	removedProvider := func(id string) bool { return base.Provider(id) != nil && head.Provider(id) == nil }
	removedGPU := func(id string) bool { return base.GPU(id) != nil && head.GPU(id) == nil }
	for i, x := range terms.Overrides.Contracts {
		if name, ok := removedOffer(x.Offer); ok {
			gone("your contract price", name, position(terms.OverridesFile, terms.ContractLines[i]))
		}
	}
	for i, x := range terms.Overrides.Discounts {
		where := position(terms.OverridesFile, terms.DiscountLines[i])
		if name, ok := removedOffer(x.Offer); ok {
			gone("your discount", name, where)
		}
		if x.Provider != "" && removedProvider(x.Provider) {
			gone("your discount", "provider `"+x.Provider+"`", where)
		}
		if x.GPU != "" && removedGPU(x.GPU) {
			gone("your discount", "GPU `"+x.GPU+"`", where)
		}
	}
	for i, id := range terms.Hide.Providers {
		if removedProvider(id) {
			out = append(out, fmt.Sprintf("- data/hide.toml hides provider `%s`, which the update removes: delete the entry (%s); until then the overlay does not build", id, position(terms.HideFile, terms.HideProviderLines[i])))
		}
	}
	for i, id := range terms.Hide.GPUs {
		if removedGPU(id) {
			out = append(out, fmt.Sprintf("- data/hide.toml hides GPU `%s`, which the update removes: delete the entry (%s); until then the overlay does not build", id, position(terms.HideFile, terms.HideGPULines[i])))
		}
	}
	return out
}

// contractsAbove lists, for each of the overlay's contracts, the public
// prices on head that it replaces and is above: "is now above" when it
// was not above that price on base, "is still above" when it was.
func contractsAbove(base, head *catalog.Catalog, terms *catalog.OverlayTerms, now time.Time) []string {
	var out []string
	for i, x := range terms.Overrides.Contracts {
		o, price, pubs := contractAbove(head, x, now)
		_, _, before := contractAbove(base, x, now)
		for _, p := range pubs {
			verb := "is now above"
			if slices.ContainsFunc(before, func(q catalog.Price) bool { return q.Key() == p.Key() }) {
				verb = "is still above"
			}
			k := p.Key()
			out = append(out, fmt.Sprintf("- your contract price for %s (%s %s, %s) %s the public %s price (%s %s as of %s%s)",
				offerName(o), money(price), o.Currency, position(terms.OverridesFile, terms.ContractLines[i]), verb, mode(k), money(p.Price), o.Currency, p.AsOf.Format(time.DateOnly), regionNote(k)))
		}
	}
	return out
}

// contractAbove returns the offer of c that the contract x names, x's
// price in the offer's currency, and the offer's current public prices
// that x replaces (same billing mode, unit, term and, when x names one,
// region) and is above. o is nil and pubs empty when x replaces nothing
// in c: its offer is not in c, it ended before now, or its currency has
// no rate to the offer's.
func contractAbove(c *catalog.Catalog, x catalog.Contract, now time.Time) (o *catalog.Offer, price float64, pubs []catalog.Price) {
	o = offersByID(c)[x.Offer]
	if o == nil || (!x.ValidUntil.IsZero() && x.ValidUntil.Before(now)) {
		return nil, 0, nil
	}
	price = x.Price
	if x.Currency != "" && x.Currency != o.Currency {
		v, ok := c.FX.Convert(x.Price, x.Currency, o.Currency)
		if !ok {
			return nil, 0, nil
		}
		price = v
	}
	billing := x.Billing
	if billing == "" {
		billing = "on-demand"
	}
	unit := x.Unit
	if unit == "" {
		unit = "hour"
	}
	for _, p := range o.Current() {
		k := p.Key()
		if k.Billing == billing && k.Unit == unit && k.TermMonths == x.TermMonths && (x.Region == "" || k.Region == x.Region) && price > p.Price {
			pubs = append(pubs, p)
		}
	}
	return o, price, pubs
}

// endingTerms lists the overlay's contracts, then its discounts, that
// ended before now or end within ExpiryWarningDays of it. hOffers are
// head's offers by id, to name a contract's offer.
func endingTerms(terms *catalog.OverlayTerms, hOffers map[string]*catalog.Offer, now time.Time) []string {
	var out []string
	ends := func(what, where string, until time.Time) {
		if until.IsZero() {
			return
		}
		days := int(until.Sub(now).Hours() / 24)
		switch {
		case until.Before(now):
			out = append(out, fmt.Sprintf("- %s ended on %s: the public price is shown instead (%s)", what, until.Format(time.DateOnly), where))
		case days <= ExpiryWarningDays:
			out = append(out, fmt.Sprintf("- %s ends on %s, in %d day(s): then the public price is shown (%s)", what, until.Format(time.DateOnly), days, where))
		}
	}
	for i, x := range terms.Overrides.Contracts {
		name := "`" + x.Offer + "`"
		if o := hOffers[x.Offer]; o != nil {
			name = offerName(o)
		}
		ends("your contract price for "+name, position(terms.OverridesFile, terms.ContractLines[i]), x.ValidUntil)
	}
	for i, x := range terms.Overrides.Discounts {
		var on []string
		for _, s := range []string{x.Provider, x.GPU, x.Offer} {
			if s != "" {
				on = append(on, "`"+s+"`")
			}
		}
		ends(fmt.Sprintf("your %s%% discount on %s", num(x.Pct), strings.Join(on, ", ")), position(terms.OverridesFile, terms.DiscountLines[i]), x.ValidUntil)
	}
	return out
}

// addedEntities lists the providers, then the GPUs, that head adds to
// base and hide does not hide: they show on the team's site.
func addedEntities(base, head *catalog.Catalog, hide catalog.Hide) []string {
	var out []string
	for _, p := range head.Providers {
		if base.Provider(p.ID) == nil && !slices.Contains(hide.Providers, p.ID) {
			out = append(out, fmt.Sprintf("- the update adds provider `%s` %s (%s): it shows on your site unless data/hide.toml hides it", p.ID, p.Name, p.Kind))
		}
	}
	for _, g := range head.GPUs {
		if base.GPU(g.ID) == nil && !slices.Contains(hide.GPUs, g.ID) {
			out = append(out, fmt.Sprintf("- the update adds GPU `%s` %s: it shows on your site unless data/hide.toml hides it", g.ID, g.Name))
		}
	}
	return out
}

// mode names a price key's billing mode, term and unit ("on-demand",
// "committed 12 months", "spot, per day"), without its region.
func mode(k catalog.PriceKey) string {
	k.Region = ""
	return k.String()
}

func regionNote(k catalog.PriceKey) string {
	if k.Region == "" {
		return ""
	}
	return ", in " + k.Region
}
