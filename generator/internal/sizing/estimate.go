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
	// Reference is the frozen models an alignment method keeps beside the
	// policy (the reference model, PPO's reward model): see Method.
	Reference int64
	// Critic is PPO's trained value model: weights, gradients and
	// optimizer states.
	Critic int64
	// Rollout is the colocated generation engine of GRPO and PPO: its
	// copy of the weights and the KV cache of the completions.
	Rollout int64
	// Overhead is the fixed CUDA context and framework cost, OverheadBytes.
	Overhead int64
}

// Total is the sum of the components, saturating at math.MaxInt64.
func (b Breakdown) Total() int64 {
	var t int64
	for _, x := range [...]int64{b.Weights, b.KVCache, b.Activations, b.Gradients, b.Optimizer, b.Adapters, b.GatheredLayer, b.Reference, b.Critic, b.Rollout, b.Overhead} {
		t = satAdd(t, x)
	}
	return t
}

// Largest names the largest part of b ("weights", "kv_cache",
// "activations", "gradients", "optimizer", "adapters", "gathered",
// "reference", "critic", "rollout", "overhead"; the first of equals) and
// its size.
func (b Breakdown) Largest() (part string, bytes int64) {
	sizes := [...]int64{b.Weights, b.KVCache, b.Activations, b.Gradients, b.Optimizer, b.Adapters, b.GatheredLayer, b.Reference, b.Critic, b.Rollout, b.Overhead}
	names := [...]string{"weights", "kv_cache", "activations", "gradients", "optimizer", "adapters", "gathered", "reference", "critic", "rollout", "overhead"}
	k := 0
	for i, x := range sizes {
		if x > sizes[k] {
			k = i
		}
	}
	return names[k], sizes[k]
}

// Result is the answer to one sizing question.
type Result struct {
	_ noCompare
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
	// HardwareFLOPs is TrainFLOPs plus what activation recomputation runs
	// again (see trainFLOPs).
	HardwareFLOPs float64
	// TrainSeconds is the wall-clock training time (see trainSeconds; 0
	// for inference, when Tokens is 0, without a GPU, or when its BF16
	// FLOP/s is unknown). MFU is the model FLOPs utilisation it assumed
	// (Input.MFU, or TrainingMFU's for the GPU); TrainTokensPerSecPerGPU
	// the training throughput; StepSeconds one optimizer step's time
	// (Batch·micro-batches·data-parallel sequences of SeqLen tokens).
	TrainSeconds, MFU, TrainTokensPerSecPerGPU, StepSeconds float64
	// RolloutSeconds is the part of TrainSeconds the rollout engine of
	// GRPO or PPO spends generating (rolloutSeconds); TrainSeconds is 0
	// when it is unknown (no OutputLen).
	RolloutSeconds float64

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
	// ExpectedDecode, ExpectedTTFT, ExpectedThroughput and ExpectedPerGPU
	// are the expected counterparts of the bounds above: what a tuned
	// serving engine reaches (expected.go). PrefillTokensPerSec is one
	// replica's expected prompt throughput with prompts batched.
	ExpectedDecode, ExpectedTTFT, ExpectedThroughput, ExpectedPerGPU float64
	PrefillTokensPerSec                                              float64

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
//
// Estimate is kept whole (over 80 lines): its terms follow each other in
// the order above, each a few lines over what the earlier ones computed;
// split up, each part would take and return most of the breakdown, and in
// the WebAssembly module every call site adds code under its size limit.
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
	var offloaded float64 // activation bytes in CPU memory (training)
	res.TP, res.PP, res.CP, res.DataParallel = in.TP, in.pp(), in.cp(), dpInt
	res.KVBytesPerToken = KVBytesPerToken(m, in.KVDType)
	b.Overhead = OverheadBytes

	switch in.Workload {
	case Inference:
		w, kv := in.weightBytes(float64(m.Params), m.embedParams())/mp, float64(in.Batch)*kvSequenceBytesPerGPU(in)
		if in.SpecTokens > 0 {
			// The draft head: one more layer's weights and KV cache
			// (see speculation).
			w += in.weightBytes(draftParams(m), 0) / tp
			kv += kv / math.Ceil(float64(m.Layers)/pp)
		}
		b.Weights = toBytes(w)
		b.KVCache = toBytes(kv)
		b.Activations = toBytes(inferenceActivations(in))
		visionMemory(in, &b, tp, 1, 1, 1)

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
		if in.OptimizerInBackward {
			grads = min(grads, largestLayerParams(m)/tp*tb)
		}
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
		act := in
		if in.Method == DPO {
			act.Batch *= 2 // a chosen and a rejected answer per example
		}
		onGPU, off := trainingActivations(act)
		b.Activations = toBytes(onGPU)
		offloaded = off
		alignmentMemory(in, &b, mp, d3)
		visionMemory(in, &b, tp, d1, d2, d3)
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
	res.TrainFLOPs, res.HardwareFLOPs = trainFLOPs(in)
	if in.Workload == Inference {
		res.PrefillFLOPs = prefillFLOPs(in)
	}
	if gpu != nil {
		if in.Workload == Inference {
			ip := inferencePeak(in.DType, *gpu)
			res.DecodeTokensPerSec, res.DecodeComputeBound = decodeTokensPerSec(in, gpu.BandwidthBytesPerSec, ip)
			res.ThroughputTokensPerSec = finite(res.DecodeTokensPerSec * dp)
			res.TokensPerSecPerGPU = finite(res.ThroughputTokensPerSec / float64(in.GPUs))
			res.TTFTSeconds = ttftSeconds(in, res.PrefillFLOPs, gpu.BandwidthBytesPerSec, ip)
			res.ExpectedDecode = expectedDecode(in, *gpu, ip)
			res.ExpectedTTFT = expectedTTFT(in, res.PrefillFLOPs, *gpu, ip)
			res.PrefillTokensPerSec = prefillRate(in, res.PrefillFLOPs, *gpu, ip)
			res.ExpectedThroughput = finite(servedRate(in, res.ExpectedDecode, res.PrefillTokensPerSec) * dp)
			res.ExpectedPerGPU = finite(res.ExpectedThroughput / float64(in.GPUs))
		}
		if res.TrainFLOPs > 0 && gpu.DenseBF16FLOPS > 0 {
			res.MFU = mfuFor(in, *gpu)
			res.TrainSeconds = trainSeconds(in, res.TrainFLOPs, *gpu, res.MFU)
			if offloaded > 0 {
				res.TrainSeconds += offloadSeconds(in, res.TrainSeconds, offloaded)
			}
			if in.Method.Generates() {
				// Generation first, then training, on the same GPUs; no
				// time without the completions' length.
				res.RolloutSeconds = rolloutSeconds(in, *gpu)
				res.TrainSeconds = finite(res.TrainSeconds + res.RolloutSeconds)
				if res.RolloutSeconds == 0 {
					res.TrainSeconds = 0
				}
			}
			res.TrainTokensPerSecPerGPU = finite(in.Tokens / res.TrainSeconds / float64(in.GPUs))
			res.StepSeconds = finite(float64(in.Batch*in.microBatches()*dpInt*in.SeqLen) / (res.TrainTokensPerSecPerGPU * float64(in.GPUs)))
		}
	}
	return res, nil
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
