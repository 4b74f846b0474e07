package sizing

import (
	"math"
	"testing"
)

// TestOffloadActivations: with activation offload, the GPU keeps
// OffloadLayersOnGPU layers' stored activations and the rest is in CPU
// memory; the copies add training time only where the host link cannot
// keep up with a pass; pipeline stages are refused.
func TestOffloadActivations(t *testing.T) {
	m := Model{Params: 8e9, Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8, FFN: 14336, Vocab: 128256}
	for _, c := range []struct {
		name string
		ckpt Checkpointing
		// perLayer is what one layer stores, in s·b·h units (16-bit,
		// FlashAttention, t = 1): 34 scaled by the MLP width, or 2 with
		// full recomputation [Korthikanti §4, §5].
		perLayer float64
		// slower: the copies outrun the passes (8 B, no recomputation,
		// 8k tokens: 32 GB each way a micro-batch) or hide behind them (full
		// recomputation: 2 GB).
		slower bool
	}{
		{"none", NoCheckpointing, 10 + 8 + 16*float64(m.FFN)/(4*4096), true},
		{"full", FullCheckpointing, 2, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := WorkloadInput(m, FullTraining)
			in.ZeRO, in.Checkpointing, in.SeqLen, in.Batch, in.Tokens = 3, c.ckpt, 8192, 1, 1e9
			in.GPUs, in.TP = 8, 1
			base := estimateOn(t, in, &h100)
			in.OffloadActivations = true
			r := estimateOn(t, in, &h100)
			sbh := float64(in.SeqLen) * float64(in.Batch) * float64(m.Hidden)
			moved := float64(m.Layers-OffloadLayersOnGPU) * c.perLayer * sbh
			if got := float64(base.Breakdown.Activations - r.Breakdown.Activations); math.Abs(got-moved) > 2 {
				t.Errorf("activations fell by %g bytes, want %g (%d layers' %g·s·b·h)", got, moved, m.Layers-OffloadLayersOnGPU, c.perLayer)
			}
			if d := base.TotalPerGPU - r.TotalPerGPU; d != base.Breakdown.Activations-r.Breakdown.Activations {
				t.Errorf("the total fell by %d, the activations by %d", d, base.Breakdown.Activations-r.Breakdown.Activations)
			}
			if slower := r.TrainSeconds > base.TrainSeconds*1.0001; slower != c.slower {
				t.Errorf("train seconds %g with offload, %g without: slower = %v, want %v", r.TrainSeconds, base.TrainSeconds, slower, c.slower)
			}
			if r.TrainSeconds < base.TrainSeconds {
				t.Errorf("offload made training faster: %g < %g s", r.TrainSeconds, base.TrainSeconds)
			}
		})
	}
	// The copies' time: 100 micro-batches each copy 1 GB each way at
	// PCIeBytesPerSec; only what outlasts a third (forward) and two
	// thirds (backward) of the compute counts.
	in := WorkloadInput(m, FullTraining)
	in.Tokens, in.SeqLen, in.Batch, in.GPUs, in.TP = 8192*100, 8192, 1, 1, 1
	off := 1e9
	if got, want := offloadSeconds(in, 0, off), 2*100*off/PCIeBytesPerSec; math.Abs(got-want) > 1e-9 {
		t.Errorf("offloadSeconds with no compute = %g s, want %g", got, want)
	}
	if got := offloadSeconds(in, 3*100*off/PCIeBytesPerSec, off); got != 0 {
		t.Errorf("offloadSeconds hidden behind a forward pass as long as the copy = %g s, want 0", got)
	}
	pp := WorkloadInput(m, FullTraining)
	pp.GPUs, pp.TP, pp.PP, pp.OffloadActivations = 2, 1, 2, true
	if key, _, _ := Message(pp.Validate()); key != "sizing.err.offload_activations_pp" {
		t.Errorf("with 2 pipeline stages: %q, want sizing.err.offload_activations_pp", key)
	}
	if Field(pp.Validate()) != "pp" {
		t.Errorf("the refusal names %q, want pp", Field(pp.Validate()))
	}
}

// TestSpeculation: speculative decoding's expected tokens a step
// [Leviathan et al. 2023, eq. 1], its memory (one more layer's weights
// and KV cache) and DeepSeek-V3's published speed-up with its MTP module.
func TestSpeculation(t *testing.T) {
	for _, c := range []struct {
		gamma       int
		alpha, want float64
	}{
		{0, 0, 1},
		{1, 0.85, 1.85},
		{1, 0, 1.85}, // DefaultSpecAccept
		{3, 0.5, 1.875},
		{7, 0.71, (1 - math.Pow(0.71, 8)) / 0.29},
	} {
		in := DefaultInput(llama33_70b)
		in.SpecTokens, in.SpecAccept = c.gamma, c.alpha
		if y, v, _, _ := in.speculation(); math.Abs(y-c.want) > 1e-12 || v != float64(c.gamma+1) {
			t.Errorf("γ %d α %g: yield %g verify %g, want %g and %d", c.gamma, c.alpha, y, v, c.want, c.gamma+1)
		}
	}

	in := DefaultInput(llama33_70b)
	in.GPUs, in.TP = 2, 2
	base := estimateOn(t, in, &h100)
	in.SpecTokens = 1
	r := estimateOn(t, in, &h100)
	layer := (float64(llama33_70b.Params) - 2*128256*8192) / 80 * HalfBytes / 2
	if got := float64(r.Breakdown.Weights - base.Breakdown.Weights); math.Abs(got-layer) > 2 {
		t.Errorf("the draft head added %g bytes of weights a GPU, want one layer's %g", got, layer)
	}
	if got, want := float64(r.Breakdown.KVCache-base.Breakdown.KVCache), float64(base.Breakdown.KVCache)/80; math.Abs(got-want) > 2 {
		t.Errorf("the draft head added %g bytes of KV cache, want one layer's %g", got, want)
	}
	if !(r.ExpectedDecode > base.ExpectedDecode && r.DecodeTokensPerSec > base.DecodeTokensPerSec) {
		t.Errorf("batch 1 with a draft: expected %g, bound %g tokens/s; without %g, %g", r.ExpectedDecode, r.DecodeTokensPerSec, base.ExpectedDecode, base.DecodeTokensPerSec)
	}
	if r.ExpectedDecode > r.DecodeTokensPerSec {
		t.Errorf("expected %g tokens/s above the bound %g", r.ExpectedDecode, r.DecodeTokensPerSec)
	}
	// At a large batch the verification's γ+1 tokens make the step
	// compute-bound, and speculation costs more than it yields.
	big := in
	big.Batch, big.SpecTokens = 256, 4
	big.SpecAccept = 0.5
	nb := big
	nb.SpecTokens = 0
	if s, n := estimateOn(t, big, &h100), estimateOn(t, nb, &h100); s.ExpectedDecode >= n.ExpectedDecode {
		t.Errorf("batch 256, 4 drafted at 0.5: %g tokens/s, not below %g without", s.ExpectedDecode, n.ExpectedDecode)
	}

	// DeepSeek-V3 §5.4.3: its MTP module's second token is accepted 85–90%
	// of the time, "1.8 times TPS". Served on 8 H100s (fp8, TP 8) at
	// batch 1, the speed-up falls within 0.8–1.25 of 1.8.
	ds := DefaultInput(deepseekV3)
	ds.DType, ds.KVDType, ds.GPUs, ds.TP = FP8, FP8, 8, 8
	plain := estimateOn(t, ds, &h100)
	ds.SpecTokens = 1
	spec := estimateOn(t, ds, &h100)
	t.Logf("DeepSeek-V3 with MTP on 8 H100s: %.1f -> %.1f tokens/s (%.2fx)", plain.ExpectedDecode, spec.ExpectedDecode, spec.ExpectedDecode/plain.ExpectedDecode)
	if ratio := spec.ExpectedDecode / plain.ExpectedDecode / 1.8; ratio < 0.8 || ratio > 1.25 {
		t.Errorf("DeepSeek-V3 with MTP: %.2fx decode, %.2f of the published 1.8x", spec.ExpectedDecode/plain.ExpectedDecode, ratio)
	}

	bad := DefaultInput(llama33_70b)
	bad.SpecTokens, bad.SpecAccept = 2, 1
	if key, _, _ := Message(bad.Validate()); key != "sizing.err.spec_accept_range" {
		t.Errorf("acceptance 1: %q, want sizing.err.spec_accept_range", key)
	}
	bad.SpecAccept, bad.SpecTokens = 0, MaxSpecTokens+1
	if Field(bad.Validate()) != "spec_tokens" {
		t.Errorf("%d draft tokens: field %q, want spec_tokens", MaxSpecTokens+1, Field(bad.Validate()))
	}
}
