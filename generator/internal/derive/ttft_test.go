package derive

import (
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

// TestTTFTOrder: the time to first token (its bound and its expected
// value) of a 1,024-token prompt on one
// GPU (the engine's estimate, whether or not the model fits its memory,
// so that the GPUs are compared at the same layout) follows the GPUs'
// compute across generations, newest fastest; a GPU whose data
// has no 16-bit tensor figure computes at its FP32 rate (Kepler, Maxwell,
// Pascal P4/P40), and one with no compute figure at all has no TTFT
// (shown as "–") rather than the weight-read time alone, which made the
// A10G (no figure) look 20 times faster than the A10, and the RTX 3080 Ti,
// A10G, P40 and K80 faster than a B200 for a 70B model.
func TestTTFTOrder(t *testing.T) {
	c := testcat.Repo(t)
	for _, model := range []string{"llama-3-8b", "llama-3-1-70b"} {
		m := c.Model(model).Model
		in := ServingInput(m, 1)
		ttft, expected := map[string]float64{}, map[string]float64{}
		for _, g := range c.GPUs {
			sg := SizingGPU(g)
			r, err := sizing.Estimate(in, &sg)
			if err != nil {
				t.Fatalf("%s on %s: %v", model, g.ID, err)
			}
			ttft[g.ID], expected[g.ID] = r.TTFTSeconds, r.ExpectedTTFT
		}
		// Newest first: each must be faster than the next one listed.
		order := []string{"b200-sxm-180gb", "h100-sxm5-80gb", "a100-sxm4-80gb", "a10", "t4", "p40", "k80"}
		var prev string
		for _, id := range order {
			x := ttft[id]
			if !(x > 0) {
				t.Errorf("%s on %s: no TTFT", model, id)
				continue
			}
			if prev != "" && !(ttft[prev] < x) {
				t.Errorf("%s: TTFT on %s (%.4f s) is not below %s's (%.4f s)", model, prev, ttft[prev], id, x)
			}
			if prev != "" && !(expected[prev] < expected[id]) {
				t.Errorf("%s: expected TTFT on %s (%.4f s) is not below %s's (%.4f s)", model, prev, expected[prev], id, expected[id])
			}
			if !(expected[id] > x) {
				t.Errorf("%s on %s: expected TTFT %.4f s not above the bound %.4f s", model, id, expected[id], x)
			}
			prev = id
		}
		for _, id := range []string{"a10g", "rtx-3080-ti"} {
			if x := ttft[id] + expected[id]; x != 0 {
				t.Errorf("%s on %s: TTFT %.4f s from no compute figure, want none (0)", model, id, x)
			}
		}
		t.Logf("%s expected TTFT: B200 %.4f, H100 %.4f, A100 %.4f, A10 %.4f, T4 %.4f, P40 %.4f, K80 %.4f s", model,
			expected["b200-sxm-180gb"], expected["h100-sxm5-80gb"], expected["a100-sxm4-80gb"], expected["a10"], expected["t4"], expected["p40"], expected["k80"])
		t.Logf("%s TTFT: B200 %.4f, H100 %.4f, A100 %.4f, A10 %.4f, T4 %.4f, P40 %.4f, K80 %.4f s", model,
			ttft["b200-sxm-180gb"], ttft["h100-sxm5-80gb"], ttft["a100-sxm4-80gb"], ttft["a10"], ttft["t4"], ttft["p40"], ttft["k80"])
	}
}
