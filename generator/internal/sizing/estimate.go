package sizing

import "math"

// Breakdown is the memory needed on one GPU, by component, in bytes.
type Breakdown struct {
	// Weights is the (frozen or trained) model weights held on the GPU,
	// including ZeRO-3's gathered working copy of the largest layer.
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
	// Overhead is the fixed CUDA context and framework cost, OverheadBytes.
	Overhead int64
}

// Total is the sum of the components, saturating at math.MaxInt64.
func (b Breakdown) Total() int64 {
	var t int64
	for _, x := range [...]int64{b.Weights, b.KVCache, b.Activations, b.Gradients, b.Optimizer, b.Adapters, b.Overhead} {
		t = satAdd(t, x)
	}
	return t
}

// Result is the answer to one sizing question.
type Result struct {
	// Breakdown is the per-GPU memory by component.
	Breakdown Breakdown
	// TotalPerGPU is Breakdown.Total().
	TotalPerGPU int64
	// TrainFLOPs is the total training compute for Input.Tokens tokens
	// (0 for inference).
	TrainFLOPs float64
	// DecodeTokensPerSec is the memory-bandwidth bound on decode throughput
	// summed over the batch (0 without a GPU or a known bandwidth).
	DecodeTokensPerSec float64
	// TrainSeconds is the wall-clock training time at the given MFU (0 for
	// inference, when Tokens is 0, without a GPU, or when its FLOP/s is
	// unknown).
	TrainSeconds float64
	// KVBytesPerToken is the KV-cache size of one token for the whole model
	// (all layers, all KV heads) at Input.KVDType.
	KVBytesPerToken int64
	// AdapterParams is the number of LoRA parameters (0 for inference and
	// full training).
	AdapterParams int64
	// DataParallel is the data-parallel degree GPUs/(TP·PP).
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
// fp32 4, fp16/bf16 2, int8 1 byte per parameter; QLoRA §3 for 4-bit].
//
//go:noinline
func weightBytesPerParam(d DType) float64 {
	// In dtypeNames order: fp32 bf16 fp16 fp8 int8 int4.
	if i := wordIndex(string(d), dtypeNames); i >= 0 {
		return [...]float64{FP32Bytes, HalfBytes, HalfBytes, ByteBytes, ByteBytes, NF4BytesPerParam}[i]
	}
	return HalfBytes
}

// kvBytesPerElement is the storage cost of one KV-cache element.
func kvBytesPerElement(d DType) float64 {
	if d == INT4 {
		return Int4KVBytes
	}
	return weightBytesPerParam(d)
}

// optimizerBytesPerParam is the optimizer state per trained parameter
// [TM101 "Optimizer States"]: AdamW keeps momentum and variance in fp32
// (8 bytes), bitsandbytes' 8-bit AdamW keeps them in 8 bits (2 bytes), SGD
// with momentum keeps one fp32 buffer (4 bytes). With 16-bit weights
// (mixed precision) each adds a 4-byte fp32 master copy of the weights,
// giving TM101's 12, 6 and 8 bytes per parameter; K = 12 in [ZeRO].
//
//go:noinline
func optimizerBytesPerParam(o Optimizer, master bool) float64 {
	var b float64
	switch o {
	case AdamW8bit:
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
func WeightBytes(params int64, d DType) int64 {
	return toBytes(float64(params) * weightBytesPerParam(d))
}

// kvHeads returns the number of KV heads, defaulting to Heads.
func (m Model) kvHeads() int {
	if m.KVHeads > 0 {
		return m.KVHeads
	}
	return m.Heads
}

// headDim returns the head dimension, defaulting to Hidden/Heads.
func (m Model) headDim() int {
	if m.HeadDim > 0 {
		return m.HeadDim
	}
	if m.Heads > 0 {
		return m.Hidden / m.Heads
	}
	return 0
}

// ffn returns the MLP width, defaulting to 4·Hidden.
func (m Model) ffn() int {
	if m.FFN > 0 {
		return m.FFN
	}
	return 4 * m.Hidden
}

// activeParams returns the per-token parameter count.
func (m Model) activeParams() int64 {
	if m.ActiveParams > 0 {
		return m.ActiveParams
	}
	return m.Params
}

// routedExperts is the number of expert MLPs each token passes through (1
// for a dense model).
func (m Model) routedExperts() int {
	if m.Experts > 0 && m.ExpertsPerToken > 0 {
		return m.ExpertsPerToken
	}
	return 1
}

func (in Input) pp() int {
	if in.PP > 0 {
		return in.PP
	}
	return 1
}

// KVBytesPerToken is the KV-cache size of one token for the whole model
// [vLLM §2.2/§4; the same count as Hugging Face's and vLLM's block
// allocators]: a key and a value vector per layer and KV head,
//
//	2 · layers · kv_heads · head_dim · bytes.
//
// For Llama-2-7B at fp16 that is 2·32·32·128·2 = 524,288 bytes (0.5 MiB);
// grouped-query attention divides it by heads/kv_heads.
func KVBytesPerToken(m Model, kv DType) int64 {
	return toBytes(kvPerToken(m, kv))
}

func kvPerToken(m Model, kv DType) float64 {
	return 2 * float64(m.Layers) * float64(m.kvHeads()) * float64(m.headDim()) * kvBytesPerElement(kv)
}

// LoRAParams is the number of adapter parameters for rank r on the given
// targets [LoRA §4.1]: a pair of matrices A (r×d_in) and B (d_out×r) per
// adapted d_in×d_out projection, r·(d_in + d_out) parameters, in every
// layer. The projection shapes are those of a Llama-style block:
//
//	q: h → a·d     k, v: h → kv·d     o: a·d → h
//	gate, up: h → ffn                 down: ffn → h
//
// with d the head dimension. For a mixture of experts, gate, up and down
// exist once per expert. Unknown target names count zero (Validate rejects
// them).
func LoRAParams(m Model, r int, targets []string) int64 {
	return toBytes(loraParams(m, r, targets))
}

//go:noinline
func loraParams(m Model, r int, targets []string) float64 {
	h := float64(m.Hidden)
	q := float64(m.Heads) * float64(m.headDim())
	kv := float64(m.kvHeads()) * float64(m.headDim())
	f := float64(m.ffn())
	experts := 1.0
	if m.Experts > 0 {
		experts = float64(m.Experts)
	}
	// d_in and d_out of q, k, v, o, gate, up, down (loraTargetNames order).
	din := [...]float64{h, h, h, q, h, h, f}
	dout := [...]float64{q, kv, kv, h, f, f, h}
	var perLayer float64
	for _, t := range targets {
		if i := wordIndex(t, loraTargetWords); i >= 0 {
			x := din[i] + dout[i]
			if i >= 4 {
				x *= experts
			}
			perLayer += x
		}
	}
	return float64(r) * perLayer * float64(m.Layers)
}

// largestLayerParams is the parameter count of the largest single module
// (an embedding or a linear layer), which ZeRO-3 gathers whole [DSMEM:
// largest_layer_params]: max(vocab·h, h·ffn, h·a·d).
//
//go:noinline
func largestLayerParams(m Model) float64 {
	h := float64(m.Hidden)
	x := float64(m.Vocab) * h
	if y := h * float64(m.ffn()); y > x {
		x = y
	}
	if y := h * float64(m.Heads) * float64(m.headDim()); y > x {
		x = y
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
// and 18Ψ/total_gpus without offload.
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
// GPU, decode speed and training time.
//
// Memory per GPU, with t = TP, p = PP, Nd = GPUs/(t·p) the data-parallel
// degree and Ψ = Params/(t·p) the model-parallel shard:
//
// Inference: weights Ψ·bytes(DType); KV cache batch · seq · KV bytes per
// token on this GPU (layers/p, max(kv_heads/t, 1) heads: KV heads are
// replicated when t exceeds them); activations: a working buffer (see
// inferenceActivations); overhead. ZeRO, offload, optimizer and
// checkpointing are ignored.
//
// Full training [ZeRO]: weights Ψ·w (÷Nd at stage 3), gradients Ψ·w (÷Nd
// from stage 2), optimizer Ψ·K (÷Nd from stage 1), with w = 2 and K = 12
// for 16-bit AdamW (w = 4, K = 8 in fp32; other optimizers: see
// optimizerBytesPerParam). Stage 3 with Nd > 1 also holds the largest layer
// gathered (its weights and gradients, [DSMEM]); with Nd = 1 there is
// nothing to gather. Optimizer offload moves the optimizer states, and from
// stage 2 the gradient partitions, to the CPU [DSMEM: ZeRO-2 with offload
// needs 2Ψ on the GPU]; full offload also moves the weight partitions
// (stage 3).
//
// LoRA/QLoRA: frozen base weights Ψ·bytes(DType) (NF4 for QLoRA), no base
// gradients or optimizer states; adapter parameters A = LoRAParams/(t·p) at
// bf16 (Adapters), their bf16 gradients (Gradients) and optimizer states
// with an fp32 master copy, 12 bytes per parameter for AdamW (Optimizer),
// sharded by the same ZeRO rules. (PEFT's default of fp32 adapters costs the
// same 16 bytes per parameter: 4 + 4 + 8.)
//
// Training activations: see trainingActivations [Korthikanti].
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
	dpInt := in.GPUs / (in.TP * in.pp())
	dp := float64(dpInt)
	shard := float64(m.Params) / (tp * pp)
	wb := weightBytesPerParam(in.DType)

	var b Breakdown
	var res Result
	res.DataParallel = dpInt
	res.KVBytesPerToken = KVBytesPerToken(m, in.KVDType)
	b.Overhead = OverheadBytes

	switch in.Workload {
	case Inference:
		b.Weights = toBytes(shard * wb)
		b.KVCache = toBytes(float64(in.Batch) * float64(in.SeqLen) * kvPerTokenPerGPU(in))
		b.Activations = toBytes(inferenceActivations(in))

	default: // full, lora, qlora
		// ZeRO partitioning divisors: stage ≥ 1 shards the optimizer
		// states, ≥ 2 the gradients, 3 the weights [ZeRO §5].
		d1, d2, d3 := 1.0, 1.0, 1.0
		if in.ZeRO >= 1 {
			d1 = dp
		}
		if in.ZeRO >= 2 {
			d2 = dp
		}
		if in.ZeRO >= 3 {
			d3 = dp
		}
		// The trained parameters: all weights for full training, in the
		// training precision with gradients in the same precision [ZeRO
		// §3.1; TM101]; the adapters for LoRA, at bf16 with bf16 gradients
		// and an fp32 master copy. The frozen LoRA base has no gradients or
		// optimizer states.
		lora := in.Workload != FullTraining
		trained, tb, frozen := shard, wb, 0.0
		master := in.DType != FP32
		if lora {
			a := loraParams(m, in.LoRARank, in.LoRATargets)
			res.AdapterParams = toBytes(a)
			trained, tb, frozen, master = a/(tp*pp), HalfBytes, shard*wb, true
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
		if in.ZeRO == 3 && dpInt > 1 {
			// The gathered largest layer: its weights, and for full
			// training its gradients [DSMEM].
			largest := largestLayerParams(m) / tp
			base += largest * wb
			if !lora {
				grads += largest * wb
			}
		}
		if lora {
			b.Adapters = toBytes(params)
		} else {
			base += params
		}
		b.Weights = toBytes(base)
		b.Gradients = toBytes(grads)
		b.Optimizer = toBytes(opt)
		b.Activations = toBytes(trainingActivations(in))
	}

	res.Breakdown = b
	res.TotalPerGPU = b.Total()
	res.TrainFLOPs = trainFLOPs(in)
	if gpu != nil {
		res.DecodeTokensPerSec = decodeTokensPerSec(in, gpu.BandwidthBytesPerSec)
		if res.TrainFLOPs > 0 && gpu.DenseBF16FLOPS > 0 {
			// T = C / (GPUs · FLOP/s · MFU) [TM101 "Compute Requirements":
			// C = τT with τ = GPUs × actual FLOP/s].
			res.TrainSeconds = finite(res.TrainFLOPs / (float64(in.GPUs) * gpu.DenseBF16FLOPS * in.MFU))
		}
	}
	return res, nil
}

// kvPerTokenPerGPU is the KV bytes one token occupies on one GPU: the
// layers of one pipeline stage (the largest, ⌈L/p⌉) and ⌈kv_heads/t⌉ heads
// (at least one: with t > kv_heads each KV head is replicated on t/kv_heads
// ranks, as in vLLM and Megatron-LM).
//
//go:noinline
func kvPerTokenPerGPU(in Input) float64 {
	m := in.Model
	pp := in.pp()
	layers := (m.Layers + pp - 1) / pp
	kv := m.kvHeads()
	heads := (kv + in.TP - 1) / in.TP
	return 2 * float64(layers) * float64(heads) * float64(m.headDim()) * kvBytesPerElement(in.KVDType)
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
// tensors of a gated MLP, 3·ffn/t per routed expert, in 16 bits), with at most
// PrefillChunkTokens tokens per pass (chunked prefill); without
// FlashAttention also the score and softmax matrices of those tokens
// against the whole context, 2·tokens·seq·a/t elements [Korthikanti §4.1:
// the 5as²b term comes from these matrices; Flash]; plus fp32 logits for the
// last position of each sequence, batch·vocab·4 bytes.
func inferenceActivations(in Input) float64 {
	m := in.Model
	tp := float64(in.TP)
	ab := HalfBytes * activationScale(in.DType)
	tokens := float64(in.Batch) * float64(in.SeqLen)
	if tokens > PrefillChunkTokens {
		tokens = PrefillChunkTokens
	}
	k := float64(m.routedExperts())
	x := tokens * (2*float64(m.Hidden) + 3*k*float64(m.ffn())/tp) * ab
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
// which is s·b·h·(34 + 5·a·s/h) at t = 1 (their eq. 1). FlashAttention
// drops the 5·a·s/h term (the attention scores, softmax output and dropout
// mask are never stored) [Flash]. For a mixture of experts the 16/t bytes of
// the MLP's parallel part are paid once per routed expert (top-k).
//
// Recomputation [Korthikanti §5]: selective recomputation also drops the
// 5·a·s/h term; full recomputation keeps only each layer's input, 2·s·b·h
// bytes per layer, plus one layer's full activations while it is recomputed.
// All L layers count even with pipeline parallelism: under the 1F1B
// schedule the first stage holds p micro-batches of L/p layers [Korthikanti
// §4.2.3]. The output layer adds 4·s·b·h·(1 + v/h)/t bytes (final norm,
// logits and fp32 cross-entropy) [Korthikanti §4.3]. fp32 compute doubles
// everything.
func trainingActivations(in Input) float64 {
	m := in.Model
	s := float64(in.SeqLen)
	b := float64(in.Batch)
	h := float64(m.Hidden)
	a := float64(m.Heads)
	t := float64(in.TP)
	l := float64(m.Layers)
	k := float64(m.routedExperts())
	sbh := s * b * h

	stored := 10 + (8+16*k)/t // per s·b·h, without the attention-score term
	scores := 0.0
	if !in.Flash {
		scores = 5 * a * s / (h * t)
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

// decodeTokensPerSec is the memory-bandwidth bound on decode throughput
// [TM101 and Kipply's "Transformer Inference Arithmetic": at small batch a
// decode step is bound by reading the weights and the KV cache once]. One
// decode step reads, on each of the t GPUs of a pipeline stage and for
// every stage in turn, the active weights of that stage and the KV cache of
// all batch sequences at the full context SeqLen, so
//
//	step = (N_active·bytes(DType)/t + batch·seq·KV bytes per token per GPU·p) / bandwidth
//	tokens/s = batch / step.
//
// This is an upper bound: it ignores compute, kernel launch and
// communication time, and for a mixture of experts the extra experts a
// batch touches.
func decodeTokensPerSec(in Input, bandwidth float64) float64 {
	if !(bandwidth > 0) {
		return 0
	}
	m := in.Model
	weights := float64(m.activeParams()) * weightBytesPerParam(in.DType) / float64(in.TP)
	kv := float64(in.Batch) * float64(in.SeqLen) * kvPerTokenPerGPU(in) * float64(in.pp())
	step := (weights + kv) / bandwidth
	if !(step > 0) {
		return 0
	}
	return finite(float64(in.Batch) / step)
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
