package accuracy

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

// liveCatalog loads the repository's data, calibration set included: the
// calibration test is one of the named tests that read the live data,
// since the set is what it judges.
func liveCatalog(tb testing.TB) *catalog.Catalog {
	tb.Helper()
	root, err := filepath.Abs("../../..")
	if err != nil {
		tb.Fatal(err)
	}
	c, d := catalog.Load(root, testcat.Today(tb))
	if d.HasErrors() {
		var b strings.Builder
		for _, e := range d.Errors() {
			fmt.Fprintln(&b, e)
		}
		tb.Fatalf("data does not load:\n%s", b.String())
	}
	return c
}

// floors are the least share of each part of the set the engine must
// estimate within band (Band): the calibration test fails below them.
var floors = map[string]float64{"fit": 0.9, "held-out": 0.75}

// TestCalibration runs the engine on the calibration set, prints every
// measurement with its estimate and ratio (go test -v), and fails when the
// share within band of the fitted or held-out part falls below its floor.
func TestCalibration(t *testing.T) {
	c := liveCatalog(t)
	r, err := Evaluate(c)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Rows) == 0 {
		t.Fatal("the calibration set is empty")
	}
	if os.Getenv("ACCURACY_ROWS") != "" || testing.Verbose() {
		rows := append([]Row(nil), r.Rows...)
		sort.Slice(rows, func(i, j int) bool { return rows[i].M.Kind+rows[i].M.ID < rows[j].M.Kind+rows[j].M.ID })
		for _, row := range rows {
			mark := " "
			if !row.Within {
				mark = "x"
			}
			part := "fit"
			if row.M.HeldOut {
				part = "held"
			}
			t.Logf("%s %-16s %-4s %-60s est %10.4g meas %10.4g %s ratio %.2f", mark, row.M.Kind, part, row.M.ID, row.Estimate, row.M.Measured, row.M.Unit, row.Ratio)
		}
	}
	for _, s := range r.Summaries {
		t.Logf("%-16s %-8s n=%3d within=%3d share=%.2f geomean=%.2f spread=±%.0f%%", s.Kind, s.Part, s.N, s.Within, s.Share, s.GeoMean, 100*s.Spread)
	}
	for part, floor := range floors {
		s, ok := r.Summary("", part)
		if !ok {
			t.Errorf("no %s measurements", part)
			continue
		}
		if s.Share < floor {
			t.Errorf("%s part: %d of %d within band (%.0f%%), below the floor of %.0f%%", part, s.Within, s.N, 100*s.Share, 100*floor)
		}
	}
}

// BenchmarkCalibration reports the share within band of each part as
// metrics (fit-share, held-out-share), beside the time one evaluation of
// the set takes.
func BenchmarkCalibration(b *testing.B) {
	c := liveCatalog(b)
	var r *Report
	for b.Loop() {
		var err error
		if r, err = Evaluate(c); err != nil {
			b.Fatal(err)
		}
	}
	for _, part := range []string{"fit", "held-out", "all"} {
		if s, ok := r.Summary("", part); ok {
			b.ReportMetric(s.Share, fmt.Sprintf("%s-share", part))
		}
	}
}
