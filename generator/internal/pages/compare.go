package pages

import (
	"encoding/json"
	"html/template"
	"math"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/message"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
)

// CompareGPU is one column of a comparison, computed once per GPU and
// edition: a GPU is a column of every pair page of its segment.
type CompareGPU struct {
	GPU      *catalog.GPU
	Specs    map[string]string // specRows(GPU)
	OnDemand derive.Stats
	Spot     derive.Stats
	// Fits is the GPUs needed per model preset (derive.GPUFits' order) and
	// scenario, as the fits table shows it: a count, or "–" where the
	// preset does not fit.
	Fits [][]string
	fits []derive.GPUFit // what Fits is written from
	// prices are the price cells' contents by billing mode ("on-demand",
	// "spot"), as the comparestats template writes them: [0] plain,
	// [1] marked better.
	prices map[string][2]template.HTML
}

// ComparePage is the data of a pair page. Its tables are laid out here,
// from the columns computed once per GPU, so that a page (a segment of n
// GPUs has n(n-1)/2 of them) costs its template little more than copying
// cells.
type ComparePage struct {
	GPUs      []CompareGPU
	Scenarios []derive.Scenario
	Currency  string
	// Specs is the spec table: a row per specRowNames, a cell per GPU.
	Specs []CompareSpecRow
	// Prices is the price table: a row per billing mode, a cell per GPU.
	Prices []ComparePriceRow
	// Fits is the fits table: a row per model preset, a cell per
	// scenario with every GPU's count ("1 / 2").
	Fits []CompareFitRow
	// Better marks the better GPU of each spec row (specRowNames) and of
	// the price rows "on-demand" and "spot" (the lower cheapest price): its
	// index plus one; absent or 0 when the GPUs tie or a figure is
	// missing.
	Better map[string]int
}

// CompareSpecRow is a row of the spec table: its specRowNames name and a
// cell per GPU.
type CompareSpecRow struct {
	Name  string
	Cells []CompareCell
}

// CompareCell is a GPU's figure in a spec row, and whether it is the
// better one (Better).
type CompareCell struct {
	Text string
	Best bool
}

// ComparePriceRow is a row of the price table: a billing mode and each
// GPU's cell.
type ComparePriceRow struct {
	Billing string
	Cells   []ComparePriceCell
}

// ComparePriceCell is a GPU's price summary, marked when it is the lower.
type ComparePriceCell struct {
	HTML template.HTML
	Best bool
}

// comparePriceModes are the price table's rows.
var comparePriceModes = []string{"on-demand", "spot"}

// stats is the column's price summary of a comparePriceModes mode.
func (c CompareGPU) stats(mode string) derive.Stats {
	if mode == "spot" {
		return c.Spot
	}
	return c.OnDemand
}

// CompareFitRow is a row of the fits table.
type CompareFitRow struct {
	Model *catalog.Model
	Cells []string // per scenario
	// Key is the model's id and the cells: all the row shows, so the
	// template caches the row's HTML by it (most pairs share most rows).
	Key string
}

// betterSpecs are the spec rows where more is better, with the figure
// compared.
var betterSpecs = map[string]func(*catalog.GPU) *float64{
	"memory":    func(g *catalog.GPU) *float64 { return &g.MemoryGB },
	"bandwidth": func(g *catalog.GPU) *float64 { return &g.MemoryBWGBs },
	"fp32":      func(g *catalog.GPU) *float64 { return g.FP32TFLOPS },
	"tf32":      func(g *catalog.GPU) *float64 { return g.TF32TFLOPS },
	"bf16":      func(g *catalog.GPU) *float64 { return g.BF16TFLOPS },
	"fp8":       func(g *catalog.GPU) *float64 { return g.FP8TFLOPS },
	"int8":      func(g *catalog.GPU) *float64 { return g.INT8TOPS },
	// The link to its peers: NVLink 900 GB/s against 400 is a difference
	// a training job feels.
	"interconnect": func(g *catalog.GPU) *float64 { return g.Interconnect.BandwidthGBs },
}

// Tolerances under which two figures are the same for the compare marks:
// spec figures are datasheet numbers rounded to two or three digits (67
// against 66.9 TFLOPS is rounding, not a win); prices are shown to three
// significant digits.
const (
	specTolerance  = 0.02
	priceTolerance = 0.005
)

// better returns the index plus one of the best of vals (the largest when
// more is true, else the smallest), or 0 when a value is missing (nil) or
// the best is not ahead of every other by more than tol of itself (a
// difference below the figures' precision is a tie).
func better(vals []*float64, more bool, tol float64) int {
	at := 0
	for i, v := range vals {
		if v == nil {
			return 0
		}
		if at == 0 || more && *v > *vals[at-1] || !more && *v < *vals[at-1] {
			at = i + 1
		}
	}
	if at == 0 {
		return 0
	}
	best := *vals[at-1]
	for i, v := range vals {
		if i+1 != at && math.Abs(*v-best) <= tol*math.Abs(best) {
			return 0
		}
	}
	return at
}

// pairBetter computes ComparePage.Better.
func pairBetter(gs []CompareGPU) map[string]int {
	out := map[string]int{}
	for row, f := range betterSpecs {
		var vals []*float64
		for _, g := range gs {
			vals = append(vals, f(g.GPU))
		}
		if b := better(vals, true, specTolerance); b > 0 {
			out[row] = b
		}
	}
	for _, m := range comparePriceModes {
		var vals []*float64
		for _, g := range gs {
			st := g.stats(m)
			if st.N == 0 {
				vals = append(vals, nil)
				continue
			}
			v := st.Min
			vals = append(vals, &v)
		}
		if b := better(vals, false, priceTolerance); b > 0 {
			out[m] = b
		}
	}
	return out
}

// ComparePair is a link to a pre-rendered pair page.
type ComparePair struct {
	Path string
	A, B *catalog.GPU
}

// CompareIndex is the data of the compare picker.
type CompareIndex struct {
	// Popular are data/site.toml's popular pairs: a pair page, or the
	// picker with the two GPUs when they are in different segments.
	Popular  []ComparePair
	Segments map[string][]ComparePair
	Order    []string
	GPUs     []*catalog.GPU
	JSON     template.JS
}

// PairPath is the one URL of a pair: ids in lexical order.
func PairPath(a, b string) string {
	if b < a {
		a, b = b, a
	}
	return "compare/" + a + "-vs-" + b + "/"
}

// compareGPU is a GPU's column, computed on its first use in an edition.
func (s *Edition) compareGPU(g *catalog.GPU) CompareGPU {
	if c, ok := s.compareCols[g]; ok {
		return c
	}
	c := CompareGPU{GPU: g, Specs: specRows(g), OnDemand: s.dd.GPUStats(g.ID, "on-demand"), Spot: s.dd.GPUStats(g.ID, "spot")}
	c.prices = map[string][2]template.HTML{}
	for _, m := range comparePriceModes {
		st := c.stats(m)
		var cell [2]template.HTML
		for i := range cell {
			b, err := s.r.Partial("compare", "comparestats", map[string]any{"S": st, "Cur": s.dd.Currency, "Best": i == 1})
			if err != nil {
				s.d.Errorf("templates/compare.html", 0, 0, "the price cells of %s: %v", g.ID, err)
			}
			cell[i] = template.HTML(b) // #nosec G203 -- the comparestats template's own output
		}
		c.prices[m] = cell
	}
	c.fits = s.dd.GPUFits(g)
	for _, f := range c.fits {
		row := make([]string, len(f.MinGPUs))
		for i, n := range f.MinGPUs {
			row[i] = "–"
			if n > 0 {
				row[i] = strconv.Itoa(n)
			}
		}
		c.Fits = append(c.Fits, row)
	}
	if s.compareCols == nil {
		s.compareCols = map[*catalog.GPU]CompareGPU{}
	}
	s.compareCols[g] = c
	return c
}

// comparePages renders a page for every pair of GPUs in the same segment
// and the picker that compares any 2 to 4 GPUs.
func (s *Edition) comparePages() {
	idx := &CompareIndex{Segments: map[string][]ComparePair{}, GPUs: derive.GPUsByVendor(s.cat.GPUs)}
	bySeg := map[string][]*catalog.GPU{}
	for _, g := range s.cat.GPUs {
		bySeg[g.Segment] = append(bySeg[g.Segment], g)
	}
	for _, seg := range []string{"datacenter", "workstation", "consumer"} {
		gs := bySeg[seg]
		if len(gs) < 2 {
			continue
		}
		idx.Order = append(idx.Order, seg)
		cols := make([]CompareGPU, len(gs))
		for i, g := range gs {
			cols[i] = s.compareGPU(g)
		}
		for i := 0; i < len(gs); i++ {
			for j := i + 1; j < len(gs); j++ {
				a, b := gs[i], gs[j] // s.cat.GPUs is sorted by id: canonical order
				p := PairPath(a.ID, b.ID)
				idx.Segments[seg] = append(idx.Segments[seg], ComparePair{Path: p, A: a, B: b})
				ca, cb := cols[i], cols[j]
				s.pageData(&render.Page{Kind: "compare", Path: p, Title: render.Format(s.r.T("compare.pair.title"), a.LocalName(s.lang.Code), b.LocalName(s.lang.Code)),
					Description: render.Format(s.r.T("compare.pair.description"), a.LocalName(s.lang.Code), b.LocalName(s.lang.Code))},
					func(v *Edition) any { return pairPage([]CompareGPU{ca, cb}, v.dd.Currency) })
			}
		}
	}
	s.instancesPage()
	pages := map[string]bool{}
	for _, list := range idx.Segments {
		for _, p := range list {
			pages[p.Path] = true
		}
	}
	for _, pair := range s.cat.Site.Compare.Popular {
		a, b := s.cat.GPU(pair[0]), s.cat.GPU(pair[1])
		if a == nil || b == nil {
			continue
		}
		p := PairPath(a.ID, b.ID)
		if !pages[p] {
			p = "compare/?" + url.Values{"gpu": {a.ID, b.ID}}.Encode()
		}
		idx.Popular = append(idx.Popular, ComparePair{Path: p, A: a, B: b})
	}
	idx.JSON = s.compareJSON()
	s.page(&render.Page{Kind: "compareindex", Path: "compare/", Title: s.r.T("compare.title"), Description: s.r.T("compare.description"),
		Data: idx, Scripts: []string{"js/compare.js"}})
}

// compareJSON is what the picker script needs to compare any GPUs.
func (s *Edition) compareJSON() template.JS {
	type stats struct {
		N                int     `json:"n"`
		Min, Median, Max float64 `json:"-"`
		MinS             string  `json:"min"`
		MedianS          string  `json:"median"`
		MaxS             string  `json:"max"`
		// Dated is the line that dates the figures (statsdates in
		// templates/_tables.html), as segments the script joins.
		Dated []dateSegment `json:"dated,omitempty"`
	}
	type gpu struct {
		Name     string            `json:"name"`
		Specs    map[string]string `json:"specs"`
		OnDemand stats             `json:"onDemand"`
		Spot     stats             `json:"spot"`
		Fits     [][]int           `json:"fits"`
	}
	conv := func(st derive.Stats) stats {
		if st.N == 0 {
			return stats{}
		}
		return stats{N: st.N, MinS: render.Money(st.Min, s.dd.Currency) + s.overlaySuffix(st.MinRow), MedianS: render.Money(st.Median, s.dd.Currency), MaxS: render.Money(st.Max, s.dd.Currency),
			Dated: s.statsDated(st)}
	}
	out := struct {
		GPUs      map[string]gpu `json:"gpus"`
		Rows      []string       `json:"rows"`
		Models    []string       `json:"models"`
		Scenarios []string       `json:"scenarios"`
		Pairs     []string       `json:"pairs"`
	}{GPUs: map[string]gpu{}}
	for _, id := range specRowNames() {
		out.Rows = append(out.Rows, s.r.T("spec."+id))
	}
	models := append([]*catalog.Model(nil), s.cat.Models...)
	sort.SliceStable(models, func(i, j int) bool { return models[i].Params < models[j].Params })
	for _, m := range models {
		out.Models = append(out.Models, m.Name)
	}
	for _, sc := range derive.Scenarios() {
		out.Scenarios = append(out.Scenarios, s.r.T("scenario."+sc.ID))
	}
	for _, g := range s.cat.GPUs {
		specs := map[string]string{}
		for id, v := range s.compareGPU(g).Specs {
			specs[s.r.T("spec."+id)] = v
		}
		c := s.compareGPU(g)
		x := gpu{Name: g.LocalName(s.lang.Code), Specs: specs, OnDemand: conv(c.OnDemand), Spot: conv(c.Spot)}
		for _, f := range c.fits {
			x.Fits = append(x.Fits, f.MinGPUs)
		}
		out.GPUs[g.ID] = x
	}
	for _, g := range s.cat.GPUs {
		for _, h := range s.cat.GPUs {
			if g.ID < h.ID && g.Segment == h.Segment {
				out.Pairs = append(out.Pairs, g.ID+"-vs-"+h.ID)
			}
		}
	}
	b, _ := json.Marshal(out)
	return template.JS(b)
}

// specRowNames are the rows of a comparison's spec table, in order: ids
// whose labels are the UI strings "spec.<id>".
func specRowNames() []string {
	return []string{"vendor", "architecture", "year", "form", "memory", "bandwidth", "fp32", "tf32", "bf16", "fp8", "int8", "tdp", "interconnect"}
}

// specRows formats a GPU's specs for comparison; unknown figures are "–".
func specRows(g *catalog.GPU) map[string]string {
	opt := func(p *float64, unit string) string {
		if p == nil {
			return "–"
		}
		return render.Num(*p) + unit
	}
	ic := g.Interconnect.Kind
	if g.Interconnect.Generation != "" {
		ic += " " + g.Interconnect.Generation
	}
	if g.Interconnect.BandwidthGBs != nil {
		ic += ", " + render.Num(*g.Interconnect.BandwidthGBs) + " GB/s"
	}
	bf := opt(g.BF16TFLOPS, " TFLOPS")
	if g.FP16Only && g.BF16TFLOPS != nil {
		bf += " (FP16)"
	}
	return map[string]string{
		"vendor": g.Vendor, "architecture": g.Architecture, "year": render.Num(float64(g.ReleaseYear)), "form": g.FormFactor,
		"memory": render.Num(g.MemoryGB) + " GB " + g.MemoryType, "bandwidth": render.Num(g.MemoryBWGBs) + " GB/s",
		"fp32": opt(g.FP32TFLOPS, " TFLOPS"), "tf32": opt(g.TF32TFLOPS, " TFLOPS"), "bf16": bf,
		"fp8": opt(g.FP8TFLOPS, " TFLOPS"), "int8": opt(g.INT8TOPS, " TOPS"), "tdp": opt(g.TDPW, " W"), "interconnect": ic,
	}
}

// InstancesPath is the instance comparison page; InstancesDataPath the
// data its script reads.
const (
	InstancesPath     = "compare/instances/"
	InstancesDataPath = "compare/instances.json"
)

// InstancesPage is the data of the instance comparison page: the page
// itself is a frame that compares the offers named in ?o= from the JSON
// at DataURL.
type InstancesPage struct {
	DataURL  string
	Currency string
}

// instancePrice is one price of an offer in the comparison data.
type instancePrice struct {
	Billing string  `json:"b"`           // readable billing mode
	Region  string  `json:"r,omitempty"` // the region the price is for, when not all the offer's
	Quoted  string  `json:"q"`           // per instance-hour as quoted
	PerGPU  string  `json:"g"`           // per GPU-hour as quoted
	DC      float64 `json:"dc"`          // per GPU-hour in the display currency, for comparing
	DCS     string  `json:"dcs"`         // the same, formatted
	AsOf    string  `json:"d"`
	Band    string  `json:"band"`
	Source  string  `json:"src"`
	Ev      string  `json:"ev,omitempty"` // readable evidence kind
	// Ov is the badge of a team's figure: kind, label, public price
	// (siteBuild.overlayMark); absent for a public price.
	Ov []string `json:"ov,omitempty"`
}

// instanceOffer is one offer in the comparison data; numbers are absent
// when the catalog has none.
type instanceOffer struct {
	Provider   string          `json:"p"`
	ProviderID string          `json:"pid"`
	Instance   string          `json:"i"`
	GPU        string          `json:"gn"`
	GPUID      string          `json:"gid"`
	Count      int             `json:"n"`
	VRAM       float64         `json:"vram"`
	VRAMTotal  float64         `json:"vramt"`
	VCPU       *int            `json:"vcpu,omitempty"`
	RAM        *float64        `json:"ram,omitempty"`
	Disk       *float64        `json:"disk,omitempty"`
	Net        *float64        `json:"net,omitempty"`
	BF16       *float64        `json:"bf16,omitempty"` // per GPU, dense
	BW         float64         `json:"bw"`             // memory bandwidth per GPU, GB/s
	IC         string          `json:"ic"`
	Regions    []string        `json:"reg"`
	Prices     []instancePrice `json:"prices"`
}

// instancesPage renders the instance comparison page and its data: every
// priced offer, with what the comparison shows.
func (s *Edition) instancesPage() {
	t := s.r.T
	offers := map[string]instanceOffer{}
	for _, o := range s.cat.Offers {
		rows := s.dd.OfferRows(o.ID)
		if len(rows) == 0 {
			continue
		}
		g := o.GPU
		ic := g.Interconnect.Kind
		if g.Interconnect.Generation != "" {
			ic += " " + g.Interconnect.Generation
		}
		if g.Interconnect.BandwidthGBs != nil {
			ic += ", " + render.Num(*g.Interconnect.BandwidthGBs) + " GB/s"
		}
		x := instanceOffer{Provider: o.Provider.LocalName(s.r.Lang()), ProviderID: o.Provider.ID, Instance: o.Instance, GPU: g.LocalName(s.lang.Code), GPUID: g.ID, Count: o.GPUCount,
			VRAM: o.VRAMPerGPUGB, VRAMTotal: o.VRAMTotalGB, VCPU: o.VCPU, RAM: o.RAMGB, Disk: o.LocalDiskGB, Net: o.NetworkGbps,
			BF16: g.BF16TFLOPS, BW: g.MemoryBWGBs, IC: ic, Regions: o.Regions}
		if x.VRAMTotal == 0 {
			x.VRAMTotal = o.VRAMPerGPUGB * float64(o.GPUCount)
		}
		for _, r := range rows {
			p := instancePrice{Billing: t("billing." + r.Price.Billing), Region: r.Price.Region, Quoted: render.Money(r.Price.Price, o.Currency),
				PerGPU: render.Money(r.PerGPU, o.Currency), DC: derive.Round4(r.PerGPUDC), DCS: render.Money(r.PerGPUDC, s.dd.Currency),
				AsOf: r.Price.AsOf.Format("2006-01-02"), Band: r.Band, Source: r.Price.Source}
			if r.Price.Evidence != "" {
				p.Ev = t("evidence." + r.Price.Evidence)
			}
			p.Ov = s.overlayMark(r.Overlay, r.PublicPerGPUDC, s.dd.Currency)
			x.Prices = append(x.Prices, p)
		}
		offers[o.ID] = x
	}
	b, err := json.Marshal(struct {
		Currency string                   `json:"cur"`
		Offers   map[string]instanceOffer `json:"offers"`
	}{s.dd.Currency, offers})
	if err != nil {
		s.d.Errorf("data", 0, 0, "instance comparison data: %v", err)
		return
	}
	s.tree.Add(s.prefix+InstancesDataPath, b)
	s.page(&render.Page{Kind: "compareinstances", Path: InstancesPath, Title: t("instances.title"), Description: t("instances.description"),
		Scripts: []string{"js/instances.js"}, Data: &InstancesPage{DataURL: s.r.URL(InstancesDataPath), Currency: s.dd.Currency}})
}

// pairPage lays out the page of a pair of columns; it only reads them, so
// pages are laid out on the render workers.
func pairPage(gs []CompareGPU, currency string) *ComparePage {
	p := &ComparePage{GPUs: gs, Scenarios: derive.Scenarios(), Currency: currency, Better: pairBetter(gs)}
	for _, name := range specRowNames() {
		row := CompareSpecRow{Name: name, Cells: make([]CompareCell, len(gs))}
		for i, g := range gs {
			row.Cells[i] = CompareCell{Text: g.Specs[name], Best: p.Better[name] == i+1}
		}
		p.Specs = append(p.Specs, row)
	}
	for _, m := range comparePriceModes {
		row := ComparePriceRow{Billing: m, Cells: make([]ComparePriceCell, len(gs))}
		for i, g := range gs {
			best := p.Better[m] == i+1
			row.Cells[i] = ComparePriceCell{HTML: g.prices[m][btoi(best)], Best: best}
		}
		p.Prices = append(p.Prices, row)
	}
	// Every column lists the same presets in the same order (GPUFits).
	for mi, f := range gs[0].fits {
		row := CompareFitRow{Model: f.Model, Cells: make([]string, len(gs[0].Fits[mi]))}
		for si := range row.Cells {
			var b strings.Builder
			for gi, g := range gs {
				if gi > 0 {
					b.WriteString(" / ")
				}
				b.WriteString(g.Fits[mi][si])
			}
			row.Cells[si] = b.String()
		}
		row.Key = f.Model.ID + "\x00" + strings.Join(row.Cells, "\x00")
		p.Fits = append(p.Fits, row)
	}
	return p
}

// dateSegment is a piece of a dated line for a page script: text, a date
// (ISO for <time datetime>, and the edition's wording) or a stale badge.
type dateSegment struct {
	Text  string `json:"t"`
	ISO   string `json:"iso,omitempty"`
	Badge bool   `json:"badge,omitempty"`
}

// statsDated is the line that dates a price summary, as the statsdates
// template writes it: the lowest price's date, then the dates of the
// prices summarised; badged stale where they are all stale.
func (s *Edition) statsDated(st derive.Stats) []dateSegment {
	var out []dateSegment
	if st.Stale {
		out = append(out, dateSegment{Text: s.r.T("gpu.stats.stale"), Badge: true}, dateSegment{Text: " "})
	}
	out = append(out, s.dated("stats.minasof", st.MinRow.Price.AsOf)...)
	out = append(out, dateSegment{Text: s.r.T("punct.semi")})
	if st.Oldest.Equal(st.Newest) {
		return append(out, s.dated("stats.one", st.Newest)...)
	}
	return append(out, s.dated("stats.span", st.Oldest, st.Newest)...)
}

// dated fills a UI string's placeholders with dates, as segments.
func (s *Edition) dated(key string, dates ...time.Time) []dateSegment {
	var out []dateSegment
	for _, p := range message.Parts(s.r.T(key)) {
		switch {
		case p.Arg < 0:
			out = append(out, dateSegment{Text: p.Text})
		case p.Arg < len(dates):
			out = append(out, dateSegment{Text: s.r.Date(dates[p.Arg]), ISO: dates[p.Arg].Format(time.DateOnly)})
		}
	}
	return out
}

// btoi is 1 for true, 0 for false.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
