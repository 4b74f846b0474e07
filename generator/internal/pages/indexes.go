package pages

import (
	"cmp"
	"slices"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/content"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
)

// GPUGroup is one vendor's GPUs in the GPU index, newest first.
type GPUGroup struct {
	Vendor string
	GPUs   []GPUSummary
}

// GPUIndex is the data of the GPU index in one of its two orders: by
// vendor and generation (/gpus/, Groups) or by the cheapest on-demand
// price (/gpus/by-price/, GPUs).
type GPUIndex struct {
	ByPrice  bool
	Groups   []GPUGroup
	GPUs     GPUSummaries
	Currency string
	// StaleDays is the age past which a price is stale (data/site.toml).
	StaleDays int
}

// ProviderRow is a provider in the provider index, with readable labels.
type ProviderRow struct {
	P       *catalog.Provider
	Kind    string // "GPU cloud", not "gpu-cloud"
	Country string // the country's name; "" when the catalog states none
	// Newest is the date of its newest current price (zero: none), and
	// NewestBand that date's age band (fresh, ageing, stale).
	Newest     time.Time
	NewestBand string
}

// ModelRow is a model preset in the model index, with its large numbers
// written for reading.
type ModelRow struct {
	M               *catalog.Model
	Params, Active  string // "7.6B"; Active "" for a dense model
	Context, Hidden string // "131,072"
}

// label looks a value's UI string up under prefix ("kind." + "gpu-cloud");
// a value without one reads as itself.
func (s *Edition) label(prefix, v string) string {
	if v == "" {
		return ""
	}
	if l := s.r.T(prefix + v); l != "["+prefix+v+"]" {
		return l
	}
	return v
}

// byVendor is the GPU summaries in the index's reading order
// (derive.GPUsByVendor).
func (s *Edition) byVendor() []GPUSummary {
	var out []GPUSummary
	for _, g := range derive.GPUsByVendor(s.cat.GPUs) {
		out = append(out, GPUSummary{GPU: g, Cheapest: s.dd.Cheapest(g.ID), Offers: len(g.Offers)})
	}
	return out
}

// byPrice is the GPU summaries cheapest on-demand price per GPU-hour
// first; GPUs without one follow in reading order.
// stale is 1 for a GPU whose cheapest price is stale (derive.Data.Cheapest), else 0.
func stale(g GPUSummary) int {
	if g.Cheapest != nil && g.Cheapest.Band == "stale" {
		return 1
	}
	return 0
}

// GPUSummaries is a ranking of GPUs by their cheapest price.
type GPUSummaries []GPUSummary

// StaleOnly counts the GPUs whose cheapest price is stale (every
// on-demand price they have is): a ranking hides them until the reader
// asks for them.
func (gs GPUSummaries) StaleOnly() int {
	n := 0
	for _, g := range gs {
		n += stale(g)
	}
	return n
}

func (s *Edition) byPrice() GPUSummaries {
	out := s.byVendor()
	slices.SortStableFunc(out, func(a, b GPUSummary) int {
		switch {
		case a.Cheapest == nil && b.Cheapest == nil:
			return 0
		case a.Cheapest == nil:
			return 1
		case b.Cheapest == nil:
			return -1
		}
		// A GPU whose only prices are stale ranks after every current one.
		return cmp.Or(cmp.Compare(stale(a), stale(b)), cmp.Compare(a.Cheapest.PerGPUDC, b.Cheapest.PerGPUDC))
	})
	return out
}

// indexPages renders the GPU index in both orders, the provider index
// and the model index.
func (s *Edition) indexPages() {
	t := s.r.T
	cur := s.dd.Currency
	s.pageData(&render.Page{Kind: "gpus", Path: "gpus/", Title: t("gpus.title"), Description: t("gpus.description")}, func(v *Edition) any {
		idx := &GPUIndex{Currency: cur}
		for _, g := range v.byVendor() {
			if n := len(idx.Groups); n == 0 || idx.Groups[n-1].Vendor != g.GPU.Vendor {
				idx.Groups = append(idx.Groups, GPUGroup{Vendor: g.GPU.Vendor})
			}
			last := &idx.Groups[len(idx.Groups)-1]
			last.GPUs = append(last.GPUs, g)
		}
		return idx
	})
	s.pageData(&render.Page{Kind: "gpus", Path: "gpus/by-price/", Title: t("gpus.title.byprice"), Description: t("gpus.description.byprice")}, func(v *Edition) any {
		return &GPUIndex{ByPrice: true, GPUs: v.byPrice(), Currency: cur, StaleDays: v.cat.Site.Staleness.StaleDays}
	})

	var ps []ProviderRow
	for _, p := range derive.ProvidersByLocalName(s.cat.Providers, s.r.Lang()) {
		r := ProviderRow{P: p, Kind: s.label("kind.", p.Kind), Country: s.label("country.", p.Country)}
		r.Newest, r.NewestBand = s.dd.Newest(p)
		ps = append(ps, r)
	}
	s.page(&render.Page{Kind: "providers", Path: "providers/", Title: t("providers.title"), Description: t("providers.description"),
		Data: map[string]any{"Providers": ps}})

	var ms []ModelRow
	for _, m := range derive.ModelsByFamily(s.cat.Models) {
		r := ModelRow{M: m, Params: derive.Compact(m.Params), Context: derive.Group(m.MaxContext), Hidden: derive.Group(m.Hidden)}
		if m.ActiveParams > 0 && m.ActiveParams != m.Params {
			r.Active = derive.Compact(m.ActiveParams)
		}
		ms = append(ms, r)
	}
	s.page(&render.Page{Kind: "models", Path: "models/", Title: t("models.title"), Description: t("models.description"),
		Data: map[string]any{"Models": ms}})
}

// GuidePage is a guide with its neighbours in its section's reading
// order (the guides index's), for the previous and next links; a
// top-level page (FAQ, methodology) has none.
type GuidePage struct {
	*content.Page
	Prev, Next *content.Page
}

// guidePage finds g's neighbours in its section.
func guidePage(g *content.Page, sections []GuideSection) *GuidePage {
	p := &GuidePage{Page: g}
	for _, sec := range sections {
		if sec.Name != g.Section {
			continue
		}
		for i, x := range sec.Guides {
			if x != g {
				continue
			}
			if i > 0 {
				p.Prev = sec.Guides[i-1]
			}
			if i+1 < len(sec.Guides) {
				p.Next = sec.Guides[i+1]
			}
		}
	}
	return p
}
