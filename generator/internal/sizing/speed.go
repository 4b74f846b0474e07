package sizing

import "math"

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

// inferencePeak is the throughput inference computes at: peakFLOPS, or,
// on a GPU with no 16-bit tensor figure, its FP32 rate (those parts run
// the matrix multiplications in fp32); zero when neither is known.
func inferencePeak(d DType, g GPU) float64 {
	if p := peakFLOPS(d, g); p > 0 {
		return p
	}
	return g.FP32FLOPS
}

// trainFLOPs returns the training compute for Tokens tokens: the model
// FLOPs, which MFU is defined on, and the hardware FLOPs, which add what
// activation recomputation runs again. With N the active parameters a
// token multiplies by (matmulParams) and D the tokens [TM101: C ≈ 6·N·D =
// 2ND forward + 4ND backward; Kaplan et al. 2020]:
//
//   - full training: 6·N·D plus attention, three times the forward
//     attention of each sequence: QKᵀ and scores·V over the keys each
//     position attends to, 2·(d_qk + d_v) FLOPs per head and key, the
//     causal lower triangle only, as FlashAttention computes it (for a
//     model of width h with L layers, 6·L·h·s per token at sequence s;
//     Megatron-LM's count, Narayanan et al. 2021 eq. 3, is 12·L·h·s
//     without the causal mask) [Chinchilla Appendix F];
//   - LoRA/QLoRA: the frozen base needs the forward pass and the backward
//     pass for activation gradients but not for weight gradients, 4·N·D,
//     attention as above, plus 6·A·D for the A adapter parameters;
//   - inference: 0.
//
// Hardware FLOPs add the forward pass again with full recomputation
// (2·N·D plus forward attention) [Korthikanti §5], and the attention core's
// forward with selective recomputation without FlashAttention (with it the
// kernel recomputes the scores anyway). Recomputation lowers the MFU a run
// reaches; it is not a second count of the model's FLOPs.
func trainFLOPs(in Input) (model, hardware float64) {
	if in.Workload == Inference || in.Tokens <= 0 {
		return 0, 0
	}
	m := in.Model
	n := m.matmulParams()
	d := in.Tokens
	s := float64(in.SeqLen)
	attnFwd := attentionFLOPs(m, s) / s // forward attention per token
	perParam := 6.0
	if in.Workload != FullTraining {
		perParam = 4
	}
	model = (perParam*n + 3*attnFwd) * d
	if in.Workload == LoRA || in.Workload == QLoRA {
		model += 6 * loraParams(m, in.LoRARank, in.LoRATargets) * d
	}
	// An alignment method's forward passes of the other models, and its
	// critics trained as the policy is (Method).
	_, fwd, critics, _ := in.Method.models()
	model += fwd*(2*n+attnFwd)*d + critics*model
	// The vision encoder's images, per sequence of SeqLen tokens.
	model += visionFLOPs(in) * d / s
	hardware = model
	switch in.Checkpointing {
	case FullCheckpointing:
		hardware += (2*n + attnFwd) * d
	case SelectiveCheckpointing:
		if !in.Flash {
			hardware += attnFwd * d
		}
	}
	return finite(model), finite(hardware)
}

// attentionFLOPs is the forward attention compute of one causal sequence
// of n tokens over all layers: per layer and head, QKᵀ and scores·V cost
// 2·(d_qk + d_v) FLOPs per attended key [Chinchilla Appendix F], summed
// over the keys each position attends to (attendedKeys; sliding-window
// layers attend to at most their window).
func attentionFLOPs(m Model, n float64) float64 {
	loc := float64(m.localLayers())
	glob := float64(m.Layers) - loc
	keys := glob*attendedKeys(n, 0) + loc*attendedKeys(n, float64(m.SlidingWindow))
	return 2 * float64(m.Heads) * float64(m.headDim()+m.vHeadDim()) * keys
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
	attn := attentionFLOPs(m, p)
	return finite(2*body*p + 2*out + attn + visionFLOPs(in))
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
	if !(peak > 0) {
		// Without the GPU's compute rate the prompt's time is unknown: the
		// weight-read time alone would make a GPU with no figure look
		// faster than one with it.
		return 0
	}
	t := flops / (float64(in.TP*in.cp()) * peak)
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
//
// With speculative decoding (see speculation) a step is SpecTokens draft
// steps, each bound the same way by the draft head's reads and FLOPs,
// then one verification step that reads as a plain one and computes
// SpecTokens + 1 tokens of each sequence; it yields the expected accepted
// tokens.
func decodeTokensPerSec(in Input, bandwidth, peak float64) (float64, bool) {
	m := in.Model
	b := float64(in.Batch)
	yield, verify, draft, dbytes := in.speculation()
	var mem, comp, dmem, dcomp float64
	if bandwidth > 0 {
		kv := b * kvSequenceBytesPerGPU(in) * float64(in.pp())
		mem = (readBytes(in)/float64(in.TP) + kv) / bandwidth
		dmem = dbytes / float64(in.TP) / bandwidth
	}
	if p := float64(in.TP*in.cp()) * peak; p > 0 {
		comp = verify * b * (2*m.matmulParams() + decodeAttentionFLOPs(in)) / p
		dcomp = b * 2 * draft / p
	}
	step := math.Max(mem, comp)
	if !(step > 0) {
		return 0, false
	}
	return finite(b * yield / (step + float64(in.SpecTokens)*math.Max(dmem, dcomp))), comp > mem
}

// speculation returns, for speculative decoding (Input.SpecTokens γ above
// 0, each drafted token accepted with chance α, Input.SpecAccept or
// DefaultSpecAccept), the tokens one step yields per sequence on average,
// (1 − α^(γ+1))/(1 − α) [Leviathan et al. 2023, "Fast Inference from
// Transformers via Speculative Decoding", eq. 1], the tokens of each
// sequence its verification pass computes, γ + 1, and the active
// parameters one draft token multiplies by: the draft head's layer and the
// model's output layer it shares [DeepSeek-V3 §2.2: an MTP module is a
// transformer block and a projection over the shared embedding and output
// head; EAGLE (Li et al. 2024) likewise drafts with one decoder layer and
// the model's head], and their bytes. Without speculation, (1, 1, 0, 0).
//
//go:noinline
func (in Input) speculation() (yield, verify, draft, bytes float64) {
	g := float64(in.SpecTokens)
	if g == 0 {
		return 1, 1, 0, 0
	}
	a := in.SpecAcceptance()
	m := in.Model
	out := float64(m.Vocab) * float64(m.Hidden)
	draft = (float64(m.activeParams())-m.embedParams())/float64(m.Layers) + out
	// α^(γ+1) by multiplication: math.Pow would add kilobytes to the
	// WebAssembly build.
	all := a
	for range in.SpecTokens {
		all *= a
	}
	return (1 - all) / (1 - a), g + 1, draft, in.weightBytes(draft, out)
}

// SpecAcceptance is the chance a drafted token is accepted that the
// estimate assumes: SpecAccept, or DefaultSpecAccept when it is 0.
func (in Input) SpecAcceptance() float64 {
	if in.SpecAccept > 0 {
		return in.SpecAccept
	}
	return DefaultSpecAccept
}

// DefaultSpecAccept is the acceptance rate a drafted token is given when
// the input sets none: DeepSeek-V3's for its MTP module's token, "between
// 85% and 90% across various generation topics" [DeepSeek-V3 §5.4.3],
// the low end. EAGLE heads and later draft positions accept less (an
// average acceptance length of 3.2 tokens over 7 drafted for DeepSeek-V3's
// own MTP module reused at every position, Nebius's
// MTP-DeepSeek-V3-0324 model card: about 0.71 a token).
const DefaultSpecAccept = 0.85

// draftParams is the parameters a draft head adds to the weights: one
// layer of the model, the mean of its layers (the embedding and output
// layer are shared; see speculation).
func draftParams(m Model) float64 {
	return finite((float64(m.Params) - m.embedParams()) / float64(m.Layers))
}

// windowOr returns the sliding window, or s without one.
func windowOr(m Model, s float64) float64 {
	if m.SlidingWindow > 0 {
		return float64(m.SlidingWindow)
	}
	return s
}

// decodeAttentionFLOPs is the attention compute of one decode step of one
// sequence at context SeqLen: per head and cached key, 2·(d_qk + d_v)
// FLOPs (with MLA the absorbed form of DeepSeek-V2 §2.1.2, attending in
// the latent space: 2·(2·d_c + d_h^R)), over the keys every layer
// attends to.
func decodeAttentionFLOPs(in Input) float64 {
	m := in.Model
	s := float64(in.SeqLen)
	loc := float64(m.localLayers())
	keys := (float64(m.Layers)-loc)*s + loc*math.Min(s, windowOr(m, s))
	perKey := 2 * float64(m.headDim()+m.vHeadDim())
	if m.mla() {
		perKey = 2 * float64(2*m.KVLoRARank+m.QKRopeHeadDim)
	}
	return float64(m.Heads) * perKey * keys
}
