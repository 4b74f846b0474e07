package pages

import (
	"golang.org/x/text/collate"
	"golang.org/x/text/language"
	"html/template"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/content"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
)

// GPUSummary is a GPU with its price summary, for index tables.
type GPUSummary struct {
	GPU      *catalog.GPU
	Cheapest *derive.Row
	Offers   int
}

// ModeStats pairs a billing mode with its statistics.
type ModeStats struct {
	Mode       string
	TermMonths int // committed: the term the statistics are of
	Stats      derive.Stats
}

// GPUPage is the data of a GPU page.
type GPUPage struct {
	GPU       *catalog.GPU
	Variant   *catalog.GPU // export_variant_of target
	Stats     []ModeStats
	Rows      []*derive.Row
	Currency  string
	FX        catalog.FX
	Staleness catalog.Staleness
	RepoURL   string
	Fits      []derive.GPUFit
	Scenarios []derive.Scenario
	// OneGPU is the presets that fit one of the GPU for serving, best
	// first, each in its most precise format (derive.Data.FitOn).
	OneGPU []derive.OneFit
	Limit  int // rows shown before "show all" (0: all)
	// History holds the price histories of the offers with two or more
	// observations of a price (templates/_pricehistory.html).
	History []PriceHistory
	// Offers and StaleOffers count the GPU's priced offers and those
	// with no current price; Newest is its newest price's date.
	Offers, StaleOffers int
	Newest              time.Time
}

// ProviderPage is the data of a provider page.
type ProviderPage struct {
	P        *catalog.Provider
	Rows     []*derive.Row
	Currency string
	RepoURL  string
	Limit    int // rows shown before "show all" (0: all)
	// Newest is the date of the provider's newest current price and
	// NewestBand its age band; the page says so at the top when it is
	// stale (or there is none).
	Newest     time.Time
	NewestBand string
	// Offers and StaleOffers count its priced offers and those with no
	// current price (derive.OfferAges); StaleDays is the rule's age.
	Offers, StaleOffers, StaleDays int
	// Capture is what `generator capture` reads for the provider, given
	// when it has no current price (nil otherwise, or when none is set up).
	Capture *CaptureTarget
}

// GuideSection groups guides for the guides index.
type GuideSection struct {
	Name   string
	Guides []*content.Page
}

// PricingLimit is how many rows /pricing/ shows before "show all".
const PricingLimit = 60

// Option is a value of a filter select.
type Option struct{ Value, Label, Group string }

// PricingPage is the data of the full price table.
type PricingPage struct {
	Filters    map[string][]Option
	FXJSON     string // {"USD":1,"CNY":7.1,...} units per display currency
	Currencies []string
	Rows       []*derive.Row
	Currency   string
	FX         catalog.FX
	Staleness  catalog.Staleness
	RepoURL    string
	Datasets   []catalog.Dataset
	// Limit is how many of the cheapest rows /pricing/ shows before "show
	// all" (the rest are rendered hidden, so a first paint lays out a
	// short table); /pricing/all/ shows every row without JavaScript.
	Limit int
	All   bool
	// Total is the number of rows in the whole list. The full list is
	// split into Pages pages of PricingPageRows rows (/pricing/all/,
	// /pricing/all/2/, ...; PagePaths), each within the page-weight budget:
	// a page of it (All) has Page (1-based) and First, the 1-based number
	// of its first row. /pricing/ has Page 0; its script reads the list's
	// index (Index) when a reader filters, sorts or shows all.
	Total, Page, Pages, First int
	PagePaths                 []string
	// RowsHTML is the page's rows as the offerrows template writes them
	// (rendered once for the whole list: renderPricingRows).
	RowsHTML template.HTML
	// Index is the URL of the list's index (PricingIndexPath), which
	// /pricing/'s script reads on the first filter, sort or "show all",
	// and which names the files of the rows' cells.
	Index string
}

// PricingPageRows is how many price rows one page of the full list holds.
const PricingPageRows = 250

// pricingPagePaths are the paths of the pages of a full list of n rows.
func pricingPagePaths(n int) []string {
	paths := []string{"pricing/all/"}
	for k := 2; (k-1)*PricingPageRows < n; k++ {
		paths = append(paths, "pricing/all/"+strconv.Itoa(k)+"/")
	}
	return paths
}

// pricingAll renders the full list as pages of PricingPageRows rows, in
// the order of pp.Rows, titled title ("page k of n" after the first). They
// hold no filter form and no pricing script: a reader without JavaScript
// pages through them; /pricing/ filters and sorts every row.
//
// rows and filters give the list's rows, in order, and its filters (see
// pages); priced is the rows as rendered (renderPricingRows).
func (s *Edition) pricingAll(pp *PricingPage, title string, rows func() []*derive.Row, filters func() map[string][]Option, priced pricedRows) {
	for i, path := range pp.PagePaths {
		tt := title
		if i > 0 {
			tt = title + render.Format(s.r.T("pricing.pages.title"), i+1, pp.Pages)
		}
		lo, hi := i*PricingPageRows+1, min((i+1)*PricingPageRows, pp.Total)
		desc := s.r.Text("pricing.description.all", lo, hi, pp.Total) // unique per page
		s.pageData(&render.Page{Kind: "pricing", Path: path, Title: tt, Description: desc, Scripts: []string{"js/tables.js"}}, func(*Edition) any {
			p := *pp
			all := rows()
			lo, hi := i*PricingPageRows, min((i+1)*PricingPageRows, len(all))
			p.Rows, p.Filters, p.Page, p.First = all[lo:hi], filters(), i+1, lo+1
			p.RowsHTML = priced.rowsHTML(lo, hi)
			return &p
		})
	}
}

// gpuPage is the data of g's page.
func (s *Edition) gpuPage(g *catalog.GPU) *GPUPage {
	site := s.cat.Site
	gp := &GPUPage{GPU: g, Rows: s.dd.GPURows(g.ID), Currency: s.dd.Currency, FX: s.cat.FX, Staleness: site.Staleness, RepoURL: site.RepoURL,
		Fits: s.dd.GPUFits(g), Scenarios: derive.Scenarios(), OneGPU: s.dd.FitOn(g, 1)}
	if g.ExportVariantOf != "" {
		gp.Variant = s.cat.GPU(g.ExportVariantOf)
	}
	for _, m := range s.dd.GPUModes(g.ID) {
		if st := s.dd.GPUModeStats(g.ID, m); st.N > 0 {
			gp.Stats = append(gp.Stats, ModeStats{Mode: m.Billing, TermMonths: m.TermMonths, Stats: st})
		}
	}
	gp.History = s.gpuHistories(g.ID)
	gp.Offers, gp.StaleOffers, gp.Newest = derive.OfferAges(gp.Rows)
	return gp
}

func (s *Edition) pages() {
	site := s.site() // the edition's title and description
	cur := s.dd.Currency
	t := s.r.T
	guideSections := s.guideSections()

	// The data of the pages that take work is made as they are rendered
	// (pageData), from the view v of this edition's build.
	s.pageData(&render.Page{Kind: "home", Path: "", Title: site.Title, Description: site.Description}, func(v *Edition) any {
		return map[string]any{
			"GPUs": v.byPrice(), "Sections": guideSections, "Counts": map[string]int{
				"gpus": len(v.cat.GPUs), "providers": len(v.cat.Providers), "offers": len(v.cat.Offers), "prices": len(v.dd.Rows), "models": len(v.cat.Models)},
			"Currency": cur, "Now": v.now, "StaleDays": v.cat.Site.Staleness.StaleDays,
		}
	})
	s.indexPages() // indexes.go: GPUs, providers, models
	for _, g := range s.cat.GPUs {
		s.pageData(&render.Page{Kind: "gpu", Path: "gpus/" + g.ID + "/", Title: g.LocalName(s.lang.Code), Description: gpuDescription(g, s.r), Scripts: []string{"js/tables.js"}}, func(v *Edition) any {
			return v.gpuPage(g)
		})
	}
	s.providerPages()
	s.pricingPages()
	s.page(&render.Page{Kind: "guides", Path: "guides/", Title: t("guides.title"), Description: t("guides.description"),
		Data: map[string]any{"Sections": guideSections}})
	for _, g := range s.guides {
		s.page(&render.Page{Kind: "guide", Path: GuidePath(g), Title: g.Title, Description: g.Description, Data: guidePage(g, guideSections)})
	}
	for _, m := range s.cat.Models {
		s.pageData(&render.Page{Kind: "model", Path: "models/" + m.ID + "/", Title: m.Name,
			Description: s.r.Text("model.description", m.Name)}, func(v *Edition) any { return v.modelPage(m) })
	}
	s.page(&render.Page{Kind: "404", Path: "404.html", Title: t("notfound.title"), Description: t("notfound.description")})
}

// guideSections finishes the edition's guides (finishGuide) and groups
// those not served at the top level by section, in content.Sections'
// order, each by weight then slug.
func (s *Edition) guideSections() []GuideSection {
	sections := map[string][]*content.Page{}
	for _, g := range s.guides {
		g.HTML = s.finishGuide(g.HTML)
		if content.TopLevel(g.Section) {
			continue
		}
		sections[g.Section] = append(sections[g.Section], g)
	}
	var out []GuideSection
	for _, name := range content.Sections() {
		gs := sections[name]
		if len(gs) == 0 {
			continue
		}
		sort.SliceStable(gs, func(i, j int) bool {
			if gs[i].Weight != gs[j].Weight {
				return gs[i].Weight < gs[j].Weight
			}
			return gs[i].Slug < gs[j].Slug
		})
		out = append(out, GuideSection{Name: name, Guides: gs})
	}
	return out
}

// providerPages queues a page per provider: its offers' rows, the age of
// its newest price and, when that is old or missing, its capture-ready
// line.
func (s *Edition) providerPages() {
	site := s.site()
	cur := s.dd.Currency
	for _, p := range s.cat.Providers {
		name := p.LocalName(s.lang.Code)
		desc := s.r.ProviderDescription(p)
		if desc == "" {
			desc = s.r.Text("provider.description", name)
		}
		s.pageData(&render.Page{Kind: "provider", Path: "providers/" + p.ID + "/", Title: name, Description: desc, Scripts: []string{"js/tables.js"}}, func(v *Edition) any {
			var rows []*derive.Row
			for _, o := range p.Offers {
				rows = append(rows, v.dd.OfferRows(o.ID)...)
			}
			pp := &ProviderPage{P: p, Rows: rows, Currency: cur, RepoURL: site.RepoURL}
			pp.Newest, pp.NewestBand = v.dd.Newest(p)
			pp.Offers, pp.StaleOffers, _ = derive.OfferAges(rows)
			pp.StaleDays = v.cat.Site.Staleness.StaleDays
			if c, ok := v.captures[p.ID]; ok && (pp.Newest.IsZero() || pp.NewestBand == "stale") {
				pp.Capture = &c
			}
			return pp
		})
	}
}

// pricingPages queues the price list (/pricing/, its first rows) and the
// whole list (/pricing/all/ and its numbered pages). They share one
// sorting of the rows and one list of filters, made by the first of them
// to be rendered.
func (s *Edition) pricingPages() {
	site := s.site()
	cur := s.dd.Currency
	t := s.r.T
	v := s
	byPrice := sync.OnceValue(func() []*derive.Row {
		rows := append([]*derive.Row(nil), v.dd.Rows...)
		sort.SliceStable(rows, func(i, j int) bool {
			if rows[i].PerGPUDC != rows[j].PerGPUDC {
				return rows[i].PerGPUDC < rows[j].PerGPUDC
			}
			return rows[i].Offer.ID < rows[j].Offer.ID
		})
		return rows
	})
	filters := sync.OnceValue(v.filters)
	n := len(s.dd.Rows)
	var priced pricedRows
	for _, all := range []bool{false, true} {
		pp := &PricingPage{FXJSON: s.fxJSON(), Currencies: s.cat.FX.Currencies(), Currency: cur, FX: s.cat.FX,
			Staleness: site.Staleness, RepoURL: site.RepoURL, Datasets: site.Datasets, Limit: PricingLimit, All: all,
			Total: n, PagePaths: pricingPagePaths(n)}
		pp.Pages = len(pp.PagePaths)
		path, title := "pricing/", t("pricing.title")
		if all {
			pp.Limit, path, title = 0, "pricing/all/", t("pricing.title.all")
			s.pricingAll(pp, title, byPrice, filters, priced)
			continue
		}
		// Every row is rendered once, here: the index needs them all, and
		// the pages show slices of them.
		priced = s.renderPricingRows(pp, byPrice(), s.r.URL)
		if priced.err != nil {
			s.d.Errorf("templates/_tables.html", 0, 0, "the price list's rows (%s): %v", PricingIndexPath, priced.err)
		}
		s.tree.Add(s.prefix+PricingIndexPath, priced.index)
		for k, b := range priced.cells {
			s.tree.Add(s.prefix+PricingCellsPath(k+1), b)
		}
		pp.Index = s.r.URL(PricingIndexPath)
		s.pageData(&render.Page{Kind: "pricing", Path: path, Title: title, Description: t("pricing.description"), Scripts: []string{"js/tables.js", "js/pricing.js"}}, func(*Edition) any {
			p := *pp
			p.Rows, p.Filters = byPrice(), filters()
			p.RowsHTML = priced.rowsHTML(0, PricingLimit)
			return &p
		})
	}
}

// finishGuide rebases a guide's links onto its edition and marks up its
// code for reading (readableCode), through Config.Finish when set: two
// regular expressions over every guide were a tenth of a one-price
// rebuild, and a price edit changes few guides.
func (s *Edition) finishGuide(h templateHTML) templateHTML {
	mk := func() template.HTML { return templateHTML(readableCode(string(s.rebase(h)))) }
	if s.finish == nil {
		return mk()
	}
	return s.finish(s.base+"\x00"+s.prefix+"\x00"+string(h), mk)
}

func gpuDescription(g *catalog.GPU, r *render.Renderer) string {
	return r.Text("gpu.description", g.LocalName(r.Lang()), g.Vendor+" "+g.Architecture, render.Num(g.MemoryGB)+" GB "+g.MemoryType)
}

// GuidePath is where a content page is served: /<slug>/ for the FAQ and
// about pages, /guides/<slug>/ for guides.
func GuidePath(g *content.Page) string {
	if content.TopLevel(g.Section) {
		return g.Slug + "/"
	}
	return "guides/" + g.Slug + "/"
}

// filters lists the values each pricing-table filter can take, from the
// rows themselves.
func (s *Edition) filters() map[string][]Option {
	sets := map[string]map[string]string{}
	group := map[string]string{} // a city's country, by city key
	add := func(k, v, label string) {
		if v == "" {
			return
		}
		if sets[k] == nil {
			sets[k] = map[string]string{}
		}
		sets[k][v] = label
	}
	for _, r := range s.dd.Rows {
		o := r.Offer
		add("gpu", o.GPU.ID, o.GPU.LocalName(s.lang.Code))
		add("vendor", o.GPU.Vendor, o.GPU.Vendor)
		add("form", o.GPU.FormFactor, o.GPU.FormFactor)
		add("provider", o.Provider.ID, o.Provider.LocalName(s.lang.Code))
		for _, c := range r.Countries { // where the GPU runs (the regions'), not the headquarters
			add("country", c, s.label("country.", c))
		}
		for _, id := range r.Regions {
			for _, reg := range o.Provider.Regions {
				if reg.ID != id {
					continue
				}
				// The region's name in the edition's language, then its id.
				label := id
				if local := reg.LocalName(s.lang.Code); local != id {
					label = s.r.Text("region.withid", local, id)
				}
				add("region", id, label)
				if k := reg.CityKey(); k != "" {
					if _, seen := sets["city"][k]; !seen {
						add("city", k, reg.CityIn(s.lang.Code))
						group[k] = s.label("country.", reg.Country)
						if reg.Country == "" {
							group[k] = s.r.T("filter.othercountry")
						}
					}
				}
			}
		}
		add("billing", r.Price.Billing, s.r.T("billing."+r.Price.Billing))
		add("ic", o.GPU.Interconnect.Kind, o.GPU.Interconnect.Kind)
		add("count", strconv.Itoa(o.GPUCount), strconv.Itoa(o.GPUCount))
	}
	out := map[string][]Option{}
	coll := collate.New(language.Make(s.lang.Code), collate.IgnoreCase)
	for k, m := range sets {
		for _, v := range slices.Sorted(maps.Keys(m)) {
			out[k] = append(out[k], Option{Value: v, Label: m[v], Group: group[v]})
		}
		if k == "count" {
			sort.Slice(out[k], func(i, j int) bool {
				a, _ := strconv.Atoi(out[k][i].Value)
				b, _ := strconv.Atoi(out[k][j].Value)
				return a < b
			})
		} else if k != "billing" {
			// Cities by country, then name, in the edition's collation.
			sort.SliceStable(out[k], func(i, j int) bool {
				a, b := out[k][i], out[k][j]
				if a.Group != b.Group {
					return coll.CompareString(a.Group, b.Group) < 0
				}
				return coll.CompareString(a.Label, b.Label) < 0
			})
		}
	}
	return out
}

// fxJSON gives the pricing script the rates to convert display-currency
// amounts into any other currency of data/fx.toml.
func (s *Edition) fxJSON() string {
	var b strings.Builder
	b.WriteString("{")
	for i, c := range s.cat.FX.Currencies() {
		r, _ := s.cat.FX.Convert(1, s.dd.Currency, c)
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(strconv.Quote(c) + ":" + strconv.FormatFloat(r, 'g', -1, 64))
	}
	b.WriteString("}")
	return b.String()
}
