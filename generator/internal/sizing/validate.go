package sizing

import "strconv"

// Limits on inputs. They keep every intermediate product finite and far from
// float64 precision trouble; figures that would still exceed an int64
// saturate (see the package documentation).
const (
	MaxParams     = 1e13    // parameters (10 T)
	MaxSeqLen     = 1e7     // tokens (10 M)
	MaxBatch      = 1e5     // sequences
	MaxGPUs       = 100000  // GPUs
	MaxLayers     = 100000  // transformer blocks
	MaxHidden     = 1 << 20 // model width
	MaxHeads      = 1 << 16 // attention heads
	MaxHeadDim    = 1 << 16 // head dimension
	MaxFFN        = 1 << 24 // MLP width
	MaxVocab      = 1 << 24 // vocabulary
	MaxExperts    = 1 << 16 // experts per MoE layer
	MaxLoRARank   = 1 << 16 // adapter rank
	MaxTokens     = 1e18    // training tokens
	MaxGPUMemory  = 1 << 50 // bytes of device memory (1 PiB)
	MaxBandwidth  = 1e16    // bytes/s
	MaxDenseFLOPS = 1e20    // FLOP/s
)

// inputError is a validation error kept as a message template and its
// arguments, rendered only when Error is called. Building messages in one
// place keeps the WebAssembly build small (every concatenation site costs
// code there).
type inputError struct {
	tmpl string    // %s: s, %0 %1 %2: n[i], %f: f
	s    string    // string argument
	n    [3]int64  // integer arguments
	f    float64   // float argument
	_    [0]func() // not comparable: spares the WebAssembly build an equality function
}

// Error renders the message.
func (e *inputError) Error() string {
	var b []byte
	t := e.tmpl
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c != '%' || i+1 == len(t) {
			b = append(b, c)
			continue
		}
		i++
		switch c = t[i]; c {
		case 's':
			b = append(b, e.s...)
		case 'f':
			b = strconv.AppendFloat(b, e.f, 'g', -1, 64)
		default:
			b = strconv.AppendInt(b, e.n[(c-'0')%3], 10)
		}
	}
	return string(b)
}

// fail returns an *inputError. It is not inlined so that each call site
// stays small.
//
//go:noinline
func fail(tmpl, s string, n0, n1, n2 int64, f float64) error {
	return &inputError{tmpl: tmpl, s: s, n: [3]int64{n0, n1, n2}, f: f}
}

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
			return fail("%s must be between %1 and %2 (got %0)", c.name, c.v, c.lo, c.hi, 0)
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
	optimizerNames     = "adamw adamw8bit sgd"
	checkpointingNames = "none selective full"
	offloadNames       = "none optimizer full"
	loraTargetWords    = "q k v o gate up down"
)

// Validate reports the first problem with the model description as a
// one-line error, or nil.
func (m Model) Validate() error {
	eptLo := int64(0)
	if m.Experts > 0 {
		eptLo = 1
	}
	if err := checkRanges([]rangeCheck{
		{"params", m.Params, 1, MaxParams},
		{"active params", m.ActiveParams, 0, m.Params},
		{"layers", int64(m.Layers), 1, MaxLayers},
		{"hidden size", int64(m.Hidden), 1, MaxHidden},
		{"heads", int64(m.Heads), 1, MaxHeads},
		{"kv heads", int64(m.KVHeads), 0, int64(m.Heads)},
		{"head dim", int64(m.HeadDim), 0, MaxHeadDim},
		{"ffn size", int64(m.FFN), 0, MaxFFN},
		{"vocab size", int64(m.Vocab), 0, MaxVocab},
		{"experts", int64(m.Experts), 0, MaxExperts},
		{"experts per token", int64(m.ExpertsPerToken), eptLo, int64(m.Experts)},
	}); err != nil {
		return err
	}
	if m.KVHeads > 0 && m.Heads%m.KVHeads != 0 {
		return fail("kv heads %0 must divide heads %1", "", int64(m.KVHeads), int64(m.Heads), 0, 0)
	}
	if m.HeadDim == 0 && m.Hidden%m.Heads != 0 {
		return fail("heads %0 must divide hidden size %1 (or give the head dim)", "", int64(m.Heads), int64(m.Hidden), 0, 0)
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
// targets) are checked only for the workloads that use them.
func (in Input) Validate() error {
	m := in.Model
	if err := m.Validate(); err != nil {
		return err
	}
	for _, e := range [...]struct{ val, list, tmpl string }{
		{string(in.Workload), workloadNames, "unknown workload \"%s\" (want inference, full, lora or qlora)"},
		{string(in.DType), dtypeNames, "unknown dtype \"%s\" (want fp32, bf16, fp16, fp8, int8 or int4)"},
		{string(in.KVDType), dtypeNames, "unknown kv dtype \"%s\" (want fp32, bf16, fp16, fp8, int8 or int4)"},
		{string(in.Optimizer), optimizerNames, "unknown optimizer \"%s\" (want adamw, adamw8bit or sgd)"},
		{string(in.Checkpointing), checkpointingNames, "unknown checkpointing \"%s\" (want none, selective or full)"},
		{string(in.Offload), offloadNames, "unknown offload \"%s\" (want none, optimizer or full)"},
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
		{"sequence length", int64(in.SeqLen), 1, MaxSeqLen},
		{"batch", int64(in.Batch), 1, MaxBatch},
		{"gpus", int64(in.GPUs), 1, MaxGPUs},
		{"tp", int64(in.TP), 1, MaxGPUs},
		{"pp", int64(in.PP), 0, int64(m.Layers)},
		{"zero stage", int64(in.ZeRO), 0, 3},
		{"lora rank", int64(in.LoRARank), rankLo, MaxLoRARank},
	}); err != nil {
		return err
	}
	if in.TP > in.GPUs {
		return fail("tp %0 exceeds gpus %1: tensor parallelism splits each layer over tp of the GPUs", "", int64(in.TP), int64(in.GPUs), 0, 0)
	}
	if m.Heads%in.TP != 0 {
		return fail("tp %0 must divide the number of attention heads %1", "", int64(in.TP), int64(m.Heads), 0, 0)
	}
	if kv := m.kvHeads(); !kvCompatible(kv, in.TP) {
		return fail("tp %0 and kv heads %1 must divide one another", "", int64(in.TP), int64(kv), 0, 0)
	}
	if mp := in.TP * in.pp(); in.GPUs%mp != 0 {
		return fail("gpus %0 must be a multiple of tp×pp %1", "", int64(in.GPUs), int64(mp), 0, 0)
	}
	if !(in.MFU > 0 && in.MFU <= 1) {
		return fail("mfu must be in (0, 1] (got %f)", "", 0, 0, 0, in.MFU)
	}
	if !(in.Tokens >= 0 && in.Tokens <= MaxTokens) {
		return fail("tokens must be between 0 and 1e18 (got %f)", "", 0, 0, 0, in.Tokens)
	}
	if in.Workload == FullTraining && !inList(string(in.DType), "fp32 bf16 fp16") {
		return fail("full training needs fp32, bf16 or fp16 weights (got %s); use lora or qlora for quantized bases", string(in.DType), 0, 0, 0, 0)
	}
	if in.Workload == QLoRA && in.DType != INT4 {
		return fail("qlora needs int4 (nf4) weights (got %s)", string(in.DType), 0, 0, 0, 0)
	}
	if in.Workload != Inference {
		if in.Offload == OffloadOptimizer && in.ZeRO < 1 {
			return fail("optimizer offload needs zero stage 1 or higher", "", 0, 0, 0, 0)
		}
		if in.Offload == OffloadFull && in.ZeRO != 3 {
			return fail("full (parameter) offload needs zero stage 3", "", 0, 0, 0, 0)
		}
	}
	if lora {
		if len(in.LoRATargets) == 0 {
			return fail("lora needs at least one target (q, k, v, o, gate, up, down)", "", 0, 0, 0, 0)
		}
		seen := 0
		for _, t := range in.LoRATargets {
			i := wordIndex(t, loraTargetWords)
			if i < 0 {
				return fail("unknown lora target \"%s\" (want q, k, v, o, gate, up or down)", t, 0, 0, 0, 0)
			}
			if seen&(1<<i) != 0 {
				return fail("lora target \"%s\" given twice", t, 0, 0, 0, 0)
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
		return fail("gpu \"%s\": memory must be between 1 byte and 1 PiB (got %0)", g.ID, g.MemoryBytes, 0, 0, 0)
	}
	if !(g.BandwidthBytesPerSec >= 0 && g.BandwidthBytesPerSec <= MaxBandwidth) {
		return fail("gpu \"%s\": bandwidth must be between 0 and 1e16 bytes/s (got %f)", g.ID, 0, 0, 0, g.BandwidthBytesPerSec)
	}
	if !(g.DenseBF16FLOPS >= 0 && g.DenseBF16FLOPS <= MaxDenseFLOPS) {
		return fail("gpu \"%s\": bf16 FLOP/s must be between 0 and 1e20 (got %f)", g.ID, 0, 0, 0, g.DenseBF16FLOPS)
	}
	return nil
}
