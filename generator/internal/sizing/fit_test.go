package sizing

import (
	"testing"
)

// TestServingFit: for each case, which formats fit and, for those that
// do, that MaxContext and Concurrency are the limits Estimate sets (one
// more token or one more sequence no longer fits), and that an option
// that does not fit says by how much.
func TestServingFit(t *testing.T) {
	h100fp8 := h100
	h100fp8.Precisions = "fp32 tf32 fp16 bf16 fp8 int8"
	a6000 := a6000
	a6000.Precisions = "fp32 tf32 fp16 bf16 int8"
	v100 := GPU{ID: "v100", MemoryBytes: 32 << 30, BandwidthBytesPerSec: 900e9, DenseBF16FLOPS: 0, Precisions: "fp32 fp16"}
	tests := []struct {
		name    string
		m       Model
		ctx     int
		g       GPU
		n       int
		formats []string // weight/kv of every option, in order
		fit     []bool   // whether each fits a FitContext sequence
	}{
		{"Llama 3.3 70B on one H100", llama33_70b, 131072, h100fp8, 1,
			[]string{"bf16/bf16", "bf16/fp8", "fp8/bf16", "fp8/fp8", "int8/bf16", "int8/fp8", "int4/bf16", "int4/fp8"},
			// 8-bit weights are 67.7 GiB of the 76 usable: short contexts only.
			[]bool{false, false, true, true, true, true, true, true}},
		{"Llama 3.3 70B on two H100s", llama33_70b, 131072, h100fp8, 2,
			[]string{"bf16/bf16", "bf16/fp8", "fp8/bf16", "fp8/fp8", "int8/bf16", "int8/fp8", "int4/bf16", "int4/fp8"},
			[]bool{true, true, true, true, true, true, true, true}},
		{"Llama 3 8B on an A6000 (no fp8)", llama3_8b, 8192, a6000, 1,
			[]string{"bf16/bf16", "int8/bf16", "int4/bf16"}, []bool{true, true, true}},
		{"Llama 2 13B on a V100 (fp16 only)", llama2_13b, 4096, v100, 1,
			[]string{"fp16/fp16", "int8/fp16", "int4/fp16"}, []bool{true, true, true}},
		{"Llama 3 8B on a P4 (no 16-bit units: fp32)", llama3_8b, 8192, GPU{ID: "p4", MemoryBytes: 8 << 30, BandwidthBytesPerSec: 192e9, Precisions: "int8"}, 1,
			[]string{"fp32/fp32"}, []bool{false}},
		{"Llama 3.1 405B on one 4090", llama31_405b, 131072, rtx4090, 1,
			[]string{"bf16/bf16", "bf16/fp8", "fp8/bf16", "fp8/fp8", "int8/bf16", "int8/fp8", "int4/bf16", "int4/fp8"},
			[]bool{false, false, false, false, false, false, false, false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := ServingFit(tc.m, tc.ctx, tc.g, tc.n)
			if len(opts) != len(tc.formats) {
				t.Fatalf("%d options, want %d: %+v", len(opts), len(tc.formats), opts)
			}
			for i, o := range opts {
				if got := string(o.DType) + "/" + string(o.KVDType); got != tc.formats[i] {
					t.Errorf("option %d is %s, want %s", i, got, tc.formats[i])
				}
				if o.Fits() != tc.fit[i] {
					t.Errorf("%s: fits %v, want %v (%+v)", tc.formats[i], o.Fits(), tc.fit[i], o)
				}
				in := DefaultInput(tc.m)
				in.DType, in.KVDType, in.Quant, in.GPUs, in.TP, in.PP = o.DType, o.KVDType, o.Quant, tc.n, o.TP, o.PP
				fits := func(seq, batch int) bool {
					c := in
					c.SeqLen, c.Batch = seq, batch
					r, err := Estimate(c, &tc.g)
					return err == nil && Fits(r, tc.g)
				}
				switch {
				case o.MaxContext == 0:
					if fits(1, 1) || o.OverBytes <= 0 {
						t.Errorf("%s: no context fits, but one token does or OverBytes is %d", tc.formats[i], o.OverBytes)
					}
				default:
					if !fits(o.MaxContext, 1) || (o.MaxContext < tc.ctx && fits(o.MaxContext+1, 1)) || o.MaxContext > tc.ctx {
						t.Errorf("%s: MaxContext %d is not the limit (model %d)", tc.formats[i], o.MaxContext, tc.ctx)
					}
					if o.Fits() && (!fits(o.Context, o.Concurrency) || (o.Concurrency < FitMaxConcurrency && fits(o.Context, o.Concurrency+1))) {
						t.Errorf("%s: Concurrency %d at %d tokens is not the limit", tc.formats[i], o.Concurrency, o.Context)
					}
					if o.Fits() && o.Decode <= 0 {
						t.Errorf("%s: fits but no decode speed", tc.formats[i])
					}
				}
			}
		})
	}
}

// TestServingFitNoAnswer: inputs that have no layout give no options.
func TestServingFitNoAnswer(t *testing.T) {
	tiny := Model{Params: 1e6, Layers: 2, Hidden: 64, Heads: 2, Vocab: 100}
	for name, opts := range map[string][]ServingOption{
		"zero GPUs":                 ServingFit(llama3_8b, 8192, h100, 0),
		"invalid model":             ServingFit(Model{}, 8192, h100, 1),
		"invalid GPU":               ServingFit(llama3_8b, 8192, GPU{}, 1),
		"more stages than layers":   ServingFit(tiny, 8192, h100, 8),
		"GPUs not a power-of-2 fit": ServingFit(llama3_8b, 8192, h100, 3),
	} {
		if name == "GPUs not a power-of-2 fit" {
			// 3 GPUs: TP 1, three pipeline stages: a layout exists.
			if len(opts) == 0 {
				t.Errorf("%s: no options", name)
			}
			continue
		}
		if opts != nil {
			t.Errorf("%s: %d options, want none", name, len(opts))
		}
	}
}

// TestRankFits: larger models first, a model that fits nowhere left out,
// each with its most precise fitting option.
func TestRankFits(t *testing.T) {
	g := h100
	g.Precisions = "fp32 tf32 fp16 bf16 fp8 int8"
	ms := []Model{llama3_8b, llama31_405b, llama33_70b, mistral_7b}
	got := RankFits(ms, []int{8192, 131072, 131072, 32768}, g, 1)
	var order []int
	for _, r := range got {
		order = append(order, r.Index)
	}
	want := []int{2, 0, 3} // 70B (fp8), 8B, 7B; 405B fits in no format
	if len(order) != len(want) {
		t.Fatalf("order %v, want %v", order, want)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("order %v, want %v", order, want)
		}
	}
	if got[0].Option.DType != FP8 || got[1].Option.DType != BF16 {
		t.Errorf("options %s, %s: want the most precise that fits (fp8 for 70B, bf16 for 8B)", got[0].Option.DType, got[1].Option.DType)
	}
}
