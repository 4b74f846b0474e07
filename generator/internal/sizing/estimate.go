package sizing

import "math"

// Breakdown is the memory needed on one GPU, by component, in bytes.
type Breakdown struct {
	// Weights is the (frozen or trained) model weights held on the GPU:
	// for ZeRO-3 the GPU's partition, for fp8 training including the FP8
	// working copy.
	Weights int64
	// KVCache is the attention key/value cache (inference only).
	KVCache int64
	// Activations is what the forward pass keeps for the backward pass
	// (training), or the forward working buffer (inference).
	Activations int64
	// Gradients is the gradient memory: of all weights for full training,
	// of the adapters for LoRA/QLoRA.
	Gradients int64
	// Optimizer is the optimizer state (including fp32 master weights in
	// mixed precision) on the GPU.
	Optimizer int64
	// Adapters is the LoRA/QLoRA adapter weights.
	Adapters int64
	// GatheredLayer is ZeRO-3's working buffer: the full (unpartitioned)
	// largest layer gathered for the computation, with its gradients for
	// full training [DSMEM: 4 × largest layer parameters in 16 bits].
	GatheredLayer int64
	// Overhead is the fixed CUDA context and framework cost, OverheadBytes.
	Overhead int64
}

// Total is the sum of the components, saturating at math.MaxInt64.
func (b Breakdown) Total() int64 {
	var t int64
	for _, x := range [...]int64{b.Weights, b.KVCache, b.Activations, b.Gradients, b.Optimizer, b.Adapters, b.GatheredLayer, b.Overhead} {
		t = satAdd(t, x)
	}
	return t
}

// Result is the answer to one sizing question.
type Result struct {
	// Breakdown is the per-GPU memory by component.
	Breakdown Breakdown
	// TotalPerGPU is the peak per-GPU memory: Breakdown.Total(), less
	// PagedOutBytes with a paged optimizer.
	TotalPerGPU int64
	// PagedOutBytes is, with a paged optimizer, what the peak does not need
	// of Breakdown.Total(): the optimizer states are evicted to CPU memory
	// during the forward and backward passes, and the activations are
	// freed before the optimizer step [QLoRA §3], so the peak is the larger
	// of the two phases. Zero otherwise.
	PagedOutBytes int64
	// TrainFLOPs is the total training compute for Input.Tokens tokens
	// (0 for inference).
	TrainFLOPs float64
	// TrainSeconds is the wall-clock training time at the given MFU (0 for
	// inference, when Tokens is 0, without a GPU, or when its FLOP/s is
	// unknown).
	TrainSeconds float64

	// PrefillFLOPs is the compute of one prompt's forward pass
	// (inference): PromptLen tokens through the active weights plus causal
	// attention, and the logits of the last position.
	PrefillFLOPs float64
	// TTFTSeconds is the roofline lower bound on the time to first token
	// of one request (inference, with a GPU): the larger of the prefill's
	// compute time at peak FLOP/s and the time to read the weights once.
	// Zero when the GPU's FLOP/s and bandwidth are unknown.
	TTFTSeconds float64
	// DecodeTokensPerSec is the roofline upper bound on decode throughput
	// of one model replica, summed over its Batch sequences at context
	// SeqLen (0 without a GPU or when nothing about its speed is known).
	DecodeTokensPerSec float64
	// DecodeComputeBound says the compute roofline, not the memory
	// bandwidth, sets DecodeTokensPerSec.
	DecodeComputeBound bool
	// ThroughputTokensPerSec is DecodeTokensPerSec times the data-parallel
	// replicas: the decode throughput of all GPUs.
	ThroughputTokensPerSec float64
	// TokensPerSecPerGPU is ThroughputTokensPerSec / GPUs.
	TokensPerSecPerGPU float64

	// KVBytesPerToken is the KV-cache size of one token for the whole model
	// (all layers, all KV heads or MLA latents) at Input.KVDType, for a
	// token inside every layer's window.
	KVBytesPerToken int64
	// AdapterParams is the number of LoRA parameters (0 for inference and
	// full training).
	AdapterParams int64
	// TP, PP and CP are the tensor-, pipeline- and context-parallel degrees
	// the estimate assumed, DataParallel the data-parallel degree
	// GPUs/(TP·PP·CP).
	TP, PP, CP   int
	DataParallel int
}

// satAdd adds two non-negative int64s, saturating at math.MaxInt64.
func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// toBytes rounds a non-negative byte count to an int64, mapping NaN and
// negative values to 0 and values past the int64 range to math.MaxInt64.
// It is not inlined: it is called in many places, and every inlined copy
// grows the WebAssembly build.
//
//go:noinline
func toBytes(x float64) int64 {
	if !(x > 0) {
		return 0
	}
	if x >= 9.2e18 {
		return math.MaxInt64
	}
	return int64(math.Round(x))
}

// finite maps NaN, ±Inf and negative values to 0 (they cannot arise from a
// validated input, but the guarantee is cheap to keep).
//
//go:noinline
func finite(x float64) float64 {
	if x > 0 && x <= math.MaxFloat64 {
		return x
	}
	return 0
}

// weightBytesPerParam is the storage cost of one weight [TM101 "Inference":
// fp32 4, fp16/bf16 2, int8 1 byte per parameter; QLoRA §3 for 4-bit NF4;
// the GPTQ/AWQ layout for grouped int4], for 4-bit weights in format q
// with GPTQ/AWQ group size g (0: DefaultGroupSize).
//
//go:noinline
func weightBytesPerParam(d DType, q Quant, g int) float64 {
	// In dtypeNames order: fp32 bf16 fp16 fp8 int8 int4.
	i := wordIndex(string(d), dtypeNames)
	if i < 0 {
		return HalfBytes
	}
	if i == 5 {
		return int4BitsPerParam(q, g) / 8
	}
	return [...]float64{FP32Bytes, HalfBytes, HalfBytes, ByteBytes, ByteBytes}[i]
}

// int4BitsPerParam is the storage cost in bits of one 4-bit weight with its
// quantization constants:
//
//   - NF4 with double quantization: 4 + 8/64 + 32/(64·256) = 4.127 bits
//     [QLoRA §3: blocks of 64 with 8-bit constants, second-level blocks of
//     256 with fp32 constants];
//   - NF4 with fp32 block constants: 4 + 32/64 = 4.5 bits (block size 64,
//     bitsandbytes' default without double quantization) [QLoRA §3];
//   - GPTQ / AWQ with group size g: 4 + (16 + 4)/g bits, one fp16 scale and
//     one 4-bit zero point per group of g input features (the qweight /
//     qzeros / scales layout of AutoGPTQ and AutoAWQ checkpoints, zero
//     points packed eight to an int32); 4.156 bits at g = 128.
func int4BitsPerParam(q Quant, g int) float64 {
	switch q {
	case NF4:
		return NF4PlainBitsPerParam
	case GPTQ, AWQ:
		if g <= 0 {
			g = DefaultGroupSize
		}
		return 4 + (16+4)/float64(g)
	}
	return NF4BitsPerParam
}

// kvBytesPerElement is the storage cost of one KV-cache element.
func kvBytesPerElement(d DType) float64 {
	if d == INT4 {
		return Int4KVBytes
	}
	return weightBytesPerParam(d, "", 0)
}

// optimizerBytesPerParam is the optimizer state per trained parameter
// [TM101 "Optimizer States"]: AdamW keeps momentum and variance in fp32
// (8 bytes), bitsandbytes' 8-bit AdamW keeps them in 8 bits (2 bytes), SGD
// with momentum keeps one fp32 buffer (4 bytes); the paged variants keep the
// same states in paged memory. With 16-bit weights (mixed precision) each
// adds a 4-byte fp32 master copy of the weights, giving TM101's 12, 6 and 8
// bytes per parameter; K = 12 in [ZeRO].
//
//go:noinline
func optimizerBytesPerParam(o Optimizer, master bool) float64 {
	var b float64
	switch o {
	case AdamW8bit, PagedAdamW8bit:
		b = 2
	case SGD:
		b = 4
	default:
		b = 8
	}
	if master {
		b += FP32Bytes
	}
	return b
}

// WeightBytes is the memory of params weights stored as d: params × bytes
// per parameter [TM101]; for int4 this includes NF4's double-quantized
// block constants [QLoRA]. For example 7 B parameters at fp16 take 14 GB.
// It quantizes every parameter; Estimate keeps the embeddings at 16 bits
// unless Input.QuantEmbeddings is set.
func WeightBytes(params int64, d DType) int64 {
	return toBytes(float64(params) * weightBytesPerParam(d, NF4DQ, 0))
}

// kvHeads returns the number of KV heads, defaulting to Heads.
func (m Model) kvHeads() int {
	if m.KVHeads > 0 {
		return m.KVHeads
	}
	return m.Heads
}

// headDim returns the (query/key) head dimension, defaulting to
// Hidden/Heads.
func (m Model) headDim() int {
	if m.HeadDim > 0 {
		return m.HeadDim
	}
	if m.Heads > 0 {
		return m.Hidden / m.Heads
	}
	return 0
}

// vHeadDim returns the value head dimension, defaulting to headDim.
func (m Model) vHeadDim() int {
	if m.VHeadDim > 0 {
		return m.VHeadDim
	}
	return m.headDim()
}

// mla reports whether the model uses multi-head latent attention.
func (m Model) mla() bool { return m.KVLoRARank > 0 }

// ffn returns the MLP width (per expert for MoE), defaulting to 4·Hidden.
func (m Model) ffn() int {
	if m.FFN > 0 {
		return m.FFN
	}
	return 4 * m.Hidden
}

// denseFFN returns the MLP width of an MoE model's dense layers.
func (m Model) denseFFN() int {
	if m.DenseFFN > 0 {
		return m.DenseFFN
	}
	return m.ffn()
}

// moeLayers is the number of MoE layers (0 for a dense model).
func (m Model) moeLayers() int {
	if m.Experts == 0 {
		return 0
	}
	return max(m.Layers-m.DenseLayers, 0)
}

// localLayers is the number of sliding-window layers.
func (m Model) localLayers() int {
	if m.SlidingWindow <= 0 {
		return 0
	}
	if m.LocalLayers > 0 {
		return m.LocalLayers
	}
	return m.Layers
}

// activeParams returns the per-token parameter count.
func (m Model) activeParams() int64 {
	if m.ActiveParams > 0 {
		return m.ActiveParams
	}
	return m.Params
}

// embedParams is the number of embedding parameters: the vocab×hidden input
// embedding and, unless tied, the output layer of the same shape.
func (m Model) embedParams() float64 {
	e := float64(m.Vocab) * float64(m.Hidden)
	if !m.TiedEmbeddings {
		e *= 2
	}
	return e
}

// mlpWidth is the MLP width one token passes through in the widest layer,
// for activation sizing: for MoE layers (routed top-k + shared experts) ×
// the expert width, for dense layers their width.
func (m Model) mlpWidth() float64 {
	if m.Experts == 0 {
		return float64(m.ffn())
	}
	k := 1
	if m.ExpertsPerToken > 0 {
		k = m.ExpertsPerToken
	}
	w := float64(k+m.SharedExperts) * float64(m.ffn())
	if m.DenseLayers > 0 && float64(m.denseFFN()) > w {
		w = float64(m.denseFFN())
	}
	return w
}

func (in Input) pp() int {
	if in.PP > 0 {
		return in.PP
	}
	return 1
}

func (in Input) cp() int {
	if in.CP > 0 {
		return in.CP
	}
	return 1
}

func (in Input) quant() Quant {
	if in.Quant == "" {
		return NF4DQ
	}
	return in.Quant
}

func (in Input) paged() bool {
	return in.Optimizer == PagedAdamW || in.Optimizer == PagedAdamW8bit
}

// quantized reports whether the weight format is one that keeps the
// embeddings at 16 bits by default (fp8, int8, int4).
func quantized(d DType) bool { return d == FP8 || d == INT8 || d == INT4 }

// weightBytes is the storage of params parameters of model m at the input's
// weight format: the embeddings (embed of the params) stay at 16 bits for a
// quantized format unless QuantEmbeddings is set [bitsandbytes keeps the
// output layer in 16 bits (llm_int8_skip_modules defaults to it) and never
// quantizes nn.Embedding; GPTQ, AWQ and vLLM's fp8 quantize only the linear
// layers of the blocks].
//
//go:noinline
func (in Input) weightBytes(params, embed float64) float64 {
	wb := weightBytesPerParam(in.DType, in.quant(), in.GroupSize)
	if !quantized(in.DType) || in.QuantEmbeddings {
		return params * wb
	}
	if embed > params {
		embed = params
	}
	return (params-embed)*wb + embed*HalfBytes
}

// KVBytesPerToken is the KV-cache size of one token for the whole model
// [vLLM §2.2/§4; the same count as Hugging Face's and vLLM's block
// allocators]: a key and a value vector per layer and KV head,
//
//	2 · layers · kv_heads · head_dim · bytes,
//
// or, with multi-head latent attention, the compressed latent and the
// decoupled RoPE key, layers · (kv_lora_rank + qk_rope_head_dim) · bytes
// [DSV2 §2.1.2–2.1.4, Table 1: (d_c + d_h^R)·l elements].
//
// For Llama-2-7B at fp16 that is 2·32·32·128·2 = 524,288 bytes (0.5 MiB);
// grouped-query attention divides it by heads/kv_heads; DeepSeek-V3's MLA
// stores 61·576·2 = 70,272 bytes.
func KVBytesPerToken(m Model, kv DType) int64 {
	return toBytes(kvElementsPerLayer(m, 0) * float64(m.Layers) * kvBytesPerElement(kv))
}

// kvElementsPerLayer is the KV elements one token adds to one layer on one
// GPU of a tp-wide tensor-parallel group (tp 0: the whole layer). GQA
// splits the KV heads over tp, replicating them when tp exceeds them (vLLM,
// Megatron-LM); MLA's latent is not split by heads and every rank keeps it
// whole (vLLM's MLA backend).
func kvElementsPerLayer(m Model, tp int) float64 {
	if m.mla() {
		return float64(m.KVLoRARank + m.QKRopeHeadDim)
	}
	kv := m.kvHeads()
	if tp > 1 {
		kv = (kv + tp - 1) / tp
	}
	return 2 * float64(kv) * float64(m.headDim())
}

// kvTokensPerSequence is the number of token entries one sequence of s
// tokens keeps over all layers: s in every global layer, min(s, window) in
// every sliding-window layer (a rolling buffer of the window [Mistral §2:
// "on a sequence length of 32k tokens, this reduces the cache memory usage
// by 8x"]).
func kvTokensPerSequence(m Model, s float64) float64 {
	loc := float64(m.localLayers())
	glob := float64(m.Layers) - loc
	w := s
	if m.SlidingWindow > 0 && float64(m.SlidingWindow) < s {
		w = float64(m.SlidingWindow)
	}
	return glob*s + loc*w
}

// kvSequenceBytesPerGPU is the KV cache of one sequence on one GPU: the
// layers of the largest pipeline stage (⌈L/p⌉ of L), the GPU's share of the
// heads, and with context parallelism its ⌈s/cp⌉ tokens.
//
//go:noinline
func kvSequenceBytesPerGPU(in Input) float64 {
	m := in.Model
	p := in.pp()
	stage := float64((m.Layers+p-1)/p) / float64(m.Layers)
	cp := in.cp()
	s := float64((in.SeqLen + cp - 1) / cp)
	return kvTokensPerSequence(m, s) * stage * kvElementsPerLayer(m, in.TP) * kvBytesPerElement(in.KVDType)
}

// LoRAParams is the number of adapter parameters for rank r on the given
// targets [LoRA §4.1]: a pair of matrices A (r×d_in) and B (d_out×r) per
// adapted d_in×d_out projection, r·(d_in + d_out) parameters, in every
// layer. The projection shapes are those of a Llama-style block:
//
//	q: h → a·d     k, v: h → kv·d     o: a·d → h
//	gate, up: h → ffn                 down: ffn → h
//
// with d the head dimension. With multi-head latent attention (DeepSeek)
// q adapts q_a_proj (h → q_lora_rank) and q_b_proj (q_lora_rank → a·d), or
// one h → a·d projection without q_lora_rank; k adapts kv_a_proj_with_mqa
// (h → kv_lora_rank + rope); v adapts kv_b_proj (kv_lora_rank →
// a·(d − rope + d_v)); o is a·d_v → h. For a mixture of experts, gate, up
// and down exist once per routed and shared expert in the MoE layers and
// once, DenseFFN wide, in the dense layers. Unknown target names count zero
// (Validate rejects them).
func LoRAParams(m Model, r int, targets []string) int64 {
	return toBytes(loraParams(m, r, targets))
}

//go:noinline
func loraParams(m Model, r int, targets []string) float64 {
	h := float64(m.Hidden)
	a := float64(m.Heads)
	d := float64(m.headDim())
	q, kv := a*d, float64(m.kvHeads())*d
	// d_in + d_out of q, k, v, o (loraTargetNames order).
	attn := [...]float64{h + q, h + kv, h + kv, q + h}
	if m.mla() {
		c, rope, dv := float64(m.KVLoRARank), float64(m.QKRopeHeadDim), float64(m.vHeadDim())
		attn[0] = h + q
		if m.QLoRARank > 0 {
			qr := float64(m.QLoRARank)
			attn[0] = h + qr + qr + q
		}
		attn[1] = h + c + rope
		attn[2] = c + a*(d-rope+dv)
		attn[3] = a*dv + h
	}
	// MLP projections per layer: experts·(h + ffn) summed over layers.
	layers := float64(m.Layers)
	mlp := layers * (h + float64(m.ffn()))
	if m.Experts > 0 {
		moe := float64(m.moeLayers())
		mlp = (layers-moe)*(h+float64(m.denseFFN())) + moe*float64(m.Experts+m.SharedExperts)*(h+float64(m.ffn()))
	}
	var total float64
	for _, t := range targets {
		if i := wordIndex(t, loraTargetWords); i >= 0 {
			if i < 4 {
				total += attn[i] * layers
			} else {
				total += mlp
			}
		}
	}
	return float64(r) * total
}

// largestLayerParams is the parameter count of the largest single module
// (an embedding or a linear layer), which ZeRO-3 gathers whole [DSMEM:
// largest_layer_params]: max(vocab·h, h·ffn, h·a·d) over the model's
// dense and expert MLP widths.
//
//go:noinline
func largestLayerParams(m Model) float64 {
	h := float64(m.Hidden)
	x := float64(m.Vocab) * h
	for _, y := range [...]float64{h * float64(m.ffn()), h * float64(m.denseFFN()), h * float64(m.Heads) * float64(m.headDim())} {
		if y > x {
			x = y
		}
	}
	return x
}

// ZeROModelStateBytes is the per-GPU model-state memory of mixed-precision
// training with ZeRO stage 0..3 over nd data-parallel GPUs [ZeRO §5,
// Figure 1], with K bytes of optimizer state per parameter:
//
//	stage 0 (baseline): (2 + 2 + K)·Ψ
//	stage 1 (Pos):      2Ψ + 2Ψ + K·Ψ/Nd
//	stage 2 (Pos+g):    2Ψ + (2 + K)·Ψ/Nd
//	stage 3 (Pos+g+p):  (2 + 2 + K)·Ψ/Nd
//
// The paper's example (Ψ = 7.5 B, Nd = 64, K = 12) gives 120 GB, 31.4 GB,
// 16.6 GB and 1.9 GB. Estimate applies the same rules per component, plus
// ZeRO-3's gathered layer and CPU offload.
func ZeROModelStateBytes(params int64, stage, nd int, k float64) int64 {
	if nd < 1 {
		nd = 1
	}
	p := float64(params)
	n := float64(nd)
	w, g, o := 2*p, 2*p, k*p
	if stage >= 1 {
		o /= n
	}
	if stage >= 2 {
		g /= n
	}
	if stage >= 3 {
		w /= n
	}
	return toBytes(finite(w + g + o))
}

// DeepSpeedZeRO2GPUBytes reproduces DeepSpeed's
// estimate_zero2_model_states_mem_needs GPU figure [DSMEM]: 2Ψ with CPU
// offload, otherwise 4Ψ + 16Ψ/total_gpus (fp16 weights and gradients, plus
// partitioned fp32 weights, fp32 gradients, momentum and variance). Estimate
// does not use it (see ModelStateBytesPerParam); the methodology page and the
// tests compare against it.
func DeepSpeedZeRO2GPUBytes(params int64, totalGPUs int, cpuOffload bool) int64 {
	if totalGPUs < 1 {
		totalGPUs = 1
	}
	p := float64(params)
	if cpuOffload {
		return toBytes(2 * p)
	}
	return toBytes(4*p + math.Floor(16*p/float64(totalGPUs)))
}

// DeepSpeedZeRO3GPUBytes reproduces DeepSpeed's
// estimate_zero3_model_states_mem_needs GPU figure [DSMEM]: the gathered
// largest layer (4 bytes per parameter: fp16 weights and gradients) plus
// nothing with parameter offload, 2Ψ/total_gpus with optimizer offload only,
// and 18Ψ/total_gpus without offload. The largest layer is charged whatever
// the GPU count: the layer being computed must be resident.
func DeepSpeedZeRO3GPUBytes(params, largestLayerParams int64, totalGPUs int, offloadOptimizer, offloadParams bool) int64 {
	if totalGPUs < 1 {
		totalGPUs = 1
	}
	p := float64(params)
	n := float64(totalGPUs)
	largest := 4 * float64(largestLayerParams)
	switch {
	case offloadOptimizer && offloadParams:
		return toBytes(largest)
	case offloadOptimizer:
		return toBytes(largest + math.Floor(2*p/n))
	default:
		return toBytes(largest + math.Floor(18*p/n))
	}
}

// Estimate sizes one configuration. It validates in (and gpu when not nil)
// and returns the per-GPU memory breakdown, training compute and, given a
// GPU, speed figures: decode throughput and time to first token for
// inference, training time for training.
//
// Memory per GPU, with t = TP, p = PP, c = CP, Nd = GPUs/(t·p·c) the
// data-parallel degree and Ψ = Params/(t·p) the model-parallel shard:
//
// Inference: weights Ψ·bytes(DType), with the embeddings at 16 bits for a
// quantized format (see weightBytes); KV cache batch × the per-GPU KV of
// one sequence (see kvSequenceBytesPerGPU: sliding windows, MLA, heads per
// TP rank, ⌈L/p⌉ layers, ⌈s/c⌉ tokens); activations: a working buffer (see
// inferenceActivations); overhead. ZeRO, offload, optimizer and
// checkpointing are ignored.
//
// Full training [ZeRO]: weights Ψ·w (÷Nd·c at stage 3), gradients Ψ·w (÷Nd·c
// from stage 2), optimizer Ψ·K (÷Nd·c from stage 1), with w = 2 and K = 12
// for 16-bit AdamW (w = 4, K = 8 in fp32; K = 8 without a master copy;
// other optimizers: see optimizerBytesPerParam). Context-parallel ranks
// share the optimizer partitioning with the data-parallel ones, as in
// Megatron-LM's distributed optimizer. FP8 training keeps 16-bit weights
// and gradients and the fp32 master copy, and adds a 1-byte FP8 copy of the
// weights that the GEMMs use [TE]. ZeRO-3 holds the largest layer gathered
// whole (its weights and, for full training, gradients) whenever the
// parameters are partitioned or offloaded: with Nd > 1, or with parameter
// offload even on one GPU [DSMEM]; it is reported as GatheredLayer.
// Optimizer offload moves the optimizer states, and from stage 2 the
// gradient partitions, to the CPU [DSMEM: ZeRO-2 with offload needs 2Ψ on
// the GPU]; full offload also moves the weight partitions (stage 3).
//
// LoRA/QLoRA: frozen base weights as for inference (NF4 for QLoRA), no base
// gradients or optimizer states; adapter parameters A = LoRAParams/(t·p) at
// bf16 (Adapters), their bf16 gradients (Gradients) and optimizer states
// with an fp32 master copy unless NoMaster, 12 bytes per parameter for
// AdamW (Optimizer), sharded by the same ZeRO rules. (PEFT's default of fp32
// adapters costs the same 16 bytes per parameter: 4 + 4 + 8.)
//
// Training activations: see trainingActivations [Korthikanti].
//
// A paged optimizer (PagedAdamW, PagedAdamW8bit) changes the peak, not the
// breakdown: see Result.PagedOutBytes.
//
// Overhead is OverheadBytes on every GPU.
func Estimate(in Input, gpu *GPU) (Result, error) {
	if err := in.Validate(); err != nil {
		return Result{}, err
	}
	if gpu != nil {
		if err := gpu.Validate(); err != nil {
			return Result{}, err
		}
	}
	m := in.Model
	tp := float64(in.TP)
	pp := float64(in.pp())
	dpInt := in.GPUs / (in.TP * in.pp() * in.cp())
	dp := float64(dpInt)
	mp := tp * pp

	var b Breakdown
	var res Result
	res.TP, res.PP, res.CP, res.DataParallel = in.TP, in.pp(), in.cp(), dpInt
	res.KVBytesPerToken = KVBytesPerToken(m, in.KVDType)
	b.Overhead = OverheadBytes

	switch in.Workload {
	case Inference:
		b.Weights = toBytes(in.weightBytes(float64(m.Params), m.embedParams()) / mp)
		b.KVCache = toBytes(float64(in.Batch) * kvSequenceBytesPerGPU(in))
		b.Activations = toBytes(inferenceActivations(in))

	default: // full, lora, qlora
		// ZeRO partitioning divisors over the data-parallel (and
		// context-parallel) ranks: stage ≥ 1 shards the optimizer states,
		// ≥ 2 the gradients, 3 the weights [ZeRO §5].
		shards := dp * float64(in.cp())
		d1, d2, d3 := 1.0, 1.0, 1.0
		if in.ZeRO >= 1 {
			d1 = shards
		}
		if in.ZeRO >= 2 {
			d2 = shards
		}
		if in.ZeRO >= 3 {
			d3 = shards
		}
		// The trained parameters: all weights for full training, in the
		// training precision with gradients in the same precision [ZeRO
		// §3.1; TM101]; the adapters for LoRA, at bf16 with bf16 gradients
		// and an fp32 master copy. The frozen LoRA base has no gradients or
		// optimizer states.
		lora := in.Workload != FullTraining
		shard := float64(m.Params) / mp
		trained, tb, frozen := shard, HalfBytes, 0.0
		fp8Copy := 0.0
		switch in.DType {
		case FP32:
			tb = FP32Bytes
		case FP8:
			// FP8 training: 16-bit weights and gradients, the fp32 master
			// copy, plus the FP8 cast of the weights [TE; DSV3 §3.3].
			fp8Copy = shard * ByteBytes
		}
		master := in.DType != FP32 && !in.NoMaster
		if lora {
			a := loraParams(m, in.LoRARank, in.LoRATargets)
			res.AdapterParams = toBytes(a)
			trained, tb, frozen = a/mp, HalfBytes, in.weightBytes(float64(m.Params), m.embedParams())/mp
			fp8Copy = 0
		}
		params := trained * tb / d3
		base := frozen / d3
		grads := trained * tb / d2
		opt := trained * optimizerBytesPerParam(in.Optimizer, master) / d1
		if in.Offload != NoOffload {
			opt = 0
			if in.ZeRO >= 2 {
				grads = 0
			}
		}
		if in.Offload == OffloadFull {
			params, base = 0, 0
		}
		if in.ZeRO == 3 && (dpInt*in.cp() > 1 || in.Offload == OffloadFull) {
			// The gathered largest layer: its 16-bit weights, and for full
			// training its gradients [DSMEM: largest_layer_memory =
			// 4·largest_layer_params].
			largest := largestLayerParams(m) / tp
			g := largest * weightBytesPerParam(in.DType, in.quant(), in.GroupSize)
			if !lora {
				g = largest * tb * 2
			}
			b.GatheredLayer = toBytes(g)
		}
		if lora {
			b.Adapters = toBytes(params)
		} else {
			base += params
		}
		b.Weights = toBytes(base + fp8Copy/d3)
		b.Gradients = toBytes(grads)
		b.Optimizer = toBytes(opt)
		b.Activations = toBytes(trainingActivations(in))
	}

	res.Breakdown = b
	res.TotalPerGPU = b.Total()
	if in.Workload != Inference && in.paged() {
		// Optimizer states are paged out while activations are live, and
		// activations are freed before the optimizer step [QLoRA §3].
		peak := max(res.TotalPerGPU-b.Optimizer, res.TotalPerGPU-b.Activations)
		res.PagedOutBytes = res.TotalPerGPU - peak
		res.TotalPerGPU = peak
	}
	res.TrainFLOPs = trainFLOPs(in)
	if in.Workload == Inference {
		res.PrefillFLOPs = prefillFLOPs(in)
	}
	if gpu != nil {
		peak := peakFLOPS(in.DType, *gpu)
		if in.Workload == Inference {
			res.DecodeTokensPerSec, res.DecodeComputeBound = decodeTokensPerSec(in, gpu.BandwidthBytesPerSec, peak)
			res.ThroughputTokensPerSec = finite(res.DecodeTokensPerSec * dp)
			res.TokensPerSecPerGPU = finite(res.ThroughputTokensPerSec / float64(in.GPUs))
			res.TTFTSeconds = ttftSeconds(in, res.PrefillFLOPs, gpu.BandwidthBytesPerSec, peak)
		}
		if res.TrainFLOPs > 0 && peak > 0 {
			// T = C / (GPUs · FLOP/s · MFU) [TM101 "Compute Requirements":
			// C = τT with τ = GPUs × actual FLOP/s].
			res.TrainSeconds = finite(res.TrainFLOPs / (float64(in.GPUs) * peak * in.MFU))
		}
	}
	return res, nil
}

// peakFLOPS is the dense tensor throughput the computation runs at: FP8
// for fp8 weights (W8A8 inference, FP8 training) when the GPU's FP8 figure
// is known, else BF16 (weight-only int8/int4 formats dequantize to 16 bits
// for the matrix multiplications).
func peakFLOPS(d DType, g GPU) float64 {
	if d == FP8 && g.DenseFP8FLOPS > 0 {
		return g.DenseFP8FLOPS
	}
	return g.DenseBF16FLOPS
}

// activationScale is the activation size relative to the 16-bit activations
// that Korthikanti et al. assume: 2 for fp32 compute, else 1 (quantized
// bases compute in 16 bits).
func activationScale(d DType) float64 {
	if d == FP32 {
		return 2
	}
	return 1
}

// inferenceActivations is the forward working buffer of an inference
// engine, a documented approximation rather than a published formula: the
// live tensors of one MLP block for the tokens of one forward pass (the
// residual stream and its normalised copy, 2h, plus the gate, up and product
// tensors of a gated MLP, 3·width/t with width the MLP width a token passes
// through: routed and shared experts for MoE), in 16 bits, with at most
// PrefillChunkTokens tokens per pass (chunked prefill); without
// FlashAttention also the score and softmax matrices of those tokens
// against the whole context, 2·tokens·seq·a/t elements [Korthikanti §4.1:
// the 5as²b term comes from these matrices; Flash]; plus fp32 logits for the
// last position of each sequence, batch·vocab·4 bytes. Context parallelism
// divides the tokens per GPU.
func inferenceActivations(in Input) float64 {
	m := in.Model
	tp := float64(in.TP)
	ab := HalfBytes * activationScale(in.DType)
	tokens := float64(in.Batch) * float64(in.SeqLen) / float64(in.cp())
	if tokens > PrefillChunkTokens {
		tokens = PrefillChunkTokens
	}
	x := tokens * (2*float64(m.Hidden) + 3*m.mlpWidth()/tp) * ab
	if !in.Flash {
		x += 2 * tokens * float64(in.SeqLen) * float64(m.Heads) / tp * ab
	}
	x += float64(in.Batch) * float64(m.Vocab) * FP32Bytes
	return finite(x)
}

// trainingActivations is the activation memory of one micro-batch on one
// GPU [Korthikanti §4]. Per transformer layer with 16-bit activations,
// sequence s, micro-batch b, width h, heads a and tensor parallelism t
// without sequence parallelism (their eq. 2; the conservative choice, as
// the LayerNorm and dropout terms are then not split):
//
//	s·b·h·(10 + 24/t + 5·a·s/(h·t))    bytes,
//
// which is s·b·h·(34 + 5·a·s/h) at t = 1 (their eq. 1); with sequence
// parallelism s·b·h·(34/t + 5·a·s/(h·t)) (their eq. 4). FlashAttention
// drops the 5·a·s/h term (the attention scores, softmax output and dropout
// mask are never stored) [Flash]. Of the 24/t, 16/t are the MLP's, derived
// for a 4h-wide MLP; they are scaled by the MLP width a token passes through
// over 4h (for MoE: routed top-k plus shared experts times the expert width,
// or the dense layers' width if larger).
//
// Recomputation [Korthikanti §5]: selective recomputation also drops the
// 5·a·s/h term; full recomputation keeps only each layer's input, 2·s·b·h
// bytes per layer, plus one layer's full activations while it is recomputed.
// All L layers count even with pipeline parallelism: under the 1F1B
// schedule the first stage holds p micro-batches of L/p layers [Korthikanti
// §4.2.3]. Context parallelism splits the sequence: s/cp tokens per GPU
// (the attention-score term keeps the whole key length s). The output layer
// adds 4·s·b·h·(1 + v/h)/t bytes (final norm, logits and fp32
// cross-entropy) [Korthikanti §4.3]. fp32 compute doubles everything.
func trainingActivations(in Input) float64 {
	m := in.Model
	s := float64(in.SeqLen) / float64(in.cp())
	b := float64(in.Batch)
	h := float64(m.Hidden)
	a := float64(m.Heads)
	t := float64(in.TP)
	l := float64(m.Layers)
	mlp := 16 * m.mlpWidth() / (4 * h)
	sbh := s * b * h

	stored := 10 + (8+mlp)/t // per s·b·h, without the attention-score term
	if in.SequenceParallel {
		stored = (10 + 8 + mlp) / t
	}
	scores := 0.0
	if !in.Flash {
		scores = 5 * a * float64(in.SeqLen) / (h * t)
	}
	layer := sbh * (stored + scores)
	var total float64
	switch in.Checkpointing {
	case SelectiveCheckpointing:
		total = l * sbh * stored
	case FullCheckpointing:
		total = l*2*sbh + layer
	default:
		total = l * layer
	}
	total += 4 * s * b * (h + float64(m.Vocab)) / t
	return finite(total * activationScale(in.DType))
}

// trainFLOPs is the training compute for Tokens tokens, with N the active
// parameters and D the tokens [TM101: C ≈ 6·P·D = 2PD forward + 4PD
// backward; Kaplan et al. 2020]:
//
//   - full training: 6·N·D;
//   - full recomputation repeats the forward pass: 8·N·D [Korthikanti §5];
//   - selective recomputation without FlashAttention repeats the attention
//     core's forward matmuls, QKᵀ and scores·V, 4·s·h·L FLOPs per token
//     [Korthikanti §5]; with FlashAttention it adds nothing (the kernel
//     already recomputes them);
//   - LoRA/QLoRA: the frozen base needs the forward pass and the backward
//     pass for activation gradients but not for weight gradients, 2·N·D +
//     2·N·D = 4·N·D (+2·N·D with full recomputation), plus 6·A·D for the A
//     adapter parameters;
//   - inference: 0.
func trainFLOPs(in Input) float64 {
	if in.Workload == Inference || in.Tokens <= 0 {
		return 0
	}
	m := in.Model
	n := float64(m.activeParams())
	d := in.Tokens
	perParam := 6.0
	if in.Workload != FullTraining {
		perParam = 4
	}
	c := perParam * n * d
	switch in.Checkpointing {
	case FullCheckpointing:
		c += 2 * n * d
	case SelectiveCheckpointing:
		if !in.Flash {
			c += 4 * float64(in.SeqLen) * float64(m.Hidden) * float64(m.Layers) * d
		}
	}
	if in.Workload == LoRA || in.Workload == QLoRA {
		c += 6 * loraParams(m, in.LoRARank, in.LoRATargets) * d
	}
	return finite(c)
}

// matmulParams is the number of active parameters a token multiplies by
// (2 FLOPs each [Kaplan Table 1: C_forward ≈ 2N]): the active parameters
// without the input embedding table, which is looked up, not multiplied
// (with tied embeddings the one matrix is the output layer).
func (m Model) matmulParams() float64 {
	n := float64(m.activeParams())
	if !m.TiedEmbeddings {
		n -= float64(m.Vocab) * float64(m.Hidden)
	}
	if n < 0 {
		return 0
	}
	return n
}

// attendedKeys is Σ over the n query positions of a causal sequence of the
// number of keys each attends to in one layer: n(n+1)/2 for global
// attention, and with a window w, Σ min(i, w).
func attendedKeys(n, w float64) float64 {
	if w <= 0 || n <= w {
		return n * (n + 1) / 2
	}
	return w*(w+1)/2 + (n-w)*w
}

// prefillFLOPs is the compute of one prompt of P tokens (PromptLen, else
// SeqLen): 2 FLOPs per matmul parameter per token for every layer (the
// weights without the embedding lookup and the output layer), the output
// layer for the last position only (serving engines compute the logits of
// the position they sample), and causal attention: per layer and head,
// QKᵀ and scores·V cost 2·(d_qk + d_v) FLOPs per attended key [Chinchilla
// Appendix F counts 2·seq·seq·key_size·heads for each of the two; a causal
// kernel computes only the lower triangle], summed over the keys each
// position attends to (see attendedKeys). MoE layers count their active
// experts (ActiveParams).
func prefillFLOPs(in Input) float64 {
	m := in.Model
	p := float64(in.PromptLen)
	if p <= 0 {
		p = float64(in.SeqLen)
	}
	out := float64(m.Vocab) * float64(m.Hidden)
	body := m.matmulParams() - out
	if body < 0 {
		body = 0
	}
	loc := float64(m.localLayers())
	glob := float64(m.Layers) - loc
	keys := glob*attendedKeys(p, 0) + loc*attendedKeys(p, float64(m.SlidingWindow))
	attn := 2 * float64(m.Heads) * float64(m.headDim()+m.vHeadDim()) * keys
	return finite(2*body*p + 2*out + attn)
}

// ttftSeconds is the roofline lower bound on the time to first token of
// one request: the prefill is compute-bound for long prompts and bounded
// by reading the weights once for short ones, so
//
//	TTFT ≥ max(prefill FLOPs / (t·c · peak FLOP/s), weight bytes / (t · bandwidth))
//
// [the roofline model, Williams et al. 2009, as applied to LLM inference by
// kipply's "Transformer Inference Arithmetic" and Databricks' "LLM Inference
// Performance Engineering"]. Pipeline stages run one after another for one
// request, so they add no speed; tensor (and context) parallel ranks share
// the work. Real engines reach a fraction of the bound (see the
// methodology page's measured comparison). Zero when neither the FLOP/s
// nor the bandwidth is known.
func ttftSeconds(in Input, flops, bandwidth, peak float64) float64 {
	var t float64
	if peak > 0 {
		t = flops / (float64(in.TP*in.cp()) * peak)
	}
	if bandwidth > 0 {
		if w := readBytes(in) / (float64(in.TP) * bandwidth); w > t {
			t = w
		}
	}
	return finite(t)
}

// readBytes is the weight bytes one forward step reads: the active weights
// at their storage format, without the input embedding table (only the
// rows of the step's tokens are read; with tied embeddings the one matrix
// is read as the output layer).
//
//go:noinline
func readBytes(in Input) float64 {
	m := in.Model
	read := in.weightBytes(float64(m.activeParams()), m.embedParams())
	if !m.TiedEmbeddings {
		read -= float64(m.Vocab) * float64(m.Hidden) * embedBytes(in)
	}
	return finite(read)
}

// decodeTokensPerSec is the roofline upper bound on decode throughput of
// one replica [TM101; kipply's "Transformer Inference Arithmetic":
// at small batch a decode step is bound by reading the weights and the KV
// cache once, at large batch by compute]. One decode step of the batch
// reads, on each GPU of the tensor-parallel group and for every pipeline
// stage in turn, the active weights (without the input embedding table,
// which is only indexed) and the KV cache of all batch sequences at the
// context SeqLen; it computes 2 FLOPs per matmul parameter per sequence
// plus attention over the cached keys (with MLA the absorbed form of
// DeepSeek-V2 §2.1.2, attending in the latent space: 2·(2·d_c + d_h^R)
// FLOPs per head and key). So
//
//	step = max(bytes read / bandwidth, FLOPs / (t·c · peak FLOP/s))
//	tokens/s = batch / step.
//
// It ignores kernel launch, communication and scheduling time, and for a
// mixture of experts the extra experts a batch touches. Zero when neither
// bound is known.
func decodeTokensPerSec(in Input, bandwidth, peak float64) (float64, bool) {
	m := in.Model
	var mem, comp float64
	if bandwidth > 0 {
		kv := float64(in.Batch) * kvSequenceBytesPerGPU(in) * float64(in.pp())
		mem = (readBytes(in)/float64(in.TP) + kv) / bandwidth
	}
	if peak > 0 {
		s := float64(in.SeqLen)
		loc := float64(m.localLayers())
		keys := (float64(m.Layers)-loc)*s + loc*math.Min(s, windowOr(m, s))
		perKey := 2 * float64(m.headDim()+m.vHeadDim())
		if m.mla() {
			perKey = 2 * float64(2*m.KVLoRARank+m.QKRopeHeadDim)
		}
		flops := float64(in.Batch) * (2*m.matmulParams() + float64(m.Heads)*perKey*keys)
		comp = flops / (float64(in.TP*in.cp()) * peak)
	}
	step := math.Max(mem, comp)
	if !(step > 0) {
		return 0, false
	}
	return finite(float64(in.Batch) / step), comp > mem
}

// windowOr returns the sliding window, or s without one.
func windowOr(m Model, s float64) float64 {
	if m.SlidingWindow > 0 {
		return float64(m.SlidingWindow)
	}
	return s
}

// embedBytes is the storage of one embedding parameter at the input's
// format (16 bits for a quantized format unless QuantEmbeddings).
func embedBytes(in Input) float64 {
	if quantized(in.DType) && !in.QuantEmbeddings {
		return HalfBytes
	}
	return weightBytesPerParam(in.DType, in.quant(), in.GroupSize)
}

// UsableBytes is the memory a configuration may use on g: the device
// memory minus a reserve of max(ReserveFraction·memory, MinReserveBytes)
// for allocator fragmentation and driver/display memory (see
// UsableMemoryRationale). It is never negative.
func UsableBytes(g GPU) int64 {
	if g.MemoryBytes <= 0 {
		return 0
	}
	reserve := toBytes(float64(g.MemoryBytes) * ReserveFraction)
	if reserve < MinReserveBytes {
		reserve = MinReserveBytes
	}
	if reserve >= g.MemoryBytes {
		return 0
	}
	return g.MemoryBytes - reserve
}

// Fits reports whether r's per-GPU total fits in g's usable memory.
func Fits(r Result, g GPU) bool {
	u := UsableBytes(g)
	return u > 0 && r.TotalPerGPU <= u
}

// CostPerMillionTokens is the price of generating one million output
// tokens on an instance of instanceGPUs GPUs at pricePerHour, when one
// replica of the model needs replicaGPUs of them and decodes tokensPerSec
// (DecodeTokensPerSec of that layout): the instance runs
// ⌊instanceGPUs/replicaGPUs⌋ replicas, so
//
//	cost = price per hour / (replicas · tokens/s · 3600) · 10⁶.
//
// Zero when the instance holds no replica or the speed is unknown. With the
// roofline bound for the speed it is a lower bound on the cost.
func CostPerMillionTokens(tokensPerSec float64, replicaGPUs, instanceGPUs int, pricePerHour float64) float64 {
	if replicaGPUs < 1 || instanceGPUs < replicaGPUs || !(tokensPerSec > 0) || !(pricePerHour > 0) {
		return 0
	}
	replicas := float64(instanceGPUs / replicaGPUs)
	return finite(pricePerHour / (replicas * tokensPerSec * 3600) * 1e6)
}
