package sizing

import (
	"math"
	"testing"
)

// Tests of the engine's second version against published figures. Each
// case names its source, the tolerance and why.

// Architectures from each model's config.json (the copies kept under
// generator/internal/hfconfig/testdata, where TestPresetsMatchConfigs
// checks these counts against the parser). Parameter counts are those the
// parser computes from the config; hfconfig's tests compare them with the
// published ones.
var (
	// deepseek-ai/DeepSeek-V3 (= DeepSeek-R1's architecture): MLA with
	// kv_lora_rank 512, q_lora_rank 1536, qk_nope 128 + qk_rope 64, v 128;
	// 256 routed experts of 2048, 8 per token, 1 shared, 3 dense layers of
	// 18432. 671.0 B parameters (DeepSeek: "671B total"), 37.6 B active
	// with the input embedding (36.6 B without it, DeepSeek's "Activation
	// parameters: 36.6B").
	deepseekV3 = Model{Params: 671026419200, ActiveParams: 37552297472, Layers: 61, Hidden: 7168, Heads: 128,
		KVHeads: 128, HeadDim: 192, FFN: 2048, Vocab: 129280, Experts: 256, ExpertsPerToken: 8,
		KVLoRARank: 512, QLoRARank: 1536, QKRopeHeadDim: 64, VHeadDim: 128, SharedExperts: 1, DenseLayers: 3, DenseFFN: 18432}
	// mistralai/Mistral-7B-v0.1 with its sliding_window of 4096 in every
	// layer.
	mistral7bSW = func() Model { m := mistral_7b; m.SlidingWindow = 4096; return m }()
	// Qwen/Qwen3-8B and Qwen3-32B (head_dim 128, untied), Qwen3-30B-A3B.
	qwen3_8b     = Model{Params: 8190735360, Layers: 36, Hidden: 4096, Heads: 32, KVHeads: 8, HeadDim: 128, FFN: 12288, Vocab: 151936}
	qwen3_32b    = Model{Params: 32762123264, Layers: 64, Hidden: 5120, Heads: 64, KVHeads: 8, HeadDim: 128, FFN: 25600, Vocab: 151936}
	qwen3_30bA3b = Model{Params: 30532122624, ActiveParams: 3353032704, Layers: 48, Hidden: 2048, Heads: 32, KVHeads: 4,
		HeadDim: 128, FFN: 768, Vocab: 151936, Experts: 128, ExpertsPerToken: 8}
	// Llama 3.1/3.3 70B (same architecture; tt-metal's copy of
	// Llama-3.1-70B-Instruct's config.json): 70,553,706,496 parameters.
	llama33_70b = Model{Params: 70553706496, Layers: 80, Hidden: 8192, Heads: 64, KVHeads: 8, FFN: 28672, Vocab: 128256}
	// LLaMA 33B and 65B (Touvron et al. 2023, Table 2: 32.5 B / 65.2 B,
	// width 6656 / 8192, 52 / 64 heads, 60 / 80 layers; the MLP is
	// 2/3·4·d rounded up to a multiple of 256, 17920 / 22016, as in Meta's
	// llama/model.py with multiple_of = 256; vocabulary 32000).
	llama33b = Model{Params: 32528943616, Layers: 60, Hidden: 6656, Heads: 52, FFN: 17920, Vocab: 32000}
	llama65b = Model{Params: 65285660672, Layers: 80, Hidden: 8192, Heads: 64, FFN: 22016, Vocab: 32000}
)

// GPUs of the measurements, from the catalog (data/gpus/*.toml).
var (
	h20     = GPU{ID: "h20-96gb", MemoryBytes: 96 << 30, BandwidthBytesPerSec: 4000e9, DenseBF16FLOPS: 148e12, DenseFP8FLOPS: 296e12, LinkBytesPerSec: 900e9}
	h100    = GPU{ID: "h100-sxm5-80gb", MemoryBytes: 80 << 30, BandwidthBytesPerSec: 3350e9, DenseBF16FLOPS: 989.4e12, DenseFP8FLOPS: 1978.9e12, LinkBytesPerSec: 900e9}
	rtx4090 = GPU{ID: "rtx-4090", MemoryBytes: 24 << 30, BandwidthBytesPerSec: 1008e9, DenseBF16FLOPS: 165.2e12, DenseFP8FLOPS: 330.3e12}
	a6000   = GPU{ID: "rtx-a6000", MemoryBytes: 48 << 30, BandwidthBytesPerSec: 768e9, DenseBF16FLOPS: 154.8e12}
)

func estimateOn(t *testing.T, in Input, g *GPU) Result {
	t.Helper()
	r, err := Estimate(in, g)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestMLAKVPerToken(t *testing.T) {
	// DeepSeek-V2 (arXiv 2405.04434) §2.1 and Table 1: MLA caches
	// (d_c + d_h^R)·l elements per token; with d_c = 4·d_h and d_h^R =
	// d_h/2 that is 4.5·d_h·l, "equal to GQA with only 2.25 groups".
	// DeepSeek-V2: 60 layers, d_h 128: 576·60 = 34,560 elements, exactly.
	v2 := Model{Params: 236e9, Layers: 60, Hidden: 5120, Heads: 128, HeadDim: 192, KVLoRARank: 512, QKRopeHeadDim: 64, VHeadDim: 128}
	if got, want := KVBytesPerToken(v2, BF16), int64(4.5*128*60*2); got != want {
		t.Errorf("DeepSeek-V2 KV/token = %d B, want 4.5·d_h·l·2 = %d", got, want)
	}
	// DeepSeek-V3: 61 layers → 61·576·2 = 70,272 bytes ("about 70 KB"),
	// against 2·61·128·128·2 = 3,997,696 for multi-head attention with the
	// same head counts: 56.9 times less.
	if got := KVBytesPerToken(deepseekV3, BF16); got != 70272 {
		t.Errorf("DeepSeek-V3 KV/token = %d B, want 70272", got)
	}
	mha := deepseekV3
	mha.KVLoRARank, mha.QKRopeHeadDim, mha.HeadDim, mha.VHeadDim = 0, 0, 128, 0
	if ratio := float64(KVBytesPerToken(mha, BF16)) / 70272; math.Abs(ratio-56.89) > 0.01 {
		t.Errorf("MHA/MLA = %.2f, want 56.89", ratio)
	}
	// The latent is not split by heads: every tensor-parallel rank keeps
	// it whole (vLLM's MLA backend), so TP does not shrink the cache.
	in := DefaultInput(deepseekV3)
	in.DType, in.SeqLen, in.Batch = FP8, 32768, 4
	r1 := estimateOn(t, in, nil)
	in.GPUs, in.TP = 8, 8
	r8 := estimateOn(t, in, nil)
	if r1.Breakdown.KVCache != r8.Breakdown.KVCache || r1.Breakdown.KVCache != 4*32768*70272 {
		t.Errorf("MLA KV cache tp1 %d, tp8 %d, want both 4·32768·70272", r1.Breakdown.KVCache, r8.Breakdown.KVCache)
	}
}

func TestSlidingWindowKV(t *testing.T) {
	// Mistral 7B (arXiv 2310.06825) §2, Rolling Buffer Cache: with a
	// 4096-token window "on a sequence length of 32k tokens, this reduces
	// the cache memory usage by 8x". Exactly 32768/4096.
	kv := func(m Model, seq int) int64 {
		in := DefaultInput(m)
		in.SeqLen = seq
		return estimateOn(t, in, nil).Breakdown.KVCache
	}
	if full, sw := kv(mistral_7b, 32768), kv(mistral7bSW, 32768); full != 8*sw {
		t.Errorf("full %d / windowed %d, want 8×", full, sw)
	}
	// Within the window nothing changes.
	if kv(mistral_7b, 4096) != kv(mistral7bSW, 4096) {
		t.Error("a sequence inside the window should cost the same")
	}
	// Gemma 2 alternates local (window 4096) and global layers: at 8192
	// tokens half the layers hold 4096 tokens, 3/4 of the full cache
	// (google/gemma-2-27b config.json: 46 layers, 16 KV heads of 128;
	// sliding window 4096 in the Gemma 2 report).
	g2 := Model{Params: 27227128320, Layers: 46, Hidden: 4608, Heads: 32, KVHeads: 16, HeadDim: 128, FFN: 36864, Vocab: 256000, TiedEmbeddings: true}
	g2sw := g2
	g2sw.SlidingWindow, g2sw.LocalLayers = 4096, 23
	if full, sw := kv(g2, 8192), kv(g2sw, 8192); 4*sw != 3*full {
		t.Errorf("Gemma 2 windowed %d, full %d: want 3/4", sw, full)
	}
	// Prefill attention over the window: Σ min(i, w) keys.
	if got := attendedKeys(10, 4); got != 4*5/2+6*4 {
		t.Errorf("attendedKeys(10, 4) = %v", got)
	}
}

// qloraRecipe is the Guanaco recipe of the QLoRA repository
// (artidoro/qlora at 7f4e95a, scripts/finetune_guanaco_33b.sh and _65b.sh,
// qlora.py): NF4 with double quantization, LoRA r = 64 on all linear
// layers, the LoRA layers cast to bf16 (no fp32 copy), paged 32-bit AdamW,
// gradient checkpointing, batch 1, source_max_len 16 + target_max_len 512,
// embed_tokens and lm_head not quantized; transformers' attention of 2023
// (no FlashAttention).
func qloraRecipe(m Model) Input {
	in := DefaultInput(m)
	in.Workload, in.DType, in.Quant = QLoRA, INT4, NF4DQ
	in.LoRARank, in.LoRATargets = 64, LoRATargetNames()
	in.NoMaster, in.Optimizer = true, PagedAdamW
	in.Checkpointing, in.Flash = FullCheckpointing, false
	in.Batch, in.SeqLen = 1, 16+512
	return in
}

func TestQLoRARecipes(t *testing.T) {
	// QLoRA (Dettmers et al. 2023; the abstract in artidoro/qlora's
	// README): "finetune a 65B parameter model on a single 48GB GPU".
	// Hugging Face's QLoRA launch post (huggingface.co/blog/4bit-transformers-
	// bitsandbytes) gives 33B on a 24 GB GPU. The engine must say both fit:
	// the claims are pass/fail, so the tolerance is the card's usable
	// memory itself.
	for _, tt := range []struct {
		name string
		m    Model
		g    GPU
	}{
		{"33B on 24 GiB", llama33b, rtx4090},
		{"65B on 48 GiB", llama65b, a6000},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := estimateOn(t, qloraRecipe(tt.m), &tt.g)
			if !Fits(r, tt.g) {
				t.Errorf("recipe needs %s, usable %s: does not fit", FormatGiB(r.TotalPerGPU), FormatGiB(UsableBytes(tt.g)))
			}
			if r.PagedOutBytes <= 0 {
				t.Error("a paged optimizer should page something out")
			}
			// The adapters: r·(d_in + d_out) on q, k, v, o, gate, up, down.
			h, f := float64(tt.m.Hidden), float64(tt.m.FFN)
			want := 64 * float64(tt.m.Layers) * (4*2*h + 3*(h+f))
			if math.Abs(float64(r.AdapterParams)-want) > 0.5 {
				t.Errorf("adapters %d, want %.0f", r.AdapterParams, want)
			}
		})
	}
	// What v1 charged (fp32 master copy, unpaged AdamW, 4-bit embeddings)
	// does not fit 33B on 24 GiB: the recipe's own choices are what make
	// it fit.
	old := qloraRecipe(llama33b)
	old.NoMaster, old.Optimizer = false, AdamW
	if r := estimateOn(t, old, &rtx4090); Fits(r, rtx4090) {
		t.Errorf("33B QLoRA with an fp32 master copy and unpaged AdamW fits in %s", FormatGiB(r.TotalPerGPU))
	}
}

func TestWeightFormatsAgainstMeasuredFootprints(t *testing.T) {
	// Qwen's speed benchmark (QwenLM/Qwen3 at 7a2f61f,
	// docs/source/getting_started/speed_benchmark.md, "Transformers"
	// tables): peak torch.cuda.max_memory_allocated, in MiB, generating 2048
	// tokens from a 1-token prompt at batch 1 on an H20 with
	// FlashAttention 2. The measurement excludes the CUDA context, so it is
	// compared with the breakdown without Overhead. The AWQ checkpoints are
	// 4-bit with group size 128; their embeddings and lm_head stay bf16.
	// Tolerance 5 %: allocator rounding and the engine's activation buffer
	// (a documented approximation) differ from the run by a few percent;
	// the formats the test separates differ by 25 % or more.
	tests := []struct {
		name    string
		m       Model
		dtype   DType
		quant   Quant
		measMiB float64
	}{
		{"Qwen3-8B BF16", qwen3_8b, BF16, "", 15947},
		{"Qwen3-8B FP8", qwen3_8b, FP8, "", 9323},
		{"Qwen3-8B AWQ-INT4", qwen3_8b, INT4, AWQ, 6177},
		{"Qwen3-32B BF16", qwen3_32b, BF16, "", 62751},
		{"Qwen3-32B FP8", qwen3_32b, FP8, "", 33379},
		{"Qwen3-32B AWQ-INT4", qwen3_32b, INT4, AWQ, 19109},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := DefaultInput(tt.m)
			in.DType, in.Quant = tt.dtype, tt.quant
			in.SeqLen = 1 + 2048
			r := estimateOn(t, in, nil)
			got := float64(r.TotalPerGPU-r.Breakdown.Overhead) / (1 << 20)
			if rel := got/tt.measMiB - 1; math.Abs(rel) > 0.05 {
				t.Errorf("engine %.0f MiB, measured %.0f MiB (%+.1f%%)", got, tt.measMiB, rel*100)
			}
		})
	}
}

func TestDefault4BitLoad(t *testing.T) {
	// A default 4-bit load (bitsandbytes load_in_4bit, GPTQ, AWQ) keeps the
	// input embedding and lm_head at 16 bits. Quantizing every parameter,
	// as v1 did, under-estimates Qwen3-8B AWQ's measured 6177 MiB (Qwen
	// speed benchmark, as above) by more than 20 %; keeping them at 16 bits
	// lands within 5 %.
	in := DefaultInput(qwen3_8b)
	in.DType, in.Quant, in.SeqLen = INT4, AWQ, 2049
	measured := 6177.0 * (1 << 20)
	r := estimateOn(t, in, nil)
	if rel := float64(r.TotalPerGPU-r.Breakdown.Overhead)/measured - 1; math.Abs(rel) > 0.05 {
		t.Errorf("default 4-bit load %+.1f%% off the measurement", rel*100)
	}
	in.QuantEmbeddings = true
	all := estimateOn(t, in, nil)
	if rel := float64(all.TotalPerGPU-all.Breakdown.Overhead)/measured - 1; rel > -0.20 {
		t.Errorf("quantizing the embeddings too is only %+.1f%% off; the 16-bit rule would not matter", rel*100)
	}
	// The int4 formats' constants [QLoRA §3; GPTQ/AWQ layouts].
	for _, tt := range []struct {
		q    Quant
		g    int
		bits float64
	}{
		{NF4DQ, 0, 4.126953125}, {NF4, 0, 4.5}, {GPTQ, 128, 4.15625}, {AWQ, 0, 4.15625}, {GPTQ, 32, 4.625},
	} {
		if got := int4BitsPerParam(tt.q, tt.g); got != tt.bits {
			t.Errorf("%s g%d: %v bits, want %v", tt.q, tt.g, got, tt.bits)
		}
	}
}

func TestZeRO3OffloadOnOneGPU(t *testing.T) {
	// DeepSpeed's estimate_zero3_model_states_mem_needs_all_live for
	// t5-small on one GPU (as printed in blog.csdn.net/u012327567/article/
	// details/132278598): "60M total params, 16M largest layer params …
	// 0.06GB per GPU | offload_param=cpu, offload_optimizer=cpu". The layer
	// being computed is resident whatever the GPU count: 4 bytes per
	// parameter of the largest layer (t5-small: the 32128×512 embedding,
	// 16,449,536 parameters). DeepSpeed prints bytes/2^30 to two decimals,
	// hence the rounding.
	t5small := Model{Params: 60506624, Layers: 12, Hidden: 512, Heads: 8, FFN: 2048, Vocab: 32128}
	in := DefaultInput(t5small)
	in.Workload, in.DType, in.ZeRO, in.Offload = FullTraining, FP16, 3, OffloadFull
	r := estimateOn(t, in, nil)
	b := r.Breakdown
	if b.GatheredLayer != 4*32128*512 {
		t.Errorf("gathered layer %d, want 4·16,449,536", b.GatheredLayer)
	}
	states := b.Weights + b.Gradients + b.Optimizer + b.GatheredLayer
	if got := math.Round(float64(states)/(1<<30)*100) / 100; got != 0.06 {
		t.Errorf("model states on the GPU %.2f GB, DeepSpeed prints 0.06", got)
	}
	// Offloading only the optimizer on one GPU: nothing is partitioned,
	// so nothing is gathered.
	in.Offload = OffloadOptimizer
	if r := estimateOn(t, in, nil); r.Breakdown.GatheredLayer != 0 {
		t.Errorf("one GPU without parameter offload gathers %d", r.Breakdown.GatheredLayer)
	}
}

func TestDecodeBoundsMeasured(t *testing.T) {
	// The roofline is an upper bound: measured batch-1 decode must not
	// exceed it. The measurements (below) reach 20–60 % of it, the usual
	// share at batch 1 where kernel launch and communication add time;
	// the test asserts measured ≤ bound and measured ≥ 0.2 · bound, so a
	// bound that is far too loose or too tight fails.
	tests := []struct {
		name     string
		m        Model
		dtype    DType
		g        GPU
		tp, ctx  int
		measured float64 // tokens/s
	}{
		// Qwen speed benchmark, SGLang on one H20, 1-token prompt, 2048
		// generated tokens: speed = (prompt + generated)/time.
		{"Qwen3-8B BF16 H20", qwen3_8b, BF16, h20, 1, 2049, 81.73},
		{"Qwen3-8B FP8 H20", qwen3_8b, FP8, h20, 1, 2049, 150.25},
		{"Qwen3-32B BF16 H20", qwen3_32b, BF16, h20, 1, 2049, 20.72},
		{"Qwen3-30B-A3B BF16 H20", qwen3_30bA3b, BF16, h20, 1, 2049, 137.18},
		// NVIDIA NIM benchmarking, Llama-3.3-70B-Instruct, NIM 1.8.0, 2 ×
		// H100 80G, fp8 TP2, 5000 input / 500 output tokens, concurrency 1:
		// ITL 18.58 ms (docs.nvidia.com/nim/benchmarking/llm/1.0.0/performance).
		{"Llama-3.3-70B FP8 2×H100", llama33_70b, FP8, h100, 2, 5000, 1000 / 18.58},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := DefaultInput(tt.m)
			in.DType, in.SeqLen, in.GPUs, in.TP = tt.dtype, tt.ctx, tt.tp, tt.tp
			r := estimateOn(t, in, &tt.g)
			bound := r.DecodeTokensPerSec
			if tt.measured > bound || tt.measured < 0.2*bound {
				t.Errorf("bound %.1f tokens/s, measured %.1f (%.0f%% of it)", bound, tt.measured, tt.measured/bound*100)
			}
			if r.DecodeComputeBound {
				t.Error("batch-1 decode should be memory-bound")
			}
		})
	}
}

func TestTTFTBoundMeasured(t *testing.T) {
	// NVIDIA NIM benchmarking, Llama-3.3-70B-Instruct, NIM 1.8.0, 2 × H100
	// 80G, fp8 TP2, concurrency 1: TTFT 406.77 ms for 5000 input tokens,
	// 47.77 ms for 500 (docs.nvidia.com/nim/benchmarking/llm/1.0.0/
	// performance). The engine's TTFT is the roofline lower bound, so the
	// measurement must be at least it and, for a mature engine at batch 1,
	// within 4 times it (the prefill runs at 25–100 % of peak FP8 FLOP/s).
	for _, tt := range []struct {
		prompt   int
		measured float64
	}{{5000, 0.40677}, {500, 0.04777}} {
		in := DefaultInput(llama33_70b)
		in.DType, in.SeqLen, in.PromptLen, in.GPUs, in.TP = FP8, tt.prompt+500, tt.prompt, 2, 2
		r := estimateOn(t, in, &h100)
		if tt.measured < r.TTFTSeconds || tt.measured > 4*r.TTFTSeconds {
			t.Errorf("prompt %d: bound %.1f ms, measured %.1f ms", tt.prompt, r.TTFTSeconds*1000, tt.measured*1000)
		}
	}
	// The prefill FLOPs of 5000 tokens: 2 FLOPs per matmul parameter per
	// token (without the embeddings) + the last position's logits + causal
	// attention 2·a·(d_qk + d_v)·L·P(P+1)/2 (Kaplan et al. 2020, Table 1;
	// Chinchilla Appendix F for the attention terms).
	in := DefaultInput(llama33_70b)
	in.SeqLen = 5000
	r := estimateOn(t, in, nil)
	body := float64(llama33_70b.Params) - 2*128256*8192
	want := 2*body*5000 + 2*128256*8192 + 2*64*256*80*5000*5001/2
	if math.Abs(r.PrefillFLOPs-want) > 1e-9*want {
		t.Errorf("prefill FLOPs %g, want %g", r.PrefillFLOPs, want)
	}
}

func TestDecodeComputeBound(t *testing.T) {
	// With bf16 weights a decode step does 2 FLOPs per parameter read
	// (2 bytes) and sequence, so it turns compute-bound when the batch
	// exceeds the GPU's FLOP/s-to-bandwidth ratio (the roofline ridge point;
	// kipply's "Transformer Inference Arithmetic"): 989.4e12/3.35e12 ≈ 295
	// for an H100. At a 1-token context the KV cache is negligible.
	in := DefaultInput(llama3_8b)
	in.SeqLen = 1
	in.Batch = 64
	if r := estimateOn(t, in, &h100); r.DecodeComputeBound {
		t.Error("batch 64 should be memory-bound")
	}
	in.Batch = 1024
	r := estimateOn(t, in, &h100)
	if !r.DecodeComputeBound {
		t.Fatal("batch 1024 should be compute-bound")
	}
	m := llama3_8b
	flops := 2*m.matmulParams() + float64(m.Heads)*2*256*float64(m.Layers)
	if want := h100.DenseBF16FLOPS / flops; math.Abs(r.DecodeTokensPerSec-want) > 1e-9*want {
		t.Errorf("compute-bound decode %g tokens/s, want %g", r.DecodeTokensPerSec, want)
	}
	// Data-parallel replicas multiply the throughput, not the per-GPU rate.
	in.GPUs = 4
	r4 := estimateOn(t, in, &h100)
	if math.Abs(r4.ThroughputTokensPerSec-4*r.DecodeTokensPerSec) > 1e-6 || math.Abs(r4.TokensPerSecPerGPU-r.DecodeTokensPerSec) > 1e-6 {
		t.Errorf("4 replicas: %g total, %g per GPU", r4.ThroughputTokensPerSec, r4.TokensPerSecPerGPU)
	}
}

func TestCostPerMillionTokens(t *testing.T) {
	// cost = price / (replicas · tokens/s · 3600) · 1e6.
	tests := []struct {
		tps           float64
		replica, gpus int
		price, want   float64
	}{
		{1000, 1, 1, 2, 2 / 3.6},
		{1000, 2, 8, 8, 8 / (4 * 3.6)},
		{1000, 2, 3, 3, 3 / 3.6}, // one replica, one GPU idle
		{1000, 4, 2, 3, 0},       // no replica fits the instance
		{0, 1, 1, 3, 0},
	}
	for _, tt := range tests {
		if got := CostPerMillionTokens(tt.tps, tt.replica, tt.gpus, tt.price); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("CostPerMillionTokens(%v, %d, %d, %v) = %v, want %v", tt.tps, tt.replica, tt.gpus, tt.price, got, tt.want)
		}
	}
}

func TestAutoLayout(t *testing.T) {
	// Tensor parallelism within a node up to the GPU count, then pipeline
	// stages (inference, only as many as needed to fit) or data
	// parallelism (training); data parallelism alone with ZeRO-3.
	tests := []struct {
		name       string
		in         Input
		g          *GPU
		tp, pp, dp int
	}{
		{"70B on 4 H100", withGPUs(DefaultInput(llama2_70b), 4), &h100, 4, 1, 1},
		{"70B on 8 H100", withGPUs(DefaultInput(llama2_70b), 8), &h100, 8, 1, 1},
		{"8B on 16 H100: TP 8, then replicas", withGPUs(DefaultInput(llama3_8b), 16), &h100, 8, 1, 2},
		{"405B on 16 H100: TP 8 × PP 2", withGPUs(DefaultInput(llama31_405b), 16), &h100, 8, 2, 1},
		{"28 heads, 4 KV heads: TP 4", withGPUs(DefaultInput(Model{Params: 7e9, Layers: 28, Hidden: 3584, Heads: 28, KVHeads: 4, FFN: 18944, Vocab: 152064}), 8), &h100, 4, 1, 2},
		// ZeRO-3 shards the model states over the data-parallel ranks, as
		// FSDP does: every GPU is a data-parallel rank.
		{"training with ZeRO-3: data parallel over every GPU", func() Input {
			in := withGPUs(DefaultInput(llama3_8b), 32)
			in.Workload = FullTraining
			in.ZeRO = 3
			return in
		}(), &h100, 1, 1, 32},
		{"training with ZeRO-1: TP 8 in the node, data parallel over the rest", func() Input {
			in := withGPUs(DefaultInput(llama3_8b), 32)
			in.Workload = FullTraining
			in.ZeRO = 1
			return in
		}(), &h100, 8, 1, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := AutoLayout(tt.in, tt.g)
			r := estimateOn(t, out, tt.g)
			if r.TP != tt.tp || r.PP != tt.pp || r.DataParallel != tt.dp {
				t.Errorf("layout TP %d PP %d DP %d, want %d %d %d", r.TP, r.PP, r.DataParallel, tt.tp, tt.pp, tt.dp)
			}
		})
	}
}

func withGPUs(in Input, n int) Input { in.GPUs = n; return in }

func TestTrainingVariants(t *testing.T) {
	m := Model{Params: 1e9, Layers: 10, Hidden: 1024, Heads: 16, FFN: 4096}
	base := DefaultInput(m)
	base.Workload = FullTraining
	// Mixed-precision AdamW: 2 + 2 + 12 bytes per parameter [ZeRO §3.1];
	// without the fp32 master copy 2 + 2 + 8; FP8 training adds a 1-byte
	// FP8 copy of the weights to the 16 [TE].
	states := func(in Input) int64 {
		b := estimateOn(t, in, nil).Breakdown
		return b.Weights + b.Gradients + b.Optimizer
	}
	if got := states(base); got != 16e9 {
		t.Errorf("bf16 AdamW states %d, want 16e9", got)
	}
	nm := base
	nm.NoMaster = true
	if got := states(nm); got != 12e9 {
		t.Errorf("without master %d, want 12e9", got)
	}
	f8 := base
	f8.DType = FP8
	if got := states(f8); got != 17e9 {
		t.Errorf("fp8 training states %d, want 17e9", got)
	}
	// FP8 training runs FP8TrainingSpeedup faster than bf16 (FP8 GEMMs
	// only), not at the FP8 peak's 2×.
	f8.Tokens, base.Tokens = 1e9, 1e9
	if a, b := estimateOn(t, f8, &h100).TrainSeconds, estimateOn(t, base, &h100).TrainSeconds; math.Abs(a*FP8TrainingSpeedup-b) > 1e-9*b {
		t.Errorf("fp8 time %v, bf16 time %v: want a ratio of %v", a, b, FP8TrainingSpeedup)
	}

	// Sequence parallelism [Korthikanti eq. 4]: s·b·h·(34/t + 5·a·s/(h·t))
	// per layer.
	s, b, h, a, l := 2048.0, 1.0, 1024.0, 16.0, 10.0
	sp := base
	sp.SeqLen, sp.GPUs, sp.TP, sp.SequenceParallel, sp.Flash = 2048, 4, 4, true, false
	want := l*s*b*h*(34/4.0+5*a*s/(h*4)) + 4*s*b*h/4
	if got := estimateOn(t, sp, nil).Breakdown.Activations; got != toBytes(want) {
		t.Errorf("sequence-parallel activations %d, want %d", got, toBytes(want))
	}
	// Context parallelism splits the sequence: with FlashAttention the
	// activations are those of s/cp tokens.
	cp := base
	cp.SeqLen, cp.GPUs, cp.CP = 8192, 4, 4
	one := base
	one.SeqLen = 2048
	if x, y := estimateOn(t, cp, nil).Breakdown.Activations, estimateOn(t, one, nil).Breakdown.Activations; x != y {
		t.Errorf("cp 4 at 8192 %d, cp 1 at 2048 %d", x, y)
	}
}

func TestMoEStructure(t *testing.T) {
	// DeepSeek-V3 LoRA on the MLP: 58 MoE layers × (256 routed + 1
	// shared) experts of 2048 plus 3 dense layers of 18432, r·(h + ffn)
	// per projection.
	got := LoRAParams(deepseekV3, 1, []string{"down"})
	want := int64(58*257*(7168+2048) + 3*(7168+18432))
	if got != want {
		t.Errorf("DeepSeek-V3 down r1 = %d, want %d", got, want)
	}
	// MLA projections: q_a + q_b, kv_a_proj_with_mqa, kv_b_proj, o_proj
	// (the shapes printed by transformers for DeepSeek-V3:
	// q_a 7168→1536, q_b 1536→24576, kv_a 7168→576, kv_b 512→32768,
	// o 16384→7168).
	attn := LoRAParams(deepseekV3, 1, []string{"q", "k", "v", "o"})
	if want := int64(61 * ((7168 + 1536) + (1536 + 24576) + (7168 + 576) + (512 + 32768) + (16384 + 7168))); attn != want {
		t.Errorf("DeepSeek-V3 attention r1 = %d, want %d", attn, want)
	}
	// The widest MLP a token passes through: 8 routed + 1 shared experts
	// of 2048 = 18432, the same as a dense layer.
	if w := deepseekV3.mlpWidth(); w != 18432 {
		t.Errorf("mlpWidth = %v", w)
	}
}

func TestMessages(t *testing.T) {
	in := DefaultInput(llama3_8b)
	in.Batch = 0
	err := in.Validate()
	key, args, ok := Message(err)
	if !ok || key != "sizing.err.range" || args[0] != "batch" || args[1] != "0" || args[2] != "1" || args[3] != "100000" {
		t.Fatalf("Message = %q %q %v", key, args, ok)
	}
	if err.Error() != "batch must be between 1 and 100000 (got 0)" {
		t.Errorf("Error() = %q", err.Error())
	}
	seen := map[string]bool{}
	for _, kv := range MessageKeys() {
		if seen[kv[0]] || kv[1] == "" {
			t.Errorf("duplicate or empty key %q", kv[0])
		}
		seen[kv[0]] = true
	}
	if !seen["sizing.unit.rate"] || !seen["sizing.field.seq"] || !seen["sizing.err.qlora_dtype"] {
		t.Error("MessageKeys misses a kind")
	}
}

// TestLossLogitsMemory checks the output layer's bytes per logit for each
// loss implementation: the training activations differ from the fused
// loss's by (bytes − 4)·s·b·v/t, and the recipes pick the fp32 loss for
// LoRA and QLoRA (Transformers) and the fused one for full training.
func TestLossLogitsMemory(t *testing.T) {
	m := Model{Params: 8e9, Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8, FFN: 14336, Vocab: 128256}
	in := WorkloadInput(m, LoRA)
	in.SeqLen, in.Batch, in.TP, in.GPUs = 2048, 2, 2, 2
	logits := float64(in.SeqLen) * float64(in.Batch) * float64(m.Vocab) / float64(in.TP)
	for _, c := range []struct {
		loss  Loss
		bytes float64
	}{{"", 4}, {FusedLoss, 4}, {FP32Loss, 16}, {ChunkedLoss, 0}} {
		x := in
		x.Loss = c.loss
		if err := x.Validate(); err != nil {
			t.Fatalf("loss %q: %v", c.loss, err)
		}
		fused := in
		fused.Loss = FusedLoss
		got0, _ := trainingActivations(x)
		got1, _ := trainingActivations(fused)
		if got, want := got0-got1, (c.bytes-4)*logits; math.Abs(got-want) > 1 {
			t.Errorf("loss %q: %g bytes more than fused, want %g", c.loss, got, want)
		}
	}
	bad := in
	bad.Loss = "liger"
	if err := bad.Validate(); err == nil {
		t.Error(`loss "liger" accepted`)
	}
	for w, want := range map[Workload]Loss{FullTraining: FusedLoss, LoRA: FP32Loss, QLoRA: FP32Loss, Inference: FusedLoss} {
		if got := RecipeFor(w).Loss; got != want {
			t.Errorf("%s recipe: loss %q, want %q", w, got, want)
		}
	}
}

// TestOptimizerStateBytes: the optimizer states per trained parameter of
// full training on one GPU, with and without the fp32 master copy: AdamW
// 8 (+4), bf16 moments 4 (+4: DeepSpeed's bf16_optimizer_states; pure bf16
// training has none), 8-bit AdamW 2 (+4), SGD 4 (+4).
func TestOptimizerStateBytes(t *testing.T) {
	m := Model{Params: 1e9, Layers: 16, Hidden: 2048, Heads: 16, KVHeads: 16, FFN: 5632, Vocab: 32000}
	for _, c := range []struct {
		opt    Optimizer
		master bool
		bytes  float64
	}{{AdamW, true, 12}, {AdamW, false, 8}, {AdamWBF16, true, 8}, {AdamWBF16, false, 4}, {AdamW8bit, true, 6}, {SGD, false, 4}} {
		in := WorkloadInput(m, FullTraining)
		in.ZeRO, in.Optimizer, in.NoMaster = 0, c.opt, !c.master
		r, err := Estimate(in, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.opt, err)
		}
		if got, want := float64(r.Breakdown.Optimizer), c.bytes*float64(m.Params); math.Abs(got-want) > 1 {
			t.Errorf("%s, master %v: optimizer states %g bytes, want %g (%g per parameter)", c.opt, c.master, got, want, c.bytes)
		}
	}
	if o, ok := ParseOptimizer("AdamW-BF16"); !ok || o != AdamWBF16 {
		t.Errorf(`ParseOptimizer("AdamW-BF16") = %q, %v`, o, ok)
	}
}

// TestOptimizerInBackward: with the optimizer step in backward, full
// training holds the largest layer's gradients, not every weight's;
// pipeline stages are refused (their micro-batches accumulate gradients).
func TestOptimizerInBackward(t *testing.T) {
	m := Model{Params: 8e9, Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8, FFN: 14336, Vocab: 128256}
	in := WorkloadInput(m, FullTraining)
	in.ZeRO = 0
	base, err := Estimate(in, nil)
	if err != nil {
		t.Fatal(err)
	}
	in.OptimizerInBackward = true
	r, err := Estimate(in, nil)
	if err != nil {
		t.Fatal(err)
	}
	largest := float64(m.Vocab) * float64(m.Hidden) // the embedding, 525M parameters
	if got, want := float64(r.Breakdown.Gradients), largest*HalfBytes; math.Abs(got-want) > 1 {
		t.Errorf("gradients %g bytes, want the largest layer's %g", got, want)
	}
	if base.Breakdown.Gradients != int64(float64(m.Params)*HalfBytes) {
		t.Errorf("without it, gradients %d bytes, want every weight's %g", base.Breakdown.Gradients, float64(m.Params)*HalfBytes)
	}
	if d := base.TotalPerGPU - r.TotalPerGPU; d != base.Breakdown.Gradients-r.Breakdown.Gradients {
		t.Errorf("the total fell by %d, the gradients by %d", d, base.Breakdown.Gradients-r.Breakdown.Gradients)
	}
	pp := in
	pp.GPUs, pp.TP, pp.PP = 2, 1, 2
	if key, _, _ := Message(pp.Validate()); key != "sizing.err.optimizer_in_backward_pp" {
		t.Errorf("with 2 pipeline stages: %q, want sizing.err.optimizer_in_backward_pp", key)
	}
}
