package sizing

import (
	"math"
	"testing"
)

// Tests against published figures. Each case names its source.

func TestWeightBytes(t *testing.T) {
	tests := []struct {
		name   string
		params int64
		dtype  DType
		want   int64
	}{
		// TM101 "Inference": memory_model = bytes/param × params, with fp32 4,
		// fp16/bf16 2 and int8 1 byte per parameter: a 7 B model at fp16 is
		// 14 GB.
		{"7B fp32", 7e9, FP32, 28e9},
		{"7B fp16", 7e9, FP16, 14e9},
		{"7B bf16", 7e9, BF16, 14e9},
		{"7B int8", 7e9, INT8, 7e9},
		{"7B fp8", 7e9, FP8, 7e9},
		// QLoRA §3: NF4 with double quantization costs 4 bits plus
		// 8/64 + 32/(64·256) = 0.12695 (the paper's "0.127") bits per
		// parameter: 7e9 · 4.126953125 / 8 = 3,611,083,984.4 bytes.
		{"7B nf4", 7e9, INT4, 3611083984},
		// 70 B at fp16 = 140 GB (TM101's rule; the figure usually quoted for
		// Llama-2-70B needing two 80 GB GPUs).
		{"70B fp16", 70e9, FP16, 140e9},
		{"175B fp16 (GPT-3, 350 GB)", 175e9, FP16, 350e9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := WeightBytes(tt.params, tt.dtype); got != tt.want {
				t.Errorf("WeightBytes(%d, %s) = %d, want %d", tt.params, tt.dtype, got, tt.want)
			}
		})
	}
}

func TestNF4BitsPerParam(t *testing.T) {
	// QLoRA §3 "Double Quantization": constants shrink from 32/64 = 0.5 bit
	// to 8/64 + 32/(64·256) = 0.127 bit per parameter.
	if got := NF4BitsPerParam - 4; math.Abs(got-0.127) > 0.0005 {
		t.Errorf("NF4 constant overhead = %.5f bits/param, QLoRA gives 0.127", got)
	}
}

func TestKVBytesPerToken(t *testing.T) {
	// vLLM/PagedAttention: 2 (K and V) · layers · kv_heads · head_dim ·
	// bytes. Architectures from each config.json (see presets_test.go).
	tests := []struct {
		name  string
		model Model
		want  int64
	}{
		// 2·32·32·128·2 = 524,288 B = 0.5 MiB.
		{"Llama-2-7B", llama2_7b, 524288},
		// 2·40·40·128·2 = 819,200 B.
		{"Llama-2-13B", llama2_13b, 819200},
		// GQA, 8 KV heads: 2·80·8·128·2 = 327,680 B.
		{"Llama-2-70B", llama2_70b, 327680},
		// GQA, 8 KV heads: 2·32·8·128·2 = 131,072 B.
		{"Llama-3-8B", llama3_8b, 131072},
		// GQA, 8 KV heads: 2·32·8·128·2 = 131,072 B.
		{"Mistral-7B", mistral_7b, 131072},
		// vLLM paper §3: for OPT-13B "the KV cache of a single token demands
		// 800 KB of space, calculated as 2 (key and value vectors) × 5120
		// (hidden state size) × 40 (number of layers) × 2 (bytes per FP16)"
		// = 819,200 B.
		{"OPT-13B", Model{Params: 13e9, Layers: 40, Hidden: 5120, Heads: 40}, 819200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := KVBytesPerToken(tt.model, FP16); got != tt.want {
				t.Errorf("KVBytesPerToken = %d, want %d", got, tt.want)
			}
			// Estimate's KV cache is batch·seq·that on one GPU.
			in := DefaultInput(tt.model)
			in.KVDType = FP16
			in.SeqLen, in.Batch = 1000, 3
			r, err := Estimate(in, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Breakdown.KVCache != 3000*tt.want || r.KVBytesPerToken != tt.want {
				t.Errorf("KV cache = %d (%d/token), want %d", r.Breakdown.KVCache, r.KVBytesPerToken, 3000*tt.want)
			}
		})
	}
}

func TestKVCacheTensorParallel(t *testing.T) {
	tests := []struct {
		name  string
		model Model
		tp    int
		want  int64 // per GPU, per token
	}{
		// Megatron/vLLM: KV heads split over TP ranks...
		{"Llama-2-7B tp4", llama2_7b, 4, 524288 / 4},
		{"Llama-2-70B tp8", llama2_70b, 8, 327680 / 8},
		// ...and replicated when TP exceeds them: 8 KV heads on 16 ranks
		// puts each KV head on 2 ranks, so a GPU still holds one.
		{"Llama-2-70B tp16 (replicated)", llama2_70b, 16, 327680 / 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := DefaultInput(tt.model)
			in.KVDType = FP16
			in.SeqLen, in.Batch, in.GPUs, in.TP = 1, 1, tt.tp, tt.tp
			r, err := Estimate(in, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Breakdown.KVCache != tt.want {
				t.Errorf("KV per GPU per token = %d, want %d", r.Breakdown.KVCache, tt.want)
			}
		})
	}
}

// zeroPaperModel is the ZeRO paper's Figure 1 model: Ψ = 7.5 B. Its
// dimensions are kept tiny so that ZeRO-3's gathered layer (h·ffn
// parameters) is negligible next to the figure's 0.1 GB rounding.
var zeroPaperModel = Model{Params: 7.5e9, Layers: 1, Hidden: 64, Heads: 1, FFN: 64}

func TestZeROPaperFigure1(t *testing.T) {
	// Rajbhandari et al. 2020, Figure 1: Ψ = 7.5 B, Nd = 64, K = 12.
	tests := []struct {
		stage  int
		wantGB float64
	}{
		{0, 120},  // baseline (2 + 2 + K)Ψ
		{1, 31.4}, // Pos: 2Ψ + 2Ψ + KΨ/Nd
		{2, 16.6}, // Pos+g: 2Ψ + (2 + K)Ψ/Nd
		{3, 1.9},  // Pos+g+p: (2 + 2 + K)Ψ/Nd
	}
	for _, tt := range tests {
		t.Run("stage"+itoa(tt.stage), func(t *testing.T) {
			got := float64(ZeROModelStateBytes(7.5e9, tt.stage, 64, 12)) / 1e9
			if math.Abs(got-tt.wantGB) > 0.05 {
				t.Errorf("ZeROModelStateBytes = %.3f GB, paper %.1f GB", got, tt.wantGB)
			}
			in := DefaultInput(zeroPaperModel)
			in.Workload = FullTraining
			in.GPUs, in.ZeRO = 64, tt.stage
			r, err := Estimate(in, nil)
			if err != nil {
				t.Fatal(err)
			}
			b := r.Breakdown
			states := float64(b.Weights+b.Gradients+b.Optimizer) / 1e9
			if math.Abs(states-tt.wantGB) > 0.05 {
				t.Errorf("Estimate model states = %.3f GB, paper %.1f GB", states, tt.wantGB)
			}
		})
	}
}

func TestDeepSpeedDocumentedEstimates(t *testing.T) {
	// DeepSpeed docs, "Memory Requirements" (docs/code-docs/source/memory.rst),
	// estimate_*_all_cold examples for t5-3b: 2851M params, 32M largest layer,
	// 1 node × 8 GPUs. DeepSpeed prints bytes/2**30 with the label "GB".
	const gib = 1 << 30
	tests := []struct {
		name string
		got  int64
		want float64 // as printed, 2 decimals
	}{
		{"zero2 cpu_offload=1", DeepSpeedZeRO2GPUBytes(2851e6, 8, true), 5.31},
		{"zero2 cpu_offload=0", DeepSpeedZeRO2GPUBytes(2851e6, 8, false), 15.93},
		{"zero3 offload params+optimizer", DeepSpeedZeRO3GPUBytes(2851e6, 32e6, 8, true, true), 0.12},
		{"zero3 offload optimizer", DeepSpeedZeRO3GPUBytes(2851e6, 32e6, 8, true, false), 0.78},
		{"zero3 no offload", DeepSpeedZeRO3GPUBytes(2851e6, 32e6, 8, false, false), 6.09},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := math.Round(float64(tt.got)/gib*100) / 100; got != tt.want {
				t.Errorf("got %.2f GB, DeepSpeed docs print %.2f GB", got, tt.want)
			}
		})
	}

	// Same page, "Discussion": t5-large, 737.67M params, 32.90M largest
	// layer, 4 GPUs: case1 3291 MB, case2 125 MB, case3 477 MB (bytes>>20).
	// The docs round the parameter counts, so allow ±1 MiB.
	mb := []struct {
		name string
		got  int64
		want int64
	}{
		{"case1 no offload", DeepSpeedZeRO3GPUBytes(737.67e6, 32.90e6, 4, false, false), 3291},
		{"case2 full offload", DeepSpeedZeRO3GPUBytes(737.67e6, 32.90e6, 4, true, true), 125},
		{"case3 optimizer offload", DeepSpeedZeRO3GPUBytes(737.67e6, 32.90e6, 4, true, false), 477},
	}
	for _, tt := range mb {
		t.Run("t5-large "+tt.name, func(t *testing.T) {
			if got := tt.got >> 20; got < tt.want-1 || got > tt.want+1 {
				t.Errorf("got %d MB, DeepSpeed docs print %d MB", got, tt.want)
			}
		})
	}
}

func TestEstimateAgreesWithDeepSpeedWhereTheyCountTheSame(t *testing.T) {
	// t5-3b shapes (config.json: d_model 1024, d_ff 16384, 32 heads,
	// vocab 32128): the largest layer is the 32128×1024 embedding, 32.9 M
	// parameters, DeepSpeed's "32M largest layer params".
	t5 := Model{Params: 2851e6, Layers: 24, Hidden: 1024, Heads: 32, FFN: 16384, Vocab: 32128}
	largest := int64(32128 * 1024)
	tests := []struct {
		name    string
		zero    int
		offload Offload
		want    int64
	}{
		// ZeRO-2 with optimizer offload: DeepSpeed's 2Ψ, exactly.
		{"zero2 offload optimizer", 2, OffloadOptimizer, DeepSpeedZeRO2GPUBytes(2851e6, 8, true)},
		// ZeRO-3 with offload: DeepSpeed's 4·largest (+ 2Ψ/N), exactly.
		{"zero3 offload optimizer", 3, OffloadOptimizer, DeepSpeedZeRO3GPUBytes(2851e6, largest, 8, true, false)},
		{"zero3 offload full", 3, OffloadFull, DeepSpeedZeRO3GPUBytes(2851e6, largest, 8, true, true)},
		// Without offload we charge 16Ψ/N where DeepSpeed charges 18Ψ/N
		// (ModelStateBytesPerParam): the difference is 2Ψ/N.
		{"zero3 no offload", 3, NoOffload, DeepSpeedZeRO3GPUBytes(2851e6, largest, 8, false, false) - 2*2851e6/8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := DefaultInput(t5)
			in.Workload = FullTraining
			in.DType = FP16
			in.GPUs, in.ZeRO, in.Offload = 8, tt.zero, tt.offload
			r, err := Estimate(in, nil)
			if err != nil {
				t.Fatal(err)
			}
			b := r.Breakdown
			if got := b.Weights + b.Gradients + b.Optimizer + b.GatheredLayer; absDiff(got, tt.want) > 2 {
				t.Errorf("model states = %d, want %d", got, tt.want)
			}
			// The gathered layer is its own item: DeepSpeed's
			// largest_layer_memory = 4·largest_layer_params.
			want := int64(0) // ZeRO-2 gathers nothing
			if tt.zero == 3 {
				want = 4 * largest
			}
			if b.GatheredLayer != want {
				t.Errorf("gathered layer = %d, want %d", b.GatheredLayer, want)
			}
		})
	}
}

func absDiff(a, b int64) int64 {
	if a > b {
		return a - b
	}
	return b - a
}

func TestTrainFLOPsPublished(t *testing.T) {
	tests := []struct {
		name   string
		m      Model
		seq    int
		tokens float64
		want   float64
		tol    float64
	}{
		// Hoffmann et al. 2022 (Chinchilla), Table 3: the compute-optimal
		// 70 B model on 1.4 T tokens costs 5.76e23 FLOPs, counted per
		// operation with attention (Appendix F) at a 2,048-token sequence.
		// Table 3 rounds the parameter count (5.76e23 / (6 · 1.4e12) =
		// 68.6 B), so 70 B overshoots by 2 % before attention: 6 %.
		{"Chinchilla 70B", Model{Params: 70e9, Layers: 80, Hidden: 8192, Heads: 64}, 2048, 1.4e12, 5.76e23, 0.06},
		// Llama 3 herd paper (Dubey et al. 2024) §3.2.1: the flagship 405B
		// was trained with 3.8e25 FLOPs on 15.6 T tokens, at 8,192 tokens
		// for most of pre-training.
		{"Llama 3.1 405B", llama31_405b, 8192, 15.6e12, 3.8e25, 0.05},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := DefaultInput(tt.m)
			in.Workload, in.SeqLen, in.Tokens = FullTraining, tt.seq, tt.tokens
			in.Checkpointing = FullCheckpointing
			r := estimateOn(t, in, nil)
			if rel := math.Abs(r.TrainFLOPs-tt.want) / tt.want; rel > tt.tol {
				t.Errorf("TrainFLOPs = %.3g, %.1f%% from the published %.3g", r.TrainFLOPs, rel*100, tt.want)
			}
			// Recomputation is hardware work, not model FLOPs.
			if !(r.HardwareFLOPs > r.TrainFLOPs) {
				t.Errorf("HardwareFLOPs %.3g not above TrainFLOPs %.3g with full recomputation", r.HardwareFLOPs, r.TrainFLOPs)
			}
		})
	}
}

func TestTrainFLOPsVariants(t *testing.T) {
	n, d := llama2_7b.matmulParams(), 1e9
	s, h, l := 4096.0, 4096.0, 32.0
	// Forward causal attention per token: 2·(d_qk + d_v)·heads·(s+1)/2 per
	// layer = 2·h·(s+1) FLOPs (attendedKeys over s positions / s).
	fwd := l * 2 * h * (s + 1)
	tests := []struct {
		name            string
		mut             func(*Input)
		model, hardware float64
	}{
		// TM101: 6PD, plus 3 × the forward attention.
		{"full", func(in *Input) {}, (6*n + 3*fwd) * d, (6*n + 3*fwd) * d},
		// Full recomputation repeats the forward pass (Korthikanti §5):
		// hardware FLOPs only.
		{"full recompute", func(in *Input) { in.Checkpointing = FullCheckpointing }, (6*n + 3*fwd) * d, (8*n + 4*fwd) * d},
		// Selective recomputation repeats the attention core's forward
		// without FlashAttention; with it it is free.
		{"selective, no flash", func(in *Input) { in.Checkpointing = SelectiveCheckpointing; in.Flash = false }, (6*n + 3*fwd) * d, (6*n + 4*fwd) * d},
		{"selective, flash", func(in *Input) { in.Checkpointing = SelectiveCheckpointing }, (6*n + 3*fwd) * d, (6*n + 3*fwd) * d},
		// Frozen base: no weight-gradient pass.
		{"lora", func(in *Input) { in.Workload = LoRA; in.LoRARank = 8; in.LoRATargets = []string{"q", "v"} }, (4*n+3*fwd)*d + 6*4194304*d, (4*n+3*fwd)*d + 6*4194304*d},
		{"inference", func(in *Input) { in.Workload = Inference }, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := DefaultInput(llama2_7b)
			in.Workload = FullTraining
			in.Tokens = d
			tt.mut(&in)
			r, err := Estimate(in, &gpu80)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(r.TrainFLOPs-tt.model) > 1e-9*tt.model || math.Abs(r.HardwareFLOPs-tt.hardware) > 1e-9*tt.hardware {
				t.Errorf("TrainFLOPs = %g, HardwareFLOPs = %g, want %g and %g", r.TrainFLOPs, r.HardwareFLOPs, tt.model, tt.hardware)
			}
			wantSec := 0.0
			if tt.model > 0 {
				// TM101: T = C / (GPUs · actual FLOP/s), C the model FLOPs,
				// at the GPU's MFU from the table.
				wantSec = tt.model / (1 * gpu80.DenseBF16FLOPS * TrainingMFU(gpu80))
			}
			if math.Abs(r.TrainSeconds-wantSec) > 1e-9*wantSec {
				t.Errorf("TrainSeconds = %g, want %g", r.TrainSeconds, wantSec)
			}
		})
	}
}

func TestLoRAParams(t *testing.T) {
	tests := []struct {
		name    string
		model   Model
		rank    int
		targets []string
		want    int64
	}{
		// Hu et al. 2021, §7.1: on GPT-3 175B an 18 M parameter budget "corresponds
		// to r = 8 if we adapt one type of attention weights or r = 4 if we adapt
		// two types, for all 96 layers": 8·(12288+12288)·96 = 18,874,368.
		{"GPT-3 r8 q", gpt3_175b, 8, []string{"q"}, 18874368},
		{"GPT-3 r4 q,v", gpt3_175b, 4, []string{"q", "v"}, 18874368},
		// Hu et al. Table 4: LoRA with 4.7 M and 37.7 M trainable parameters
		// on GPT-3 (Wq, Wv at r = 1 and r = 8).
		{"GPT-3 r1 q,v (4.7M)", gpt3_175b, 1, []string{"q", "v"}, 4718592},
		{"GPT-3 r8 q,v (37.7M)", gpt3_175b, 8, []string{"q", "v"}, 37748736},
		// Hugging Face PEFT print_trainable_parameters for Llama-2-7B, r = 8,
		// q_proj and v_proj: "trainable params: 4,194,304".
		{"Llama-2-7B r8 q,v", llama2_7b, 8, []string{"q", "v"}, 4194304},
		// GQA: k and v project to 8·128 = 1024. Llama-3-8B r16 on q,k,v,o:
		// 16·32·(8192 + 5120 + 5120 + 8192) = 13,631,488.
		{"Llama-3-8B r16 qkvo", llama3_8b, 16, []string{"q", "k", "v", "o"}, 13631488},
		// MLP targets: r·(h + ffn) each.
		{"Llama-3-8B r1 gate,up,down", llama3_8b, 1, []string{"gate", "up", "down"}, 32 * 3 * (4096 + 14336)},
		// MoE: once per expert.
		{"Mixtral r1 down", mixtral_8x7b, 1, []string{"down"}, 32 * 8 * (4096 + 14336)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := LoRAParams(tt.model, tt.rank, tt.targets); got != tt.want {
				t.Errorf("LoRAParams = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestLoRAMemory(t *testing.T) {
	// Frozen base at DType, adapters at bf16 with bf16 gradients and AdamW
	// with an fp32 master copy: 2 + 2 + 12 = 16 bytes per adapter parameter.
	in := DefaultInput(llama2_7b)
	in.Workload = LoRA
	in.LoRARank, in.LoRATargets = 8, []string{"q", "v"}
	r, err := Estimate(in, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := r.Breakdown
	const a = 4194304
	if b.Weights != 2*llama2_7b.Params || b.Adapters != 2*a || b.Gradients != 2*a || b.Optimizer != 12*a || b.KVCache != 0 {
		t.Errorf("LoRA breakdown %+v", b)
	}
	// QLoRA: the base at NF4 with double-quantized constants.
	in.Workload, in.DType = QLoRA, INT4
	r, err = Estimate(in, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The input embedding and the output layer (2·32000·4096 parameters)
	// stay at 16 bits, as bitsandbytes leaves them (see TestDefault4BitLoad).
	embed := int64(2 * 32000 * 4096)
	if want := WeightBytes(llama2_7b.Params-embed, INT4) + 2*embed; absDiff(r.Breakdown.Weights, want) > 1 {
		t.Errorf("QLoRA weights = %d, want %d", r.Breakdown.Weights, want)
	}
}

func TestTrainingActivations(t *testing.T) {
	// Korthikanti et al. 2022, eq. 1: s·b·h·(34 + 5·a·s/h) bytes per layer;
	// eq. 2 with tensor parallelism t: s·b·h·(10 + 24/t + 5·a·s/(h·t));
	// selective recomputation: s·b·h·(10 + 24/t); full: 2·s·b·h per layer
	// (plus one layer being recomputed). Plus the output layer
	// 4·s·b·h·(1 + v/h)/t. Vocab 0 here leaves 4·s·b·h/t.
	m := Model{Params: 1e9, Layers: 10, Hidden: 1024, Heads: 16, FFN: 4096}
	s, b, h, a, l := 2048.0, 2.0, 1024.0, 16.0, 10.0
	sbh := s * b * h
	tests := []struct {
		name  string
		tp    int
		flash bool
		ckpt  Checkpointing
		want  float64
	}{
		{"eq1 no flash", 1, false, NoCheckpointing, l*sbh*(34+5*a*s/h) + 4*sbh},
		{"flash drops 5as/h", 1, true, NoCheckpointing, l*sbh*34 + 4*sbh},
		{"eq2 tp4", 4, false, NoCheckpointing, l*sbh*(10+24/4.0+5*a*s/(h*4)) + 4*sbh/4},
		{"selective", 1, false, SelectiveCheckpointing, l*sbh*34 + 4*sbh},
		{"selective tp2", 2, false, SelectiveCheckpointing, l*sbh*(10+12) + 4*sbh/2},
		{"full", 1, false, FullCheckpointing, l*2*sbh + sbh*(34+5*a*s/h) + 4*sbh},
		{"full flash", 1, true, FullCheckpointing, l*2*sbh + sbh*34 + 4*sbh},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := DefaultInput(m)
			in.Workload = FullTraining
			in.SeqLen, in.Batch = 2048, 2
			in.GPUs, in.TP = tt.tp, tt.tp
			in.Flash, in.Checkpointing = tt.flash, tt.ckpt
			r, err := Estimate(in, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Breakdown.Activations; got != toBytes(tt.want) {
				t.Errorf("activations = %d, want %d", got, toBytes(tt.want))
			}
		})
	}
}

func TestDecodeTokensPerSec(t *testing.T) {
	// Memory-bound decode: tokens/s = batch · bandwidth·TP / (active weight
	// bytes read + batch · KV bytes at the context). A step reads every
	// weight but the input embedding table, of which it reads only the
	// rows of its tokens (kipply, "Transformer Inference Arithmetic").
	// Llama-2-7B fp16, 1 token of context, on 3.35 TB/s:
	// 3.35e12 / (13.48e9 − 0.26e9) ≈ 253.5 tokens/s.
	g := gpu80
	read := func(m Model) float64 { return float64(m.activeParams()-int64(m.Vocab*m.Hidden)) * 2 }
	tests := []struct {
		name  string
		model Model
		seq   int
		batch int
		tp    int
		want  float64
	}{
		{"7B seq1", llama2_7b, 1, 1, 1, 3.35e12 / (read(llama2_7b) + 524288)},
		{"7B seq4096 batch8", llama2_7b, 4096, 8, 1, 8 * 3.35e12 / (read(llama2_7b) + 8*4096*524288)},
		{"7B tp2", llama2_7b, 1, 1, 2, 3.35e12 / (read(llama2_7b)/2 + 524288/2)},
		// MoE reads only the active parameters.
		{"Mixtral", mixtral_8x7b, 1, 1, 1, 3.35e12 / (read(mixtral_8x7b) + 131072)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := DefaultInput(tt.model)
			in.DType, in.KVDType = FP16, FP16
			in.SeqLen, in.Batch, in.GPUs, in.TP = tt.seq, tt.batch, tt.tp, tt.tp
			r, err := Estimate(in, &g)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(r.DecodeTokensPerSec-tt.want) > 1e-9*tt.want {
				t.Errorf("decode = %g tok/s, want %g", r.DecodeTokensPerSec, tt.want)
			}
		})
	}
	// No GPU: zero.
	r, err := Estimate(DefaultInput(llama2_7b), nil)
	if err != nil || r.DecodeTokensPerSec != 0 || r.TrainSeconds != 0 {
		t.Errorf("without a GPU: %+v, %v", r, err)
	}
}
