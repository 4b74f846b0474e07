package sizing

// Model describes the architecture of a decoder-only transformer, as found in
// a Hugging Face config.json.
type Model struct {
	// Params is the total parameter count (all experts for a mixture of
	// experts). Weight memory is proportional to it.
	Params int64
	// ActiveParams is the number of parameters used per token (MoE). Zero
	// means Params. Training FLOPs and decode speed are proportional to it.
	ActiveParams int64
	// Layers is the number of transformer blocks (num_hidden_layers).
	Layers int
	// Hidden is the model width h (hidden_size).
	Hidden int
	// Heads is the number of attention (query) heads a.
	Heads int
	// KVHeads is the number of key/value heads (GQA/MQA). Zero means Heads.
	KVHeads int
	// FFN is the MLP intermediate size (per expert for MoE). Zero means
	// 4·Hidden.
	FFN int
	// Vocab is the vocabulary size v. Zero leaves the output-layer terms out.
	Vocab int
	// Experts is the number of routed experts per MoE layer; zero for a
	// dense model.
	Experts int
	// ExpertsPerToken is the number of experts each token is routed to.
	ExpertsPerToken int
	// HeadDim is the attention head dimension. Zero means Hidden/Heads
	// (models such as Gemma set it explicitly).
	HeadDim int
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
)

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
	// Zero means unknown (training time is then reported as 0).
	DenseBF16FLOPS float64
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
	// GPUs is the total number of GPUs; it must be a multiple of TP·PP. The
	// data-parallel degree is GPUs/(TP·PP).
	GPUs int
	// TP is the tensor-parallel degree (Megatron-style, within a node).
	TP int
	// PP is the pipeline-parallel degree. Zero is read as 1.
	PP int
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
	// LoRARank is the adapter rank r (lora and qlora only).
	LoRARank int
	// LoRATargets are the adapted projections: q, k, v, o, gate, up, down.
	LoRATargets []string
	// Tokens is the number of training tokens D (0: no time estimate).
	Tokens float64
	// MFU is the model FLOPs utilisation assumed for training time, in (0, 1].
	MFU float64
}

// DefaultInput returns the calculator's starting point for model m: bf16
// inference with a bf16 KV cache, 4096-token sequences, batch 1, one GPU,
// no parallelism, FlashAttention on; for training it would use AdamW without
// ZeRO, offload or checkpointing, LoRA rank 16 on q,k,v,o, and 40 % MFU.
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
		MFU:           0.4,
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

// ParseOptimizer parses an optimizer name (case-insensitive).
func ParseOptimizer(s string) (Optimizer, bool) {
	s = normalize(s)
	if !inList(s, optimizerNames) {
		return "", false
	}
	return Optimizer(s), true
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
	for _, p := range [...]*string{(*string)(&in.Workload), (*string)(&in.Optimizer), (*string)(&in.Checkpointing), (*string)(&in.Offload)} {
		*p = normalize(*p)
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
