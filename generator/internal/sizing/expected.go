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
	var wRead, kvRead, gemm, attn float64
	if bw := g.BandwidthBytesPerSec * BandwidthEfficiency; bw > 0 {
		wRead = readBytes(in) / float64(in.TP) / bw
		kvRead = b * kvSequenceBytesPerGPU(in) * float64(in.pp()) / bw
	}
	if p := float64(in.TP*in.cp()) * peak * PrefillEfficiency; p > 0 {
		gemm = b * 2 * m.matmulParams() / p
		attn = b * decodeAttentionFLOPs(in) / p
	}
	step := math.Max(wRead, gemm) + math.Max(kvRead, attn) + float64(m.Layers)*LayerSeconds + tpSeconds(in, b, g)
	return finite(b / step)
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
