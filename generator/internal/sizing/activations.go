package sizing

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
// adds 4·s·b·h/t bytes for the final norm and, per logit, the bytes the
// loss keeps (Loss: 4 fused, as Korthikanti §4.3 counts the logits and
// their fp32 cross-entropy; 16 with Hugging Face's fp32 upcast; 0 with a
// chunked kernel) times s·b·v/t. fp32 compute doubles everything.
//
// With OffloadActivations, what the layers store for the backward pass
// stays on the GPU for OffloadLayersOnGPU of them and the rest is in CPU
// memory: offloaded, the second result.
func trainingActivations(in Input) (onGPU, offloaded float64) {
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
	// What each layer stores for its backward pass, and what the GPU
	// holds besides.
	perLayer, working := sbh*(stored+scores), 0.0
	switch in.Checkpointing {
	case SelectiveCheckpointing:
		perLayer = sbh * stored
	case FullCheckpointing:
		// Each layer's stored input; with sequence parallelism it is
		// split over the tensor-parallel group like the LayerNorm input it
		// is [Korthikanti §4.2.2, §5].
		working, perLayer = perLayer, 2*sbh
		if in.SequenceParallel {
			perLayer /= t
		}
	}
	kept := l
	if in.OffloadActivations {
		kept = min(l, OffloadLayersOnGPU)
	}
	scale := activationScale(in.DType)
	total := kept*perLayer + working + (4*h+lossBytes(in.Loss)*float64(m.Vocab))*s*b/t
	return finite(total * scale), finite((l - kept) * perLayer * scale)
}

// OffloadLayersOnGPU is the layers whose stored activations stay on the
// GPU with OffloadActivations: the last layer, which TransformerEngine
// never offloads (its cpu_offload takes at most layers − 1), and the one
// being copied back while the layer after it runs its backward pass. A
// documented approximation of the double buffering those implementations
// describe, not a measured figure.
const OffloadLayersOnGPU = 2

// offloadSeconds is the training time activation offload adds on GPU g:
// every micro-batch copies its offloaded activations (offloaded bytes
// each) to CPU memory during the forward pass and back during the
// backward, over the host link at PCIeBytesPerSec each way (PCIe 4.0 x16;
// TransformerEngine's docs quote 128 GB/s both ways for PCIe 5.0 x16, so
// a PCIe 5.0 host copies faster). The copies run beside the compute
// [TransformerEngine CPU offloading: asynchronous transfers]; only what
// a pass's copy takes beyond the pass (the forward a third of compute
// seconds, the backward two thirds, as 2N and 4N FLOPs per token
// [Kaplan]) adds to it.
func offloadSeconds(in Input, compute, offloaded float64) float64 {
	replicas := float64(in.GPUs / (in.TP * in.cp()))
	copies := in.Tokens / (replicas * float64(in.Batch) * float64(in.SeqLen)) * offloaded / PCIeBytesPerSec
	return finite(max(copies-compute/3, 0) + max(copies-2*compute/3, 0))
}

// lossBytes is the bytes per logit that loss l keeps at its peak (see
// Loss), in the order of lossNames; "" (not found) is FusedLoss.
func lossBytes(l Loss) float64 {
	return [...]float64{4, 16, 0}[max(wordIndex(string(l), lossNames), 0)]
}
