package sizing

import "strconv"

// Messages. Every error the engine returns is a message key and its
// arguments, so that the pages (in any language) can translate it: the
// calculator looks the key up in the page's UI strings and fills in the
// arguments. The English text below is what Error returns (the `size`
// command prints it) and must equal templates/i18n/en.toml's entry for the
// same key (TestMessagesMatchEnglishCatalog).
//
// Placeholders (package message): {0} is the string argument as given (a
// name the user typed), {field} is the same argument read as a field name
// (the key FieldKeyPrefix+{0}, translated), {1} {2} {3} the integer
// arguments, {4} the number argument.

// MessageKeyPrefix is the prefix of every engine message key in the UI
// string catalogs.
const MessageKeyPrefix = "sizing.err."

// FieldKeyPrefix is the prefix of the field names the {field} placeholder
// refers to.
const FieldKeyPrefix = "sizing.field."

// UnitKeyPrefix is the prefix of the unit messages of Quantity.Unit.
const UnitKeyPrefix = "sizing.unit."

// messageTable holds one "key<TAB>English text" per line: the error
// messages (keys without MessageKeyPrefix) and, under "field.", the field
// names (keys without the "sizing." prefix). A constant, so that there is
// no package-level mutable state and the WebAssembly build stays small.
const messageTable = `range	{field} must be between {2} and {3} (got {1})
kv_divides_heads	kv heads {1} must divide heads {2}
heads_divide_hidden	heads {1} must divide hidden size {2} (or give the head dim)
mla_rope	the rope head dim {1} must be smaller than the head dim {2} (the head dim is nope + rope)
mla_needs_head_dim	multi-head latent attention needs the head dim (qk_nope_head_dim + qk_rope_head_dim)
unknown_workload	unknown workload "{0}" (want inference, full, lora or qlora)
unknown_dtype	unknown dtype "{0}" (want fp32, bf16, fp16, fp8, int8 or int4)
unknown_kv_dtype	unknown kv dtype "{0}" (want fp32, bf16, fp16, fp8, int8 or int4)
unknown_optimizer	unknown optimizer "{0}" (want adamw, adamw8bit, adamw-bf16, sgd, paged-adamw or paged-adamw8bit)
unknown_loss	unknown loss "{0}" (want fused, fp32 or chunked)
unknown_checkpointing	unknown checkpointing "{0}" (want none, selective or full)
unknown_offload	unknown offload "{0}" (want none, optimizer or full)
unknown_quant	unknown 4-bit format "{0}" (want nf4-dq, nf4, gptq or awq)
unknown_engine	unknown engine "{0}" (want tuned, vllm, hf, llamacpp or megatron)
unknown_method	unknown method "{0}" (want sft, dpo, grpo, grpo-kl or ppo)
tp_exceeds_gpus	tp {1} exceeds gpus {2}: tensor parallelism splits each layer over tp of the GPUs
tp_divides_heads	tp {1} must divide the number of attention heads {2}
tp_kv_heads	tp {1} and kv heads {2} must divide one another
gpus_multiple	gpus {1} must be a multiple of tp×pp×cp {2}
images_seq	{1} images of {2} tokens each do not fit a sequence of {3} tokens (a text-only model has 0 image tokens): lower images or raise seq
mfu_range	mfu must be in [0, 1], 0 for the GPU's typical figure (got {4})
spec_accept_range	the draft acceptance rate must be in [0, 1), 0 for the typical 0.85 (got {4})
bpw_range	bits per weight must be in [0, 16], 0 for the format's own (got {4})
bpw_dtype	bits per weight refine a weight-only quantized format: use dtype int4 or int8 (got {0})
tokens_range	tokens must be between 0 and 1e18 (got {4})
full_dtype	full training needs fp32, bf16, fp16 or fp8 weights (got {0}); use lora or qlora for quantized bases
qlora_dtype	qlora stores its base weights in int4 (nf4) and computes in bf16; dtype is the weights' storage format: use int4 (got {0})
offload_optimizer_zero	optimizer offload needs zero stage 1 or higher
offload_full_zero	full (parameter) offload needs zero stage 3
paged_offload	a paged optimizer already pages its states to CPU memory: use no offload with it, or a non-paged optimizer (adamw) to offload
optimizer_in_backward_pp	the optimizer step in backward cannot accumulate gradients over pipeline micro-batches: use pp 1
offload_activations_pp	activation offload runs without pipeline stages (Megatron needs pp 1 for it): use pp 1 or turn activation offload off
lora_no_targets	lora needs at least one target (q, k, v, o, gate, up, down)
unknown_lora_target	unknown lora target "{0}" (want q, k, v, o, gate, up or down)
lora_target_twice	lora target "{0}" given twice
gpu_memory	gpu "{0}": memory must be between 1 byte and 1 PiB (got {1})
gpu_bandwidth	gpu "{0}": bandwidth must be between 0 and 1e16 bytes/s (got {4})
gpu_flops	gpu "{0}": FLOP/s must be between 0 and 1e20 (got {4})
field.params	params
field.active_params	active params
field.layers	layers
field.hidden	hidden size
field.heads	heads
field.kv_heads	kv heads
field.head_dim	head dim
field.ffn	ffn size
field.vocab	vocab size
field.experts	experts
field.experts_per_token	experts per token
field.kv_lora_rank	kv lora rank
field.q_lora_rank	q lora rank
field.rope_head_dim	rope head dim
field.v_head_dim	v head dim
field.sliding_window	sliding window
field.local_layers	local layers
field.shared_experts	shared experts
field.dense_layers	dense layers
field.dense_ffn	dense ffn size
field.seq	sequence length
field.prompt	prompt length
field.batch	batch
field.gpus	gpus
field.tp	tp
field.pp	pp
field.cp	cp
field.zero	zero stage
field.lora_rank	lora rank
field.group_size	group size
field.bpw	bits per weight
field.images	images
field.spec_tokens	draft tokens
field.vision_params	vision params
field.image_tokens	image tokens
field.image_patches	image patches
unit.gib	{1} GiB
unit.flops	{1} FLOPs
unit.rate	{1} tokens/s
unit.hours	{1} h
unit.days	{1} days
unit.ms	{1} ms
unit.s	{1} s
unit.none	–
`

// lookupMessage returns the English text of key in messageTable, or "".
func lookupMessage(key string) string {
	t := messageTable
	for len(t) > 0 {
		end := 0
		for end < len(t) && t[end] != '\n' {
			end++
		}
		line := t[:end]
		if end < len(t) {
			t = t[end+1:]
		} else {
			t = ""
		}
		tab := 0
		for tab < len(line) && line[tab] != '\t' {
			tab++
		}
		if tab < len(line) && line[:tab] == key {
			return line[tab+1:]
		}
	}
	return ""
}

// MessageKeys returns every message key (with MessageKeyPrefix), field key
// (with FieldKeyPrefix) and unit key (with UnitKeyPrefix) the engine can
// produce, with its English text,
// in table order: the entries a UI catalog must translate.
func MessageKeys() [][2]string {
	var out [][2]string
	t := messageTable
	for len(t) > 0 {
		end := 0
		for end < len(t) && t[end] != '\n' {
			end++
		}
		line := t[:end]
		if end < len(t) {
			t = t[end+1:]
		} else {
			t = ""
		}
		for i := 0; i < len(line); i++ {
			if line[i] == '\t' {
				k := line[:i]
				switch {
				case len(k) > 6 && k[:6] == "field.":
					k = FieldKeyPrefix + k[6:]
				case len(k) > 5 && k[:5] == "unit.":
					k = UnitKeyPrefix + k[5:]
				default:
					k = MessageKeyPrefix + k
				}
				out = append(out, [2]string{k, line[i+1:]})
				break
			}
		}
	}
	return out
}

// inputError is a validation error: a message key and its arguments,
// rendered only when Error is called. Building messages in one place keeps
// the WebAssembly build small (every concatenation site costs code there).
type inputError struct {
	key string    // messageTable key
	s   string    // string argument ({0}, {field})
	n   [3]int64  // integer arguments ({1} {2} {3})
	f   float64   // number argument ({4})
	_   [0]func() // not comparable: spares the WebAssembly build an equality function
}

// Error renders the message in English (in the WebAssembly build, whose
// callers translate Message's key instead, it is the key: see
// messages_text.go and messages_wasm.go).
func (e *inputError) Error() string { return e.text() }

// args returns the arguments in placeholder order: s, the integers, f.
func (e *inputError) args() [5]string {
	return [5]string{e.s, i64toa(e.n[0]), i64toa(e.n[1]), i64toa(e.n[2]), strconv.FormatFloat(e.f, 'g', -1, 64)}
}

// Message returns the key (with MessageKeyPrefix) and the arguments
// ({0} to {4}: s, the integers, f) of an error Estimate or Validate returned;
// ok is false for other errors.
func Message(err error) (key string, args [5]string, ok bool) {
	e, ok := err.(*inputError)
	if !ok {
		return "", args, false
	}
	return MessageKeyPrefix + e.key, e.args(), true
}

// fail returns an *inputError. It is not inlined so that each call site
// stays small.
//
// Field returns the name of the setting an error of Validate concerns: a
// model figure's Name (see ModelField), or an input's (seq, batch, tp,
// kv_dtype, lora_targets, ...: its size command flag with "_" for "-");
// "" when it names none or err is not the engine's.
func Field(err error) string {
	e, ok := err.(*inputError)
	if !ok {
		return ""
	}
	switch e.key {
	case "range":
		return e.s
	case "kv_divides_heads":
		return "kv_heads"
	case "heads_divide_hidden":
		return "heads"
	case "mla_rope":
		return "rope_head_dim"
	case "mla_needs_head_dim":
		return "head_dim"
	case "tp_exceeds_gpus", "tp_divides_heads", "tp_kv_heads":
		return "tp"
	case "gpus_multiple":
		return "gpus"
	case "mfu_range":
		return "mfu"
	case "spec_accept_range":
		return "spec_accept"
	case "bpw_range":
		return "bpw"
	case "bpw_dtype":
		return "dtype"
	case "tokens_range":
		return "tokens"
	case "images_seq":
		return "images"
	case "full_dtype", "qlora_dtype", "unknown_dtype":
		return "dtype"
	case "unknown_kv_dtype":
		return "kv_dtype"
	case "offload_optimizer_zero", "offload_full_zero", "paged_offload", "unknown_offload":
		return "offload"
	case "optimizer_in_backward_pp", "offload_activations_pp":
		return "pp"
	case "lora_no_targets", "unknown_lora_target", "lora_target_twice":
		return "lora_targets"
	case "unknown_workload", "unknown_optimizer", "unknown_loss", "unknown_checkpointing", "unknown_quant", "unknown_engine", "unknown_method":
		return e.key[len("unknown_"):]
	}
	return ""
}

func fail(key, s string, n0, n1, n2 int64, f float64) error {
	return &inputError{key: key, s: s, n: [3]int64{n0, n1, n2}, f: f}
}
