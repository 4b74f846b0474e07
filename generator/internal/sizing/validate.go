package sizing

import "strconv"

// Limits on inputs. They keep every intermediate product finite and far from
// float64 precision trouble; figures that would still exceed an int64
// saturate (see the package documentation).
const (
	MaxParams        = 1e13    // parameters (10 T)
	MaxSeqLen        = 1e7     // tokens (10 M)
	MaxBatch         = 1e5     // sequences
	MaxGPUs          = 100000  // GPUs
	MaxLayers        = 100000  // transformer blocks
	MaxHidden        = 1 << 20 // model width
	MaxHeads         = 1 << 16 // attention heads
	MaxHeadDim       = 1 << 16 // head dimension
	MaxFFN           = 1 << 24 // MLP width
	MaxVocab         = 1 << 24 // vocabulary
	MaxExperts       = 1 << 16 // experts per MoE layer
	MaxLoRARank      = 1 << 16 // adapter rank
	MaxTokens        = 1e18    // training tokens
	MaxGPUMemory     = 1 << 50 // bytes of device memory (1 PiB)
	MaxBandwidth     = 1e16    // bytes/s
	MaxDenseFLOPS    = 1e20    // FLOP/s
	MaxBitsPerWeight = 16      // Input.BitsPerWeight
	MaxSpecTokens    = 16      // Input.SpecTokens
)

func itoa(n int) string     { return strconv.Itoa(n) }
func i64toa(n int64) string { return strconv.FormatInt(n, 10) }

// rangeCheck is one bounds check. Validate is table-driven because every
// call site costs code in the WebAssembly build.
type rangeCheck struct {
	name      string
	v, lo, hi int64
}

//go:noinline
func checkRanges(cs []rangeCheck) error {
	for _, c := range cs {
		if c.v < c.lo || c.v > c.hi {
			return fail("range", c.name, c.v, c.lo, c.hi, 0)
		}
	}
	return nil
}

// wordIndex returns the position of w among the space-separated words of
// list, or -1.
//
//go:noinline
func wordIndex(w, list string) int {
	n := 0
	for i := 0; i < len(list); n++ {
		j := i
		for j < len(list) && list[j] != ' ' {
			j++
		}
		if j > i && list[i:j] == w {
			return n
		}
		i = j + 1
	}
	return -1
}

// inList reports whether w is one of the space-separated words of list.
func inList(w, list string) bool { return wordIndex(w, list) >= 0 }

// Canonical enum names, space-separated.
const (
	workloadNames      = "inference full lora qlora"
	dtypeNames         = "fp32 bf16 fp16 fp8 int8 int4"
	optimizerNames     = "adamw adamw8bit adamw-bf16 sgd paged-adamw paged-adamw8bit"
	lossNames          = "fused fp32 chunked" // and "", read as fused
	quantNames         = "nf4-dq nf4 gptq awq"
	checkpointingNames = "none selective full"
	offloadNames       = "none optimizer full"
	engineNames        = "tuned vllm hf llamacpp megatron"
	loraTargetWords    = "q k v o gate up down"
)

// Validate reports the first problem with the model description as a
// one-line error, or nil.
func (m Model) Validate() error {
	for _, f := range ModelFields() {
		if f.Bool {
			continue
		}
		lo, hi := f.Bounds(&m)
		if v := f.Get(&m); v < lo || v > hi {
			return fail("range", f.Name, v, lo, hi, 0)
		}
	}
	if m.KVHeads > 0 && m.Heads%m.KVHeads != 0 {
		return fail("kv_divides_heads", "", int64(m.KVHeads), int64(m.Heads), 0, 0)
	}
	if m.HeadDim == 0 && m.Hidden%m.Heads != 0 {
		return fail("heads_divide_hidden", "", int64(m.Heads), int64(m.Hidden), 0, 0)
	}
	if m.KVLoRARank > 0 {
		if m.HeadDim == 0 {
			return fail("mla_needs_head_dim", "", 0, 0, 0, 0)
		}
		if m.QKRopeHeadDim >= m.HeadDim {
			return fail("mla_rope", "", int64(m.QKRopeHeadDim), int64(m.HeadDim), 0, 0)
		}
	}
	return nil
}

// kvCompatible reports whether tensor-parallel degree tp can split kv KV
// heads: either tp divides them, or they divide tp and each KV head is
// replicated on tp/kv ranks (Megatron-LM and vLLM both require one of the
// two).
func kvCompatible(kv, tp int) bool {
	return kv%tp == 0 || tp%kv == 0
}

// Validate reports the first problem with the input as a one-line error, or
// nil. Estimate calls it; every input it accepts produces finite,
// non-negative figures. Enum fields must hold canonical names (use the
// Parse functions for case-insensitive input and aliases such as "nf4").
// Settings that only apply to training (ZeRO offload rules, LoRA rank and
// targets) are checked only for the workloads that use them. It is kept
// whole because it is one flat list of checks in the order their errors
// take precedence, and in the WebAssembly build each extra function adds
// to the module.
func (in Input) Validate() error {
	m := in.Model
	if err := m.Validate(); err != nil {
		return err
	}
	loss := string(in.Loss)
	if loss == "" {
		loss = string(FusedLoss)
	}
	for _, e := range [...]struct{ val, list, tmpl string }{
		{string(in.Workload), workloadNames, "unknown_workload"},
		{string(in.DType), dtypeNames, "unknown_dtype"},
		{string(in.KVDType), dtypeNames, "unknown_kv_dtype"},
		{string(in.Optimizer), optimizerNames, "unknown_optimizer"},
		{loss, lossNames, "unknown_loss"},
		{string(in.Checkpointing), checkpointingNames, "unknown_checkpointing"},
		{string(in.Offload), offloadNames, "unknown_offload"},
		{string(in.quant()), quantNames, "unknown_quant"},
		{string(in.engine()), engineNames, "unknown_engine"},
		{string(in.method()), methodNames, "unknown_method"},
	} {
		if !inList(e.val, e.list) {
			return fail(e.tmpl, e.val, 0, 0, 0, 0)
		}
	}
	lora := in.Workload == LoRA || in.Workload == QLoRA
	rankLo := int64(0)
	if lora {
		rankLo = 1
	}
	if err := checkRanges([]rangeCheck{
		{"seq", int64(in.SeqLen), 1, MaxSeqLen},
		{"prompt", int64(in.PromptLen), 0, MaxSeqLen},
		{"output", int64(in.OutputLen), 0, MaxSeqLen},
		{"micro_batches", int64(in.MicroBatches), 0, MaxBatch},
		{"interleave", int64(in.Interleave), 0, MaxLayers},
		{"batch", int64(in.Batch), 1, MaxBatch},
		{"gpus", int64(in.GPUs), 1, MaxGPUs},
		{"tp", int64(in.TP), 1, MaxGPUs},
		{"pp", int64(in.PP), 0, int64(m.Layers)},
		{"cp", int64(in.CP), 0, MaxGPUs},
		{"zero", int64(in.ZeRO), 0, 3},
		{"lora_rank", int64(in.LoRARank), rankLo, MaxLoRARank},
		{"group_size", int64(in.GroupSize), 0, MaxHidden},
		{"images", int64(in.Images), 0, MaxSeqLen},
		{"spec_tokens", int64(in.SpecTokens), 0, MaxSpecTokens},
	}); err != nil {
		return err
	}
	if in.TP > in.GPUs {
		return fail("tp_exceeds_gpus", "", int64(in.TP), int64(in.GPUs), 0, 0)
	}
	if m.Heads%in.TP != 0 {
		return fail("tp_divides_heads", "", int64(in.TP), int64(m.Heads), 0, 0)
	}
	if kv := m.kvHeads(); !kvCompatible(kv, in.TP) {
		return fail("tp_kv_heads", "", int64(in.TP), int64(kv), 0, 0)
	}
	if mp := int64(in.TP) * int64(in.pp()) * int64(in.cp()); int64(in.GPUs)%mp != 0 {
		return fail("gpus_multiple", "", int64(in.GPUs), mp, 0, 0)
	}
	if !(in.BitsPerWeight >= 0 && in.BitsPerWeight <= MaxBitsPerWeight) {
		return fail("bpw_range", "", 0, 0, 0, in.BitsPerWeight)
	}
	if in.BitsPerWeight > 0 && in.DType != INT4 && in.DType != INT8 {
		return fail("bpw_dtype", string(in.DType), 0, 0, 0, 0)
	}
	if !(in.MFU >= 0 && in.MFU <= 1) {
		return fail("mfu_range", "", 0, 0, 0, in.MFU)
	}
	if !(in.SpecAccept >= 0 && in.SpecAccept < 1) {
		return fail("spec_accept_range", "", 0, 0, 0, in.SpecAccept)
	}
	if !(in.Tokens >= 0 && in.Tokens <= MaxTokens) {
		return fail("tokens_range", "", 0, 0, 0, in.Tokens)
	}
	if in.Workload == FullTraining && !inList(string(in.DType), "fp32 bf16 fp16 fp8") {
		return fail("full_dtype", string(in.DType), 0, 0, 0, 0)
	}
	if in.Images > 0 && (m.ImageTokens == 0 || int64(in.Images)*int64(m.ImageTokens) > int64(in.SeqLen)) {
		return fail("images_seq", "", int64(in.Images), int64(m.ImageTokens), int64(in.SeqLen), 0)
	}
	if in.Workload == QLoRA && in.DType != INT4 {
		return fail("qlora_dtype", string(in.DType), 0, 0, 0, 0)
	}
	if in.Workload != Inference {
		if in.Offload == OffloadOptimizer && in.ZeRO < 1 {
			return fail("offload_optimizer_zero", "", 0, 0, 0, 0)
		}
		if in.Offload == OffloadFull && in.ZeRO != 3 {
			return fail("offload_full_zero", "", 0, 0, 0, 0)
		}
		if in.paged() && in.Offload != NoOffload {
			return fail("paged_offload", "", 0, 0, 0, 0)
		}
		if in.OptimizerInBackward && in.pp() > 1 {
			return fail("optimizer_in_backward_pp", "", 0, 0, 0, 0)
		}
		if in.OffloadActivations && in.pp() > 1 {
			return fail("offload_activations_pp", "", 0, 0, 0, 0)
		}
	}
	if lora {
		if len(in.LoRATargets) == 0 {
			return fail("lora_no_targets", "", 0, 0, 0, 0)
		}
		seen := 0
		for _, t := range in.LoRATargets {
			i := wordIndex(t, loraTargetWords)
			if i < 0 {
				return fail("unknown_lora_target", t, 0, 0, 0, 0)
			}
			if seen&(1<<i) != 0 {
				return fail("lora_target_twice", t, 0, 0, 0, 0)
			}
			seen |= 1 << i
		}
	}
	return nil
}

// mustDType returns d when it is a canonical DType name, else "".
func mustDType(d DType) DType {
	if inList(string(d), dtypeNames) {
		return d
	}
	return ""
}

// Validate reports the first problem with the GPU description, or nil.
// Memory must be positive; bandwidth and FLOP/s may be zero (unknown).
func (g GPU) Validate() error {
	if g.MemoryBytes < 1 || g.MemoryBytes > MaxGPUMemory {
		return fail("gpu_memory", g.ID, g.MemoryBytes, 0, 0, 0)
	}
	if !(g.BandwidthBytesPerSec >= 0 && g.BandwidthBytesPerSec <= MaxBandwidth) {
		return fail("gpu_bandwidth", g.ID, 0, 0, 0, g.BandwidthBytesPerSec)
	}
	for _, f := range [...]float64{g.DenseBF16FLOPS, g.DenseFP8FLOPS, g.FP32FLOPS} {
		if !(f >= 0 && f <= MaxDenseFLOPS) {
			return fail("gpu_flops", g.ID, 0, 0, 0, f)
		}
	}
	return nil
}
