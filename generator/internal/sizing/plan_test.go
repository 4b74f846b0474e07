package sizing

import (
	"math"
	"testing"
)

// TestPlanServing: each plan meets the targets with the largest batch
// that does (one more sequence misses the TPOT target or memory), enough
// replicas and no more, priced by the cheapest current on-demand offer
// that holds them; GPUs without a plan say why.
func TestPlanServing(t *testing.T) {
	fp8 := "fp32 tf32 fp16 bf16 fp8 int8"
	h100 := h100
	h100.Precisions = fp8
	rtx := rtx4090
	rtx.Precisions = fp8
	slow := GPU{ID: "slow", MemoryBytes: 80 << 30, BandwidthBytesPerSec: 30e9, DenseBF16FLOPS: 50e12, Precisions: "fp32 fp16 bf16 int8"}
	unknown := GPU{ID: "unknown", MemoryBytes: 80 << 30, Precisions: fp8}
	gpus := []GPU{h100, rtx, slow, unknown, a6000}
	offers := []Offer{
		{GPU: 0, GPUs: 8, Price: 24},             // H100 ×8: 3/GPU-hour
		{GPU: 0, GPUs: 1, Price: 2.5},            // H100 ×1: cheaper per GPU
		{GPU: 0, GPUs: 1, Price: 1, Stale: true}, // stale: not used
		{GPU: 0, GPUs: 1, Price: 0.5, Mode: 2},   // spot: not used
		{GPU: 1, GPUs: 1, Price: 0.4},            // 4090 ×1
		{GPU: 2, GPUs: 8, Price: 4},              // slow ×8
		{GPU: 3, GPUs: 1, Price: 1},              // unknown speed
		// none for the A6000
	}
	load := Load{Rate: 5, Prompt: 1000, Answer: 200, TTFT: 0.5, TPOT: 0.04}
	plans, misses, ok := PlanServing(llama3_8b, 8192, load, gpus, offers, nil)
	if !ok {
		t.Fatal("load refused")
	}
	byGPU := map[int]ServePlan{}
	for i, p := range plans {
		byGPU[p.GPU] = p
		if i > 0 && p.Hourly < plans[i-1].Hourly {
			t.Errorf("plans not cheapest first: %v after %v", p.Hourly, plans[i-1].Hourly)
		}
		g := gpus[p.GPU]
		in := DefaultInput(llama3_8b)
		in.DType, in.KVDType, in.Quant, in.GPUs, in.TP = p.DType, p.KVDType, p.Quant, p.TP, p.TP
		in.SeqLen, in.PromptLen, in.OutputLen = 1200, 1000, 200
		tpot := func(b int) (float64, bool) {
			c := in
			c.Batch = b
			r, err := Estimate(c, &g)
			return float64(b) / r.ExpectedDecode, err == nil && Fits(r, g)
		}
		if x, fits := tpot(p.Batch); !fits || x > load.TPOT || math.Abs(x-p.TPOT) > 1e-12 {
			t.Errorf("%s: batch %d has TPOT %v (plan %v), fits %v", g.ID, p.Batch, x, p.TPOT, fits)
		}
		// The TTFT is one prompt's on its own plus half the running
		// step (QueueSeconds), and a larger batch would miss a target.
		one := in
		one.Batch = 1
		idle := estimateOn(t, one, &g).ExpectedTTFT
		if want := idle + p.TPOT/2; math.Abs(p.TTFT-want) > 1e-12 {
			t.Errorf("%s: TTFT %v, want the prompt's %v plus half the step, %v", g.ID, p.TTFT, idle, want)
		}
		if x, fits := tpot(p.Batch + 1); p.Batch < FitMaxConcurrency && fits && x <= load.TPOT && idle+x/2 <= load.TTFT {
			t.Errorf("%s: batch %d is not the largest (batch+1: TPOT %v)", g.ID, p.Batch, x)
		}
		if p.TTFT > load.TTFT {
			t.Errorf("%s: TTFT %v over the target", g.ID, p.TTFT)
		}
		if float64(p.Replicas)*p.ReplicaRate < load.Rate || float64(p.Replicas-1)*p.ReplicaRate >= load.Rate || p.GPUs != p.Replicas*p.TP {
			t.Errorf("%s: %d replicas of %v req/s for %v req/s", g.ID, p.Replicas, p.ReplicaRate, load.Rate)
		}
		o := offers[p.Offer]
		if o.Stale || o.Mode != 0 || o.GPU != p.GPU {
			t.Errorf("%s: priced by offer %+v", g.ID, o)
		}
		// Cost per request, split into its input and output tokens.
		perRequest := p.Hourly / 3600 / load.Rate
		if got := (p.InputPerM*1000 + p.OutputPerM*200) / 1e6; math.Abs(got-perRequest) > 1e-9*perRequest {
			t.Errorf("%s: input and output costs %v per request, want %v", g.ID, got, perRequest)
		}
	}
	// The H100 plan uses the cheaper one-GPU instances (2.5 < 24/8).
	if p, ok := byGPU[0]; !ok || offers[p.Offer].GPUs != 1 || p.Hourly != float64(p.Instances)*2.5 {
		t.Errorf("H100 plan %+v: want the 2.5/hour one-GPU offer", p)
	}
	want := map[int]string{2: MissTPOT, 3: MissSpeed, 4: MissOffer}
	for _, m := range misses {
		if want[m.GPU] != m.Reason {
			t.Errorf("GPU %s: miss %q, want %q", gpus[m.GPU].ID, m.Reason, want[m.GPU])
		}
		if m.Reason == MissTPOT && !(m.Best > load.TPOT) {
			t.Errorf("GPU %s: best TPOT %v is within the target", gpus[m.GPU].ID, m.Best)
		}
		delete(want, m.GPU)
	}
	if len(want) > 0 {
		t.Errorf("no miss for %v", want)
	}
}

// TestPlanServingNoAnswer: loads that cannot be planned, and a target no
// GPU meets.
func TestPlanServingNoAnswer(t *testing.T) {
	gpus := []GPU{h100}
	offers := []Offer{{GPU: 0, GPUs: 1, Price: 2}}
	for name, load := range map[string]Load{
		"zero rate":           {Rate: 0, Prompt: 100, Answer: 10},
		"no answer":           {Rate: 1, Prompt: 100},
		"negative target":     {Rate: 1, Prompt: 100, Answer: 10, TPOT: -1},
		"longer than context": {Rate: 1, Prompt: 8000, Answer: 500},
	} {
		if _, _, ok := PlanServing(llama3_8b, 8192, load, gpus, offers, nil); ok {
			t.Errorf("%s: planned", name)
		}
	}
	plans, misses, ok := PlanServing(llama3_8b, 8192, Load{Rate: 1, Prompt: 100, Answer: 10, TTFT: 1e-6}, gpus, offers, nil)
	if !ok || len(plans) != 0 || len(misses) != 1 || misses[0].Reason != MissTTFT || !(misses[0].Best > 1e-6) {
		t.Errorf("a 1 µs TTFT target: plans %v, misses %+v", plans, misses)
	}
	plans, misses, _ = PlanServing(llama31_405b, 131072, Load{Rate: 1, Prompt: 100, Answer: 10}, []GPU{rtx4090}, []Offer{{GPU: 0, GPUs: 8, Price: 3}}, []DType{BF16})
	if len(plans) != 0 || len(misses) != 1 || misses[0].Reason != MissFit {
		t.Errorf("405B in bf16 on 4090s: plans %v, misses %+v", plans, misses)
	}
}

// TestTTFTUnderLoad: a request waits for half the running decode step
// (QueueSeconds), at the concurrency Little's law gives the rate: the
// wait grows with the rate, and at a rate too low to overlap requests it
// is half a one-sequence step.
func TestTTFTUnderLoad(t *testing.T) {
	if got := QueueSeconds(0.03); got != 0.015 {
		t.Errorf("QueueSeconds(30 ms) = %v, want 15 ms", got)
	}
	in := DefaultInput(llama3_8b)
	in.SeqLen, in.PromptLen, in.OutputLen = 1100, 1000, 200
	one := estimateOn(t, in, &h100)
	step1 := 1 / one.ExpectedDecode
	low := TTFTUnderLoad(in, h100, 1e-6)
	if want := one.ExpectedTTFT + step1/2; math.Abs(low-want) > 1e-12 {
		t.Errorf("at a negligible rate: %v s, want the prompt's %v plus half a one-sequence step, %v", low, one.ExpectedTTFT, want)
	}
	prev := low
	for _, rate := range []float64{2, 16, 64} {
		x := TTFTUnderLoad(in, h100, rate)
		if !(x > prev) {
			t.Errorf("rate %v: %v s, not above %v at the lower rate", rate, x, prev)
		}
		prev = x
	}
	unknown := GPU{ID: "unknown", MemoryBytes: 80 << 30}
	if got := TTFTUnderLoad(in, unknown, 2); got != 0 {
		t.Errorf("on a GPU with no speed figures: %v, want 0 (unknown)", got)
	}
}
