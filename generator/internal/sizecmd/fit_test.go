package sizecmd

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestFit: -fit's text for a model that fits in some formats, one that
// fits in none (the sentence, not an empty answer), the preset list, and
// the list when nothing fits; each against a golden file.
func TestFit(t *testing.T) {
	tests := []struct {
		golden string
		args   []string
		want   []string // lines the text must hold, spaces squashed
	}{
		{"fit-llama-2-70b-h100x2.txt", []string{"-fit", "-gpu", "h100-sxm5-80gb", "-gpus", "2", "-model", "llama-2-70b"}, []string{
			"Serving on 2 × H100 SXM5 80GB (TP 2, PP 1; 76.00 GiB usable per GPU), context up to 4,096:",
		}},
		{"fit-llama-2-70b-4090.txt", []string{"-fit", "-gpu", "rtx-4090", "-model", "llama-2-70b"}, []string{
			"No format holds a 4,096-token sequence on 1 × GeForce RTX 4090.",
		}},
		{"fit-presets-h100.txt", []string{"-fit", "-gpu", "h100-sxm5-80gb"}, []string{
			"Model presets that fit 1 × H100 SXM5 80GB",
		}},
		{"fit-presets-t4.txt", []string{"-fit", "-gpu", "t4", "-seq", "2048"}, []string{
			// -seq caps every preset's context.
			"Llama 3 8B 8.03 B fp8 / bf16 2,048 19 at 2,048",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.golden, func(t *testing.T) {
			code, out, errOut := run(tc.args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(squash(out), squash(w)) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			checkGolden(t, tc.golden, out)
		})
	}
}

// TestFitJSON: the options of a model and the list of presets as JSON,
// with the fields the text shows.
func TestFitJSON(t *testing.T) {
	_, out, _ := run("-fit", "-gpu", "h100-sxm5-80gb", "-model", "llama-2-70b", "-json")
	var one jsonFit
	if err := json.Unmarshal([]byte(out), &one); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if one.GPU != "h100-sxm5-80gb" || one.GPUs != 1 || one.MaxContext != 4096 || len(one.Options) != 8 {
		t.Errorf("header or option count: %+v", one)
	}
	// The test GPU records no precisions, so it runs every format; bf16 of
	// a 69 B model (128 GiB) does not fit 80 GiB, 8-bit (64 GiB) does.
	if o := one.Options[0]; o.DType != "bf16" || o.Fits || o.OverBytesPerGPU <= 0 {
		t.Errorf("bf16: %+v", o)
	}
	var all jsonFitAll
	_, out, _ = run("-fit", "-gpu", "h100-sxm5-80gb", "-json")
	if err := json.Unmarshal([]byte(out), &all); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if len(all.Models) != 3 || all.Models[0].Model != "llama-2-70b" || !all.Models[0].Option.Fits {
		t.Errorf("presets: %+v", all.Models)
	}
}

// TestFitErrors: what -fit refuses, with the flag to change.
func TestFitErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-fit"}, "size: -fit needs -gpu ID (and -gpus N, default 1): the GPUs to fit\n"},
		{[]string{"-fit", "-gpu", "t4", "-dtype", "int4"}, "size: -fit lists every weight and KV-cache format for serving on all the GPUs; leave out -dtype\n"},
		{[]string{"-fit", "-gpu", "t4", "-gpus", "0"}, "size: -gpus 0 is outside 1..4096\n"},
		{[]string{"-fit", "-gpu", "t4", "-model", "llama-3-8b", "-seq", "0"}, "size: -seq 0 is outside 1..1e+07\n"},
		{[]string{"-fit", "-gpu", "nope"}, "size: unknown gpu \"nope\" (known: h100-sxm5-80gb, rtx-4090, t4)\n"},
	} {
		code, out, errOut := run(tc.args...)
		if code != ExitUsage || out != "" || errOut != tc.want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q", tc.args, code, out, errOut, tc.want)
		}
	}
}
