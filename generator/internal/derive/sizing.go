package derive

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

// GiB is 2^30 bytes. GPU memory quoted in "GB" by vendors is binary
// (an "80 GB" H100 holds 80 GiB), so catalog memory_gb converts with it.
const GiB = 1 << 30

// SizingGPU converts a catalog GPU for the sizing engine.
func SizingGPU(g *catalog.GPU) sizing.GPU {
	s := sizing.GPU{ID: g.ID, Name: g.Name, MemoryBytes: int64(g.MemoryGB * GiB), BandwidthBytesPerSec: g.MemoryBWGBs * 1e9,
		Precisions: strings.Join(g.Precisions, " ")}
	if g.Precisions != nil && len(g.Precisions) == 0 {
		s.Precisions = "none" // recorded: none of the formats
	}
	if k := g.Interconnect.Kind; k != "PCIe" && k != "RoCE" && g.Interconnect.BandwidthGBs != nil {
		s.LinkBytesPerSec = *g.Interconnect.BandwidthGBs * 1e9
	}
	if g.BF16TFLOPS != nil {
		s.DenseBF16FLOPS = *g.BF16TFLOPS * 1e12
	}
	if g.FP8TFLOPS != nil {
		s.DenseFP8FLOPS = *g.FP8TFLOPS * 1e12
	}
	if g.FP32TFLOPS != nil {
		s.FP32FLOPS = *g.FP32TFLOPS * 1e12
	}
	return s
}

// Scenario is a named common workload, computed for every preset at build
// time and shown on model and GPU pages.
type Scenario struct {
	// ID names the scenario; pages show the UI string "scenario.<ID>".
	// Label is its English description, for code and tests.
	ID, Label string
	// Input captures nothing: the same code means the same inputs, which
	// the build's page fingerprints rely on (the tag).
	Input func(m sizing.Model) sizing.Input `fingerprint:"code"`
}

// Scenarios are the common cases of the pages: inference at bf16 and int4,
// LoRA, QLoRA and full fine-tuning, each at a 4,096-token sequence.
func Scenarios() []Scenario {
	return []Scenario{
		{"infer-bf16", "Inference, bf16 weights, 4k context, batch 1", func(m sizing.Model) sizing.Input {
			return sizing.DefaultInput(m)
		}},
		{"infer-int4", "Inference, int4 weights, 4k context, batch 1", func(m sizing.Model) sizing.Input {
			in := sizing.DefaultInput(m)
			in.DType = sizing.INT4
			return in
		}},
		// The training scenarios are the workloads' recipes
		// (sizing.RecipeFor), as the calculator and the size command
		// start from them.
		{"lora", "LoRA fine-tune, bf16 base, rank 16, 4k sequence", func(m sizing.Model) sizing.Input {
			return sizing.WorkloadInput(m, sizing.LoRA)
		}},
		{"qlora", "QLoRA fine-tune, NF4 base, rank 16, 4k sequence", func(m sizing.Model) sizing.Input {
			return sizing.WorkloadInput(m, sizing.QLoRA)
		}},
		{"full", "Full fine-tune, bf16 + AdamW, ZeRO-3, 4k sequence", func(m sizing.Model) sizing.Input {
			return sizing.WorkloadInput(m, sizing.FullTraining)
		}},
	}
}

// The serving figures' assumptions: bf16 weights and KV cache, a
// ServeContext-token context, ServePrompt-token prompts; latency at batch
// 1, throughput and cost at batch ServeBatch.
const (
	ServeContext = 4096
	ServePrompt  = 1024
	ServeBatch   = sizing.ServingConcurrency
)

// ServingInput is the engine input of the serving figures at a batch.
func ServingInput(m sizing.Model, batch int) sizing.Input {
	in := sizing.DefaultInput(m)
	in.SeqLen, in.PromptLen, in.Batch = ServeContext, ServePrompt, batch
	return in
}

// Serving is a preset's inference speed and cost on one GPU model: the
// engine's expected speeds (the roofline bounds at the efficiencies fitted
// to published measurements; see the methodology page), at the smallest
// layout that holds the model. The calculator shows the same figures.
type Serving struct {
	GPU *catalog.GPU
	// Latency is batch 1: Result.ExpectedDecode is one stream's decode
	// speed, Result.ExpectedTTFT the time to first token of a ServePrompt
	// prompt; N GPUs.
	Latency sizing.Fit
	// Batch is batch ServeBatch: Result.ExpectedPerGPU is the decode
	// throughput per GPU.
	Batch sizing.Fit
	// Cost is the cost per million output tokens at batch ServeBatch on
	// Offer, the current on-demand offer of this GPU with the lowest such
	// cost (display currency; 0 and nil when no offer holds a replica).
	Cost  float64
	Offer *catalog.Offer
	Price float64   // Offer's on-demand price per instance-hour, display currency
	AsOf  time.Time // the date of that price
	// Stale is set when no current on-demand price of the GPU holds a
	// replica but a stale one does: the lowest cost among those, which
	// pages show as "no current price; newest ..." and never as the
	// answer. Nil otherwise.
	Stale *StaleCost
}

// StaleCost is a cost per million tokens figured from a stale price.
type StaleCost struct {
	Cost  float64
	Offer *catalog.Offer
	Price float64
	AsOf  time.Time
}

// Decode is one stream's decode speed (batch 1), as the pages show it.
func (s Serving) Decode() sizing.Quantity {
	return sizing.RateQuantity(s.Latency.Result.ExpectedDecode)
}

// TTFT is the time to first token of a ServePrompt prompt at batch 1.
func (s Serving) TTFT() sizing.Quantity { return sizing.LatencyQuantity(s.Latency.Result.ExpectedTTFT) }

// PerGPU is the decode throughput per GPU at batch ServeBatch ("–" when
// the batch does not fit).
func (s Serving) PerGPU() sizing.Quantity {
	return sizing.RateQuantity(s.Batch.Result.ExpectedPerGPU)
}

// serving computes a preset's Serving on g; ok is false when the model
// does not fit within the engine's limit at batch 1 or g's speed is
// unknown.
func (d *Data) serving(m *catalog.Model, g *catalog.GPU) (Serving, bool) {
	key := m.ID + "|" + g.ID
	d.servesMu.Lock()
	s, ok := d.serves[key]
	d.servesMu.Unlock()
	if ok {
		return s.Serving, s.ok
	}
	sv, ok := d.computeServing(m, g)
	d.servesMu.Lock()
	d.serves[key] = served{sv, ok}
	d.servesMu.Unlock()
	return sv, ok
}

// served is a memoised result of serving.
type served struct {
	Serving
	ok bool
}

// computeServing is serving without the memo.
func (d *Data) computeServing(m *catalog.Model, g *catalog.GPU) (Serving, bool) {
	sg := SizingGPU(g)
	if sg.BandwidthBytesPerSec <= 0 {
		return Serving{}, false
	}
	sm := m.Model
	lat, ok := d.sizes.servingFit(sm, sg, 1)
	if !ok {
		return Serving{}, false
	}
	sv := Serving{GPU: g, Latency: lat}
	if b, ok := d.sizes.servingFit(sm, sg, ServeBatch); ok {
		sv.Batch = b
		var stale StaleCost
		for _, o := range d.offersOf[g] {
			for _, r := range d.regional[o.ID] {
				if r.Price.Billing != "on-demand" || r.Unit != "hour" || r.InstDC <= 0 {
					continue
				}
				c := sizing.CostPerMillionTokens(b.Result.ExpectedDecode, b.N, o.GPUCount, r.InstDC)
				if c <= 0 {
					continue
				}
				if !r.Current {
					if stale.Offer == nil || c < stale.Cost || (c == stale.Cost && o.ID < stale.Offer.ID) {
						stale = StaleCost{Cost: c, Offer: o, Price: r.InstDC, AsOf: r.Price.AsOf}
					}
					continue
				}
				if sv.Offer == nil || c < sv.Cost || (c == sv.Cost && o.ID < sv.Offer.ID) {
					sv.Cost, sv.Offer, sv.Price, sv.AsOf = c, o, r.InstDC, r.Price.AsOf
				}
			}
		}
		if sv.Offer == nil && stale.Offer != nil {
			sv.Stale = &stale
		}
	}
	return sv, true
}

// ModelServing is a preset's Serving on every catalog GPU it fits with a
// known memory bandwidth, fastest batch-1 decode first.
func (d *Data) ModelServing(m *catalog.Model) []Serving {
	var out []Serving
	for _, g := range d.Cat.GPUs {
		if sv, ok := d.serving(m, g); ok {
			out = append(out, sv)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Latency.Result.ExpectedDecode, out[j].Latency.Result.ExpectedDecode
		if a != b {
			return a > b
		}
		return out[i].GPU.ID < out[j].GPU.ID
	})
	return out
}

// Fit is one scenario's answer for one model.
type Fit struct {
	Scenario  Scenario
	OneGPU    sizing.Result // the estimate on a single GPU (may not fit)
	OneGPUErr error
	MinGPUs   map[string]int // GPU id -> smallest count that fits; absent if none up to the engine's limit
	Cheapest  []*Row         // cheapest fitting offer per billing mode, current prices only
	// Stale is, per billing mode with no current fitting price, the
	// cheapest stale one: shown as "no current price; newest ...".
	Stale []*Row
}

// ModelFits computes every scenario for one model over the catalog's GPUs.
func (d *Data) ModelFits(m *catalog.Model) []Fit {
	sm := m.Model
	var out []Fit
	for _, sc := range Scenarios() {
		in := sc.Input(sm)
		f := Fit{Scenario: sc, MinGPUs: map[string]int{}}
		f.OneGPU, f.OneGPUErr = sizing.Estimate(in, nil)
		for _, g := range d.Cat.GPUs {
			if n := d.minGPUs(m, sc, g); n > 0 {
				f.MinGPUs[g.ID] = n
			}
		}
		f.Cheapest, f.Stale = d.CheapestFitting(f.MinGPUs)
		out = append(out, f)
	}
	return out
}

// CheapestFitting returns, per billing mode, the cheapest current price
// row (per instance-hour in the display currency) of an offer with at
// least the minimum GPU count for its GPU; and, per billing mode with no
// current such row, the cheapest stale one.
func (d *Data) CheapestFitting(minGPUs map[string]int) (current, stale []*Row) {
	best, old := map[string]*Row{}, map[string]*Row{}
	for _, r := range d.Rows {
		n, ok := minGPUs[r.Offer.GPU.ID]
		if !ok || r.Offer.GPUCount < n {
			continue
		}
		at := best
		if !r.Current {
			at = old
		}
		b := at[r.Price.Billing]
		if b == nil || r.InstDC < b.InstDC || (r.InstDC == b.InstDC && r.Offer.ID < b.Offer.ID) {
			at[r.Price.Billing] = r
		}
	}
	for _, m := range catalog.BillingModes() {
		if r := best[m]; r != nil {
			current = append(current, r)
		} else if r := old[m]; r != nil {
			stale = append(stale, r)
		}
	}
	return current, stale
}

// GPUFit is, for one GPU, how many of them each preset and scenario needs.
type GPUFit struct {
	Model   *catalog.Model
	MinGPUs []int // per scenario in Scenarios() order; 0 = does not fit within the engine's limit
	// Serving is the preset's inference speed and cost on the GPU (nil
	// when it does not fit or the GPU's speed is unknown).
	Serving *Serving
}

// GPUFits computes the preset x scenario table of a GPU page.
func (d *Data) GPUFits(g *catalog.GPU) []GPUFit {
	models := append([]*catalog.Model(nil), d.Cat.Models...)
	sort.SliceStable(models, func(i, j int) bool { return models[i].Params < models[j].Params })
	var out []GPUFit
	for _, m := range models {
		gf := GPUFit{Model: m}
		for _, sc := range Scenarios() {
			gf.MinGPUs = append(gf.MinGPUs, d.minGPUs(m, sc, g))
		}
		if sv, ok := d.serving(m, g); ok {
			gf.Serving = &sv
		}
		out = append(out, gf)
	}
	return out
}

// minGPUs is sizing.MinGPUs for a preset, scenario and GPU (0 when none
// fits), memoised (see Fits): model pages, GPU pages and compare pages all
// ask for the same table.
func (d *Data) minGPUs(m *catalog.Model, sc Scenario, g *catalog.GPU) int {
	return d.sizes.minGPUs(m, sc, g)
}

// Fits memoises the sizing engine's answers (how many GPUs a preset needs
// for a scenario) by the engine's own inputs, so one Fits can serve every
// edition of a build and the builds after it in the same process (the dev
// server's): a price edit changes none of them. Keyed by the values the
// engine reads, not by ids, it cannot give a stale answer. It is safe for
// concurrent use.
type Fits struct {
	mu    sync.Mutex
	n     map[fitKey]int
	serve map[serveKey]fitOK
	one   map[oneKey][]sizing.RankedFit
}

type fitKey struct {
	scenario string // a Scenario is code, named by its id
	model    string // fieldsKey
	gpu      string // fieldsKey
}

type serveKey struct {
	batch int
	model string // fieldsKey
	gpu   string // fieldsKey
}

// oneKey keys OneGPU's memo: the GPU and every preset's shape and context
// limit, written out (a slice is no map key).
type oneKey struct {
	gpu    string // fieldsKey
	n      int
	models string
}

// fieldsKey writes out every field of a sizing.GPU or sizing.Model: they
// are not comparable (the WebAssembly build is smaller without their
// equality functions), and printing one whole keeps a field added later
// in the key.
func fieldsKey(v any) string { return fmt.Sprintf("%+v", v) }

type fitOK struct {
	fit sizing.Fit
	ok  bool
}

// NewFits returns an empty memo.
func NewFits() *Fits {
	return &Fits{n: map[fitKey]int{}, serve: map[serveKey]fitOK{}, one: map[oneKey][]sizing.RankedFit{}}
}

// OneFit is a preset that fits one GPU, in its most precise format.
type OneFit struct {
	Model  *catalog.Model
	Option sizing.ServingOption
}

// Decode is the option's expected decode speed of one sequence, for
// display (as Serving.Decode).
func (o OneFit) Decode() sizing.Quantity { return sizing.RateQuantity(o.Option.Decode) }

// FitOn is the presets that fit n GPUs g for serving, best first, each in
// its most precise fitting format (sizing.RankFits), memoised: GPU pages
// ask for one GPU, guides' {{< fits >}} for any count.
func (d *Data) FitOn(g *catalog.GPU, n int) []OneFit {
	ms, ctxs := make([]sizing.Model, len(d.Cat.Models)), make([]int, len(d.Cat.Models))
	for i, m := range d.Cat.Models {
		ms[i], ctxs[i] = m.Model, m.MaxContext
	}
	sg := SizingGPU(g)
	key := oneKey{gpu: fieldsKey(sg), n: n, models: fmt.Sprint(ms, ctxs)}
	f := d.sizes
	f.mu.Lock()
	r, ok := f.one[key]
	f.mu.Unlock()
	if !ok {
		r = sizing.RankFits(ms, ctxs, sg, n)
		f.mu.Lock()
		f.one[key] = r
		f.mu.Unlock()
	}
	out := make([]OneFit, len(r))
	for i, x := range r {
		out[i] = OneFit{Model: d.Cat.Models[x.Index], Option: x.Option}
	}
	return out
}

// servingFit is sizing.MinFit of ServingInput(sm, batch) on sg, memoised.
func (f *Fits) servingFit(sm sizing.Model, sg sizing.GPU, batch int) (sizing.Fit, bool) {
	key := serveKey{batch: batch, model: fieldsKey(sm), gpu: fieldsKey(sg)}
	f.mu.Lock()
	r, ok := f.serve[key]
	f.mu.Unlock()
	if ok {
		return r.fit, r.ok
	}
	r.fit, r.ok = sizing.MinFit(ServingInput(sm, batch), sg)
	f.mu.Lock()
	f.serve[key] = r
	f.mu.Unlock()
	return r.fit, r.ok
}

func (f *Fits) minGPUs(m *catalog.Model, sc Scenario, g *catalog.GPU) int {
	sm, sg := m.Model, SizingGPU(g)
	key := fitKey{scenario: sc.ID, model: fieldsKey(sm), gpu: fieldsKey(sg)}
	f.mu.Lock()
	n, ok := f.n[key]
	f.mu.Unlock()
	if ok {
		return n
	}
	n, ok = sizing.MinGPUs(sc.Input(sm), sg)
	if !ok {
		n = 0
	}
	f.mu.Lock()
	f.n[key] = n
	f.mu.Unlock()
	return n
}
