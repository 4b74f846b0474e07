package sizing

import (
	"math"
	"testing"
)

func TestPlace(t *testing.T) {
	fit := func(n, tp int) *Fit { return &Fit{N: n, TP: tp, PP: n / tp} }
	tests := []struct {
		name string
		gpus int
		fit  *Fit
		want int
	}{
		{"no fit", 8, nil, 0},
		{"one instance holds it", 8, fit(2, 2), 1},
		{"exactly", 8, fit(8, 8), 1},
		{"pipeline stages over instances", 8, fit(32, 8), 4},
		{"uneven last instance", 4, fit(6, 2), 2},
		{"a tensor-parallel group cannot span instances", 4, fit(16, 8), 0},
		{"single-GPU instances, no TP", 1, fit(4, 1), 4},
		{"no GPUs", 0, fit(1, 1), 0},
	}
	for _, tt := range tests {
		if got := place(Offer{GPUs: tt.gpus}, tt.fit); got != tt.want {
			t.Errorf("%s: place(%d GPUs, %+v) = %d, want %d", tt.name, tt.gpus, tt.fit, got, tt.want)
		}
	}
}

// planJob is a three-GPU job: a bf16 GPU (the reader's), one that
// computes fp16 only (as a V100) and one whose formats are not recorded.
func planJob() Job {
	serve := func(n, tp int, decode, prefill float64) *Fit {
		return &Fit{N: n, TP: tp, PP: n / tp, Result: Result{ExpectedDecode: decode, PrefillTokensPerSec: prefill}}
	}
	return Job{
		GPUs: []GPU{
			{ID: "bf", Precisions: "fp16 bf16 fp8 int8"},
			{ID: "v100", Precisions: "fp16"},
			{ID: "unknown"},
		},
		Fits:      []*Fit{{N: 2, TP: 2, PP: 1}, {N: 4, TP: 4, PP: 1}, {N: 1, TP: 1, PP: 1}},
		Serve:     []*Fit{serve(2, 2, 1000, 20000), serve(4, 4, 500, 5000), serve(1, 1, 360, 3600)},
		Chosen:    0,
		DType:     BF16,
		Inference: true,
	}
}

func TestPlan(t *testing.T) {
	offers := []Offer{
		0: {GPU: 0, GPUs: 8, Mode: 2, Price: 8},   // bf, spot
		1: {GPU: 0, GPUs: 8, Mode: 0, Price: 20},  // bf, on-demand
		2: {GPU: 0, GPUs: 1, Mode: 0, Price: 2},   // bf, one GPU: two instances cannot join a TP-2 group
		3: {GPU: 1, GPUs: 8, Mode: 0, Price: 1},   // fp16-only: cheapest, but no bf16
		4: {GPU: 2, GPUs: 1, Mode: 0, Price: 3.6}, // unrecorded formats: runs
		5: {GPU: 2, GPUs: 4, Mode: 0, Price: 10},  // dearer per GPU-hour... but 4 replicas
		6: {GPU: 2, GPUs: 1, Mode: 2, Price: 0.5, Stale: true},
		7: {GPU: 0, GPUs: 4, Mode: 0, Price: 12, Stale: true}, // the chosen GPU's stale offer still shows
	}
	job := planJob()
	p := job.Plan(offers)
	idx := func(cs []OfferCost) (out []int) {
		for _, c := range cs {
			out = append(out, c.Offer)
		}
		return out
	}
	eq := func(a, b []int) bool {
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if a[i] != b[i] {
				return false
			}
		}
		return true
	}
	// Chosen: every placeable offer of the reader's GPU, stale or not, by
	// billing mode (on-demand first), then hourly cost.
	if got := idx(p.Chosen); !eq(got, []int{7, 1, 0}) {
		t.Errorf("Chosen = %v, want [7 1 0]", got)
	}
	// Cheapest: per mode, another GPU that runs bf16 and is not stale.
	if got := idx(p.Cheapest); !eq(got, []int{4}) {
		t.Errorf("Cheapest = %v, want [4] (offer 3 has no bf16, 6 is stale)", got)
	}
	if p.Unsupported != 1 || p.Stale != 2 {
		t.Errorf("Unsupported, Stale = %d, %d, want 1, 2", p.Unsupported, p.Stale)
	}
	// Per token, on-demand only: offer 5 runs 4 replicas of 360 tok/s for
	// 10/h: 10e6/3600/1440 = 1.929 per M; offer 1 runs 4 replicas of the
	// 2-GPU layout (1000 tok/s) for 20/h: 20e6/3600/4000 = 1.389; offer 4
	// one replica for 3.6/h: 3.6e6/3600/360 = 2.778.
	if got := idx(p.PerToken); !eq(got, []int{1, 5, 4}) {
		t.Errorf("PerToken = %v, want [1 5 4]", got)
	}
	want := map[int]OfferCost{
		1: {Offer: 1, N: 2, Instances: 1, Hourly: 20, Monthly: 20 * HoursPerMonth, OutputPerM: 20e6 / 3600 / 4000, InputPerM: 20e6 / 3600 / 80000},
		5: {Offer: 5, N: 1, Instances: 1, Hourly: 10, Monthly: 10 * HoursPerMonth, OutputPerM: 10e6 / 3600 / 1440, InputPerM: 10e6 / 3600 / 14400},
	}
	for _, c := range p.PerToken {
		w, ok := want[c.Offer]
		if !ok {
			continue
		}
		if c.N != w.N || c.Instances != w.Instances || !near(c.Hourly, w.Hourly) || !near(c.Monthly, w.Monthly) ||
			!near(c.OutputPerM, w.OutputPerM) || !near(c.InputPerM, w.InputPerM) {
			t.Errorf("offer %d: %+v, want %+v", c.Offer, c, w)
		}
	}

	// With stale prices included, the stale spot offer of the unrecorded
	// GPU is the cheapest spot alternative.
	job.IncludeStale = true
	p = job.Plan(offers)
	if got := idx(p.Cheapest); !eq(got, []int{4, 6}) || p.Stale != 0 {
		t.Errorf("with stale prices: Cheapest = %v, Stale %d, want [4 6], 0", got, p.Stale)
	}

	// fp16 weights: the fp16-only GPU's offer is the cheapest alternative.
	job.DType = FP16
	if got := idx(job.Plan(offers).Cheapest); !eq(got, []int{3, 6}) {
		t.Errorf("fp16: Cheapest = %v, want [3 6]", got)
	}
}

// TestPlanTraining: a training job has no per-token rows; its job cost is
// the training compute at the MFU on all of the instances' GPUs.
func TestPlanTraining(t *testing.T) {
	job := planJob()
	job.Inference, job.Serve = false, nil
	job.GPUs[0].DenseBF16FLOPS = 1e15
	job.TrainFLOPs, job.MFU = 3.6e18, 0.5
	p := job.Plan([]Offer{{GPU: 0, GPUs: 8, Mode: 0, Price: 16}, {GPU: 0, GPUs: 1, Mode: 0, Price: 2}})
	if len(p.PerToken) != 0 || len(p.Chosen) != 1 {
		t.Fatalf("PerToken %v, Chosen %v: want none and one (a 1-GPU offer cannot hold a TP-2 fit)", p.PerToken, p.Chosen)
	}
	// 3.6e18 / (8 × 1e15 × 0.5) = 900 s = 0.25 h at 16/h = 4.
	if c := p.Chosen[0]; !near(c.Job, 4) || c.OutputPerM != 0 {
		t.Errorf("job cost %v, output per M %v, want 4 and 0", c.Job, c.OutputPerM)
	}
}

// TestRuns is the precision rule the plan's alternatives follow.
func TestRuns(t *testing.T) {
	tests := []struct {
		precisions string
		d          DType
		want       bool
	}{
		{"fp16 bf16 int8", BF16, true},
		{"fp16 int8", BF16, false}, // Turing, Volta: no bf16
		{"fp16 bf16 int8", FP8, false},
		{"fp16 bf16 fp8 int8", FP8, true},
		{"fp16", INT4, true},  // weight-only int4 dequantizes to fp16
		{"bf16", INT8, true},  // or to bf16
		{"int8", INT4, false}, // P40: no fast 16-bit format
		{"none", FP16, false},
		{"none", FP32, true},
		{"", FP8, true}, // not recorded: no exclusion
	}
	for _, tt := range tests {
		if got := (GPU{Precisions: tt.precisions}).Runs(tt.d); got != tt.want {
			t.Errorf("GPU{%q}.Runs(%s) = %v, want %v", tt.precisions, tt.d, got, tt.want)
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
