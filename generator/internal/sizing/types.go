package sizing

// Model describes the architecture of a decoder-only transformer, as found in
// a Hugging Face config.json. The toml tags are the preset files' keys (data/models), which package
// catalog decodes into Model; ModelFields names each figure for the other
// surfaces.
type Model struct {
	_ noCompare
	// Params is the total parameter count (all experts for a mixture of
	// experts). Weight memory is proportional to it.
	Params int64 `toml:"params"`
	// ActiveParams is the number of parameters used per token (MoE). Zero
	// means Params. Training FLOPs and decode speed are proportional to it.
	ActiveParams int64 `toml:"active_params"`
	// Layers is the number of transformer blocks (num_hidden_layers).
	Layers int `toml:"layers"`
	// Hidden is the model width h (hidden_size).
	Hidden int `toml:"hidden_size"`
	// Heads is the number of attention (query) heads a.
	Heads int `toml:"heads"`
	// KVHeads is the number of key/value heads (GQA/MQA). Zero means Heads.
	KVHeads int `toml:"kv_heads"`
	// FFN is the MLP intermediate size (per expert for MoE). Zero means
	// 4·Hidden.
	FFN int `toml:"ffn_size"`
	// Vocab is the vocabulary size v. Zero leaves the output-layer terms out.
	Vocab int `toml:"vocab_size"`
	// Experts is the number of routed experts per MoE layer; zero for a
	// dense model.
	Experts int `toml:"experts"`
	// ExpertsPerToken is the number of experts each token is routed to.
	ExpertsPerToken int `toml:"experts_per_token"`
	// HeadDim is the attention head dimension. Zero means Hidden/Heads
	// (models such as Gemma set it explicitly). With multi-head latent
	// attention it is the query/key head dimension, qk_nope_head_dim +
	// qk_rope_head_dim.
	HeadDim int `toml:"head_dim"`
	// TiedEmbeddings says the output layer shares the input embedding
	// matrix (tie_word_embeddings): the model holds vocab·hidden embedding
	// parameters instead of twice that.
	TiedEmbeddings bool `toml:"tied_embeddings"`

	// KVLoRARank is the compressed key/value dimension d_c of multi-head
	// latent attention (MLA, DeepSeek-V2/V3: kv_lora_rank). Non-zero turns
	// MLA on: the KV cache then holds, per layer and token, the latent
	// vector and the decoupled RoPE key, KVLoRARank + QKRopeHeadDim
	// elements [DSV2].
	KVLoRARank int `toml:"kv_lora_rank"`
	// QLoRARank is MLA's compressed query dimension (q_lora_rank); zero
	// means the queries are projected directly.
	QLoRARank int `toml:"q_lora_rank"`
	// QKRopeHeadDim is MLA's decoupled RoPE key dimension d_h^R
	// (qk_rope_head_dim).
	QKRopeHeadDim int `toml:"qk_rope_head_dim"`
	// VHeadDim is the value head dimension (v_head_dim). Zero means
	// HeadDim.
	VHeadDim int `toml:"v_head_dim"`

	// SlidingWindow is the attention window of the local layers in tokens
	// (sliding_window); zero means every layer attends to the whole
	// context.
	SlidingWindow int `toml:"sliding_window"`
	// LocalLayers is how many layers use the sliding window; zero with a
	// window means all of them (Mistral 7B v0.1). Gemma 2 alternates local
	// and global layers, Gemma 3 has five local layers to one global.
	LocalLayers int `toml:"local_layers"`

	// SharedExperts is the number of shared experts per MoE layer, each
	// FFN wide, that every token passes through (DeepSeek: n_shared_experts).
	SharedExperts int `toml:"shared_experts"`
	// DenseLayers is the number of leading layers of an MoE model that use
	// a dense MLP instead (DeepSeek: first_k_dense_replace).
	DenseLayers int `toml:"dense_layers"`
	// DenseFFN is the MLP width of those dense layers (intermediate_size
	// when FFN is the expert width). Zero means FFN.
	DenseFFN int `toml:"dense_ffn_size"`

	// VisionParams is the parameters of a vision-language model's vision
	// encoder and the projector that maps its features into the language
	// model; zero for a text-only model. Params and the other figures are
	// the language model's; the vision weights come on top of them.
	VisionParams int64 `toml:"vision_params"`
	// ImageTokens is the language-model tokens one image becomes at the
	// model's standard resolution; ImagePatches the tokens the vision
	// encoder itself runs on for that image (more where patches are
	// merged: 4 for Qwen2.5-VL's 2×2 merge). Zero ImagePatches means
	// ImageTokens.
	ImageTokens  int `toml:"image_tokens"`
	ImagePatches int `toml:"image_patches"`
}

// Workload is what the GPUs are asked to do.
type Workload string

// The workloads the estimator knows.
const (
	// Inference is autoregressive serving: weights, KV cache and a working
	// buffer.
	Inference Workload = "inference"
	// FullTraining is full-parameter training or fine-tuning with
	// mixed-precision model states per [ZeRO].
	FullTraining Workload = "full"
	// LoRA fine-tunes low-rank adapters over a frozen base model [LoRA].
	LoRA Workload = "lora"
	// QLoRA fine-tunes LoRA adapters over an NF4-quantized frozen base
	// model [QLoRA].
	QLoRA Workload = "qlora"
)

// DType is a numeric storage format for weights or the KV cache.
type DType string

// The data types the estimator knows.
const (
	FP32 DType = "fp32" // 4 bytes
	BF16 DType = "bf16" // 2 bytes
	FP16 DType = "fp16" // 2 bytes
	FP8  DType = "fp8"  // 1 byte (E4M3/E5M2)
	INT8 DType = "int8" // 1 byte
	// INT4 is 4-bit weight quantization. For weights it is costed as NF4
	// with double-quantized block constants [QLoRA]; "nf4" is accepted as an
	// alias by ParseDType.
	INT4 DType = "int4"
)

// Optimizer is the training optimizer, which sets the optimizer-state bytes.
type Optimizer string

// The optimizers the estimator knows.
const (
	AdamW     Optimizer = "adamw"     // two fp32 moments
	AdamW8bit Optimizer = "adamw8bit" // two 8-bit moments (bitsandbytes)
	SGD       Optimizer = "sgd"       // SGD with one fp32 momentum buffer
	// AdamWBF16 keeps both moments in bf16: PyTorch's AdamW allocates
	// them like the parameters (zeros_like), so bf16 parameters (pure
	// bf16 training, torchtune's default) get bf16 moments; DeepSpeed's
	// bf16_optimizer_states does the same beside fp32 master weights.
	AdamWBF16 Optimizer = "adamw-bf16"
	// PagedAdamW and PagedAdamW8bit keep the same states in paged
	// (unified) memory, which the driver evicts to CPU memory while the
	// forward and backward passes need the GPU, and pages back for the
	// optimizer step (bitsandbytes paged optimizers [QLoRA §3]).
	PagedAdamW     Optimizer = "paged-adamw"
	PagedAdamW8bit Optimizer = "paged-adamw8bit"
)

// Loss is how the training loss handles the logits, which sets the memory
// of the output layer: batch × sequence × vocabulary values, often the
// largest single buffer (a 128k vocabulary) [Korthikanti §4.3].
type Loss string

// The loss implementations the estimator knows. The zero value is
// FusedLoss.
const (
	// FusedLoss keeps 4 bytes per logit: Korthikanti's count of the
	// output layer (16-bit logits and their fp32 cross-entropy, fused in
	// Megatron's vocab-parallel cross-entropy); LitGPT's chunked
	// cross-entropy over 16-bit logits keeps the same (16-bit logits and
	// 16-bit log-softmax outputs).
	FusedLoss Loss = "fused"
	// FP32Loss is Hugging Face Transformers' causal-LM loss, which
	// upcasts the logits to fp32 before a plain cross-entropy (the PEFT,
	// TRL and qlora.py stack): 16 bytes per logit at the start of the
	// backward pass, when the fp32 logits (the model's output), the
	// log-softmax that cross-entropy saves, its gradient and the gradient
	// of its input are all alive, 4 bytes each (transformers 4.38–4.44,
	// LlamaForCausalLM.forward: logits.float(), a shifted contiguous copy,
	// CrossEntropyLoss; from 4.46 the returned logits stay 16-bit, 14
	// bytes).
	FP32Loss Loss = "fp32"
	// ChunkedLoss is a fused linear + cross-entropy kernel that never
	// holds the whole logits (Liger Kernel's FusedLinearCrossEntropy,
	// Apple's Cut Cross-Entropy): no bytes per logit.
	ChunkedLoss Loss = "chunked"
)

// Quant is the storage format of 4-bit weights.
type Quant string

// The 4-bit weight formats. The zero value is NF4DQ.
const (
	// NF4DQ is 4-bit NormalFloat with double-quantized block constants,
	// the QLoRA recipe (bnb_4bit_use_double_quant=True) [QLoRA §3].
	NF4DQ Quant = "nf4-dq"
	// NF4 is 4-bit NormalFloat with fp32 block constants (bitsandbytes'
	// default, block size 64).
	NF4 Quant = "nf4"
	// GPTQ and AWQ store 4-bit integers with one fp16 scale and one 4-bit
	// zero point per group of GroupSize input features [GPTQ; AWQ].
	GPTQ Quant = "gptq"
	AWQ  Quant = "awq"
)

// Engine is the serving engine the inference figures are for: its
// kernels and scheduling set how much of the GPU's bandwidth a decode step
// reaches and how long each layer's fixed work takes (engineLayerSeconds).
type Engine string

// The serving engines. The zero value is Tuned.
const (
	// Tuned is an engine that captures each step in CUDA graphs with fused
	// kernels: TensorRT-LLM, gpt-fast's compiled PyTorch. The expected
	// speeds' constants are fitted to these (expected.go).
	Tuned Engine = "tuned"
	// VLLM is vLLM or SGLang: paged attention and CUDA graphs for decode.
	VLLM Engine = "vllm"
	// HF is Hugging Face Transformers' generate in eager PyTorch: one
	// Python dispatch per operation, no graphs.
	HF Engine = "hf"
	// LlamaCpp is llama.cpp (GGML kernels).
	LlamaCpp Engine = "llamacpp"
	// Megatron is, for training, Megatron-Core with Transformer Engine's
	// fused kernels (Megatron-LM, NeMo, Megatron-Bridge); any other
	// training engine (FSDP, DeepSpeed, torchtitan, the Hugging Face
	// Trainer) is read as Tuned.
	Megatron Engine = "megatron"
)

// DefaultGroupSize is the GPTQ/AWQ quantization group size used when
// Input.GroupSize is zero (the group size of most published checkpoints).
const DefaultGroupSize = 128

// Checkpointing is the activation recomputation strategy [Korthikanti].
type Checkpointing string

// The activation checkpointing strategies.
const (
	// NoCheckpointing stores every activation for the backward pass.
	NoCheckpointing Checkpointing = "none"
	// SelectiveCheckpointing recomputes only the attention core
	// (softmax, dropout, scores) [Korthikanti §5].
	SelectiveCheckpointing Checkpointing = "selective"
	// FullCheckpointing stores only each layer's input and recomputes the
	// layer in the backward pass.
	FullCheckpointing Checkpointing = "full"
)

// Offload is what DeepSpeed ZeRO-Offload moves to CPU memory.
type Offload string

// The offload modes.
const (
	// NoOffload keeps all model states on the GPU.
	NoOffload Offload = "none"
	// OffloadOptimizer moves optimizer states (and, from ZeRO-2, the
	// gradient partitions) to CPU memory: DeepSpeed offload_optimizer.
	OffloadOptimizer Offload = "optimizer"
	// OffloadFull also moves the parameter partitions to CPU memory:
	// DeepSpeed offload_param, ZeRO-3 only.
	OffloadFull Offload = "full"
)

// loraTargetNames are the projection names accepted in Input.LoRATargets.
var loraTargetNames = [...]string{"q", "k", "v", "o", "gate", "up", "down"}

// LoRATargetNames returns the projection names accepted in
// Input.LoRATargets: q, k, v, o (attention) and gate, up, down (MLP).
func LoRATargetNames() []string {
	out := make([]string, len(loraTargetNames))
	copy(out, loraTargetNames[:])
	return out
}

// GPU is one accelerator as the estimator sees it.
type GPU struct {
	_ noCompare
	// ID is the catalog id, e.g. "h100-sxm5-80gb".
	ID string
	// Name is the display name.
	Name string
	// MemoryBytes is the device memory in bytes.
	MemoryBytes int64
	// BandwidthBytesPerSec is the memory bandwidth in bytes per second.
	// Zero means unknown (decode speed is then reported as 0).
	BandwidthBytesPerSec float64
	// DenseBF16FLOPS is the dense BF16 tensor throughput in FLOP/s.
	// Zero means unknown (training time and compute-bound speeds are then
	// reported as 0).
	DenseBF16FLOPS float64
	// DenseFP8FLOPS is the dense FP8 tensor throughput in FLOP/s, used for
	// fp8 weights and fp8 training. Zero means unknown (BF16 is used).
	DenseFP8FLOPS float64
	// FP32FLOPS is the non-tensor FP32 throughput in FLOP/s. Inference
	// on a GPU without a 16-bit tensor figure (Kepler, Maxwell, Pascal
	// P4/P40, whose 16-bit arithmetic is absent or runs at 1/64 rate)
	// computes at it; zero means unknown.
	FP32FLOPS float64
	// LinkBytesPerSec is the GPU-to-GPU fabric's bandwidth per GPU, both
	// directions together (NVLink, Infinity Fabric, HCCS); zero for GPUs
	// that talk over PCIe only, or when unknown.
	LinkBytesPerSec float64
	// Precisions are the formats the GPU's matrix units compute natively,
	// space-separated ("fp16 bf16 fp8 int8"; a string keeps GPU
	// comparable); "" means not recorded, "none" none of them.
	Precisions string
}

// Input is one sizing question.
type Input struct {
	// Model is the architecture.
	Model Model
	// Workload is inference, full, lora or qlora.
	Workload Workload
	// DType is the weight format: for full training the parameter and
	// compute precision (fp32, bf16 or fp16); for LoRA the frozen base
	// format; for QLoRA it must be int4.
	DType DType
	// KVDType is the KV-cache format (inference only).
	KVDType DType
	// SeqLen is the sequence length in tokens (context length for
	// inference).
	SeqLen int
	// Batch is the number of concurrent sequences for inference, and the
	// micro-batch per data-parallel replica for training.
	Batch int
	// GPUs is the total number of GPUs; it must be a multiple of
	// TP·PP·CP. The data-parallel degree is GPUs/(TP·PP·CP).
	GPUs int
	// TP is the tensor-parallel degree (Megatron-style, within a node).
	// AutoLayout chooses it (and PP) from GPUs when it is zero.
	TP int
	// PP is the pipeline-parallel degree. Zero is read as 1.
	PP int
	// CP is the context-parallel degree: the sequence is split over CP
	// GPUs (ring attention / Megatron-LM context parallelism), which
	// divides activations and the KV cache. Zero is read as 1.
	CP int
	// SequenceParallel turns on Megatron-LM sequence parallelism with
	// tensor parallelism: the LayerNorm and dropout activations are also
	// split over TP [Korthikanti §4.2.2] (training only).
	SequenceParallel bool
	// ZeRO is the DeepSpeed ZeRO stage 0..3 (training only; ignored for
	// inference).
	ZeRO int
	// Offload is what is offloaded to CPU memory (training only).
	Offload Offload
	// Checkpointing is the activation recomputation strategy (training
	// only).
	Checkpointing Checkpointing
	// Flash says whether a fused attention kernel (FlashAttention) is used,
	// so that no s×s score matrix is stored.
	Flash bool
	// Optimizer is the training optimizer (training only).
	Optimizer Optimizer
	// Loss is the training loss's handling of the logits (training only;
	// "" is FusedLoss).
	Loss Loss
	// LoRARank is the adapter rank r (lora and qlora only).
	LoRARank int
	// LoRATargets are the adapted projections: q, k, v, o, gate, up, down.
	LoRATargets []string
	// Tokens is the number of training tokens D (0: no time estimate).
	Tokens float64
	// MFU is the model FLOPs utilisation assumed for training time, in
	// (0, 1]; zero takes TrainingMFU's figure for the GPU.
	MFU float64

	// Quant is the format of int4 weights (ignored for other dtypes).
	Quant Quant
	// GroupSize is the GPTQ/AWQ group size; zero means DefaultGroupSize.
	GroupSize int
	// BitsPerWeight, when not zero, is the average bits of every weight,
	// embeddings included, of a mixed-width format: a GGUF file's or an
	// EXL2 model's size in bits over its parameters (llama.cpp's Q4_K_M
	// of Llama 3 70B is 39.60 GiB, 4.82 bits per weight). It needs a
	// weight-only quantized DType (int4 or int8), which it refines: the
	// weights still compute in 16 bits. Range (0, 16].
	BitsPerWeight float64
	// QuantEmbeddings also stores the input embedding and the output
	// layer in DType. By default they stay at 16 bits when the weights are
	// quantized (fp8, int8, int4), as bitsandbytes, GPTQ, AWQ and vLLM's
	// fp8 keep them.
	QuantEmbeddings bool
	// NoMaster trains 16-bit weights (full training) or adapters
	// (LoRA/QLoRA) without an fp32 master copy: pure bf16 training, or the
	// QLoRA recipe's bf16 adapters.
	NoMaster bool
	// OptimizerInBackward runs each parameter's optimizer step as soon as
	// its gradient is ready and frees that gradient (PyTorch's
	// register_post_accumulate_grad_hook tutorial; torchtune's
	// optimizer_in_bwd), so no full gradient buffer is held: at most the
	// largest layer's gradients. It cannot accumulate gradients, so it
	// takes no pipeline stages (their micro-batches accumulate).
	OptimizerInBackward bool
	// OffloadActivations moves the activations each layer stores for its
	// backward pass to CPU memory during the forward pass and brings them
	// back for the backward (TransformerEngine's and Megatron-LM's
	// cpu_offloading, torchtune's and TRL's activation offloading;
	// training only). The GPU keeps OffloadLayersOnGPU layers' worth; the
	// copies run over the host link beside the compute, and what they
	// take beyond it adds to the training time (see offloadSeconds). It
	// takes no pipeline stages (Megatron Bridge requires PP 1 for it).
	OffloadActivations bool
	// SpecTokens is the draft tokens of speculative decoding (inference;
	// 0: none): a one-layer draft head that shares the model's embedding
	// and output layer (DeepSeek-V3's multi-token prediction module, or an
	// EAGLE head) proposes SpecTokens tokens one after another, and one
	// forward pass of the model verifies them (see speculation).
	SpecTokens int
	// SpecAccept is the chance the model accepts each drafted token, in
	// [0, 1); zero takes DefaultSpecAccept.
	SpecAccept float64
	// PromptLen is the prompt length for the time to first token
	// (inference); zero means SeqLen.
	PromptLen int
	// OutputLen is the answer length of a request in tokens (inference).
	// With it, the expected throughput counts each batch's prompts and
	// answers: the prompts' prefill, then OutputLen decode steps at the
	// mean context SeqLen. Zero counts decode steps only (a steady state
	// whose prompts are priced apart, as the cost per million input tokens
	// is).
	OutputLen int
	// Engine is the serving engine (inference) or, Megatron only, the
	// training engine; "" is Tuned.
	Engine Engine
	// MicroBatches is the micro-batches of Batch sequences each
	// data-parallel replica runs per optimizer step (gradient
	// accumulation; the pipeline's micro-batches). Zero means 1, or
	// PipelineMicroBatchesPerStage·PP with pipeline parallelism.
	MicroBatches int
	// Method is the training method: SFT (""), or an alignment method that
	// keeps other models beside the policy (DPO, GRPO, GRPOKL, PPO);
	// ignored for inference.
	// With GRPO and PPO, OutputLen is the completions' length, which the
	// rollout time needs.
	Method Method
	// Images is the images in each sequence (a vision-language model's);
	// their tokens, Images·ImageTokens, are part of SeqLen.
	Images int
	// TrainVision also trains the vision encoder (full training); by
	// default it is frozen, as Qwen2.5-VL's and LLaVA's fine-tuning
	// recipes leave it.
	TrainVision bool
	// Interleave is the model chunks per pipeline stage of an interleaved
	// schedule (Megatron-LM's virtual pipeline stages); 0 or 1 for plain
	// 1F1B.
	Interleave int
}

// DefaultInput returns the calculator's starting point for model m: bf16
// inference with a bf16 KV cache, 4096-token sequences, batch 1, one GPU,
// no parallelism, FlashAttention on; for training it would use AdamW without
// ZeRO, offload or checkpointing, LoRA rank 16 on q,k,v,o, and the MFU of
// TrainingMFU's table for the GPU.
// Int4 weights default to NF4 with double quantization; the embeddings stay
// at 16 bits.
func DefaultInput(m Model) Input {
	return Input{
		Model:         m,
		Workload:      Inference,
		DType:         BF16,
		KVDType:       BF16,
		SeqLen:        4096,
		Batch:         1,
		GPUs:          1,
		TP:            1,
		PP:            1,
		ZeRO:          0,
		Offload:       NoOffload,
		Checkpointing: NoCheckpointing,
		Flash:         true,
		Optimizer:     AdamW,
		LoRARank:      16,
		LoRATargets:   []string{"q", "k", "v", "o"},
		Tokens:        0,
		MFU:           0,
		Quant:         NF4DQ,
	}
}

// ParseWorkload parses a workload name (case-insensitive).
func ParseWorkload(s string) (Workload, bool) {
	s = normalize(s)
	if !inList(s, workloadNames) {
		return "", false
	}
	return Workload(s), true
}

// ParseDType parses a data type name (case-insensitive). "nf4" is accepted as
// an alias of int4, "float32"/"float16"/"bfloat16" as aliases of fp32, fp16
// and bf16.
func ParseDType(s string) (DType, bool) {
	s = normalize(s)
	switch s {
	case "nf4":
		s = "int4"
	case "float32":
		s = "fp32"
	case "float16":
		s = "fp16"
	case "bfloat16":
		s = "bf16"
	}
	if !inList(s, dtypeNames) {
		return "", false
	}
	return DType(s), true
}

// ParseEngine parses an engine name (case-insensitive); "" is Tuned,
// "trtllm" and "gpt-fast" are aliases of it, "sglang" of vllm,
// "transformers" of hf, "llama.cpp" of llamacpp, and "nemo",
// "megatron-lm", "megatron-core" and "megatron-bridge" of megatron.
func ParseEngine(s string) (Engine, bool) {
	s = normalize(s)
	switch s {
	case "", "trtllm", "tensorrt-llm", "gpt-fast":
		s = "tuned"
	case "sglang":
		s = "vllm"
	case "transformers":
		s = "hf"
	case "llama.cpp":
		s = "llamacpp"
	case "nemo", "megatron-lm", "megatron-core", "megatron-bridge":
		s = "megatron"
	}
	if !inList(s, engineNames) {
		return "", false
	}
	return Engine(s), true
}

// ParseOptimizer parses an optimizer name (case-insensitive).
func ParseOptimizer(s string) (Optimizer, bool) {
	s = normalize(s)
	if !inList(s, optimizerNames) {
		return "", false
	}
	return Optimizer(s), true
}

// ParseLoss parses a loss implementation (case-insensitive); "" is
// FusedLoss.
func ParseLoss(s string) (Loss, bool) {
	s = normalize(s)
	if s == "" {
		return FusedLoss, true
	}
	if !inList(s, lossNames) {
		return "", false
	}
	return Loss(s), true
}

// ParseQuant parses a 4-bit weight format (case-insensitive); "" is NF4DQ.
func ParseQuant(s string) (Quant, bool) {
	s = normalize(s)
	if s == "" {
		return NF4DQ, true
	}
	if !inList(s, quantNames) {
		return "", false
	}
	return Quant(s), true
}

// ParseCheckpointing parses an activation checkpointing strategy
// (case-insensitive).
func ParseCheckpointing(s string) (Checkpointing, bool) {
	s = normalize(s)
	if !inList(s, checkpointingNames) {
		return "", false
	}
	return Checkpointing(s), true
}

// ParseOffload parses an offload mode (case-insensitive).
func ParseOffload(s string) (Offload, bool) {
	s = normalize(s)
	if !inList(s, offloadNames) {
		return "", false
	}
	return Offload(s), true
}

// normalize trims ASCII white space and lower-cases ASCII letters. (It
// avoids package strings' Unicode tables, which would grow the WebAssembly
// build by about 40 kB.)
//
//go:noinline
func normalize(s string) string {
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + ('a' - 'A')
		}
	}
	return string(b)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// Normalize returns in with its enum fields in canonical form: trimmed,
// lower-cased and with aliases resolved ("nf4" → "int4", "bfloat16" →
// "bf16"). Names it does not know are left lower-cased for Validate to
// report.
func (in Input) Normalize() Input {
	for _, p := range [...]*string{(*string)(&in.Workload), (*string)(&in.Optimizer), (*string)(&in.Loss), (*string)(&in.Checkpointing), (*string)(&in.Offload), (*string)(&in.Quant)} {
		*p = normalize(*p)
	}
	if e, ok := ParseEngine(string(in.Engine)); ok {
		in.Engine = e
	} else {
		in.Engine = Engine(normalize(string(in.Engine)))
	}
	for _, p := range [...]*DType{&in.DType, &in.KVDType} {
		if d, ok := ParseDType(string(*p)); ok {
			*p = d
		} else {
			*p = DType(normalize(string(*p)))
		}
	}
	return in
}
