package sizing

import (
	"math"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name    string
		mut     func(*Input)
		wantErr string // substring; "" means valid
	}{
		{"default", func(in *Input) {}, ""},
		{"full default", func(in *Input) { in.Workload = FullTraining }, ""},
		{"qlora int4", func(in *Input) { in.Workload = QLoRA; in.DType = INT4 }, ""},
		{"tp8 gpus16 pp2", func(in *Input) { in.TP, in.GPUs, in.PP = 8, 16, 2 }, ""},
		{"pp0 means 1", func(in *Input) { in.PP = 0 }, ""},
		{"kv replication tp16", func(in *Input) { in.TP, in.GPUs = 16, 16 }, ""},
		{"negative batch", func(in *Input) { in.Batch = -1 }, "batch must be between 1 and 100000 (got -1)"},
		{"zero batch", func(in *Input) { in.Batch = 0 }, "batch must be"},
		{"huge batch", func(in *Input) { in.Batch = 100001 }, "batch must be"},
		{"zero seq", func(in *Input) { in.SeqLen = 0 }, "sequence length must be"},
		{"huge seq", func(in *Input) { in.SeqLen = 10000001 }, "sequence length must be"},
		{"zero gpus", func(in *Input) { in.GPUs = 0 }, "gpus must be"},
		{"too many gpus", func(in *Input) { in.GPUs = 100001 }, "gpus must be"},
		{"tp does not divide heads", func(in *Input) { in.TP, in.GPUs = 3, 3 }, "tp 3 must divide the number of attention heads 64"},
		{"tp above gpus", func(in *Input) { in.TP = 2 }, "tp 2 exceeds gpus 1"},
		{"gpus not multiple of tp", func(in *Input) { in.TP, in.GPUs = 4, 6 }, "gpus 6 must be a multiple of tp×pp×cp 4"},
		{"pp above layers", func(in *Input) { in.PP, in.GPUs = 81, 81 }, "pp must be between 0 and 80 (got 81)"},
		{"negative pp", func(in *Input) { in.PP = -1 }, "pp must be"},
		{"zero stage 4", func(in *Input) { in.ZeRO = 4 }, "zero stage must be between 0 and 3"},
		{"zero stage -1", func(in *Input) { in.ZeRO = -1 }, "zero stage"},
		{"mfu 0 (the GPU's table figure)", func(in *Input) { in.MFU = 0 }, ""},
		{"mfu -0.1", func(in *Input) { in.MFU = -0.1 }, "mfu must be in [0, 1]"},
		{"mfu 1.5", func(in *Input) { in.MFU = 1.5 }, "mfu must be in [0, 1]"},
		{"mfu NaN", func(in *Input) { in.MFU = math.NaN() }, "mfu must be"},
		{"mfu 1", func(in *Input) { in.MFU = 1 }, ""},
		{"negative tokens", func(in *Input) { in.Tokens = -1 }, "tokens must be"},
		{"NaN tokens", func(in *Input) { in.Tokens = math.NaN() }, "tokens must be"},
		{"Inf tokens", func(in *Input) { in.Tokens = math.Inf(1) }, "tokens must be"},
		{"unknown workload", func(in *Input) { in.Workload = "pretrain" }, `unknown workload "pretrain"`},
		{"unknown dtype", func(in *Input) { in.DType = "fp4" }, `unknown dtype "fp4"`},
		{"nf4 alias only via ParseDType", func(in *Input) { in.DType = "nf4" }, `unknown dtype "nf4"`},
		{"unknown kv dtype", func(in *Input) { in.KVDType = "" }, `unknown kv dtype ""`},
		{"unknown optimizer", func(in *Input) { in.Optimizer = "lion" }, `unknown optimizer "lion"`},
		{"unknown checkpointing", func(in *Input) { in.Checkpointing = "some" }, `unknown checkpointing`},
		{"unknown offload", func(in *Input) { in.Offload = "nvme" }, `unknown offload "nvme"`},
		{"qlora needs int4", func(in *Input) { in.Workload = QLoRA }, "qlora stores its base weights in int4 (nf4) and computes in bf16; dtype is the weights' storage format: use int4 (got bf16)"},
		{"full needs float", func(in *Input) { in.Workload = FullTraining; in.DType = INT8 }, "full training needs fp32, bf16, fp16 or fp8 weights"},
		{"offload needs zero", func(in *Input) { in.Workload = FullTraining; in.Offload = OffloadOptimizer }, "optimizer offload needs zero stage 1 or higher"},
		{"param offload needs zero3", func(in *Input) { in.Workload = FullTraining; in.ZeRO = 2; in.Offload = OffloadFull }, "full (parameter) offload needs zero stage 3"},
		{"inference ignores offload", func(in *Input) { in.Offload = OffloadFull }, ""},
		{"lora rank 0", func(in *Input) { in.Workload = LoRA; in.LoRARank = 0 }, "lora rank must be"},
		{"lora no targets", func(in *Input) { in.Workload = LoRA; in.LoRATargets = nil }, "lora needs at least one target"},
		{"lora bad target", func(in *Input) { in.Workload = LoRA; in.LoRATargets = []string{"q", "qkv"} }, `unknown lora target "qkv"`},
		{"lora dup target", func(in *Input) { in.Workload = LoRA; in.LoRATargets = []string{"q", "q"} }, `lora target "q" given twice`},
		{"inference ignores lora", func(in *Input) { in.LoRARank = 0; in.LoRATargets = nil }, ""},
		{"params 0", func(in *Input) { in.Model.Params = 0 }, "params must be between 1 and 10000000000000"},
		{"params too big", func(in *Input) { in.Model.Params = 1e13 + 1 }, "params must be"},
		{"active above params", func(in *Input) { in.Model.ActiveParams = in.Model.Params + 1 }, "active params must be between 0 and 68976648192"},
		{"layers 0", func(in *Input) { in.Model.Layers = 0 }, "layers must be"},
		{"hidden 0", func(in *Input) { in.Model.Hidden = 0 }, "hidden size must be"},
		{"heads 0", func(in *Input) { in.Model.Heads = 0 }, "heads must be"},
		{"kv not dividing heads", func(in *Input) { in.Model.KVHeads = 7 }, "kv heads 7 must divide heads 64"},
		{"kv above heads", func(in *Input) { in.Model.KVHeads = 128 }, "kv heads must be between 0 and 64 (got 128)"},
		{"heads not dividing hidden", func(in *Input) { in.Model.Heads = 48; in.Model.KVHeads = 8 }, "heads 48 must divide hidden size 8192"},
		{"head dim given", func(in *Input) { in.Model.Heads = 48; in.Model.KVHeads = 8; in.Model.HeadDim = 128 }, ""},
		{"experts per token without experts", func(in *Input) { in.Model.ExpertsPerToken = 2 }, "experts per token must be between 0 and 0 (got 2)"},
		{"experts per token above experts", func(in *Input) { in.Model.Experts = 4; in.Model.ExpertsPerToken = 5 }, "experts per token must be"},
		{"tp incompatible with kv heads", func(in *Input) {
			in.Model.Heads = 24
			in.Model.KVHeads = 6
			in.Model.HeadDim = 128
			in.TP, in.GPUs = 4, 4
		}, "tp 4 and kv heads 6 must divide one another"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := DefaultInput(llama2_70b)
			tt.mut(&in)
			err := in.Validate()
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.wantErr != "" && err == nil:
				t.Fatalf("no error, want %q", tt.wantErr)
			case err != nil && !strings.Contains(err.Error(), tt.wantErr):
				t.Fatalf("error %q, want it to contain %q", err, tt.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
			if _, eerr := Estimate(in, nil); (eerr == nil) != (err == nil) {
				t.Errorf("Estimate error %v disagrees with Validate %v", eerr, err)
			}
		})
	}
}

func TestGPUValidate(t *testing.T) {
	tests := []struct {
		name string
		g    GPU
		ok   bool
	}{
		{"h100", gpu80, true},
		{"unknown speeds", GPU{ID: "x", MemoryBytes: 1 << 30}, true},
		{"no memory", GPU{ID: "x"}, false},
		{"negative bandwidth", GPU{ID: "x", MemoryBytes: 1, BandwidthBytesPerSec: -1}, false},
		{"NaN flops", GPU{ID: "x", MemoryBytes: 1, DenseBF16FLOPS: math.NaN()}, false},
		{"Inf bandwidth", GPU{ID: "x", MemoryBytes: 1, BandwidthBytesPerSec: math.Inf(1)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.g.Validate(); (err == nil) != tt.ok {
				t.Errorf("Validate() = %v, want ok=%v", err, tt.ok)
			}
			if _, err := Estimate(DefaultInput(llama2_7b), &tt.g); (err == nil) != tt.ok {
				t.Errorf("Estimate error = %v, want ok=%v", err, tt.ok)
			}
		})
	}
}

func TestParse(t *testing.T) {
	dt := []struct {
		in   string
		want DType
		ok   bool
	}{
		{"bf16", BF16, true}, {"BF16", BF16, true}, {"bfloat16", BF16, true}, {"fp16", FP16, true},
		{"float32", FP32, true}, {"fp8", FP8, true}, {"int8", INT8, true}, {"int4", INT4, true},
		{"nf4", INT4, true}, {" NF4 ", INT4, true}, {"fp4", "", false}, {"", "", false},
	}
	for _, tt := range dt {
		if got, ok := ParseDType(tt.in); got != tt.want || ok != tt.ok {
			t.Errorf("ParseDType(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	if w, ok := ParseWorkload("QLoRA"); w != QLoRA || !ok {
		t.Errorf("ParseWorkload(QLoRA) = %q, %v", w, ok)
	}
	if _, ok := ParseWorkload("train"); ok {
		t.Error("ParseWorkload(train) accepted")
	}
	if o, ok := ParseOptimizer("AdamW8bit"); o != AdamW8bit || !ok {
		t.Errorf("ParseOptimizer = %q, %v", o, ok)
	}
	if c, ok := ParseCheckpointing("selective"); c != SelectiveCheckpointing || !ok {
		t.Errorf("ParseCheckpointing = %q, %v", c, ok)
	}
	if o, ok := ParseOffload("optimizer"); o != OffloadOptimizer || !ok {
		t.Errorf("ParseOffload = %q, %v", o, ok)
	}
	if got := LoRATargetNames(); strings.Join(got, ",") != "q,k,v,o,gate,up,down" {
		t.Errorf("LoRATargetNames = %v", got)
	}
}

func TestFormatBytes(t *testing.T) {
	tests := []struct {
		b      int64
		binary bool
		want   string
	}{
		{0, true, "0 B"},
		{512, true, "512 B"},
		{1023, true, "1023 B"},
		{1024, true, "1.0 KiB"},
		{1000, false, "1.0 kB"},
		{999, false, "999 B"},
		{1536, true, "1.5 KiB"},
		{13.5e9, false, "13.5 GB"},
		{13529146982, true, "12.6 GiB"},
		{80 << 30, true, "80.0 GiB"},
		{80 << 30, false, "85.9 GB"},
		{1048575, true, "1.0 MiB"}, // 1023.999 KiB rounds into the next unit
		{999999, false, "1.0 MB"},
		{math.MaxInt64, true, "8.0 EiB"},
		{math.MaxInt64, false, "9.2 EB"},
		{-2048, true, "-2.0 KiB"},
		{math.MinInt64, true, "-8.0 EiB"},
	}
	for _, tt := range tests {
		if got := FormatBytes(tt.b, tt.binary); got != tt.want {
			t.Errorf("FormatBytes(%d, %v) = %q, want %q", tt.b, tt.binary, got, tt.want)
		}
	}
}

func TestUsableBytesAndFits(t *testing.T) {
	tests := []struct {
		name string
		mem  int64
		want int64
	}{
		// 5 % reserve above 10 GiB...
		{"80 GiB", 80 << 30, (80 << 30) - (4 << 30)},
		{"24 GiB", 24 << 30, (24 << 30) - toBytes(float64(24<<30)*0.05)},
		// ...512 MiB below.
		{"8 GiB", 8 << 30, (8 << 30) - (512 << 20)},
		{"256 MiB", 256 << 20, 0},
		{"0", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := UsableBytes(GPU{MemoryBytes: tt.mem}); got != tt.want {
				t.Errorf("UsableBytes = %d, want %d", got, tt.want)
			}
		})
	}
	g := GPU{MemoryBytes: 80 << 30}
	u := UsableBytes(g)
	if !Fits(Result{TotalPerGPU: u}, g) || Fits(Result{TotalPerGPU: u + 1}, g) {
		t.Error("Fits boundary wrong")
	}
	if Fits(Result{}, GPU{}) {
		t.Error("Fits on a GPU without memory")
	}
}

func TestMinGPUs(t *testing.T) {
	full := func(m Model, zero int) Input {
		in := DefaultInput(m)
		in.Workload = FullTraining
		in.ZeRO = zero
		return in
	}
	tests := []struct {
		name   string
		in     Input
		g      GPU
		want   int
		wantOK bool
	}{
		// Llama-3-8B bf16 (16 GB) serves on one 24 GiB card.
		{"8B inference 24GiB", DefaultInput(llama3_8b), gpu24, 1, true},
		// Llama-2-70B bf16 (138 GB) needs two 80 GiB GPUs (TP 2).
		{"70B inference 80GiB", DefaultInput(llama2_70b), gpu80, 2, true},
		// Llama-3.1-405B bf16 (812 GB) needs 16 (TP 8 × PP 2), as vLLM's
		// two-node recipe.
		{"405B inference 80GiB", DefaultInput(llama31_405b), gpu80, 16, true},
		// Full training without ZeRO: data parallelism does not help, TP 8
		// is the most, and 7B·16 B/8 + activations fits on 80 GiB.
		{"7B full zero0", full(llama2_7b, 0), gpu80, 2, true},
		// 70B full training without ZeRO never fits (TP ≤ 8).
		{"70B full zero0", full(llama2_70b, 0), gpu80, 0, false},
		// With ZeRO-3 the model states shard over data parallelism.
		{"70B full zero3", full(llama2_70b, 3), gpu80, 32, true},
		// An invalid input never fits.
		{"invalid", func() Input { in := DefaultInput(llama2_7b); in.Batch = 0; return in }(), gpu80, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, ok := MinGPUs(tt.in, tt.g)
			if n != tt.want || ok != tt.wantOK {
				t.Errorf("MinGPUs = %d, %v; want %d, %v", n, ok, tt.want, tt.wantOK)
			}
			if ok {
				// The answer fits, and the next smaller power of two does not.
				c := tt.in
				c.GPUs, c.TP = n, searchTP(c.Model, n)
				c.PP = 1
				if c.Workload == Inference {
					c.PP = n / c.TP
				}
				r, err := Estimate(c, nil)
				if err != nil || !Fits(r, tt.g) {
					t.Errorf("reported %d GPUs but that does not fit: %v", n, err)
				}
			}
		})
	}
}

func TestSearchTP(t *testing.T) {
	tests := []struct {
		m    Model
		n    int
		want int
	}{
		{llama2_7b, 1, 1}, {llama2_7b, 2, 2}, {llama2_7b, 8, 8}, {llama2_7b, 64, 8},
		// 28 heads, 4 KV heads (Qwen2-7B): TP 4 at most.
		{Model{Heads: 28, KVHeads: 4}, 8, 4},
		// 25 heads: no TP.
		{Model{Heads: 25}, 8, 1},
	}
	for _, tt := range tests {
		if got := searchTP(tt.m, tt.n); got != tt.want {
			t.Errorf("searchTP(heads %d, n %d) = %d, want %d", tt.m.Heads, tt.n, got, tt.want)
		}
	}
}

func TestInferenceBreakdown(t *testing.T) {
	// Llama-3-8B bf16 at 4096 tokens: weights 2 bytes/param, KV 4096 ·
	// 131,072 B = 512 MiB, no training state, 1 GiB overhead.
	r, err := Estimate(DefaultInput(llama3_8b), nil)
	if err != nil {
		t.Fatal(err)
	}
	b := r.Breakdown
	if b.Weights != 2*llama3_8b.Params || b.KVCache != 512<<20 || b.Overhead != 1<<30 ||
		b.Gradients != 0 || b.Optimizer != 0 || b.Adapters != 0 || b.Activations <= 0 {
		t.Errorf("breakdown %+v", b)
	}
	if r.TotalPerGPU != b.Total() {
		t.Errorf("TotalPerGPU %d != Total() %d", r.TotalPerGPU, b.Total())
	}
	// The working buffer stays small next to the weights.
	if b.Activations > b.Weights/10 {
		t.Errorf("inference activations %d are not a small buffer", b.Activations)
	}
}

func TestBreakdownTotalSaturates(t *testing.T) {
	b := Breakdown{Weights: math.MaxInt64, KVCache: math.MaxInt64, Overhead: 1}
	if got := b.Total(); got != math.MaxInt64 {
		t.Errorf("Total = %d, want MaxInt64", got)
	}
}

func TestExtremeInputsStayFinite(t *testing.T) {
	// The limits: 10 T params, 10 M tokens of context, batch 1e5, no flash.
	m := Model{Params: MaxParams, Layers: MaxLayers, Hidden: MaxHidden, Heads: MaxHeads, FFN: MaxFFN, Vocab: MaxVocab, Experts: MaxExperts, ExpertsPerToken: MaxExperts}
	for _, w := range []Workload{Inference, FullTraining, LoRA, QLoRA} {
		in := DefaultInput(m)
		in.Workload = w
		if w == QLoRA {
			in.DType = INT4
		}
		in.DType = map[Workload]DType{Inference: FP32, FullTraining: FP32, LoRA: FP32, QLoRA: INT4}[w]
		in.KVDType = FP32
		in.SeqLen, in.Batch, in.Flash = MaxSeqLen, MaxBatch, false
		in.LoRARank, in.LoRATargets = MaxLoRARank, LoRATargetNames()
		in.Tokens, in.MFU = MaxTokens, 1e-300
		g := GPU{MemoryBytes: 1, BandwidthBytesPerSec: 1e-300, DenseBF16FLOPS: 1e-300}
		r, err := Estimate(in, &g)
		if err != nil {
			t.Fatal(err)
		}
		checkResult(t, r)
	}
}

// checkResult fails on any negative, NaN or infinite figure.
func checkResult(t *testing.T, r Result) {
	t.Helper()
	b := r.Breakdown
	for _, x := range []int64{b.Weights, b.KVCache, b.Activations, b.Gradients, b.Optimizer, b.Adapters, b.GatheredLayer, b.Overhead, r.TotalPerGPU, r.PagedOutBytes, r.KVBytesPerToken, r.AdapterParams} {
		if x < 0 {
			t.Fatalf("negative figure in %+v", r)
		}
	}
	// The peak is the breakdown's sum, less what a paged optimizer pages
	// out.
	if r.TotalPerGPU+r.PagedOutBytes != b.Total() {
		t.Fatalf("TotalPerGPU %d + paged %d != Total %d", r.TotalPerGPU, r.PagedOutBytes, b.Total())
	}
	for _, f := range []float64{r.TrainFLOPs, r.DecodeTokensPerSec, r.TrainSeconds, r.PrefillFLOPs, r.TTFTSeconds, r.ThroughputTokensPerSec, r.TokensPerSecPerGPU} {
		if math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
			t.Fatalf("bad float in %+v", r)
		}
	}
	if r.DataParallel < 1 {
		t.Fatalf("data parallel %d", r.DataParallel)
	}
}
