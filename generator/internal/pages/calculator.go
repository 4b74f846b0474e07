package pages

import (
	"encoding/json"
	"html/template"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/hfconfig"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

// CalcPart is one segment of the memory breakdown.
type CalcPart struct {
	Key, Label string
	Bytes      int64
	Text       string // the figure as shown
	X, W       string // SVG geometry in a 0..1000 viewBox
}

// CalcMin is one row of the "which GPUs fit" table.
type CalcMin struct {
	GPU          *catalog.GPU
	N            int
	Decode, TTFT string // shown figures ("–" without a fit or a known speed)
}

// CalcOffer is a cheapest fitting offer with the job's cost (training) or
// the cost per million output tokens (inference).
type CalcOffer struct {
	Row  *derive.Row
	Cost string // shown figure, "–" when unknown
	// Public is the public price per instance-hour (display currency) a
	// team's overlay price replaces, 0 for none.
	Public float64
}

// CalcTokenOffer is one row of the cost-per-token table: a current
// on-demand offer running as many replicas of the job as it holds.
type CalcTokenOffer struct {
	Offer    *catalog.Offer
	Price    float64 // per instance-hour, display currency
	Replicas int
	Cost     float64 // per million output tokens
	// Overlay marks a price from a team's overlay; Public is then the
	// public price per instance-hour (display currency) it replaces.
	Overlay *catalog.Overlay
	Public  float64
}

// CalcCommon is a row of the common-cases table.
type CalcCommon struct {
	Model  *catalog.Model
	Totals []string // per scenario, shown figures
}

// CalcDefault names the default inputs of the calculator page.
type CalcDefault struct {
	ModelID, GPUID string
	Seq            int
}

// CalculatorPage is the data of the calculator page: the server-rendered
// result of the default inputs, and the catalog the script needs.
type CalculatorPage struct {
	Default   CalcDefault
	Models    []*catalog.Model
	GPUs      []*catalog.GPU
	GPULabels []string // the GPU select's option texts, in GPUs order
	GPU       *catalog.GPU
	Result    sizing.Result
	Usable    int64
	Fits      bool
	Parts     []CalcPart
	MinGPUs   []CalcMin
	AnyFit    bool // some catalog GPU holds the job
	Cheapest  []CalcOffer
	PerToken  []CalcTokenOffer
	Scenarios []derive.Scenario
	Common    []CalcCommon
	Currency  string
	Targets   []string
	// Text holds the result's sentences as the script writes them, in the
	// page's language: headline, total, usable, fits, paged, layout,
	// decode, ttft, throughput, flops, time, mingpusNone, cheapestNone.
	Text map[string]string
	JSON template.JS
}

// memoryInName matches a memory size in a GPU's name ("80GB", "96 GB").
var memoryInName = regexp.MustCompile(`\d\s?GB\b`)

// GPULabel is a GPU's option text in the calculator's select: its name,
// with the memory size unless the name states it or already carries a
// parenthesised qualifier ("H100 SXM5 80GB", "GeForce RTX 4090 (24 GB)",
// "GB200 NVL72 (per Blackwell GPU)"), kept short so that the select shows
// it whole on a 390 px phone. The result and the GPU table give every
// GPU's memory.
func GPULabel(g *catalog.GPU) string {
	if memoryInName.MatchString(g.Name) || strings.Contains(g.Name, "(") {
		return g.Name
	}
	return g.Name + " (" + render.Num(g.MemoryGB) + " GB)"
}

// partKeys are the breakdown components, in bar order, with their UI
// string keys (calc.part.<key>).
var partKeys = [...]string{"weights", "kv_cache", "activations", "gradients", "optimizer", "adapters", "gathered", "overhead"}

// Parts splits a breakdown into labelled bar segments; label translates a
// part key and show renders a byte count.
func Parts(b sizing.Breakdown, label func(string) string, show func(int64) string) []CalcPart {
	bytes := [...]int64{b.Weights, b.KVCache, b.Activations, b.Gradients, b.Optimizer, b.Adapters, b.GatheredLayer, b.Overhead}
	parts := make([]CalcPart, len(partKeys))
	total := float64(b.Total())
	x := 0.0
	for i, k := range partKeys {
		w := 0.0
		if total > 0 {
			w = float64(bytes[i]) / total * 1000
		}
		parts[i] = CalcPart{Key: k, Label: label(k), Bytes: bytes[i], Text: show(bytes[i]),
			X: strconv.FormatFloat(x, 'f', 1, 64), W: strconv.FormatFloat(w, 'f', 1, 64)}
		x += w
	}
	return parts
}

// calcData is the JSON the calculator script reads from the page.
type calcData struct {
	Currency string               `json:"currency"`
	Models   map[string]calcModel `json:"models"`
	GPUs     []calcGPU            `json:"gpus"`
	Offers   []calcOffer          `json:"offers"`
	Provs    [][2]string          `json:"providers"` // [id, name] of the offers' providers
	// OnDemand is each offer's current on-demand hourly price: [index of
	// one of its rows in Offers, price in the display currency].
	OnDemand [][2]float64      `json:"ondemand"`
	Billing  map[string]string `json:"billing"`
	Modes    []string          `json:"modes"` // billing modes in table order (catalog.BillingModes)
	Msgs     map[string]string `json:"msgs"`
	// Marks are the badges of a team's overlay prices (siteBuild.overlayMark,
	// public price per instance-hour): "r<i>" for Offers[i], "d<i>" for
	// OnDemand[i]. Absent in a public build.
	Marks map[string][]string `json:"marks,omitempty"`
	// Recipes are the workloads' recipes (sizing.RecipeFor), which the
	// script applies when the reader picks a workload.
	Recipes map[string]calcRecipe `json:"recipes"`
}

// calcRecipe is a workload's recipe with the form's field values.
type calcRecipe struct {
	DType         string `json:"dtype"`
	Checkpointing string `json:"checkpointing"`
	ZeRO          int    `json:"zero"`
	Optimizer     string `json:"optimizer"`
	NoMaster      bool   `json:"noMaster"`
}

// calcModel is a model for the script, with the WebAssembly engine's field
// names (generator/wasm).
type calcModel struct {
	Name            string `json:"name"`
	Params          int64  `json:"params"`
	ActiveParams    int64  `json:"activeParams"`
	Layers          int    `json:"layers"`
	Hidden          int    `json:"hidden"`
	Heads           int    `json:"heads"`
	KVHeads         int    `json:"kvHeads"`
	FFN             int    `json:"ffn"`
	Vocab           int    `json:"vocab"`
	Tied            bool   `json:"tied"`
	Experts         int    `json:"experts"`
	ExpertsPerToken int    `json:"expertsPerToken"`
	SharedExperts   int    `json:"sharedExperts"`
	DenseLayers     int    `json:"denseLayers"`
	DenseFFN        int    `json:"denseFFN"`
	HeadDim         int    `json:"headDim"`
	KVLoRARank      int    `json:"kvLoraRank"`
	QLoRARank       int    `json:"qLoraRank"`
	RopeHeadDim     int    `json:"ropeHeadDim"`
	VHeadDim        int    `json:"vHeadDim"`
	SlidingWindow   int    `json:"slidingWindow"`
	LocalLayers     int    `json:"localLayers"`
}

type calcGPU struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	MemoryBytes int64   `json:"memoryBytes"`
	Bandwidth   float64 `json:"bandwidth"`
	BF16Flops   float64 `json:"bf16Flops"`
	FP8Flops    float64 `json:"fp8Flops"`
	FP32Flops   float64 `json:"fp32Flops,omitempty"`
	MemoryGB    float64 `json:"memoryGB"`
}

// calcOffer is a price row for the script, written as a JSON array to keep
// the page small: [id, index in GPUs, GPU count, index in Providers,
// instance, billing mode, price per instance-hour in the display currency,
// as-of date].
type calcOffer struct {
	ID            string
	GPU, Provider int
	Count         int
	Instance      string
	Billing       string
	Price         float64
	AsOf          string
}

// MarshalJSON writes the array form.
func (o calcOffer) MarshalJSON() ([]byte, error) {
	return json.Marshal([]any{o.ID, o.GPU, o.Count, o.Provider, o.Instance, o.Billing, o.Price, o.AsOf})
}

// calcKeys are the UI strings the calculator's script looks up, besides the
// engine's and the config parser's messages (sizing.MessageKeys,
// hfconfig.MessageKeys).
var calcKeys = [...]string{
	"calc.result.fits", "calc.result.nofit", "calc.headline.fits", "calc.headline.nofit", "calc.headline.error",
	"calc.layout", "calc.layout.cp", "calc.layout.auto",
	"calc.speed.decode", "calc.speed.ttft", "calc.speed.throughput", "calc.bound.memory", "calc.bound.compute",
	"calc.mingpus.none", "calc.cheapest.none", "calc.cheapest.none.nooffer", "calc.cheapest.nearest",
	"calc.pertoken.none", "calc.config.ok", "calc.config.generic", "calc.config.loading",
	"calc.col.jobcost", "calc.col.permtok", "calc.cheapest.caption.job", "calc.cheapest.caption.tokens",
	"calc.err.internal", "calc.err.type", "calc.err.array", "calc.err.model", "calc.err.engine",
	"calc.offer",
}

// translator renders the engine's keyed messages and quantities with the
// page's UI strings.
type translator struct{ t func(string) string }

func (tr translator) fill(key string, args ...string) string {
	var a [5]string
	copy(a[:], args)
	return sizing.FillMessage(tr.t(key), a, func(f string) string { return tr.t(sizing.FieldKeyPrefix + f) })
}

func (tr translator) q(q sizing.Quantity) string { return tr.fill(q.Unit, "", q.Num) }

func (tr translator) gib(b int64) string { return tr.q(sizing.GiBQuantity(b)) }

// money formats a price as the script's money() does.
func money(v float64, cur string) string { return render.Money(v, cur) }

// calculator queues the calculator page: the default estimate rendered
// as the page's script would render it, the tables the page shows without
// the script, and the data the script reads.
func (s *Edition) calculator() {
	c := s.cat
	if len(c.Models) == 0 || len(c.GPUs) == 0 {
		return
	}
	def := calcDefault(c)
	tr := translator{t: s.r.T}
	m, g := c.Model(def.ModelID), c.GPU(def.GPUID)
	in := sizing.DefaultInput(derive.SizingModel(m))
	sg := derive.SizingGPU(g)
	in = sizing.AutoLayout(in, &sg)
	res, err := sizing.Estimate(in, &sg)
	if err != nil {
		s.d.Errorf(m.File, 0, 0, "calculator default inputs: %v", err)
		return
	}
	p := &CalculatorPage{Default: def, Models: c.Models, GPUs: c.GPUs, GPU: g, Result: res, Usable: sizing.UsableBytes(sg),
		Fits: sizing.Fits(res, sg), Scenarios: derive.Scenarios(), Currency: s.dd.Currency,
		Targets: sizing.LoRATargetNames()}
	for _, cg := range c.GPUs {
		p.GPULabels = append(p.GPULabels, GPULabel(cg))
	}
	p.Parts = Parts(res.Breakdown, func(k string) string { return s.r.T("calc.part." + k) }, tr.gib)
	p.Text = calcText(tr, in, res, g, p)
	minGPUs, fitsOf := s.calcMinGPUs(p, in, tr)
	s.calcCheapest(p, minGPUs, fitsOf, tr)
	p.PerToken = PerTokenOffers(c, s.dd.Currency, fitsOf)
	p.Common = calcCommon(c, p.Scenarios, tr)
	b, _ := json.Marshal(s.calcScriptData())
	p.JSON = template.JS(b) // json.Marshal escapes <, > and & so the block cannot end early
	s.page(&render.Page{Kind: "calculator", Path: "calculator/", Title: s.r.T("calc.title"), Description: s.r.T("calc.description"),
		Data: p, Scripts: []string{"js/calculator.js"}}) // wasm_exec.js loads with the engine
}

// calcDefault is the calculator's first estimate: data/site.toml's
// [calculator] model and GPU, or the catalog's first of each where one is
// not set (or an overlay hides it).
func calcDefault(c *catalog.Catalog) CalcDefault {
	def := CalcDefault{ModelID: c.Models[0].ID, GPUID: c.GPUs[0].ID, Seq: 4096}
	if id := c.Site.Calculator.Model; c.Model(id) != nil {
		def.ModelID = id
	}
	if id := c.Site.Calculator.GPU; c.GPU(id) != nil {
		def.GPUID = id
	}
	return def
}

// calcText holds the result's sentences for input in on g, as
// static/js/calculator.js render() writes them.
func calcText(tr translator, in sizing.Input, res sizing.Result, g *catalog.GPU, p *CalculatorPage) map[string]string {
	fitWord := tr.fill("calc.result.nofit")
	headline := "calc.headline.nofit"
	if p.Fits {
		fitWord, headline = tr.fill("calc.result.fits"), "calc.headline.fits"
	}
	itoa := strconv.Itoa
	prompt := in.PromptLen
	if prompt == 0 {
		prompt = in.SeqLen
	}
	layout := tr.fill("calc.layout", itoa(in.GPUs), itoa(res.TP), itoa(res.PP), itoa(res.DataParallel))
	if res.CP > 1 {
		layout += tr.fill("calc.layout.cp", "", itoa(res.CP))
	}
	layout += tr.fill("calc.layout.auto")
	bound := tr.fill("calc.bound.memory")
	if res.DecodeComputeBound {
		bound = tr.fill("calc.bound.compute")
	}
	return map[string]string{
		"headline":    tr.fill(headline, g.Name, tr.gib(res.TotalPerGPU), itoa(in.GPUs)),
		"total":       tr.gib(res.TotalPerGPU),
		"usable":      tr.gib(p.Usable),
		"fits":        fitWord,
		"paged":       tr.gib(res.PagedOutBytes),
		"layout":      layout,
		"decode":      tr.fill("calc.speed.decode", bound, tr.q(sizing.RateQuantity(res.DecodeTokensPerSec))),
		"ttft":        tr.fill("calc.speed.ttft", "", tr.q(sizing.LatencyQuantity(res.TTFTSeconds)), itoa(prompt)),
		"throughput":  tr.fill("calc.speed.throughput", "", tr.q(sizing.RateQuantity(res.ThroughputTokensPerSec)), itoa(in.GPUs), tr.q(sizing.RateQuantity(res.TokensPerSecPerGPU))),
		"flops":       tr.q(sizing.FLOPsQuantity(res.TrainFLOPs)),
		"time":        tr.q(sizing.DurationQuantity(res.TrainSeconds)),
		"mingpusNone": tr.fill("calc.mingpus.none"),
	}
}

// calcMinGPUs fills the table of the fewest GPUs of each kind that hold
// input in, and returns those counts and fits by GPU id.
func (s *Edition) calcMinGPUs(p *CalculatorPage, in sizing.Input, tr translator) (map[string]int, map[string]sizing.Fit) {
	minGPUs := map[string]int{}
	fitsOf := map[string]sizing.Fit{}
	dash := tr.q(sizing.RateQuantity(0))
	for _, cg := range s.cat.GPUs {
		row := CalcMin{GPU: cg, Decode: dash, TTFT: dash}
		if f, ok := sizing.MinFit(in, derive.SizingGPU(cg)); ok {
			minGPUs[cg.ID], fitsOf[cg.ID] = f.N, f
			row.N, p.AnyFit = f.N, true
			row.Decode = tr.q(sizing.RateQuantity(f.Result.DecodeTokensPerSec))
			row.TTFT = tr.q(sizing.LatencyQuantity(f.Result.TTFTSeconds))
		}
		p.MinGPUs = append(p.MinGPUs, row)
	}
	return minGPUs, fitsOf
}

// calcCheapest fills the cheapest fitting offer per billing mode, with the
// cost per million output tokens of that offer (the default input is
// inference), or the sentence naming the nearest offer when none fits.
func (s *Edition) calcCheapest(p *CalculatorPage, minGPUs map[string]int, fitsOf map[string]sizing.Fit, tr translator) {
	dash := tr.q(sizing.RateQuantity(0))
	for _, r := range s.dd.CheapestFitting(minGPUs) {
		f := fitsOf[r.Offer.GPU.ID]
		cost := dash
		if x := sizing.CostPerMillionTokens(f.Result.DecodeTokensPerSec, f.N, r.Offer.GPUCount, r.InstDC); x > 0 {
			cost = money(x, p.Currency)
		}
		p.Cheapest = append(p.Cheapest, CalcOffer{Row: r, Cost: cost, Public: publicHourly(s.cat, r.Offer, r.Price, s.dd.Currency)})
	}
	p.Text["cheapestNone"] = tr.fill("calc.cheapest.none.nooffer")
	if o, n := NearestOffer(s.dd.Headline, minGPUs); o != nil {
		p.Text["cheapestNone"] = tr.fill("calc.cheapest.none", tr.fill("calc.cheapest.nearest",
			o.Provider.LocalName(s.r.Lang())+" "+o.Instance, strconv.Itoa(o.GPUCount), o.GPU.Name, strconv.Itoa(n)))
	}
}

// calcCommon is the table of every preset's memory in each common
// scenario.
func calcCommon(c *catalog.Catalog, scenarios []derive.Scenario, tr translator) []CalcCommon {
	var out []CalcCommon
	for _, cm := range c.Models {
		row := CalcCommon{Model: cm}
		for _, sc := range scenarios {
			r, err := sizing.Estimate(sc.Input(derive.SizingModel(cm)), nil)
			if err != nil {
				r = sizing.Result{}
			}
			row.Totals = append(row.Totals, tr.gib(r.TotalPerGPU))
		}
		out = append(out, row)
	}
	return out
}

// calcScriptData is what the calculator's script reads from the page: the
// GPUs, models and offers (one row per offer and mode, its cheapest
// region, and each offer's on-demand price), and the edition's messages.
func (s *Edition) calcScriptData() calcData {
	c := s.cat
	itoa := strconv.Itoa
	data := calcData{Currency: s.dd.Currency, Models: map[string]calcModel{}, Billing: map[string]string{}, Msgs: map[string]string{},
		Recipes: map[string]calcRecipe{}}
	for _, w := range sizing.Workloads() {
		r := sizing.RecipeFor(w)
		data.Recipes[string(w)] = calcRecipe{DType: string(r.DType), Checkpointing: string(r.Checkpointing), ZeRO: r.ZeRO,
			Optimizer: string(r.Optimizer), NoMaster: r.NoMaster}
	}
	for _, cg := range c.GPUs {
		sg := derive.SizingGPU(cg)
		data.GPUs = append(data.GPUs, calcGPU{ID: cg.ID, Name: cg.Name, MemoryBytes: sg.MemoryBytes, Bandwidth: sg.BandwidthBytesPerSec,
			BF16Flops: sg.DenseBF16FLOPS, FP8Flops: sg.DenseFP8FLOPS, FP32Flops: sg.FP32FLOPS, MemoryGB: cg.MemoryGB})
	}
	gpuAt, provAt := map[string]int{}, map[string]int{}
	for i, cg := range c.GPUs {
		gpuAt[cg.ID] = i
	}
	offer := func(o *catalog.Offer) calcOffer {
		pi, ok := provAt[o.Provider.ID]
		if !ok {
			pi = len(data.Provs)
			provAt[o.Provider.ID] = pi
			data.Provs = append(data.Provs, [2]string{o.Provider.ID, o.Provider.LocalName(s.r.Lang())})
		}
		return calcOffer{ID: o.ID, GPU: gpuAt[o.GPU.ID], Provider: pi, Count: o.GPUCount, Instance: o.Instance}
	}
	rowOf := map[string]int{} // offer id -> its first row in data.Offers
	for _, r := range s.dd.Headline {
		if _, ok := rowOf[r.Offer.ID]; !ok {
			rowOf[r.Offer.ID] = len(data.Offers)
		}
		co := offer(r.Offer)
		co.Billing, co.Price, co.AsOf = r.Price.Billing, r.InstDC, r.Price.AsOf.Format("2006-01-02")
		s.calcMark(&data, "r"+itoa(len(data.Offers)), r.Offer, r.Price)
		data.Offers = append(data.Offers, co)
	}
	for _, o := range c.Offers {
		pr, price, ok := onDemand(c, o, s.dd.Currency)
		if !ok {
			continue
		}
		s.calcMark(&data, "d"+itoa(len(data.OnDemand)), o, pr)
		i, ok := rowOf[o.ID]
		if !ok {
			// No headline row (not expected): a row of its own, in no
			// billing mode the tables show.
			i = len(data.Offers)
			data.Offers = append(data.Offers, offer(o))
		}
		data.OnDemand = append(data.OnDemand, [2]float64{float64(i), price})
	}
	for _, b := range catalog.BillingModes() {
		data.Billing[b] = s.r.T("billing." + b)
		data.Modes = append(data.Modes, b)
	}
	for _, kv := range sizing.MessageKeys() {
		data.Msgs[kv[0]] = s.r.T(kv[0])
	}
	for _, kv := range hfconfig.MessageKeys() {
		data.Msgs[kv[0]] = s.r.T(kv[0])
	}
	for _, k := range calcKeys {
		data.Msgs[k] = s.r.T(k)
	}
	for _, cm := range c.Models {
		sm := derive.SizingModel(cm)
		data.Models[cm.ID] = calcModel{Name: cm.Name, Params: sm.Params, ActiveParams: sm.ActiveParams, Layers: sm.Layers, Hidden: sm.Hidden,
			Heads: sm.Heads, KVHeads: sm.KVHeads, FFN: sm.FFN, Vocab: sm.Vocab, Tied: sm.TiedEmbeddings, Experts: sm.Experts,
			ExpertsPerToken: sm.ExpertsPerToken, SharedExperts: sm.SharedExperts, DenseLayers: sm.DenseLayers, DenseFFN: sm.DenseFFN,
			HeadDim: sm.HeadDim, KVLoRARank: sm.KVLoRARank, QLoRARank: sm.QLoRARank, RopeHeadDim: sm.QKRopeHeadDim,
			VHeadDim: sm.VHeadDim, SlidingWindow: sm.SlidingWindow, LocalLayers: sm.LocalLayers}
	}
	return data
}

// PerTokenRows is how many offers the cost-per-token table lists.
const PerTokenRows = 10

// onDemand is o's current on-demand hourly price, converted to cur.
func onDemand(c *catalog.Catalog, o *catalog.Offer, cur string) (catalog.Price, float64, bool) {
	pr, ok := o.Price("on-demand")
	if !ok || (pr.Unit != "" && pr.Unit != "hour") {
		return pr, 0, false
	}
	price, ok := c.FX.Convert(pr.Price, o.Currency, cur)
	return pr, price, ok
}

// PerTokenOffers is the cost-per-token table: the PerTokenRows current
// on-demand offers (price in cur) with the lowest cost per million output
// tokens, each running as many replicas of the job as it holds, where
// fits is the smallest layout of the job on each GPU id; ties by offer
// id (static/js/calculator.js renders the same rows).
func PerTokenOffers(c *catalog.Catalog, cur string, fits map[string]sizing.Fit) []CalcTokenOffer {
	var out []CalcTokenOffer
	for _, o := range c.Offers {
		f, ok := fits[o.GPU.ID]
		if !ok {
			continue
		}
		pr, price, ok := onDemand(c, o, cur)
		if !ok {
			continue
		}
		if x := sizing.CostPerMillionTokens(f.Result.DecodeTokensPerSec, f.N, o.GPUCount, price); x > 0 {
			out = append(out, CalcTokenOffer{Offer: o, Price: price, Replicas: o.GPUCount / f.N, Cost: x, Overlay: pr.Overlay, Public: publicHourly(c, o, pr, cur)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Cost != out[j].Cost {
			return out[i].Cost < out[j].Cost
		}
		return out[i].Offer.ID < out[j].Offer.ID
	})
	if len(out) > PerTokenRows {
		out = out[:PerTokenRows]
	}
	return out
}

// NearestOffer is the offer the note under an empty cheapest-offers table
// names: of the price rows whose GPU holds the job with n GPUs
// (minGPUs), the one with the most GPUs relative to n, then the cheapest
// per instance-hour, then the lowest offer id (static/js/calculator.js
// nearest() is the same rule). It returns nil when no row's GPU fits.
func NearestOffer(rows []*derive.Row, minGPUs map[string]int) (*catalog.Offer, int) {
	var best *derive.Row
	bn := 0
	for _, r := range rows {
		n, ok := minGPUs[r.Offer.GPU.ID]
		if !ok {
			continue
		}
		if best == nil {
			best, bn = r, n
			continue
		}
		// count/n against best count/bn, compared as whole numbers.
		a, b := r.Offer.GPUCount*bn, best.Offer.GPUCount*n
		if a > b || (a == b && (r.InstDC < best.InstDC || (r.InstDC == best.InstDC && r.Offer.ID < best.Offer.ID))) {
			best, bn = r, n
		}
	}
	if best == nil {
		return nil, 0
	}
	return best.Offer, bn
}
