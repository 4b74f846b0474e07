package sizecmd

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestPlan: -plan's text when GPUs have plans and when none meets the
// targets (a sentence, not an empty table), against golden files; the
// JSON carries the same plans with each price's date.
func TestPlan(t *testing.T) {
	for _, tc := range []struct {
		golden string
		args   []string
		want   []string
	}{
		{"plan-llama-3-8b.txt", []string{"-plan", "-model", "llama-3-8b", "-rate", "10", "-prompt", "1000", "-output", "200", "-ttft", "500", "-tpot", "40"}, []string{
			"Serving 10 requests/s of 1,000-token prompts and 200-token answers, time to first token ≤ 500.0 ms, time per output token ≤ 40.0 ms.",
			"1 × cloud-b/h100x1 (2026-10-01)",
		}},
		{"plan-none.txt", []string{"-plan", "-model", "llama-2-70b", "-rate", "1", "-prompt", "1000", "-output", "100", "-tpot", "1"}, []string{
			"No GPU meets this load at a current on-demand price:",
			"time per output token at best",
		}},
	} {
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
	_, out, _ := run("-plan", "-model", "llama-3-8b", "-rate", "10", "-prompt", "1000", "-output", "200", "-ttft", "500", "-tpot", "40", "-json")
	var p jsonPlan
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if len(p.Plans) == 0 || p.Rate != 10 || p.TPOTMs != 40 {
		t.Fatalf("JSON: %+v", p)
	}
	for _, x := range p.Plans {
		if x.AsOf == "" || x.Offer == "" || x.TPOTMs > 40 || x.TTFTMs > 500 || x.USDPerHour <= 0 {
			t.Errorf("JSON plan %+v", x)
		}
	}
}

// TestPlanErrors: what -plan refuses, naming the flag to change.
func TestPlanErrors(t *testing.T) {
	base := []string{"-plan", "-model", "llama-3-8b", "-prompt", "1000", "-output", "200"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{base, "size: -plan needs -rate (requests/s), -prompt and -output (tokens per request); -rate is missing\n"},
		{append(base, "-rate", "0"), "size: -rate 0 must be more than 0 and at most 1e+06 requests/s\n"},
		{append(base, "-rate", "1", "-tpot", "-5"), "size: -ttft and -tpot are targets in milliseconds, 0 for none; they cannot be negative\n"},
		{append(base, "-rate", "1", "-gpus", "8"), "size: -plan chooses the layout and the GPU count for serving; leave out -gpus\n"},
		{[]string{"-plan", "-model", "llama-2-70b", "-rate", "1", "-prompt", "4000", "-output", "200"}, "size: -prompt 4000 plus -output 200 is over the model's context of 4096 tokens; shorten them\n"},
		{[]string{"-plan", "-rate", "1", "-prompt", "10", "-output", "10"}, "size: -plan needs a model: -model ID, -config config.json or a custom model\n"},
	} {
		code, out, errOut := run(tc.args...)
		if code != ExitUsage || out != "" || errOut != tc.want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q", tc.args, code, out, errOut, tc.want)
		}
	}
}
