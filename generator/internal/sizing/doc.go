// Package sizing estimates the GPU memory, compute and speed of running or
// training a transformer language model. It is the engine behind GPU Atlas's
// sizing calculator: the static site generator calls it at build time, the
// `size` subcommand calls it from the command line, and the same code is
// compiled to WebAssembly (generator/wasm) for the in-browser calculator.
//
// The package is pure: it does no I/O and holds no mutable globals, and its
// non-test files may import only errors, math, strconv, strings and sort
// (today: math and strconv), so that the WebAssembly build stays small;
// TestImportsStayLean enforces it. Parts of the code are shaped by that
// build, where every call site costs code: table-driven validation, error
// messages kept as keys with arguments (messages.go) and rendered from one
// table, a few //go:noinline helpers.
//
// Every message the engine produces, errors and units alike, is a key and
// its arguments (Message, Quantity), so that the pages translate it; the
// English table in messages.go is what Error returns and matches the UI
// catalog templates/i18n/en.toml.
//
// # Sources
//
// Every formula names its source next to the code that implements it. The
// sources are:
//
//   - [TM101] Q. Anthony, S. Biderman, H. Schoelkopf, "Transformer Math 101",
//     EleutherAI blog, April 2023. Bytes per parameter by precision and
//     optimizer; C ≈ 6·P·D.
//   - [ZeRO] S. Rajbhandari, J. Rasley, O. Ruwase, Y. He, "ZeRO: Memory
//     Optimizations Toward Training Trillion Parameter Models", SC 2020.
//     Model states (2+2+K)·Ψ with K = 12 for mixed-precision Adam, and the
//     per-stage partitioning over the data-parallel degree Nd.
//   - [DSMEM] DeepSpeed documentation, "Memory Requirements", and the
//     functions estimate_zero2_model_states_mem_needs (stage_1_and_2.py) and
//     estimate_zero3_model_states_mem_needs (stage3.py).
//   - [Korthikanti] V. Korthikanti et al., "Reducing Activation Recomputation
//     in Large Transformer Models", 2022. Activation bytes per layer
//     s·b·h·(34 + 5·a·s/h) with 16-bit activations; tensor-parallel and
//     recomputation variants.
//   - [Flash] T. Dao et al., "FlashAttention", 2022: the s×s attention score
//     matrix is never materialised.
//   - [vLLM] W. Kwon et al., "Efficient Memory Management for Large Language
//     Model Serving with PagedAttention", SOSP 2023. KV bytes per token =
//     2 · layers · kv_heads · head_dim · bytes.
//   - [QLoRA] T. Dettmers et al., "QLoRA: Efficient Finetuning of Quantized
//     LLMs", 2023. NF4 weights with double-quantized block constants.
//   - [qlora.py] The QLoRA reference training script, artidoro/qlora
//     qlora.py at commit 00e5ad2a75bccb5d7afee3e8186b783385052315:
//     optim default 'paged_adamw_32bit', gradient_checkpointing default
//     True ("You want to use this."), double_quant True, quant_type
//     "nf4", and LoraLayer modules cast to bfloat16 with --bf16 (see
//     Recipe).
//   - [LoRA] E. Hu et al., "LoRA: Low-Rank Adaptation of Large Language
//     Models", 2021. r·(d_in + d_out) parameters per adapted matrix.
//   - [Chinchilla] J. Hoffmann et al., "Training Compute-Optimal Large
//     Language Models", 2022 (used by the tests to check 6·N·D; Appendix F
//     counts the attention FLOPs the prefill estimate uses).
//   - [Kaplan] J. Kaplan et al., "Scaling Laws for Neural Language
//     Models", 2020, Table 1: forward FLOPs ≈ 2N per token plus attention.
//   - [DSV2] DeepSeek-AI, "DeepSeek-V2: A Strong, Economical, and Efficient
//     Mixture-of-Experts Language Model", 2024, §2.1: multi-head latent
//     attention caches (d_c + d_h^R)·l elements per token (Table 1); the
//     absorbed projections for decoding.
//   - [DSV3] DeepSeek-AI, "DeepSeek-V3 Technical Report", 2024: shared and
//     routed experts, dense first layers, FP8 training (§3.3).
//   - [Mistral] A. Jiang et al., "Mistral 7B", 2023, §2: sliding-window
//     attention and the rolling buffer cache (8× less cache at 32k tokens
//     with a 4096 window).
//   - [TE] NVIDIA Transformer Engine documentation, "Using FP8": FP8 GEMMs
//     over higher-precision master weights, the cast weights kept for the
//     backward pass.
//   - [GPTQ] E. Frantar et al., 2022, and [AWQ] J. Lin et al., 2023, with
//     the AutoGPTQ / AutoAWQ checkpoint layout (4-bit weights, an fp16
//     scale and a 4-bit zero point per group).
//   - [Roofline] S. Williams, A. Waterman, D. Patterson, "Roofline: an
//     insightful visual performance model", CACM 2009, as applied to LLM
//     inference in kipply's "Transformer Inference Arithmetic" (2022):
//     decode is bound by reading the weights and KV cache at small batch
//     and by compute at large batch.
//
// Measured figures the tests compare with: Qwen's speed benchmark (Qwen3
// on H20, memory and decode speed), NVIDIA NIM's benchmarks (Llama 3.3 70B
// on 2 × H100, time to first token and inter-token latency), the QLoRA
// repository's Guanaco recipes, and DeepSpeed's estimator output.
//
// # Units
//
// All memory figures are int64 bytes per GPU. Every figure is finite and
// non-negative for every input that [Input.Validate] accepts; figures too
// large for an int64 saturate at math.MaxInt64.
package sizing
