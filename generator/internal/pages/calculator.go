package pages

import (
	"encoding/json"
	"html/template"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/accuracy"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/hfconfig"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/message"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

// CalcPart is one segment of the memory breakdown.
type CalcPart struct {
	Key, Label string
	Bytes      int64
	Optional   bool   // a part only some setups have: its row is hidden at zero
	Text       string // the figure as shown
	X, W       string // SVG geometry in a 0..1000 viewBox
}

// CalcMin is one row of the "which GPUs fit" table.
type CalcMin struct {
	GPU *catalog.GPU
	N   int
	// Memory is the GPU's memory in GiB as the engine counts it (the
	// vendor's GB figure is the cell's title); Decode and TTFT the
	// expected speeds at the fit ("–" without a fit or a known speed).
	Memory, Decode, TTFT string
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
	// Plan is the offer tables: the chosen GPU's offers, the cheapest
	// alternatives and the cost per token (sizing.Job.Plan).
	Plan CalcPlan
	// Serve is what fits the GPUs and the plan for a load (inference).
	Serve CalcServe
	// Concurrency is the serving concurrency the cost per token is
	// figured at; StaleDays the age beyond which a price is stale.
	Concurrency, StaleDays int
	Scenarios              []derive.Scenario
	Common                 []CalcCommon
	Currency               string
	Targets                []string
	// Spread is, by kind of measurement (catalog.MeasurementKinds), how far
	// 8 in 10 of the calibration set's measurements fall from the engine's
	// estimates, in percent (accuracy.Summary.Spread of all of them),
	// shown beside each estimate; a kind with no measurements is absent.
	Spread map[string]int
	// ModelFields is the custom model's form: a field per figure of the
	// shape (sizing.ModelFields), starting at sizing.ExampleModel.
	ModelFields []CalcModelField
	// Text holds the result's sentences as the script writes them, in the
	// page's language: headline, why, total, usable, fits, paged, layout,
	// decode, ttft, throughput, flops, time, mingpusNone.
	Text map[string]string
	// Boot is what the script needs before the engine loads (calcBoot),
	// DataURL where the rest of its data is (CalcDataPath).
	Boot    template.JS
	DataURL string
}

// CalcDataPath is the calculator script's data (calcData), written per
// edition and fetched with the engine: the page itself stays light until
// the reader uses the form.
const CalcDataPath = "calculator/data.json"

// calcBoot is the JSON the calculator script reads from the page, before
// the engine and its data load: the workloads' recipes (sizing.RecipeFor),
// which the script applies when the reader picks a workload; the presets
// with a vision encoder (the images field applies); and the messages
// shown while the engine loads or when it fails to.
type calcBoot struct {
	Recipes map[string]calcRecipe `json:"recipes"`
	Vision  []string              `json:"vision"`
	Msgs    map[string]string     `json:"msgs"`
}

// memoryInName matches a memory size in a GPU's name ("80GB", "96 GB").
var memoryInName = regexp.MustCompile(`\d\s?GB\b`)

// GPULabel is a GPU's option text in the calculator's select: its name,
// with the memory size unless the name states it or already carries a
// parenthesised qualifier ("H100 SXM5 80GB", "GeForce RTX 4090 (24 GB)",
// "GB200 NVL72 (per Blackwell GPU)"), kept short so that the select shows
// it whole on a 390 px phone. The result and the GPU table give every
// GPU's memory.
func GPULabel(g *catalog.GPU, lang string) string {
	name := g.LocalName(lang)
	if memoryInName.MatchString(name) || strings.ContainsAny(name, "(（") {
		return name
	}
	return name + " (" + render.Num(g.MemoryGB) + " GB)"
}

// sizingGPU is derive.SizingGPU with the GPU's name in the edition's
// language, as the calculator's script data gives it to the WebAssembly
// engine, so both word their answers alike.
func (s *Edition) sizingGPU(g *catalog.GPU) sizing.GPU {
	sg := derive.SizingGPU(g)
	sg.Name = g.LocalName(s.lang.Code)
	return sg
}

// partKeys are the breakdown components, in bar order, with their UI
// string keys (calc.part.<key>).
var partKeys = [...]string{"weights", "kv_cache", "activations", "gradients", "optimizer", "adapters", "gathered",
	"reference", "critic", "rollout", "overhead"}

// firstOptional and lastOptional bound the parts only some setups have
// ("gathered" to "rollout" in partKeys).
const firstOptional, lastOptional = 6, 9

// Parts splits a breakdown into labelled bar segments; label translates a
// part key and show renders a byte count.
func Parts(b sizing.Breakdown, label func(string) string, show func(int64) string) []CalcPart {
	bytes := [...]int64{b.Weights, b.KVCache, b.Activations, b.Gradients, b.Optimizer, b.Adapters, b.GatheredLayer,
		b.Reference, b.Critic, b.Rollout, b.Overhead}
	parts := make([]CalcPart, len(partKeys))
	total := float64(b.Total())
	x := 0.0
	for i, k := range partKeys {
		w := 0.0
		if total > 0 {
			w = float64(bytes[i]) / total * 1000
		}
		parts[i] = CalcPart{Key: k, Label: label(k), Bytes: bytes[i], Text: show(bytes[i]), Optional: i >= firstOptional && i <= lastOptional,
			X: strconv.FormatFloat(x, 'f', 1, 64), W: strconv.FormatFloat(w, 'f', 1, 64)}
		x += w
	}
	return parts
}

// calcData is the JSON the calculator script reads from the page.
type calcData struct {
	Currency string               `json:"currency"`
	Models   map[string]calcModel `json:"models"`
	// ModelIDs are the models' ids in the catalog's order, the order the
	// script lists them to the engine in (sizing.RankFits keeps it among
	// models of one size).
	ModelIDs []string  `json:"modelIds"`
	GPUs     []calcGPU `json:"gpus"`
	// Offers are the headline rows (derive.Data.Headline), one to one
	// with CalcOffers, which the script passes to the engine.
	Offers  []calcOffer       `json:"offers"`
	Provs   [][2]string       `json:"providers"` // [id, name] of the offers' providers
	Billing map[string]string `json:"billing"`
	Modes   []string          `json:"modes"` // billing modes in table order (catalog.BillingModes)
	Msgs    map[string]string `json:"msgs"`
	// Marks are the badges of a team's overlay prices (siteBuild.overlayMark,
	// public price per instance-hour): "r<i>" for Offers[i]. Absent in a
	// public build.
	Marks map[string][]string `json:"marks,omitempty"`
	// Concurrency is the serving concurrency costs per token start at
	// (sizing.ServingConcurrency); StaleDays the stale threshold.
	Concurrency int `json:"concurrency"`
	StaleDays   int `json:"staleDays"`
	// Usage are the usage prices the ways to pay weigh (calcUsageData).
	Usage []calcUsage `json:"usage"`
}

// calcRecipe is a workload's recipe with the form's field values.
type calcRecipe struct {
	DType         string `json:"dtype"`
	Checkpointing string `json:"checkpointing"`
	ZeRO          int    `json:"zero"`
	Optimizer     string `json:"optimizer"`
	NoMaster      bool   `json:"noMaster"`
	Loss          string `json:"loss"`
}

// CalcModelField is one figure of the custom model's form.
type CalcModelField struct {
	Flag, JS, Label, Show string // names (sizing.ModelField) and the label's message key
	Bool                  bool   // a check box
	Min, Value            int64  // the lowest accepted value and the starting one
}

// calcModelFields is the custom model's form, from sizing.ModelFields.
func calcModelFields() []CalcModelField {
	ex := sizing.ExampleModel()
	var out []CalcModelField
	for _, f := range sizing.ModelFields() {
		lo, _ := f.Bounds(&ex)
		out = append(out, CalcModelField{Flag: f.Flag(), JS: f.JS, Label: f.Label(), Show: f.Show, Bool: f.Bool, Min: lo, Value: f.Get(&ex)})
	}
	return out
}

// calcModel is a model for the script: its name and context limit (0:
// none stated), then its shape under the WebAssembly engine's keys
// (sizing.ModelFields' JS names).
type calcModel struct {
	Name       string
	MaxContext int
	Shape      sizing.Model
}

// MarshalJSON writes {"name": ..., "maxContext": n, key: figure, ...}.
func (m calcModel) MarshalJSON() ([]byte, error) {
	b, _ := json.Marshal(m.Name)
	b = append([]byte(`{"name":`), b...)
	b = strconv.AppendInt(append(b, `,"maxContext":`...), int64(m.MaxContext), 10)
	for _, f := range sizing.ModelFields() {
		b = append(append(append(b, `,"`...), f.JS...), `":`...)
		if f.Bool {
			b = strconv.AppendBool(b, f.Get(&m.Shape) != 0)
		} else {
			b = strconv.AppendInt(b, f.Get(&m.Shape), 10)
		}
	}
	return append(b, '}'), nil
}

type calcGPU struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	MemoryBytes int64   `json:"memoryBytes"`
	Bandwidth   float64 `json:"bandwidth"`
	BF16Flops   float64 `json:"bf16Flops"`
	FP8Flops    float64 `json:"fp8Flops"`
	FP32Flops   float64 `json:"fp32Flops,omitempty"`
	Link        float64 `json:"link,omitempty"`
	Precisions  string  `json:"precisions,omitempty"`
	MemoryGB    float64 `json:"memoryGB"`
}

// calcOffer is a price row for the script, written as a JSON array to keep
// the page small: [id, index in GPUs, GPU count, index in Providers,
// instance, index of the billing mode in Modes, price per instance-hour in
// the display currency, as-of date, stale (1) or not (0), the as-of date
// in the edition's style (render.Renderer.Date), a commitment's term in
// months (0: none or not a commitment)].
type calcOffer struct {
	ID             string
	GPU, Provider  int
	Count          int
	Instance       string
	Mode           int
	Price          float64
	AsOf, AsOfText string
	Stale          bool
	Term           int
}

// MarshalJSON writes the array form.
func (o calcOffer) MarshalJSON() ([]byte, error) {
	stale := 0
	if o.Stale {
		stale = 1
	}
	return json.Marshal([]any{o.ID, o.GPU, o.Count, o.Provider, o.Instance, o.Mode, o.Price, o.AsOf, stale, o.AsOfText, o.Term})
}

// calcKeys are the UI strings the calculator's script looks up, besides the
// engine's and the config parser's messages (sizing.MessageKeys,
// hfconfig.MessageKeys).
var calcKeys = [...]string{
	"calc.gpu.fits", "calc.result.fits", "calc.result.nofit", "calc.headline.fits", "calc.headline.need", "calc.headline.never", "calc.headline.error",
	"calc.layout", "calc.layout.cp", "calc.layout.auto", "calc.layout.autodp", "calc.layout.short", "calc.why.over", "calc.why.fewer", "calc.why.precision", "calc.why.speedat",
	"calc.speed.decode", "calc.train.rollout", "calc.speed.ttft", "calc.speed.throughput", "calc.bound.memory", "calc.bound.compute",
	"calc.mingpus.none", "calc.cheapest.none",
	"calc.offers", "calc.offers.none", "calc.left.precision", "calc.left.stale",
	"calc.pertoken.none", "calc.config.ok", "calc.config.generic", "calc.config.loading",
	"calc.col.jobcost", "calc.col.permtok",
	"calc.err.internal", "calc.err.type", "calc.err.array", "calc.err.model", "calc.err.engine",
	"calc.offer", "punct.sp", "punct.comma",
	"calc.presets.title", "calc.presets.none", "calc.serve.title", "calc.serve.layout", "calc.serve.over", "calc.serve.seqs", "calc.serve.seqs.none", "calc.serve.none", "calc.serve.nolayout",
	"calc.plan.layout", "calc.plan.off", "calc.plan.bad", "calc.plan.none", "calc.plan.misses",
	"calc.plan.miss.fit", "calc.plan.miss.speed", "calc.plan.miss.ttft", "calc.plan.miss.tpot", "calc.plan.miss.offer",
	"calc.pay.loading", "calc.pay.noapi", "pay.none", "pay.term", "pay.way.on-demand", "pay.way.committed", "pay.way.spot", "pay.way.serverless", "pay.way.api",
	"pay.be.dedicated", "pay.be.never", "pay.be.serverless", "pay.be.serverless.always",
}

// translator renders the engine's keyed messages and quantities with the
// page's UI strings.
type translator struct{ t func(string) string }

func (tr translator) fill(key string, args ...string) string {
	var a [5]string
	copy(a[:], args)
	return message.Fill(tr.t(key), a[:], func(f string) string { return tr.t(sizing.FieldKeyPrefix + f) })
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
	in := sizing.DefaultInput(m.Model)
	sg := s.sizingGPU(g)
	in = sizing.AutoLayout(in, &sg)
	res, err := sizing.Estimate(in, &sg)
	if err != nil {
		s.d.Errorf(m.File, 0, 0, "calculator default inputs: %v", err)
		return
	}
	p := &CalculatorPage{Default: def, Models: c.Models, GPUs: c.GPUs, GPU: g, Result: res, Usable: sizing.UsableBytes(sg),
		Fits: sizing.Fits(res, sg), Scenarios: derive.Scenarios(), Currency: s.dd.Currency,
		Targets: sizing.LoRATargetNames(), ModelFields: calcModelFields(), Spread: map[string]int{}}
	if rep, err := accuracy.Evaluate(c); err == nil {
		for _, k := range catalog.MeasurementKinds() {
			if sm, ok := rep.Summary(k, "all"); ok && sm.N > 0 {
				p.Spread[k] = int(math.Round(100 * sm.Spread))
			}
		}
	}
	for _, cg := range c.GPUs {
		p.GPULabels = append(p.GPULabels, GPULabel(cg, s.lang.Code))
	}
	p.Parts = Parts(res.Breakdown, func(k string) string { return s.r.T("calc.part." + k) }, tr.gib)
	fitsOf := s.calcMinGPUs(p, in, tr)
	var chosen *sizing.Fit
	if f, ok := fitsOf[g.ID]; ok {
		chosen = &f
	}
	p.Text = calcText(tr, in, res, sg, chosen, p)
	p.Concurrency, p.StaleDays = sizing.ServingConcurrency, c.Site.Staleness.StaleDays
	offers := CalcOffers(s.cat, s.dd.Headline, s.now) // what the page, its plans and the script price
	gpus := s.calcPlan(p, in, fitsOf, offers)
	s.calcServe(p, in, sg, m, tr, gpus, offers)
	p.Common = calcCommon(c, p.Scenarios, tr)
	b, _ := json.Marshal(s.calcBoot())
	p.Boot = template.JS(b) // json.Marshal escapes <, > and & so the block cannot end early
	data, _ := json.Marshal(s.calcScriptData(offers))
	s.tree.Add(s.prefix+CalcDataPath, data)
	p.DataURL = s.r.URL(CalcDataPath)
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
// static/js/calculator.js render() writes them; chosen is the fewest GPUs
// of g that hold the job (nil: none within sizing.MaxSearchGPUs).
func calcText(tr translator, in sizing.Input, res sizing.Result, g sizing.GPU, chosen *sizing.Fit, p *CalculatorPage) map[string]string {
	fitWord := tr.fill("calc.result.nofit")
	if p.Fits {
		fitWord = tr.fill("calc.result.fits")
	}
	itoa := strconv.Itoa
	layout := tr.fill("calc.layout", itoa(in.GPUs), itoa(res.TP), itoa(res.PP), itoa(res.DataParallel))
	if res.CP > 1 {
		layout += tr.fill("calc.layout.cp", "", itoa(res.CP))
	}
	if in.DataParallelLayout() {
		layout += tr.fill("calc.layout.autodp")
	} else {
		layout += tr.fill("calc.layout.auto")
	}
	if !p.Fits {
		// The headline gives the layout that holds the job; the one of
		// the reader's GPU count would contradict it.
		layout = ""
	}
	bound := tr.fill("calc.bound.memory")
	rate := func(x float64) string { return tr.q(sizing.RateQuantity(x)) }
	lat := func(x float64) string { return tr.q(sizing.LatencyQuantity(x)) }
	// Speeds and training time are those of the layout that holds the
	// job (the headline's), not of a GPU count it does not fit on.
	sp, n := SpeedAt(in, res, chosen, p.Fits)
	if sp.DecodeComputeBound {
		bound = tr.fill("calc.bound.compute")
	}
	return map[string]string{
		"headline":    CalcHeadline(tr.t, in, res, g, chosen, p.Fits),
		"why":         CalcWhy(tr.t, in, res, g, chosen, p.Fits),
		"total":       tr.gib(res.TotalPerGPU),
		"usable":      tr.gib(p.Usable),
		"fits":        fitWord,
		"paged":       tr.gib(res.PagedOutBytes),
		"layout":      layout,
		"decode":      tr.fill("calc.speed.decode", bound, rate(sp.DecodeTokensPerSec), rate(sp.ExpectedDecode)),
		"ttft":        tr.fill("calc.speed.ttft", "", lat(sp.TTFTSeconds), itoa(in.PromptTokens()), lat(sp.ExpectedTTFT)),
		"throughput":  tr.fill("calc.speed.throughput", rate(sp.ThroughputTokensPerSec), rate(sp.ExpectedThroughput), itoa(n), rate(sp.ExpectedPerGPU)),
		"flops":       tr.q(sizing.FLOPsQuantity(res.TrainFLOPs)),
		"time":        tr.q(sizing.DurationQuantity(sp.TrainSeconds)),
		"mingpusNone": tr.fill("calc.mingpus.none"),
		"offers":      tr.fill("calc.offers", g.Name),
		"gpuFits":     tr.fill("calc.gpu.fits", g.Name),
	}
}

// SpeedAt returns the estimate whose speeds and training time the
// calculator shows, and its GPU count: res on in.GPUs when the job fits,
// else the layout that holds it (chosen), else res. The WebAssembly
// binding's result follows the same rule (speedGPUs).
func SpeedAt(in sizing.Input, res sizing.Result, chosen *sizing.Fit, fits bool) (sizing.Result, int) {
	if !fits && chosen != nil {
		return chosen.Result, chosen.N
	}
	return res, in.GPUs
}

// CalcHeadline is the calculator's answer for input in (estimate res) on
// GPU g, where chosen is the fewest GPUs of g that hold it (nil: none)
// and fits says whether in.GPUs of them do: "Fits on N × GPU", "Needs at
// least N × GPU (layout)" or "Does not fit on GPU", with the memory per
// GPU against the usable memory. static/js/calculator.js headline() is
// the same rule.
func CalcHeadline(t func(string) string, in sizing.Input, res sizing.Result, g sizing.GPU, chosen *sizing.Fit, fits bool) string {
	tr := translator{t: t}
	itoa := strconv.Itoa
	usable := tr.gib(sizing.UsableBytes(g))
	switch {
	case fits:
		return tr.fill("calc.headline.fits", g.Name, tr.gib(res.TotalPerGPU), itoa(in.GPUs), usable)
	case chosen != nil:
		return tr.fill("calc.headline.need", g.Name, tr.gib(chosen.Result.TotalPerGPU), itoa(chosen.N), usable,
			tr.fill("calc.layout.short", "", itoa(chosen.TP), itoa(chosen.PP)))
	}
	return tr.fill("calc.headline.never", g.Name, tr.gib(res.TotalPerGPU), itoa(in.GPUs), usable)
}

// CalcWhy is the line under the headline: why in.GPUs of g do not hold
// the job (the memory over the usable, and its largest part), that fewer
// would, and that g does not compute the weight format; "" when there is
// nothing to say. static/js/calculator.js why() is the same rule.
func CalcWhy(t func(string) string, in sizing.Input, res sizing.Result, g sizing.GPU, chosen *sizing.Fit, fits bool) string {
	tr := translator{t: t}
	itoa := strconv.Itoa
	var out []string
	switch {
	case !fits:
		k, b := res.Breakdown.Largest()
		out = append(out, tr.fill("calc.why.over", t("calc.part."+k), tr.gib(res.TotalPerGPU), itoa(in.GPUs), tr.gib(sizing.UsableBytes(g)), tr.gib(b)))
		if chosen != nil {
			out = append(out, tr.fill("calc.why.speedat", g.Name, itoa(chosen.N)))
		}
	case chosen != nil && chosen.N < in.GPUs:
		out = append(out, tr.fill("calc.why.fewer", g.Name, itoa(chosen.N), tr.gib(chosen.Result.TotalPerGPU)))
	}
	if !g.Runs(in.DType) {
		out = append(out, tr.fill("calc.why.precision", g.Name, string(in.DType)))
	}
	return strings.Join(out, t("punct.sp"))
}

// calcMinGPUs fills the table of the fewest GPUs of each kind that hold
// input in, and returns those fits by GPU id.
func (s *Edition) calcMinGPUs(p *CalculatorPage, in sizing.Input, tr translator) map[string]sizing.Fit {
	fitsOf := map[string]sizing.Fit{}
	dash := tr.q(sizing.RateQuantity(0))
	for _, cg := range s.cat.GPUs {
		sg := s.sizingGPU(cg)
		row := CalcMin{GPU: cg, Memory: tr.gib(sg.MemoryBytes), Decode: dash, TTFT: dash}
		if f, ok := sizing.MinFit(in, sg); ok {
			fitsOf[cg.ID] = f
			row.N, p.AnyFit = f.N, true
			row.Decode = tr.q(sizing.RateQuantity(f.Result.ExpectedDecode))
			row.TTFT = tr.q(sizing.LatencyQuantity(f.Result.ExpectedTTFT))
		}
		p.MinGPUs = append(p.MinGPUs, row)
	}
	return fitsOf
}

// calcCommon is the table of every preset's memory in each common
// scenario.
func calcCommon(c *catalog.Catalog, scenarios []derive.Scenario, tr translator) []CalcCommon {
	var out []CalcCommon
	for _, cm := range c.Models {
		row := CalcCommon{Model: cm}
		for _, sc := range scenarios {
			r, err := sizing.Estimate(sc.Input(cm.Model), nil)
			if err != nil {
				r = sizing.Result{}
			}
			row.Totals = append(row.Totals, tr.gib(r.TotalPerGPU))
		}
		out = append(out, row)
	}
	return out
}

// calcBoot is the script's data in the page (calcBoot).
func (s *Edition) calcBoot() calcBoot {
	boot := calcBoot{Recipes: map[string]calcRecipe{}, Vision: []string{}, Msgs: map[string]string{}}
	for _, w := range sizing.Workloads() {
		r := sizing.RecipeFor(w)
		boot.Recipes[string(w)] = calcRecipe{DType: string(r.DType), Checkpointing: string(r.Checkpointing), ZeRO: r.ZeRO,
			Optimizer: string(r.Optimizer), NoMaster: r.NoMaster, Loss: string(r.Loss)}
	}
	for _, cm := range s.cat.Models {
		if cm.Model.VisionParams > 0 {
			boot.Vision = append(boot.Vision, cm.ID)
		}
	}
	for _, k := range []string{"calc.config.loading", "calc.err.engine"} {
		boot.Msgs[k] = s.r.T(k)
	}
	return boot
}

// calcScriptData is what the calculator's script fetches with the engine
// (CalcDataPath): the GPUs, models and offers (one row per offer and mode,
// at its cheapest region), and the edition's messages.
func (s *Edition) calcScriptData(offers []sizing.Offer) calcData {
	c := s.cat
	itoa := strconv.Itoa
	data := calcData{Currency: s.dd.Currency, Models: map[string]calcModel{}, Billing: map[string]string{}, Msgs: map[string]string{},
		Concurrency: sizing.ServingConcurrency, StaleDays: c.Site.Staleness.StaleDays}
	for _, cg := range c.GPUs {
		sg := s.sizingGPU(cg)
		data.GPUs = append(data.GPUs, calcGPU{ID: cg.ID, Name: sg.Name, MemoryBytes: sg.MemoryBytes, Bandwidth: sg.BandwidthBytesPerSec,
			BF16Flops: sg.DenseBF16FLOPS, FP8Flops: sg.DenseFP8FLOPS, FP32Flops: sg.FP32FLOPS, Link: sg.LinkBytesPerSec,
			Precisions: sg.Precisions, MemoryGB: cg.MemoryGB})
	}
	provAt := map[string]int{}
	for i, o := range offers {
		r := s.dd.Headline[i]
		pi, ok := provAt[r.Offer.Provider.ID]
		if !ok {
			pi = len(data.Provs)
			provAt[r.Offer.Provider.ID] = pi
			data.Provs = append(data.Provs, [2]string{r.Offer.Provider.ID, r.Offer.Provider.LocalName(s.r.Lang())})
		}
		s.calcMark(&data, "r"+itoa(i), r.Offer, r.Price)
		data.Offers = append(data.Offers, calcOffer{ID: r.Offer.ID, GPU: o.GPU, Provider: pi, Count: o.GPUs, Instance: r.Offer.Instance,
			Mode: o.Mode, Price: o.Price, AsOf: r.Price.AsOf.Format("2006-01-02"), AsOfText: s.r.Date(r.Price.AsOf), Stale: o.Stale})
		if r.Price.Billing == "committed" {
			data.Offers[i].Term = r.Price.TermMonths
		}
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
	for _, k := range partKeys {
		data.Msgs["calc.part."+k] = s.r.T("calc.part." + k)
	}
	for _, cm := range c.Models {
		data.Models[cm.ID] = calcModel{Name: cm.Name, MaxContext: cm.MaxContext, Shape: cm.Model}
		data.ModelIDs = append(data.ModelIDs, cm.ID)
	}
	data.Usage = s.calcUsageData(translator{t: s.r.T})
	return data
}
