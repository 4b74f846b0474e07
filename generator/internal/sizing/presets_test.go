package sizing

// Architectures used by the tests, from each model's Hugging Face
// config.json (num_hidden_layers, hidden_size, num_attention_heads,
// num_key_value_heads, intermediate_size, vocab_size).
var (
	// meta-llama/Llama-2-7b-hf: 32 layers, 4096 wide, 32 heads (MHA).
	llama2_7b = Model{Params: 6738415616, Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 32, FFN: 11008, Vocab: 32000}
	// meta-llama/Llama-2-13b-hf: 40 layers, 5120 wide, 40 heads (MHA).
	llama2_13b = Model{Params: 13015864320, Layers: 40, Hidden: 5120, Heads: 40, KVHeads: 40, FFN: 13824, Vocab: 32000}
	// meta-llama/Llama-2-70b-hf: 80 layers, 8192 wide, 64 heads, 8 KV heads.
	llama2_70b = Model{Params: 68976648192, Layers: 80, Hidden: 8192, Heads: 64, KVHeads: 8, FFN: 28672, Vocab: 32000}
	// meta-llama/Meta-Llama-3-8B: 32 layers, 4096 wide, 32 heads, 8 KV heads.
	llama3_8b = Model{Params: 8030261248, Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8, FFN: 14336, Vocab: 128256}
	// mistralai/Mistral-7B-v0.1: 32 layers, 4096 wide, 32 heads, 8 KV heads.
	mistral_7b = Model{Params: 7241732096, Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8, FFN: 14336, Vocab: 32000}
	// mistralai/Mixtral-8x7B-v0.1: 8 experts, 2 per token; 46.7 B total,
	// 12.9 B active parameters (Mistral AI's announcement).
	mixtral_8x7b = Model{Params: 46702792704, ActiveParams: 12879925248, Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8, FFN: 14336, Vocab: 32000, Experts: 8, ExpertsPerToken: 2}
	// meta-llama/Llama-3.1-405B: 126 layers, 16384 wide, 128 heads, 8 KV heads.
	llama31_405b = Model{Params: 405853388800, Layers: 126, Hidden: 16384, Heads: 128, KVHeads: 8, FFN: 53248, Vocab: 128256}
	// GPT-3 175B (Brown et al. 2020, Table 2.1): 96 layers, d_model 12288,
	// 96 heads, vocabulary 50257.
	gpt3_175b = Model{Params: 175e9, Layers: 96, Hidden: 12288, Heads: 96, Vocab: 50257}
)

// gpu80 is an 80 GiB H100 SXM-class GPU (NVIDIA H100 datasheet: 3.35 TB/s,
// 989.4 TFLOP/s dense BF16).
var gpu80 = GPU{ID: "h100-sxm5-80gb", Name: "H100 SXM5 80GB", MemoryBytes: 80 << 30, BandwidthBytesPerSec: 3.35e12, DenseBF16FLOPS: 989.4e12}

// gpu24 is a 24 GiB card (RTX 4090 class: 1.008 TB/s).
var gpu24 = GPU{ID: "rtx-4090", Name: "RTX 4090", MemoryBytes: 24 << 30, BandwidthBytesPerSec: 1.008e12, DenseBF16FLOPS: 165.2e12}
