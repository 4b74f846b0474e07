package catalog

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

// InternalKind is the provider kind of a team's own GPU pool (on-premises
// or reserved capacity with an internal cost per GPU-hour). Only an
// overlay may declare such a provider.
const InternalKind = "internal"

// Kinds of overlay figure (Overlay.Kind).
const (
	OverlayContract = "contract" // a negotiated price for one offer
	OverlayDiscount = "discount" // a percentage off the public price
	OverlayInternal = "internal" // an internal pool's cost
	OverlayTeam     = "team"     // an offer the overlay adds to a public provider
)

// Overlay marks a price that comes from a team's overlay rather than the
// public catalog. Public is the public observation it stands in for (nil
// when the overlay adds a price the public catalog does not have).
type Overlay struct {
	Kind        string
	DiscountPct float64   // OverlayDiscount only
	Source      string    // where the team's figure is written down
	AsOf        time.Time // when it was agreed
	ValidUntil  time.Time // zero: no end date
	File        string    // the overlay file and line it came from
	Line        int
	Public      *Price
}

// Label describes the figure in English for messages and exports:
// "contract price, valid until 2027-03-31", "30% discount", "internal cost".
func (m *Overlay) Label() string {
	var s string
	switch m.Kind {
	case OverlayContract:
		s = "contract price"
	case OverlayDiscount:
		s = fmt.Sprintf("%s%% discount", trimFloat(m.DiscountPct))
	case OverlayInternal:
		s = "internal cost"
	default:
		s = "team price"
	}
	if !m.ValidUntil.IsZero() {
		s += ", valid until " + m.ValidUntil.Format(time.DateOnly)
	}
	return s
}

func trimFloat(f float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", f), "0"), ".")
}

// Overrides is an overlay's data/overrides.toml.
type Overrides struct {
	Contracts []Contract `toml:"contract"`
	Discounts []Discount `toml:"discount"`
}

// Contract is a negotiated price for one offer: it replaces the offer's
// current public prices of its billing mode, unit (and region, when
// given) while it is valid.
type Contract struct {
	Offer      string    `toml:"offer"`    // provider-id/instance-slug, as in the exports
	Price      float64   `toml:"price"`    // per instance, per Unit
	Currency   string    `toml:"currency"` // default: the offer's
	Unit       string    `toml:"unit"`     // default: hour
	Billing    string    `toml:"billing"`  // default: on-demand
	TermMonths int       `toml:"term_months"`
	Region     string    `toml:"region"`
	Source     string    `toml:"source"`
	AsOf       time.Time `toml:"as_of"`
	ValidUntil time.Time `toml:"valid_until"`
	Notes      string    `toml:"notes"`
}

// Discount is a percentage off the public prices of a billing mode, for
// every offer of a provider, of a GPU, or one offer (the fields given must
// all match; the most specific discount wins, a contract beats any).
type Discount struct {
	Provider   string    `toml:"provider"`
	GPU        string    `toml:"gpu"`
	Offer      string    `toml:"offer"`
	Pct        float64   `toml:"pct"`
	Billing    string    `toml:"billing"` // default: on-demand
	Source     string    `toml:"source"`
	AsOf       time.Time `toml:"as_of"`
	ValidUntil time.Time `toml:"valid_until"`
	Notes      string    `toml:"notes"`
}

// Hide is an overlay's data/hide.toml: providers and GPUs the team does
// not use (procurement has not approved them); they and their offers are
// left out of every page and export.
type Hide struct {
	Providers []string `toml:"providers"`
	GPUs      []string `toml:"gpus"`
}

// TeamSite is an overlay's site.toml: the team's title, the URL the
// team's copy is served from and whom to ask for quota. Set fields
// replace data/site.toml's (the title in every edition).
type TeamSite struct {
	Title        string `toml:"title"`
	BaseURL      string `toml:"base_url"`
	QuotaContact string `toml:"quota_contact"`
}

// HasOverlay reports whether any current price comes from an overlay.
func (c *Catalog) HasOverlay() bool {
	for _, o := range c.Offers {
		for _, p := range o.Current() {
			if p.Overlay != nil {
				return true
			}
		}
	}
	return false
}

// applyLayer merges an overlay's prices, overrides and hidden ids into c.
func applyLayer(c *Catalog, layer Layer, prefix string, now time.Time, d *diag.List) {
	sort.SliceStable(c.Offers, func(i, j int) bool { return c.Offers[i].Provider.ID < c.Offers[j].Provider.ID })
	for _, o := range c.Offers {
		if !strings.HasPrefix(o.File, prefix) {
			continue
		}
		kind := OverlayTeam
		if o.Provider.Kind == InternalKind {
			kind = OverlayInternal
		}
		for i := range o.Prices {
			p := &o.Prices[i]
			p.Overlay = &Overlay{Kind: kind, Source: p.Source, AsOf: p.AsOf, File: o.File, Line: o.Line}
		}
	}
	if abs := filepath.Join(layer.Dir, "site.toml"); exists(abs) {
		var ts TeamSite
		if f := decodeFile(abs, prefix+"site.toml", &ts, d); f != nil {
			ck := checker{file: f, now: now}
			if b := ts.BaseURL; b != "" && !strings.HasPrefix(b, "/") {
				ck.url("base_url", b)
			}
			if ts.Title != "" {
				c.Site.Title = ts.Title
				for i := range c.Site.Languages {
					c.Site.Languages[i].Title = ts.Title
				}
			}
			if ts.BaseURL != "" {
				c.Site.BaseURL = ts.BaseURL
			}
			c.Site.QuotaContact = ts.QuotaContact
		}
	}
	var hide Hide
	hideRel := prefix + "data/hide.toml"
	if abs := filepath.Join(layer.Dir, "data", "hide.toml"); exists(abs) {
		if f := decodeFile(abs, hideRel, &hide, d); f != nil {
			for i, id := range hide.Providers {
				if c.providers[id] == nil {
					f.hintf(fmt.Sprintf("providers.%d", i), diag.DidYouMean(id, c.providerIDs()), "unknown provider %q", id)
				}
			}
			for i, id := range hide.GPUs {
				if c.gpus[id] == nil {
					f.hintf(fmt.Sprintf("gpus.%d", i), diag.DidYouMean(id, c.gpuIDs()), "unknown GPU %q", id)
				}
			}
		}
	}
	if abs := filepath.Join(layer.Dir, "data", "overrides.toml"); exists(abs) {
		var ov Overrides
		if f := decodeFile(abs, prefix+"data/overrides.toml", &ov, d); f != nil {
			applyOverrides(checker{file: f, now: now}, c, &ov)
		}
	}
	if d.HasErrors() {
		return
	}
	c.hide(hide)
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// checkLayerDir reports an overlay directory that is missing or not a
// directory: a mistyped -overlay must not build the public site silently.
func checkLayerDir(path, label string, d *diag.List) bool {
	dir := strings.TrimSuffix(label, "/")
	st, err := os.Stat(path)
	switch {
	case err != nil && os.IsNotExist(err):
		d.Errorf(dir, 0, 0, "overlay directory %s does not exist (check -overlay)", path)
		return false
	case err != nil:
		d.Errorf(dir, 0, 0, "overlay directory: %v", err)
		return false
	case !st.IsDir():
		d.Errorf(dir, 0, 0, "overlay %s is not a directory: -overlay names the directory holding site.toml, data/ and content/", path)
		return false
	}
	return true
}

// offerIDs lists every offer id.
func (c *Catalog) offerIDs() []string {
	out := make([]string, 0, len(c.Offers))
	for _, o := range c.Offers {
		out = append(out, o.ID)
	}
	return out
}

// checkTerm validates the dates and source every override carries.
func checkTerm(c checker, pre, source string, asOf, until time.Time) bool {
	c.require(pre, "source", "as_of")
	c.url(pre+".source", source)
	c.date(pre+".as_of", asOf)
	if c.has(pre+".valid_until") && c.has(pre+".as_of") && until.Before(asOf) {
		c.errorf(pre+".valid_until", "valid_until %s is before as_of %s", until.Format(time.DateOnly), asOf.Format(time.DateOnly))
		return false
	}
	return true
}

// expired reports (with a warning) an override whose valid_until has
// passed: the public price stands.
func expired(c checker, pre, what string, until time.Time) bool {
	if !c.has(pre+".valid_until") || !until.Before(c.now) {
		return false
	}
	c.warnf(pre+".valid_until", "%s expired on %s: the public price is shown instead", what, until.Format(time.DateOnly))
	return true
}

// applyOverrides checks an overlay's data/overrides.toml and applies what
// is valid and not expired to cat's current prices: the discounts first,
// most general first, so that a more specific one and then a contract
// replace them, then each contract.
func applyOverrides(c checker, cat *Catalog, ov *Overrides) {
	byID := map[string]*Offer{}
	for _, o := range cat.Offers {
		byID[o.ID] = o
	}
	currencies := map[string]bool{}
	for _, cur := range cat.FX.Currencies() {
		currencies[cur] = true
	}
	for _, i := range checkDiscounts(c, cat, ov, byID) {
		applyDiscount(c, cat, ov.Discounts[i], i)
	}
	for i, x := range ov.Contracts {
		pre := fmt.Sprintf("contract.%d", i)
		o, billing, ok := checkContract(c, cat, pre, x, byID, currencies)
		if !ok || o == nil || expired(c, pre, "contract price for "+x.Offer, x.ValidUntil) {
			continue
		}
		applyContract(c, cat, pre, x, o, billing)
	}
}

// overrideBilling returns an override's billing mode b, checked, or
// on-demand when it gives none.
func overrideBilling(c checker, pre, b string) string {
	if b == "" {
		return "on-demand"
	}
	c.oneOf(pre+".billing", b, BillingModes()...)
	return b
}

// checkDiscounts checks ov's discounts and fills in their billing mode.
// It returns the indexes of those to apply (valid and not expired), most
// general first: a provider's, then a GPU's, then an offer's, each in
// file order. byID is cat's offers by id.
func checkDiscounts(c checker, cat *Catalog, ov *Overrides, byID map[string]*Offer) []int {
	type disc struct {
		i    int
		rank int
	}
	var order []disc
	for i, x := range ov.Discounts {
		pre := fmt.Sprintf("discount.%d", i)
		ok := checkDiscount(c, cat, pre, x, byID)
		ov.Discounts[i].Billing = overrideBilling(c, pre, x.Billing)
		if !ok || expired(c, pre, "discount", x.ValidUntil) {
			continue
		}
		rank := 0
		switch {
		case x.Offer != "":
			rank = 2
		case x.GPU != "":
			rank = 1
		}
		order = append(order, disc{i: i, rank: rank})
	}
	sort.SliceStable(order, func(a, b int) bool { return order[a].rank < order[b].rank })
	out := make([]int, 0, len(order))
	for _, od := range order {
		out = append(out, od.i)
	}
	return out
}

// checkDiscount checks the discount x at pre, all but its billing mode:
// its term, its percentage, and the provider, GPU and offer it names (at
// least one; byID is cat's offers by id). It reports whether x is valid.
func checkDiscount(c checker, cat *Catalog, pre string, x Discount, byID map[string]*Offer) bool {
	c.require(pre, "pct")
	ok := checkTerm(c, pre, x.Source, x.AsOf, x.ValidUntil)
	if c.has(pre+".pct") && (x.Pct <= 0 || x.Pct >= 100) {
		c.errorf(pre+".pct", "pct %v is outside 0-100 (a discount of pct percent off the public price)", x.Pct)
		ok = false
	}
	if x.Provider == "" && x.GPU == "" && x.Offer == "" {
		c.errorf(pre, "a discount names a provider, a gpu or an offer it applies to")
		ok = false
	}
	if x.Provider != "" && cat.providers[x.Provider] == nil {
		c.hintf(pre+".provider", diag.DidYouMean(x.Provider, cat.providerIDs()), "unknown provider %q", x.Provider)
		ok = false
	}
	if x.GPU != "" && cat.gpus[x.GPU] == nil {
		c.hintf(pre+".gpu", diag.DidYouMean(x.GPU, cat.gpuIDs()), "unknown GPU %q", x.GPU)
		ok = false
	}
	if x.Offer != "" && byID[x.Offer] == nil {
		c.hintf(pre+".offer", diag.DidYouMean(x.Offer, cat.offerIDs()), "unknown offer %q", x.Offer)
		ok = false
	}
	return ok
}

// applyDiscount applies the discount x, the i'th of the overlay, to the
// current prices of its billing mode of every offer it names, in place of
// their public price (a price the overlay adds is left alone).
func applyDiscount(c checker, cat *Catalog, x Discount, i int) {
	line, _ := c.pos(fmt.Sprintf("discount.%d", i))
	for _, o := range cat.Offers {
		if (x.Provider != "" && o.Provider.ID != x.Provider) || (x.GPU != "" && o.GPUID != x.GPU) || (x.Offer != "" && o.ID != x.Offer) {
			continue
		}
		for _, j := range o.currentIndexes() {
			p := &o.Prices[j]
			if p.Billing != x.Billing || (p.Overlay != nil && p.Overlay.Public == nil) {
				continue
			}
			pub := publicOf(p)
			*p = pub
			p.Price = pub.Price * (1 - x.Pct/100)
			p.Overlay = &Overlay{Kind: OverlayDiscount, DiscountPct: x.Pct, Source: x.Source, AsOf: x.AsOf, ValidUntil: x.ValidUntil, File: c.rel, Line: line, Public: &pub}
		}
	}
}

// checkContract checks the contract x at pre: its term, price, offer
// (byID is cat's offers by id), currency (one of currencies), billing
// mode, unit, term and region. It returns x's offer (nil when unknown or
// not given), its billing mode and whether x is valid.
func checkContract(c checker, cat *Catalog, pre string, x Contract, byID map[string]*Offer, currencies map[string]bool) (o *Offer, billing string, ok bool) {
	c.require(pre, "offer", "price")
	ok = checkTerm(c, pre, x.Source, x.AsOf, x.ValidUntil)
	if c.has(pre+".price") && !(x.Price > 0) {
		c.errorf(pre+".price", "price must be greater than 0, got %v", x.Price)
		ok = false
	}
	o = byID[x.Offer]
	if c.has(pre+".offer") && o == nil {
		c.hintf(pre+".offer", diag.DidYouMean(x.Offer, cat.offerIDs()), "unknown offer %q", x.Offer)
		ok = false
	}
	if x.Currency != "" && !currencies[x.Currency] {
		c.hintf(pre+".currency", diag.DidYouMean(x.Currency, mapKeys(currencies)), "currency %q has no rate in data/fx.toml", x.Currency)
		ok = false
	}
	billing = overrideBilling(c, pre, x.Billing)
	c.oneOf(pre+".unit", x.Unit, PriceUnits()...)
	if billing == "committed" && x.TermMonths == 0 {
		c.errorf(pre+".billing", "a committed contract price needs term_months")
		ok = false
	}
	if o != nil && x.Region != "" && !slices.ContainsFunc(o.Provider.Regions, func(r Region) bool { return r.ID == x.Region }) {
		c.errorf(pre+".region", "unknown region %q of provider %s", x.Region, o.Provider.ID)
		ok = false
	}
	return o, billing, ok
}

// applyContract applies the valid contract x at pre to its offer o: its
// price, converted to o's currency, replaces each current public price of
// its billing mode, unit, term and region, or is added as a price of its
// own when o has none.
func applyContract(c checker, cat *Catalog, pre string, x Contract, o *Offer, billing string) {
	unit := unitOr(x.Unit)
	price := x.Price
	if x.Currency != "" && x.Currency != o.Currency {
		price, _ = cat.FX.Convert(x.Price, x.Currency, o.Currency)
	}
	line, _ := c.pos(pre)
	mark := func(pub *Price) *Overlay {
		return &Overlay{Kind: OverlayContract, Source: x.Source, AsOf: x.AsOf, ValidUntil: x.ValidUntil, File: c.rel, Line: line, Public: pub}
	}
	matched := false
	for _, j := range o.currentIndexes() {
		p := &o.Prices[j]
		if p.Billing != billing || p.Unit != unit || p.TermMonths != x.TermMonths || (x.Region != "" && p.Region != x.Region) {
			continue
		}
		matched = true
		pub := publicOf(p)
		*p = pub
		p.Price, p.AsOf, p.Source, p.Evidence, p.Dataset, p.DateBasis = price, x.AsOf, x.Source, "first-party", "", ""
		p.Overlay = mark(&pub)
	}
	if !matched {
		o.Prices = append(o.Prices, Price{Billing: billing, Price: price, Unit: unit, TermMonths: x.TermMonths, Region: x.Region, AsOf: x.AsOf, Source: x.Source, Evidence: "first-party", Overlay: mark(nil)})
		o.index()
	}
}

// publicOf returns the public observation behind p (p itself when it has
// no overlay).
func publicOf(p *Price) Price {
	if p.Overlay != nil && p.Overlay.Public != nil {
		return *p.Overlay.Public
	}
	return *p
}

// currentIndexes returns the indexes into Prices of the current prices.
func (o *Offer) currentIndexes() []int {
	if o.current == nil {
		o.index()
	}
	return o.current
}

// hide removes hidden providers and GPUs, with their offers, from c.
func (c *Catalog) hide(h Hide) {
	if len(h.Providers) == 0 && len(h.GPUs) == 0 {
		return
	}
	hp := map[string]bool{}
	for _, id := range h.Providers {
		hp[id] = true
	}
	hg := map[string]bool{}
	for _, id := range h.GPUs {
		hg[id] = true
	}
	gone := func(o *Offer) bool { return hp[o.Provider.ID] || hg[o.GPU.ID] }
	c.Offers = slices.DeleteFunc(c.Offers, gone)
	c.Providers = slices.DeleteFunc(c.Providers, func(p *Provider) bool { return hp[p.ID] })
	c.GPUs = slices.DeleteFunc(c.GPUs, func(g *GPU) bool { return hg[g.ID] })
	for _, p := range c.Providers {
		p.Offers = slices.DeleteFunc(p.Offers, gone)
	}
	for _, g := range c.GPUs {
		g.Offers = slices.DeleteFunc(g.Offers, gone)
		if hg[g.ExportVariantOf] {
			g.ExportVariantOf = ""
		}
	}
	c.hidden = map[string]bool{}
	for id := range hp {
		delete(c.providers, id)
		c.hidden["providers/"+id] = true
	}
	for id := range hg {
		delete(c.gpus, id)
		c.hidden["gpus/"+id] = true
	}
}

// Hidden reports whether an overlay's data/hide.toml hid the provider or
// GPU (kind "providers" or "gpus") with the id.
func (c *Catalog) Hidden(kind, id string) bool { return c.hidden[kind+"/"+id] }

// declared names the public file that declares id of kind (gpus,
// providers, models), or "".
func (c *Catalog) declared(kind, id string) string {
	switch kind {
	case "gpus":
		if g := c.gpus[id]; g != nil {
			return g.File
		}
	case "providers":
		if p := c.providers[id]; p != nil {
			return p.File
		}
	case "models":
		if m := c.models[id]; m != nil {
			return m.File
		}
	}
	return ""
}

// OverlayTerms is what a team's overlay says about the public catalog (its
// data/overrides.toml and data/hide.toml), read without checking it
// against a catalog: for a tool that compares two public catalogs from the
// team's side (catdiff). Its paths carry the layer's label.
type OverlayTerms struct {
	Overrides Overrides
	Hide      Hide
	// OverridesFile and HideFile are the files' paths in messages ("" when
	// the overlay has no such file); ContractLines and DiscountLines the
	// line of each [[contract]] and [[discount]], HideLines of each hidden
	// provider, then each hidden GPU.
	OverridesFile, HideFile      string
	ContractLines, DiscountLines []int
	HideProviderLines            []int
	HideGPULines                 []int
}

// ReadOverlayTerms reads an overlay's data/overrides.toml and
// data/hide.toml (either may be absent). Syntax errors and unknown keys
// are positioned in the overlay's files; nothing else is checked.
func ReadOverlayTerms(layer Layer) (*OverlayTerms, *diag.List) {
	d := &diag.List{}
	label := layer.Label
	if label == "" {
		label = filepath.ToSlash(filepath.Clean(layer.Dir)) + "/"
	}
	if !checkLayerDir(layer.Dir, label, d) {
		return nil, d
	}
	t := &OverlayTerms{}
	if abs := filepath.Join(layer.Dir, "data", "overrides.toml"); exists(abs) {
		t.OverridesFile = label + "data/overrides.toml"
		if f := decodeFile(abs, t.OverridesFile, &t.Overrides, d); f != nil {
			for i := range t.Overrides.Contracts {
				line, _ := f.pos(fmt.Sprintf("contract.%d", i))
				t.ContractLines = append(t.ContractLines, line)
			}
			for i := range t.Overrides.Discounts {
				line, _ := f.pos(fmt.Sprintf("discount.%d", i))
				t.DiscountLines = append(t.DiscountLines, line)
			}
		}
	}
	if abs := filepath.Join(layer.Dir, "data", "hide.toml"); exists(abs) {
		t.HideFile = label + "data/hide.toml"
		if f := decodeFile(abs, t.HideFile, &t.Hide, d); f != nil {
			for i := range t.Hide.Providers {
				line, _ := f.pos(fmt.Sprintf("providers.%d", i))
				t.HideProviderLines = append(t.HideProviderLines, line)
			}
			for i := range t.Hide.GPUs {
				line, _ := f.pos(fmt.Sprintf("gpus.%d", i))
				t.HideGPULines = append(t.HideGPULines, line)
			}
		}
	}
	if d.HasErrors() {
		return nil, d
	}
	return t, d
}
