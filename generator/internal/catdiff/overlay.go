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
	var out []string
	at := func(file string, line int) string { return fmt.Sprintf("%s:%d", file, line) }
	offers := func(c *catalog.Catalog) map[string]*catalog.Offer {
		m := map[string]*catalog.Offer{}
		for _, o := range c.Offers {
			m[o.ID] = o
		}
		return m
	}
	bOffers, hOffers := offers(base), offers(head)

	// Entries naming something the update removes.
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
			gone("your contract price", name, at(terms.OverridesFile, terms.ContractLines[i]))
		}
	}
	for i, x := range terms.Overrides.Discounts {
		where := at(terms.OverridesFile, terms.DiscountLines[i])
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
			out = append(out, fmt.Sprintf("- data/hide.toml hides provider `%s`, which the update removes: delete the entry (%s); until then the overlay does not build", id, at(terms.HideFile, terms.HideProviderLines[i])))
		}
	}
	for i, id := range terms.Hide.GPUs {
		if removedGPU(id) {
			out = append(out, fmt.Sprintf("- data/hide.toml hides GPU `%s`, which the update removes: delete the entry (%s); until then the overlay does not build", id, at(terms.HideFile, terms.HideGPULines[i])))
		}
	}

	// Contract prices above the public prices they replace (a contract
	// that ended replaces nothing).
	above := func(c *catalog.Catalog, x catalog.Contract) (o *catalog.Offer, price float64, pubs []catalog.Price) {
		o = offers(c)[x.Offer]
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
	for i, x := range terms.Overrides.Contracts {
		o, price, pubs := above(head, x)
		_, _, before := above(base, x)
		for _, p := range pubs {
			verb := "is now above"
			if slices.ContainsFunc(before, func(q catalog.Price) bool { return q.Key() == p.Key() }) {
				verb = "is still above"
			}
			k := p.Key()
			out = append(out, fmt.Sprintf("- your contract price for %s (%s %s, %s) %s the public %s price (%s %s as of %s%s)",
				offerName(o), money(price), o.Currency, at(terms.OverridesFile, terms.ContractLines[i]), verb, mode(k), money(p.Price), o.Currency, p.AsOf.Format(time.DateOnly), regionNote(k)))
		}
	}

	// Contracts and discounts that end.
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
		ends("your contract price for "+name, at(terms.OverridesFile, terms.ContractLines[i]), x.ValidUntil)
	}
	for i, x := range terms.Overrides.Discounts {
		var on []string
		for _, s := range []string{x.Provider, x.GPU, x.Offer} {
			if s != "" {
				on = append(on, "`"+s+"`")
			}
		}
		ends(fmt.Sprintf("your %s%% discount on %s", num(x.Pct), strings.Join(on, ", ")), at(terms.OverridesFile, terms.DiscountLines[i]), x.ValidUntil)
	}

	// What the update adds that the team's site will show.
	for _, p := range head.Providers {
		if base.Provider(p.ID) == nil && !slices.Contains(terms.Hide.Providers, p.ID) {
			out = append(out, fmt.Sprintf("- the update adds provider `%s` %s (%s): it shows on your site unless data/hide.toml hides it", p.ID, p.Name, p.Kind))
		}
	}
	for _, g := range head.GPUs {
		if base.GPU(g.ID) == nil && !slices.Contains(terms.Hide.GPUs, g.ID) {
			out = append(out, fmt.Sprintf("- the update adds GPU `%s` %s: it shows on your site unless data/hide.toml hides it", g.ID, g.Name))
		}
	}

	if len(headErrs) > 0 {
		out = append(out, "- the overlay does not load on the updated catalog:")
		for _, e := range headErrs {
			out = append(out, "  - "+e)
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
