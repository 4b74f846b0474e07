package sizing

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
// (8 bytes), bitsandbytes' 8-bit AdamW keeps them in 8 bits (2 bytes),
// AdamW with bf16 moments 2 + 2 bytes (torch.optim.AdamW's zeros_like on
// bf16 parameters; DeepSpeed's bf16_optimizer_states), SGD with momentum
// keeps one fp32 buffer (4 bytes); the paged variants keep the same
// states in paged memory. With 16-bit weights (mixed precision) each
// adds a 4-byte fp32 master copy of the weights, giving TM101's 12, 6 and 8
// bytes per parameter; K = 12 in [ZeRO].
//
//go:noinline
func optimizerBytesPerParam(o Optimizer, master bool) float64 {
	var b float64
	switch o {
	case AdamW8bit, PagedAdamW8bit:
		b = 2
	case SGD, AdamWBF16:
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

// quantized reports whether the weight format is one that keeps the
// embeddings at 16 bits by default (fp8, int8, int4).
func quantized(d DType) bool { return d == FP8 || d == INT8 || d == INT4 }

// weightBytes is the storage of params parameters of model m at the input's
// weight format (at BitsPerWeight when set, every weight alike): the embeddings (embed of the params) stay at 16 bits for a
// quantized format unless QuantEmbeddings is set [bitsandbytes keeps the
// output layer in 16 bits (llm_int8_skip_modules defaults to it) and never
// quantizes nn.Embedding; GPTQ, AWQ and vLLM's fp8 quantize only the linear
// layers of the blocks].
//
//go:noinline
func (in Input) weightBytes(params, embed float64) float64 {
	if in.BitsPerWeight > 0 {
		return params * in.BitsPerWeight / 8 // an average over every weight
	}
	wb := weightBytesPerParam(in.DType, in.quant(), in.GroupSize)
	if !quantized(in.DType) || in.QuantEmbeddings {
		return params * wb
	}
	if embed > params {
		embed = params
	}
	return (params-embed)*wb + embed*HalfBytes
}

// embedBytes is the storage of one embedding parameter at the input's
// format (16 bits for a quantized format unless QuantEmbeddings).
func embedBytes(in Input) float64 {
	if in.BitsPerWeight > 0 {
		return in.BitsPerWeight / 8
	}
	if quantized(in.DType) && !in.QuantEmbeddings {
		return HalfBytes
	}
	return weightBytesPerParam(in.DType, in.quant(), in.GroupSize)
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
