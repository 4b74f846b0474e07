package catalog

import (
	"slices"
	"testing"
)

// calibrationOK is a valid time-to-first-token measurement of the fixture
// site, measured under load (lines 1-17).
const calibrationOK = `[[measurement]]
id = "tiny-ttft-under-load"
kind = "ttft"
held_out = true
model = "tiny-7b"
gpu = "alpha-80gb"
gpus = 1
engine = "trtllm"
prompt = 200
output = 200
rate = 2
measured = 19.0
unit = "ms"
citation = "A table, row 'tiny / QPS 2', column 'Mean TTFT(ms)'"
url = "https://bench.example/table"
date = 2025-02-10
note = "An online benchmark at 2 requests/s."
`

// TestCalibrationChecks: a measurement under load loads with its rate, and
// a rate that is not positive, or on a kind it does not apply to, is
// reported at its position.
func TestCalibrationChecks(t *testing.T) {
	for _, c := range []struct {
		name, old, new string
		want           []string
	}{
		{"valid", "", "", nil},
		{"a rate of zero", "rate = 2", "rate = 0",
			[]string{`data/calibration/bench.toml:11:8: rate must be greater than 0, got 0`}},
		{"a rate on a decode speed", "kind = \"ttft\"", "kind = \"decode\"",
			[]string{`data/calibration/bench.toml:11:8: rate is the load of a time-to-first-token measurement; a decode measurement takes none`,
				`data/calibration/bench.toml:13:8: unit "ms" is not one of: tokens_per_s`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := calibrationOK
			if c.old != "" || c.new != "" {
				text = replaceOnce(t, text, c.old, c.new)
			}
			cat, errs := loadWithFile(t, "calibration", "bench.toml", text)
			if !slices.Equal(errs, c.want) {
				t.Errorf("diagnostics\n%q\nwant\n%q", errs, c.want)
			}
			if c.want == nil {
				if cat == nil || len(cat.Calibration) != 1 || cat.Calibration[0].Rate != 2 {
					t.Fatalf("measurement not loaded with its rate: %+v", cat)
				}
			}
		})
	}
}
