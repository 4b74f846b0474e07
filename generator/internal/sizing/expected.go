package sizing

import "math"

// The expected speeds are the roofline bounds (speed.go) at the shares of
// peak a tuned serving engine reaches, plus the time the bounds leave out:
// fixed time per layer and forward step (kernel launches, the small
// operations between the matrix multiplications) and the tensor-parallel
// all-reduces. The constants are fitted to published measurements, which
// expected_test.go lists with their sources and the ratio each reaches:
//
//   - BandwidthEfficiency, LayerSeconds and AllReduceSeconds to gpt-fast's
//     batch-1 bf16 decode on A100-80GB at tensor parallelism 1, 2, 4 and 8
//     (Llama-2 7B and 70B): the series at fixed hardware separates the
//     per-layer time, which tensor parallelism does not divide, from the
//     all-reduces, which it adds. Least squares in log space.
//   - PrefillEfficiency and PrefillLayerSeconds to the first-token
//     latencies of TensorRT-LLM (A100 FP16, H100 and L40S FP8, prompts of
//     128 and 2048 tokens) and NVIDIA NIM (H100 FP8, 500 and 5000).
//
// The other references (NIM's decode, TensorRT-LLM's large-batch
// throughput, llama.cpp, SGLang) check the fit out of sample.
const (
	// BandwidthEfficiency is the share of the memory bandwidth a decode
	// step's weight and KV-cache reads reach.
	BandwidthEfficiency = 0.8
	// PrefillEfficiency is the share of the dense tensor peak the prompt's
	// matrix multiplications reach.
	PrefillEfficiency = 0.56
	// LayerSeconds is the fixed time per transformer layer of a decode
	// step besides its reads; PrefillLayerSeconds that of the prompt's
	// forward pass (more, and more varied, kernels per layer).
	LayerSeconds        = 42e-6
	PrefillLayerSeconds = 175e-6
	// AllReduceSeconds is the latency of one all-reduce across a tensor-
	// parallel group joined by NVLink (or another GPU-to-GPU fabric);
	// PCIeAllReduceSeconds over PCIe, where no measurement here fixes it
	// (2.5 times the NVLink latency, as PCIe's round trips are).
	AllReduceSeconds     = 10e-6
	PCIeAllReduceSeconds = 25e-6
	// PCIeBytesPerSec is the per-direction bandwidth between GPUs with no
	// GPU-to-GPU fabric (PCIe 4.0 x16, 32 GB/s each way), used when the
	// GPU's link bandwidth is not known.
	PCIeBytesPerSec = 32e9
)

// engineLayerSeconds is the fixed time per layer of a decode step for
// each serving engine: LayerSeconds for the tuned engines the constants
// are fitted to and for vLLM/SGLang and llama.cpp, which also replay
// captured graphs (vLLM's and SGLang's CUDA graphs; llama.cpp's
// whole-graph GGML scheduler); for Hugging Face's eager generate,
// fitted to Qwen's speed benchmark of Qwen3-8B in Transformers on an
// H20 (45.32 tokens/s at batch 1 against SGLang's 81.73 on the same
// GPU: the Python dispatch of every operation, about 0.36 ms per layer).
func engineLayerSeconds(e Engine) float64 {
	if e == HF {
		return HFLayerSeconds
	}
	return LayerSeconds
}

// HFLayerSeconds is engineLayerSeconds for Hugging Face's eager generate.
const HFLayerSeconds = 400e-6

// gpuBandwidthEfficiency is the share of a GPU's memory bandwidth a
// decode step reaches: BandwidthEfficiency, except where published
// measurements show a GPU reaching much less. The H20's decode speeds
// in Qwen's speed benchmark (SGLang, Qwen3 8B to 235B, bf16 and fp8)
// reach about 0.42 of its 4.0 TB/s, where A100 and H100 runs reach
// about 0.8 of theirs: fitted to those rows (data/calibration).
func gpuBandwidthEfficiency(g GPU) float64 {
	if g.ID == "h20-96gb" {
		return H20BandwidthEfficiency
	}
	return BandwidthEfficiency
}

// H20BandwidthEfficiency is gpuBandwidthEfficiency's H20 figure.
const H20BandwidthEfficiency = 0.42

// decodeBandwidth is the memory bandwidth a decode step of in reaches on
// g: gpuBandwidthEfficiency of the GPU's, and with llama.cpp at most
// LlamaCppBandwidth.
func decodeBandwidth(in Input, g GPU) float64 {
	bw := g.BandwidthBytesPerSec * gpuBandwidthEfficiency(g)
	if in.engine() == LlamaCpp {
		bw = math.Min(bw, LlamaCppBandwidth)
	}
	return bw
}

// LlamaCppBandwidth is the most memory bandwidth llama.cpp's decode
// kernels reach, in bytes/s, whatever the GPU's: in XiongjieDai's llama.cpp
// tables (May 2024) the A100 SXM (2,039 GB/s) decodes Llama 3 8B F16 at
// 53.18 tokens/s, about what the RTX 4090 (1,008 GB/s) does (54.84), where
// a tuned engine reaches 0.8 of an A100's bandwidth. Fitted to that A100
// row (data/calibration/serving-2.toml); the HBM GPUs' Q4_K_M rows
// (gguf.toml) stay held out.
const LlamaCppBandwidth = 860e9

// activationBytes is the size of one element of the activations the
// tensor-parallel all-reduces carry: 16 bits.
const activationBytes = 2

// allReduceSeconds is the time of one all-reduce of n bytes over the t
// GPUs of a tensor-parallel group: a latency plus the ring algorithm's
// 2(t−1)/t·n bytes each way [Patarasuk & Yuan 2009; NCCL's bus bandwidth
// is defined by the same factor].
func allReduceSeconds(n float64, t int, g GPU) float64 {
	if t <= 1 {
		return 0
	}
	lat, bw := AllReduceSeconds, g.LinkBytesPerSec/2
	if !(bw > 0) {
		lat, bw = PCIeAllReduceSeconds, PCIeBytesPerSec
	}
	return lat + 2*float64(t-1)/float64(t)*n/bw
}

// tpSeconds is the communication of one forward step of tokens tokens
// under tensor parallelism: two all-reduces of the tokens' activations
// per layer (after attention and after the MLP) [Megatron-LM §3].
func tpSeconds(in Input, tokens float64, g GPU) float64 {
	if in.TP <= 1 {
		return 0
	}
	n := tokens * float64(in.Model.Hidden) * activationBytes
	return 2 * float64(in.Model.Layers) * allReduceSeconds(n, in.TP, g)
}

// expectedDecode is the expected decode rate of one replica (tokens/s,
// summed over the batch). A step runs two phases one after the other in
// every layer: the matrix multiplications, which take the larger of their
// weight reads at BandwidthEfficiency and their FLOPs at
// PrefillEfficiency of the peak, and attention over the cached keys,
// which takes the larger of its KV-cache reads and its FLOPs; plus
// LayerSeconds per layer and the tensor-parallel all-reduces. (The
// roofline bound lets the two phases overlap; in an engine they are
// separate kernels, so at large batch a compute-bound GEMM phase does
// not hide the attention's reads.) Pipeline stages run one after another
// for one token, so every layer counts. Zero when the bound is unknown.
func expectedDecode(in Input, g GPU, peak float64) float64 {
	bound, _ := decodeTokensPerSec(in, g.BandwidthBytesPerSec, peak)
	if !(bound > 0) {
		return 0
	}
	m := in.Model
	b := float64(in.Batch)
	yield, verify, draft, dbytes := in.speculation()
	var wRead, kvRead, gemm, attn, dRead, dGemm float64
	if bw := decodeBandwidth(in, g); bw > 0 {
		wRead = readBytes(in) / float64(in.TP) / bw
		kvRead = b * kvSequenceBytesPerGPU(in) * float64(in.pp()) / bw
		dRead = dbytes / float64(in.TP) / bw
	}
	if p := float64(in.TP*in.cp()) * peak * PrefillEfficiency; p > 0 {
		gemm = verify * b * 2 * m.matmulParams() / p
		attn = verify * b * decodeAttentionFLOPs(in) / p
		dGemm = b * 2 * draft / p
	}
	layer := engineLayerSeconds(in.engine())
	step := math.Max(wRead, gemm) + math.Max(kvRead, attn) + float64(m.Layers)*layer + tpSeconds(in, verify*b, g)
	// Speculative decoding's draft steps: the draft head's layer each
	// (its reads or FLOPs, and the per-layer time), before the
	// verification step.
	step += float64(in.SpecTokens) * (math.Max(dRead, dGemm) + layer)
	return finite(b * yield / step)
}

// expectedTTFT is the expected time to first token of one request: the
// prefill's FLOPs at PrefillEfficiency of the peak or its weight reads at
// BandwidthEfficiency, whichever is longer, plus PrefillLayerSeconds per layer
// and the all-reduces of the prompt's activations. Zero when the bound is.
func expectedTTFT(in Input, flops float64, g GPU, peak float64) float64 {
	if ttftSeconds(in, flops, g.BandwidthBytesPerSec, peak) == 0 {
		return 0
	}
	t := flops / (float64(in.TP*in.cp()) * peak * PrefillEfficiency)
	if g.BandwidthBytesPerSec > 0 {
		t = math.Max(t, readBytes(in)/(float64(in.TP)*g.BandwidthBytesPerSec*BandwidthEfficiency))
	}
	return finite(t + float64(in.Model.Layers)*PrefillLayerSeconds + tpSeconds(in, float64(in.PromptTokens()), g))
}

// prefillRate is the expected prompt throughput of one replica in
// tokens/s when prompts are batched (compute-bound): the prompt's tokens
// over its FLOPs at PrefillEfficiency of the replica's peak, less the
// all-reduces of their activations.
func prefillRate(in Input, flops float64, g GPU, peak float64) float64 {
	p := float64(in.PromptTokens())
	if !(peak > 0) || !(flops > 0) {
		return 0
	}
	t := flops/(float64(in.TP*in.cp())*peak*PrefillEfficiency) + tpSeconds(in, p, g)
	return finite(p / t)
}

// PromptTokens is the prompt the time to first token is figured for:
// PromptLen, or SeqLen when it is zero.
func (in Input) PromptTokens() int {
	if in.PromptLen > 0 {
		return in.PromptLen
	}
	return in.SeqLen
}

// servedRate is one replica's expected rate of answer tokens: the decode
// rate alone without an answer length, and with one, a batch's answer
// tokens over the time to prefill its prompts and then decode its
// answers (static batching, as TensorRT-LLM's gptSessionBenchmark runs
// its peak-throughput tables: with 2048-token prompts and 128-token
// answers most of the time is prefill). Zero when a rate it needs is
// unknown.
func servedRate(in Input, decode, prefill float64) float64 {
	if in.OutputLen <= 0 {
		return decode
	}
	if !(decode > 0) || !(prefill > 0) {
		return 0
	}
	b, out := float64(in.Batch), float64(in.OutputLen)
	t := b*float64(in.PromptTokens())/prefill + out*b/decode
	return finite(b * out / t)
}

// Training efficiency. MFU is the model FLOPs (Result.TrainFLOPs) a run
// reaches per second over the GPUs' dense BF16 peak. Published runs (the
// calibration set's train_throughput rows, fitted on torchtitan's and
// llm-foundry's tables):
//
//   - Ampere (A100, A800): llm-foundry's MPT-7B on 8 × A100-80GB reaches
//     4,641 tokens/s per GPU at 2,048 tokens, an MFU of about 0.6 by
//     this count, and Llama 2's 184,320 A100-hours for 2 T tokens (7B)
//     about 0.4 over a whole run: AmpereMFU = 0.5.
//   - Hopper and later (H100, H800, H200, H20, B200) reach a smaller share
//     of a higher peak: torchtitan's Llama 3.1 8B on 8 × H100 (bf16,
//     compiled) 6,667 tokens/s per GPU, about 0.35; the Llama 3 herd
//     paper reports 0.38–0.43 for 405B on H100 (Table 4): HopperMFU = 0.4.
//   - Other GPUs: DefaultMFU = 0.4.
//   - Megatron-Core with Transformer Engine (Megatron-LM, NeMo) reaches
//     MegatronMFUScale times these: NeMo 24.07's Llama 2 7B on 8 × H100
//     in FP8, 16,934 tokens/s per GPU, is 1.47 times the table's figure
//     (fitted on that row; its other rows and Megatron-Bridge's are held
//     out).
const (
	MegatronMFUScale = 1.45
	AmpereMFU        = 0.5
	HopperMFU        = 0.4
	DefaultMFU       = 0.4
	// FP8TrainingSpeedup is how much faster FP8 training (FP8 GEMMs in
	// the linear layers; attention, norms and communication stay in 16
	// bits: Transformer Engine's recipes) runs than BF16 with the same
	// setup: torchtitan's Llama 3.1 8B on 8 × H100, 8,532 against 6,667
	// tokens/s per GPU (1.28), and llm-foundry's MPT-3B at 8,192 tokens,
	// 19,146 against 16,578 (1.15). Not the 2× of the peak figures.
	FP8TrainingSpeedup = 1.25
	// PipelineMicroBatchesPerStage is the micro-batches per step assumed
	// for a pipeline of p stages when Input.MicroBatches is not given: 4·p,
	// which keeps the bubble (p−1)/m under a quarter [Narayanan et al.
	// 2021, §2.2: the bubble is small when m ≫ p]. An assumption, not a
	// measured default.
	PipelineMicroBatchesPerStage = 4
)

// TrainingMFU is the MFU assumed for training on g (see AmpereMFU):
// by the GPU's catalog id.
func TrainingMFU(g GPU) float64 { return trainingMFU(g, Tuned) }

// trainingMFU is TrainingMFU for a training engine.
func trainingMFU(g GPU, e Engine) float64 {
	if e == Megatron {
		return MegatronMFUScale * trainingMFU(g, Tuned)
	}
	id := g.ID
	if len(id) >= 4 && (id[:4] == "a100" || id[:4] == "a800") {
		return AmpereMFU
	}
	for _, p := range [...]string{"h100", "h800", "h200", "h20-", "gh20", "b200", "gb20"} {
		if len(id) >= 4 && id[:4] == p {
			return HopperMFU
		}
	}
	return DefaultMFU
}

// trainSeconds is the training time of flops model FLOPs at mfu of g's
// BF16 peak on every GPU [TM101 "Compute Requirements": C = τT with
// τ = GPUs × actual FLOP/s], FP8TrainingSpeedup faster in fp8 when g
// computes fp8, and longer by the pipeline bubble: with p stages and m
// micro-batches per step, 1F1B idles (p−1)/(m+p−1) of the time, so the
// step takes (m+p−1)/m of its work; an interleaved schedule of v model
// chunks per stage divides the bubble by v [Narayanan et al. 2021 §2.2.1].
func trainSeconds(in Input, flops float64, g GPU, mfu float64) float64 {
	return finite(flops / trainRate(float64(in.GPUs), in.DType, g, mfu) * in.PipelineFactor())
}

// mfuFor is the MFU a training estimate assumes: in.MFU, or the table's
// for g and in's engine.
func mfuFor(in Input, g GPU) float64 {
	if in.MFU > 0 {
		return in.MFU
	}
	return trainingMFU(g, in.engine())
}

// trainRate is the model FLOP/s of gpus GPUs of type g training in d at
// mfu (0: TrainingMFU's): the BF16 peak at the MFU, FP8TrainingSpeedup
// faster in fp8 when g computes fp8. Zero when g's BF16 peak is unknown.
func trainRate(gpus float64, d DType, g GPU, mfu float64) float64 {
	if mfu == 0 {
		mfu = TrainingMFU(g)
	}
	rate := gpus * g.DenseBF16FLOPS * mfu
	if d == FP8 && g.DenseFP8FLOPS > 0 {
		rate *= FP8TrainingSpeedup
	}
	return rate
}

// PipelineFactor is how much longer a training step takes than its work
// because of the pipeline bubble (1 without pipeline parallelism): with
// p stages, m micro-batches and v interleaved chunks, 1 + (p−1)/(m·v).
func (in Input) PipelineFactor() float64 {
	p := float64(in.pp())
	if p <= 1 {
		return 1
	}
	return 1 + (p-1)/(float64(in.microBatches())*float64(max(in.Interleave, 1)))
}
