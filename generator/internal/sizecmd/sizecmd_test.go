package sizecmd

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// Test catalog: architectures from the models' config.json files, GPU
// figures from the vendors' datasheets.
var (
	testPresets = map[string]Preset{
		"llama-3-8b":   {Name: "Llama 3 8B", MaxContext: 8192, Model: sizing.Model{Params: 8030261248, Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8, FFN: 14336, Vocab: 128256}},
		"llama-2-70b":  {Name: "Llama 2 70B", MaxContext: 4096, Model: sizing.Model{Params: 68976648192, Layers: 80, Hidden: 8192, Heads: 64, KVHeads: 8, FFN: 28672, Vocab: 32000}},
		"mixtral-8x7b": {Name: "Mixtral 8x7B", MaxContext: 32768, Model: sizing.Model{Params: 46702792704, ActiveParams: 12879925248, Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8, FFN: 14336, Vocab: 32000, Experts: 8, ExpertsPerToken: 2}},
	}
	testGPUs = []sizing.GPU{
		{ID: "h100-sxm5-80gb", Name: "H100 SXM5 80GB", MemoryBytes: 80 << 30, BandwidthBytesPerSec: 3.35e12, DenseBF16FLOPS: 989.4e12},
		{ID: "rtx-4090", Name: "GeForce RTX 4090", MemoryBytes: 24 << 30, BandwidthBytesPerSec: 1.008e12, DenseBF16FLOPS: 165.2e12},
		{ID: "t4", Name: "Tesla T4", MemoryBytes: 16 << 30, BandwidthBytesPerSec: 320e9, DenseBF16FLOPS: 65e12},
	}
)

// testOffers are on-demand prices: two H100 instances at the same price
// per GPU, a T4 and an RTX 4090.
var testOffers = []Offer{
	{ID: "cloud-a/h100x8", GPU: "h100-sxm5-80gb", GPUs: 8, PerHour: 16, AsOf: "2026-10-01"},
	{ID: "cloud-b/h100x1", GPU: "h100-sxm5-80gb", GPUs: 1, PerHour: 2, AsOf: "2026-10-01"},
	{ID: "cloud-c/t4x1", GPU: "t4", GPUs: 1, PerHour: 0.35, AsOf: "2026-09-15"},
	{ID: "cloud-d/4090x2", GPU: "rtx-4090", GPUs: 2, PerHour: 0.7, AsOf: "2026-08-01"},
}

func run(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = Run(args, Data{Presets: testPresets, GPUs: testGPUs, Offers: testOffers}, &o, &e)
	return code, o.String(), e.String()
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // the whole stderr
	}{
		{"negative batch", []string{"-model", "llama-3-8b", "-batch", "-1"}, "size: -batch: batch must be between 1 and 100000 (got -1)\n"},
		{"unknown preset", []string{"-model", "gpt-5"}, `size: unknown model "gpt-5" (known: llama-2-70b, llama-3-8b, mixtral-8x7b)` + "\n"},
		{"tp does not divide heads", []string{"-model", "llama-3-8b", "-tp", "3", "-gpus", "3"}, "size: -tp: tp 3 must divide the number of attention heads 32\n"},
		{"unknown gpu", []string{"-model", "llama-3-8b", "-gpu", "h200"}, `size: unknown gpu "h200" (known: h100-sxm5-80gb, rtx-4090, t4)` + "\n"},
		{"no model", []string{"-seq", "100"}, "size: give -model ID, -config config.json or a custom model with -params, -layers, -hidden and -heads\n"},
		{"unknown flag", []string{"-modle", "x"}, "size: flag provided but not defined: -modle\n"},
		{"bad int", []string{"-model", "llama-3-8b", "-batch", "many"}, `size: invalid value "many" for flag -batch: parse error` + "\n"},
		{"unknown dtype", []string{"-model", "llama-3-8b", "-dtype", "fp4"}, `size: unknown dtype "fp4" (want fp32, bf16, fp16, fp8, int8, int4 or nf4)` + "\n"},
		{"unknown workload", []string{"-model", "llama-3-8b", "-workload", "pretrain"}, `size: unknown workload "pretrain" (want inference, full, lora or qlora)` + "\n"},
		{"positional", []string{"-model", "llama-3-8b", "extra"}, `size: unexpected argument "extra"` + "\n"},
		{"zero stage", []string{"-model", "llama-3-8b", "-workload", "full", "-zero", "5"}, "size: -zero: zero stage must be between 0 and 3 (got 5)\n"},
		{"qlora bf16", []string{"-model", "llama-3-8b", "-workload", "qlora", "-dtype", "bf16"}, "size: -dtype: qlora stores its base weights in int4 (nf4) and computes in bf16; dtype is the weights' storage format: use int4 (got bf16)\n"},
		{"gpus not multiple of tp", []string{"-model", "llama-3-8b", "-tp", "4", "-gpus", "6"}, "size: -gpus: gpus 6 must be a multiple of tp×pp×cp 4\n"},
		{"mfu", []string{"-model", "llama-3-8b", "-mfu", "1.5"}, "size: -mfu: mfu must be in [0, 1], 0 for the GPU's typical figure (got 1.5)\n"},
		{"custom incomplete", []string{"-params", "7e9"}, `size: invalid value "7e9" for flag -params: parse error` + "\n"},
		{"custom no layers", []string{"-params", "7000000000"}, "size: -layers: layers must be between 1 and 100000 (got 0)\n"},
		{"lora target", []string{"-model", "llama-3-8b", "-workload", "lora", "-lora-targets", "q,qkv"}, `size: -lora-targets: unknown lora target "qkv" (want q, k, v, o, gate, up or down)` + "\n"},
		{"model and config", []string{"-model", "llama-3-8b", "-config", "x.json"}, "size: give -model or -config, not both\n"},
		{"config not json", []string{"-config", filepath.Join("testdata", "bad-config.json")}, "size: " + filepath.Join("testdata", "bad-config.json") + `:3:18: unexpected character "'"` + "\n"},
		{"config missing key", []string{"-config", filepath.Join("testdata", "config-missing-vocab.json")}, "size: " + filepath.Join("testdata", "config-missing-vocab.json") + ":1:1: vocab_size is missing\n"},
		{"unknown quant", []string{"-model", "llama-3-8b", "-dtype", "int4", "-quant", "q4_k"}, `size: unknown 4-bit format "q4_k" (want nf4-dq, nf4, gptq or awq)` + "\n"},
		{"paged with offload", []string{"-model", "llama-3-8b", "-workload", "full", "-zero", "2", "-offload", "optimizer", "-optimizer", "paged-adamw"}, "size: -offload: a paged optimizer already pages its states to CPU memory: use no offload with it, or a non-paged optimizer (adamw) to offload\n"},
		{"qlora with full offload", []string{"-model", "llama-3-8b", "-workload", "qlora", "-zero", "3", "-offload", "full"}, "size: -offload: a paged optimizer already pages its states to CPU memory: use no offload with it, or a non-paged optimizer (adamw) to offload\n"},
		{"master copy both ways", []string{"-model", "llama-3-8b", "-workload", "full", "-master-weights", "-no-master"}, "size: -master-weights and -no-master disagree: give -master-weights alone\n"},
		{"cp", []string{"-model", "llama-3-8b", "-gpus", "3", "-cp", "2"}, "size: -gpus: gpus 3 must be a multiple of tp×pp×cp 2\n"},
		{"activation offload with pp", []string{"-model", "llama-3-8b", "-workload", "full", "-gpus", "2", "-tp", "1", "-pp", "2", "-offload-activations"},
			"size: -pp: activation offload runs without pipeline stages (Megatron needs pp 1 for it): use pp 1 or turn activation offload off\n"},
		{"draft tokens", []string{"-model", "llama-3-8b", "-spec-tokens", "17"}, "size: -spec-tokens: draft tokens must be between 0 and 16 (got 17)\n"},
		{"draft acceptance", []string{"-model", "llama-3-8b", "-spec-tokens", "2", "-spec-accept", "1"},
			"size: -spec-accept: the draft acceptance rate must be in [0, 1), 0 for the typical 0.85 (got 1)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := run(tt.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if out != "" {
				t.Errorf("stdout not empty: %q", out)
			}
			if errOut != tt.want {
				t.Errorf("stderr = %q, want %q", errOut, tt.want)
			}
			if strings.Count(errOut, "\n") != 1 {
				t.Errorf("stderr is not exactly one line: %q", errOut)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	code, out, errOut := run("-h")
	if code != 0 || errOut != "" || !strings.Contains(out, "-workload") {
		t.Errorf("help: code %d, stderr %q, stdout %q", code, errOut, out)
	}
	// Issue 34: the flags a reader needs are listed, each named for what
	// it means.
	for _, f := range []string{"-root dir", "-master-weights", "-offload-activations", "-spec-tokens", "-spec-accept", "the weights' storage format"} {
		if !strings.Contains(out, f) {
			t.Errorf("help lacks %q", f)
		}
	}
}

func TestText(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"inference with gpu", []string{"-model", "llama-3-8b", "-gpu", "rtx-4090"}, []string{
			"Model:     llama-3-8b (8.03 B params, 32 layers, hidden 4096, 32 heads, 8 KV heads)",
			"Workload:  inference, bf16 weights, bf16 KV cache, seq 4096, batch 1",
			"weights  14.96 GiB  (16.1 GB)",
			"KV cache   0.50 GiB  (536.9 MB)",
			"overhead   1.00 GiB  (1.1 GB)",
			"total",
			"Fits on GeForce RTX 4090: yes (22.80 GiB usable of 24.00 GiB)",
			// 1.008e12 B/s over the weights without the input embedding
			// table (15.0e9 B) and the KV cache (0.54e9 B).
			"tokens/s expected for the batch of one replica, at most 64.8 (roofline, memory-bandwidth bound)",
			// 6.16e13 FLOPs at 165.2e12 FLOP/s.
			"expected for a 4096-token prompt, at least 372.7 ms (roofline)",
			"Minimum GPUs (powers of two up to 4096; TP ≤ 8 within a node):",
			"rtx-4090 GeForce RTX 4090 1",
		}},
		{"speculative decoding", []string{"-model", "llama-3-8b", "-gpu", "rtx-4090", "-spec-tokens", "3"}, []string{
			"Workload:  inference, bf16 weights, bf16 KV cache, seq 4096, batch 1, speculative decoding: 3 draft tokens a step, each accepted at 0.85",
		}},
		{"activation offload", []string{"-model", "llama-3-8b", "-workload", "full", "-gpus", "8", "-offload-activations"}, []string{
			"checkpointing full, adamw, fused loss, activations offloaded to CPU",
		}},
		// ZeRO-3 (the training recipe's) shards the model states over the
		// data-parallel ranks: the GPU count is data parallel.
		{"zero 3 on 8 gpus is data parallel", []string{"-model", "llama-3-8b", "-workload", "full", "-gpus", "8"}, []string{
			"Parallel:  8 GPU(s): TP 1, PP 1, DP 8 (chosen from the GPU count), ZeRO 3",
		}},
		{"zero 1 on 8 gpus keeps tensor parallelism in the node", []string{"-model", "llama-3-8b", "-workload", "full", "-gpus", "8", "-zero", "1"}, []string{
			"Parallel:  8 GPU(s): TP 8, PP 1, DP 1 (chosen from the GPU count), ZeRO 1",
		}},
		{"pure bf16 training", []string{"-model", "llama-3-8b", "-workload", "full", "-master-weights=false"}, []string{
			"fused loss, no fp32 master copy",
		}},
		{"training", []string{"-model", "llama-2-70b", "-workload", "full", "-zero", "3", "-gpus", "64", "-tp", "8",
			"-checkpointing", "full", "-tokens", "1e12", "-gpu", "h100-sxm5-80gb"}, []string{
			"ZeRO 3, offload none, checkpointing full, adamw",
			"Parallel:  64 GPU(s): TP 8, PP 1, DP 8",
			// 6·N·D plus causal attention; recomputation is hardware work.
			"Train FLOPs: 4.284e+23 model, 5.712e+23 hardware (with recomputation)",
			"tokens/s per GPU",
			"at 40% MFU",
			"Train time:  ",
			"days on 64 GPU(s)",
		}},
		{"custom moe", []string{"-params", "46702792704", "-active-params", "12879925248", "-layers", "32", "-hidden", "4096",
			"-heads", "32", "-kv-heads", "8", "-ffn", "14336", "-vocab", "32000", "-experts", "8", "-experts-per-token", "2"}, []string{
			"Model:     custom model (46.70 B params, 12.88 B active",
		}},
		{"qlora defaults to nf4", []string{"-model", "llama-3-8b", "-workload", "qlora"}, []string{
			"Workload:  qlora, int4 weights (nf4-dq)",
			"Adapters:  rank 16 on q,k,v,o: 13.63 M params",
		}},
		// The GPU count implies the layout: TP within a node, then (for
		// inference, if it still does not fit) pipeline stages.
		{"70B on 4 GPUs", []string{"-model", "llama-2-70b", "-gpus", "4", "-gpu", "h100-sxm5-80gb"}, []string{
			"Parallel:  4 GPU(s): TP 4, PP 1, DP 1 (chosen from the GPU count)",
			"Fits on H100 SXM5 80GB: yes",
		}},
		{"70B on 8 GPUs", []string{"-model", "llama-2-70b", "-gpus", "8", "-gpu", "h100-sxm5-80gb"}, []string{
			"Parallel:  8 GPU(s): TP 8, PP 1, DP 1 (chosen from the GPU count)",
		}},
		{"explicit tp and pp", []string{"-model", "llama-2-70b", "-gpus", "8", "-tp", "4", "-pp", "2"}, []string{
			"Parallel:  8 GPU(s): TP 4, PP 2, DP 1, flash true",
		}},
		{"config.json", []string{"-config", filepath.Join("..", "hfconfig", "testdata", "deepseek-v3.json"), "-dtype", "fp8", "-gpus", "8", "-gpu", "h100-sxm5-80gb"}, []string{
			"deepseek-v3.json (deepseek_v3) (671.03 B params, 37.55 B active, 61 layers, hidden 7168, 128 heads)",
			"MLA: kv rank 512, q rank 1536, rope 64, head dim 192; MoE: 256 experts of 2048, 8 per token, 1 shared, 3 dense layers",
			"Parallel:  8 GPU(s): TP 8, PP 1, DP 1",
		}},
		{"qlora recipe", []string{"-model", "llama-3-8b", "-workload", "qlora", "-optimizer", "paged-adamw", "-no-master", "-checkpointing", "full", "-lora-rank", "64", "-lora-targets", "q,k,v,o,gate,up,down"}, []string{
			"no fp32 master copy",
			"paged to CPU",
		}},
		{"zero3 offload on one gpu", []string{"-model", "llama-3-8b", "-workload", "full", "-zero", "3", "-offload", "full"}, []string{
			// 4 bytes × the 128256 × 4096 embedding.
			"gathered layer 1.96 GiB",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := run(tt.args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			norm := squash(out)
			for _, w := range tt.want {
				if !strings.Contains(norm, squash(w)) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// squash collapses runs of spaces, so that expectations do not depend on
// column widths.
func squash(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.Join(lines, "\n")
}

func TestMinGPUsSorted(t *testing.T) {
	_, out, _ := run("-model", "llama-2-70b")
	i := strings.Index(out, "Minimum GPUs")
	if i < 0 {
		t.Fatal(out)
	}
	lines := strings.Split(strings.TrimSpace(out[i:]), "\n")[1:]
	var ids []string
	for _, l := range lines {
		if l == "" { // the cost section follows
			break
		}
		ids = append(ids, strings.Fields(l)[0])
	}
	// 70B bf16: 2 × H100, 8 × RTX 4090, 16 × T4 (TP 8 × PP 2).
	if got := strings.Join(ids, " "); got != "h100-sxm5-80gb rtx-4090 t4" {
		t.Errorf("order %q\n%s", got, out)
	}
}

func TestJSONGolden(t *testing.T) {
	args := []string{"-model", "mixtral-8x7b", "-workload", "lora", "-lora-rank", "8", "-lora-targets", "q,v,down",
		"-gpus", "8", "-tp", "2", "-zero", "2", "-seq", "8192", "-batch", "2", "-checkpointing", "selective",
		"-tokens", "1e9", "-gpu", "h100-sxm5-80gb", "-json"}
	code, out, errOut := run(args...)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	checkGolden(t, "mixtral-lora.json", out)
}

// checkGolden compares out with testdata/name (rewritten with -update).
func checkGolden(t *testing.T, name, out string) {
	t.Helper()
	golden := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("differs from %s (rerun with -update after checking):\n%s", golden, out)
	}
}

func TestJSONShape(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		fits    any // nil, true or false
		minNull []string
	}{
		{"no gpu", []string{"-model", "llama-3-8b", "-json"}, nil, nil},
		{"fits", []string{"-model", "llama-3-8b", "-gpu", "h100-sxm5-80gb", "-json"}, true, nil},
		{"does not fit", []string{"-model", "llama-2-70b", "-gpu", "rtx-4090", "-json"}, false, nil},
		// Full training of 70B without ZeRO fits on none (TP ≤ 8).
		{"none fits", []string{"-model", "llama-2-70b", "-workload", "full", "-zero", "0", "-json"}, nil, []string{"h100-sxm5-80gb", "rtx-4090", "t4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := run(tt.args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			var v map[string]any
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"total_bytes_per_gpu", "breakdown", "fits", "min_gpus", "train_flops", "decode_tokens_per_s", "input", "gpu"} {
				if _, ok := v[k]; !ok {
					t.Errorf("missing key %q", k)
				}
			}
			bd, _ := v["breakdown"].(map[string]any)
			var sum float64
			for _, k := range []string{"weights", "kv_cache", "activations", "gradients", "optimizer", "adapters", "overhead"} {
				x, ok := bd[k].(float64)
				if !ok {
					t.Errorf("breakdown.%s missing", k)
				}
				sum += x
			}
			if sum != v["total_bytes_per_gpu"].(float64) {
				t.Errorf("breakdown sums to %v, total %v", sum, v["total_bytes_per_gpu"])
			}
			if v["fits"] != tt.fits {
				t.Errorf("fits = %v, want %v", v["fits"], tt.fits)
			}
			if tt.fits == nil && (v["gpu"] != nil || v["decode_tokens_per_s"] != nil) {
				t.Errorf("gpu fields set without -gpu")
			}
			mins := v["min_gpus"].(map[string]any)
			if len(mins) != len(testGPUs) {
				t.Errorf("min_gpus has %d entries", len(mins))
			}
			for _, id := range tt.minNull {
				if x, ok := mins[id]; !ok || x != nil {
					t.Errorf("min_gpus[%s] = %v, want null", id, x)
				}
			}
		})
	}
}

// TestCostPerMillion checks the cost rows of an inference run
// (sizing.Job.Plan at -concurrency): an instance runs as many replicas of
// the serving layout as it holds (eight 1-GPU replicas on the 8-GPU H100
// instance cost per token what one does on the 1-GPU one; the tie goes to
// the smaller instance), a GPU whose serving layout needs more GPUs than
// its instance has spans instances only in whole tensor-parallel groups,
// and the cost is the hourly price over an hour's tokens at the expected
// decode speed, which -batch 32 reports.
func TestCostPerMillion(t *testing.T) {
	code, out, errOut := run("-model", "llama-3-8b", "-gpu", "h100-sxm5-80gb", "-batch", "32", "-concurrency", "32", "-json")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var r jsonReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range r.CostPerMillion {
		got = append(got, c.Offer+" ×"+strconv.Itoa(c.Replicas))
	}
	// 32 sequences of 4,096 tokens take the RTX 4090's 24 GiB twice over
	// (two GPUs, one replica) but still cost less per token than the H100
	// at 2 USD an hour.
	if strings.Join(got, ", ") != "cloud-d/4090x2 ×1, cloud-b/h100x1 ×1, cloud-a/h100x8 ×8" {
		t.Fatalf("rows %v", got)
	}
	if r.Concurrency != 32 || r.ExpectedDecode == nil || !(*r.ExpectedDecode > 0) {
		t.Fatalf("concurrency %d, expected decode %v", r.Concurrency, r.ExpectedDecode)
	}
	want := 2 / (*r.ExpectedDecode * 3600) * 1e6
	for _, c := range r.CostPerMillion[1:] {
		if math.Abs(c.USD/want-1) > 1e-5 { // sig rounds to 6 digits
			t.Errorf("%s: %v USD per million tokens, want %v", c.Offer, c.USD, want)
		}
		if !(c.USDInput > 0 && c.USDInput < c.USD) {
			t.Errorf("%s: %v USD per million input tokens, want a figure below the output's %v (prefill is batched)", c.Offer, c.USDInput, c.USD)
		}
	}
	// Training has no cost rows; the text report lists the offers.
	if _, out, _ := run("-model", "llama-3-8b", "-workload", "lora", "-json"); !strings.Contains(out, `"cost_per_million_tokens": []`) {
		t.Error("a training run has cost rows")
	}
	if _, out, _ := run("-model", "llama-3-8b"); !strings.Contains(out, "cheapest 3 of 3 offers") || !strings.Contains(out, "cloud-d/4090x2") {
		t.Errorf("text report:\n%s", out)
	}
}

// TestSeqOverContext: -seq is checked against the model's context, and an
// engine error about a model figure names its flag.
func TestSeqOverContext(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-model", "llama-2-70b", "-seq", "8192"}, "size: -seq 8192 is over the model's context of 4096 tokens; use -seq 4096 or less\n"},
		{[]string{"-model", "llama-3-8b", "-kv-heads", "5"}, "size: -kv-heads: kv heads 5 must divide heads 32\n"},
		{[]string{"-model", "llama-3-8b", "-hidden", "0"}, "size: -hidden: hidden size must be between 1 and 1048576 (got 0)\n"},
		{[]string{"-model", "llama-3-8b", "-bpw", "4.8"}, "size: -dtype: bits per weight refine a weight-only quantized format: use dtype int4 or int8 (got bf16)\n"},
		{[]string{"-model", "llama-3-8b", "-dtype", "int4", "-bpw", "17"}, "size: -bpw: bits per weight must be in [0, 16], 0 for the format's own (got 17)\n"},
	} {
		code, out, errOut := run(tc.args...)
		if code != ExitUsage || out != "" || errOut != tc.want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q", tc.args, code, out, errOut, tc.want)
		}
	}
}

// TestUnknownGPUFigures: a speed the GPU's recorded figures cannot give is
// said to be unknown in the text and null in the JSON, never 0.
func TestUnknownGPUFigures(t *testing.T) {
	gpus := []sizing.GPU{{ID: "mystery", Name: "Mystery 24GB", MemoryBytes: 24 << 30}}
	var o, e bytes.Buffer
	if code := Run([]string{"-model", "llama-3-8b", "-gpu", "mystery"}, Data{Presets: testPresets, GPUs: gpus}, &o, &e); code != 0 {
		t.Fatalf("exit %d: %s", code, e.String())
	}
	for _, want := range []string{"Decode:    unknown: the GPU's memory bandwidth and FLOP/s are not recorded", "First token: unknown: the GPU's FLOP/s are not recorded"} {
		if !strings.Contains(o.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, o.String())
		}
	}
	o.Reset()
	if code := Run([]string{"-model", "llama-3-8b", "-gpu", "mystery", "-workload", "full", "-tokens", "1e9"}, Data{Presets: testPresets, GPUs: gpus}, &o, &e); code != 0 ||
		!strings.Contains(o.String(), "Train time:  unknown: the GPU's BF16 FLOP/s are not recorded") {
		t.Errorf("training time: exit %d\n%s", code, o.String())
	}
	o.Reset()
	Run([]string{"-model", "llama-3-8b", "-gpu", "mystery", "-json"}, Data{Presets: testPresets, GPUs: gpus}, &o, &e)
	var j map[string]any
	if err := json.Unmarshal(o.Bytes(), &j); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"ttft_seconds", "decode_tokens_per_s", "expected_decode_tokens_per_s", "expected_ttft_seconds", "decode_compute_bound"} {
		if v, ok := j[k]; !ok || v != nil {
			t.Errorf("%s = %v, want null", k, v)
		}
	}
}
