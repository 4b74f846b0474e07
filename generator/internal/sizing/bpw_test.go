package sizing

import (
	"math"
	"testing"
)

// TestBitsPerWeight: a mixed-width format stores every weight, embeddings
// included, at its average bits (Llama 3 70B's Q4_K_M GGUF is 39.59 GiB,
// 4.82 bits per weight), decodes faster than 16-bit weights in proportion
// to the bytes read, and needs a weight-only quantized dtype.
func TestBitsPerWeight(t *testing.T) {
	for _, tc := range []struct {
		m    Model
		bpw  float64
		want float64 // GiB of weights
	}{
		{llama33_70b, 4.82, 39.59},
		{llama3_8b, 4.90, 4.58},
		{llama3_8b, 8.5, 7.95},
	} {
		in := DefaultInput(tc.m)
		in.DType, in.BitsPerWeight = INT4, tc.bpw
		if tc.bpw > 8 {
			in.DType = INT8
		}
		r, err := Estimate(in, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := float64(r.Breakdown.Weights) / (1 << 30); math.Abs(got-tc.want) > 0.01 {
			t.Errorf("%d params at %g bits: %.3f GiB of weights, want %.2f", tc.m.Params, tc.bpw, got, tc.want)
		}
	}
	// Fewer bits read per token: faster decode on the same GPU.
	in := DefaultInput(llama3_8b)
	f16, _ := Estimate(in, &rtx4090)
	in.DType, in.BitsPerWeight = INT4, 4.9
	q4, _ := Estimate(in, &rtx4090)
	if !(q4.ExpectedDecode > 2*f16.ExpectedDecode) {
		t.Errorf("decode at 4.9 bits %.1f, at 16 bits %.1f: want more than twice as fast", q4.ExpectedDecode, f16.ExpectedDecode)
	}
	for _, bad := range []Input{
		func() Input { in := DefaultInput(llama3_8b); in.BitsPerWeight = 4.8; return in }(),                        // bf16
		func() Input { in := DefaultInput(llama3_8b); in.DType, in.BitsPerWeight = INT4, -1; return in }(),         // negative
		func() Input { in := DefaultInput(llama3_8b); in.DType, in.BitsPerWeight = INT4, math.NaN(); return in }(), // not a number
	} {
		if err := bad.Validate(); err == nil {
			t.Errorf("bits per weight %v with %s accepted", bad.BitsPerWeight, bad.DType)
		}
	}
}
