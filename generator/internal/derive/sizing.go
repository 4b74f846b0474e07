package derive

import (
	"sort"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

// GiB is 2^30 bytes. GPU memory quoted in "GB" by vendors is binary
// (an "80 GB" H100 holds 80 GiB), so catalog memory_gb converts with it.
const GiB = 1 << 30

// SizingGPU converts a catalog GPU for the sizing engine.
func SizingGPU(g *catalog.GPU) sizing.GPU {
	s := sizing.GPU{ID: g.ID, Name: g.Name, MemoryBytes: int64(g.MemoryGB * GiB), BandwidthBytesPerSec: g.MemoryBWGBs * 1e9}
	if g.BF16TFLOPS != nil {
		s.DenseBF16FLOPS = *g.BF16TFLOPS * 1e12
	}
	return s
}

// SizingModel converts a catalog model preset for the sizing engine.
func SizingModel(m *catalog.Model) sizing.Model {
	return sizing.Model{Params: m.Params, ActiveParams: m.ActiveParams, Layers: m.Layers, Hidden: m.HiddenSize,
		Heads: m.Heads, KVHeads: m.KVHeads, FFN: m.FFNSize, Vocab: m.VocabSize, Experts: m.Experts, ExpertsPerToken: m.ExpertsPerToken}
}

// Scenario is a named common workload, computed for every preset at build
// time and shown on model and GPU pages.
type Scenario struct {
	ID, Label string
	Input     func(m sizing.Model) sizing.Input
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
		{"lora", "LoRA fine-tune, bf16 base, rank 16, 4k sequence", func(m sizing.Model) sizing.Input {
			in := sizing.DefaultInput(m)
			in.Workload = sizing.LoRA
			in.Checkpointing = sizing.FullCheckpointing
			return in
		}},
		{"qlora", "QLoRA fine-tune, NF4 base, rank 16, 4k sequence", func(m sizing.Model) sizing.Input {
			in := sizing.DefaultInput(m)
			in.Workload = sizing.QLoRA
			in.DType = sizing.INT4
			in.Checkpointing = sizing.FullCheckpointing
			return in
		}},
		{"full", "Full fine-tune, bf16 + AdamW, ZeRO-3, 4k sequence", func(m sizing.Model) sizing.Input {
			in := sizing.DefaultInput(m)
			in.Workload = sizing.FullTraining
			in.ZeRO = 3
			in.Checkpointing = sizing.FullCheckpointing
			return in
		}},
	}
}

// Fit is one scenario's answer for one model.
type Fit struct {
	Scenario  Scenario
	OneGPU    sizing.Result // the estimate on a single GPU (may not fit)
	OneGPUErr error
	MinGPUs   map[string]int // GPU id -> smallest count that fits; absent if none up to the engine's limit
	Cheapest  []*Row         // cheapest fitting offer per billing mode
}

// ModelFits computes every scenario for one model over the catalog's GPUs.
func (d *Data) ModelFits(m *catalog.Model) []Fit {
	sm := SizingModel(m)
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
		f.Cheapest = d.CheapestFitting(f.MinGPUs)
		out = append(out, f)
	}
	return out
}

// CheapestFitting returns, per billing mode, the cheapest price row (per
// instance-hour in the display currency) of an offer with at least the
// minimum GPU count for its GPU.
func (d *Data) CheapestFitting(minGPUs map[string]int) []*Row {
	best := map[string]*Row{}
	for _, r := range d.Rows {
		n, ok := minGPUs[r.Offer.GPU.ID]
		if !ok || r.Offer.GPUCount < n {
			continue
		}
		b := best[r.Price.Billing]
		if b == nil || r.InstDC < b.InstDC || (r.InstDC == b.InstDC && r.Offer.ID < b.Offer.ID) {
			best[r.Price.Billing] = r
		}
	}
	var out []*Row
	for _, m := range catalog.BillingModes() {
		if r := best[m]; r != nil {
			out = append(out, r)
		}
	}
	return out
}

// GPUFit is, for one GPU, how many of them each preset and scenario needs.
type GPUFit struct {
	Model   *catalog.Model
	MinGPUs []int // per scenario in Scenarios() order; 0 = does not fit within the engine's limit
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
		out = append(out, gf)
	}
	return out
}

// minGPUs is sizing.MinGPUs for a preset, scenario and GPU (0 when none
// fits), memoised: model pages, GPU pages and compare pages all ask for
// the same table.
func (d *Data) minGPUs(m *catalog.Model, sc Scenario, g *catalog.GPU) int {
	key := m.ID + "|" + sc.ID + "|" + g.ID
	if n, ok := d.fits[key]; ok {
		return n
	}
	n, ok := sizing.MinGPUs(sc.Input(SizingModel(m)), SizingGPU(g))
	if !ok {
		n = 0
	}
	d.fits[key] = n
	return n
}
