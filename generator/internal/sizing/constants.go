package sizing

// Bytes per parameter and per element, with their sources.

const (
	// ModelStateBytesPerParam is the model-state cost of full
	// mixed-precision training with AdamW that this estimator uses: 16 bytes
	// per parameter, i.e. 2Ψ fp16/bf16 weights + 2Ψ fp16/bf16 gradients +
	// KΨ optimizer states with K = 12 (fp32 master weights, momentum and
	// variance, 4 bytes each) [ZeRO §3.1; TM101 "Memory Requirements"].
	//
	// Published estimators disagree: DeepSpeed's
	// estimate_zero2_model_states_mem_needs charges 4Ψ + 16Ψ/Nd (20 bytes
	// per parameter at Nd = 1: it adds a 4-byte fp32 gradient copy and keeps
	// the fp16 gradients unpartitioned) and estimate_zero3_model_states_mem_needs
	// charges 18Ψ/Nd; Megatron-LM's distributed-optimizer notes charge 18
	// (bf16 weights with fp32 gradient accumulation). We keep 16 because it
	// is the figure the ZeRO paper derives and all its stage formulas are
	// written in, because the fp32 gradient copy is a transient buffer that
	// DeepSpeed's own notes say exists only while the optimizer step runs,
	// and because it is the count most widely quoted (TM101). The
	// difference is at most 2–4 bytes per parameter; BytesPerParamRationale
	// states it on the methodology page, and DeepSpeedZeRO2GPUBytes /
	// DeepSpeedZeRO3GPUBytes reproduce DeepSpeed's figures for comparison.
	ModelStateBytesPerParam = 16

	// BytesPerParamRationale explains ModelStateBytesPerParam for the
	// site's methodology page.
	BytesPerParamRationale = "Full training with mixed-precision AdamW is costed at 16 bytes per " +
		"parameter: 2 for the 16-bit weights, 2 for the 16-bit gradients and 12 for the optimizer " +
		"(an fp32 master copy of the weights, momentum and variance, 4 bytes each). This is the " +
		"2Ψ + 2Ψ + 12Ψ count of the ZeRO paper (Rajbhandari et al., 2020) and EleutherAI's " +
		"Transformer Math 101. DeepSpeed's memory estimators use 18 (ZeRO-3) or 20 (ZeRO-2, at one " +
		"GPU) bytes per parameter, because they also count a 4-byte fp32 copy of the gradients " +
		"that exists while the optimizer step runs, and Megatron-LM charges 18 when gradients are " +
		"accumulated in fp32. We use 16 so that the ZeRO stage formulas apply exactly; expect " +
		"real runs of those frameworks to need up to 2–4 bytes per parameter more."

	// FP32Bytes is the size of an fp32 number.
	FP32Bytes = 4.0
	// HalfBytes is the size of an fp16/bf16 number.
	HalfBytes = 2.0
	// ByteBytes is the size of an fp8/int8 number.
	ByteBytes = 1.0

	// NF4BitsPerParam is the storage cost of 4-bit NormalFloat weights with
	// double quantization [QLoRA §3]: 4 bits per weight plus the block
	// constants. Plain blockwise quantization (block 64, fp32 absmax) costs
	// 32/64 = 0.5 bit per parameter; double quantization (8-bit constants,
	// second-level blocks of 256 with fp32 constants) reduces that to
	// 8/64 + 32/(64·256) = 0.127 bit (0.12695 exactly). We use the same
	// figure for any int4 weight format: GPTQ/AWQ with group size 128 and
	// 16-bit scales cost a similar 4.1–4.25 bits.
	NF4BitsPerParam = 4 + 8.0/64 + 32.0/(64*256)

	// NF4BytesPerParam is NF4BitsPerParam in bytes (0.51587).
	NF4BytesPerParam = NF4BitsPerParam / 8

	// Int4KVBytes is the size of one 4-bit KV-cache element. Block scales
	// are not modelled for the KV cache.
	Int4KVBytes = 0.5
)

// Memory reserves.

const (
	// OverheadBytes is the fixed per-GPU cost outside tensors that this
	// estimator charges to every configuration: the CUDA context (kernel
	// images of CUDA, cuBLAS, cuDNN and NCCL; 0.3–2 GiB depending on the
	// CUDA version and lazy loading, as commonly measured with PyTorch),
	// cuBLAS workspaces and framework buffers. We take the middle of that
	// range: 1 GiB. See OverheadRationale.
	OverheadBytes int64 = 1 << 30

	// OverheadRationale explains OverheadBytes for the methodology page.
	OverheadRationale = "Every configuration is charged a fixed 1 GiB per GPU for what is not a " +
		"tensor: the CUDA context with the kernel images of CUDA, cuBLAS, cuDNN and NCCL (commonly " +
		"measured at 0.3 to 2 GiB with PyTorch, depending on the CUDA version and whether modules " +
		"load lazily), cuBLAS workspaces and framework buffers."

	// ReserveFraction is the share of device memory treated as unusable by
	// UsableBytes: allocator fragmentation and the caching allocator's
	// slack. vLLM, for comparison, plans with 90 % of the device
	// (gpu_memory_utilization = 0.9) and counts its CUDA context inside
	// that; we charge the context separately (OverheadBytes) and keep 5 %.
	ReserveFraction = 0.05

	// MinReserveBytes is the smallest reserve UsableBytes keeps back
	// (512 MiB), which dominates on GPUs under 10 GiB: the driver and the
	// display (on consumer cards) hold memory regardless of the device size.
	MinReserveBytes int64 = 512 << 20

	// UsableMemoryRationale explains UsableBytes for the methodology page.
	UsableMemoryRationale = "A configuration fits when its per-GPU total stays within the usable " +
		"memory: the device memory minus the larger of 5 % and 512 MiB. The reserve covers " +
		"allocator fragmentation and the PyTorch caching allocator's slack, and on small or " +
		"consumer cards the memory the driver and display hold. (vLLM plans with 90 % of the " +
		"device by default but counts the CUDA context inside that; here the context is the " +
		"separate 1 GiB overhead line.)"

	// PrefillChunkTokens is the number of prompt tokens an inference
	// engine is assumed to process in one forward pass. Serving engines
	// bound it (vLLM's chunked prefill processes at most
	// max_num_batched_tokens per step, with defaults between 2,048 and
	// 16,384 depending on version and hardware), so the inference working
	// buffer does not grow with the whole context.
	PrefillChunkTokens = 8192
)

// NF4PlainBitsPerParam is 4-bit NormalFloat without double quantization:
// 4 bits plus one fp32 absmax per block of 64 weights, 4 + 32/64 = 4.5 bits
// [QLoRA §3; bitsandbytes' default blocksize of 64].
const NF4PlainBitsPerParam = 4 + 32.0/64
