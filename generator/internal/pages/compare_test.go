package pages

import (
	"slices"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
)

func TestBetter(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, c := range []struct {
		vals []*float64
		more bool
		want int
	}{
		{[]*float64{f(80), f(141)}, true, 2},
		{[]*float64{f(80), f(141)}, false, 1},
		{[]*float64{f(80), f(80)}, true, 0},
		{[]*float64{f(80), nil}, true, 0},
		{[]*float64{f(3), f(1), f(2)}, false, 2},
		{[]*float64{f(3), f(3), f(2)}, true, 0},
		// Below the figures' precision: FP32 67 against 66.9 TFLOPS is a tie.
		{[]*float64{f(67), f(66.9)}, true, 0},
		// NVLink 900 against 400 GB/s is not.
		{[]*float64{f(400), f(900)}, true, 2},
		{[]*float64{f(100), f(97)}, true, 1},
	} {
		if got := better(c.vals, c.more, specTolerance); got != c.want {
			t.Errorf("better(%v, more=%v) = %d, want %d", c.vals, c.more, got, c.want)
		}
	}
}

// TestBetterSpecRows: every row Better compares is a row of the spec
// table.
func TestBetterSpecRows(t *testing.T) {
	for row := range betterSpecs {
		if !slices.Contains(specRowNames(), row) {
			t.Errorf("betterSpecs compares %q, which is not a spec row %q", row, specRowNames())
		}
	}
}

// TestMarkCheapest: per column, the lowest current price is marked (ties
// all), a stale one never, and a column with one current price not at all.
func TestMarkCheapest(t *testing.T) {
	c := func(p float64, stale bool) *MatrixCellView {
		return &MatrixCellView{Row: &derive.Row{PerGPUDC: p}, Stale: stale}
	}
	g := MatrixGroup{Lines: []MatrixLine{
		{Cells: []*MatrixCellView{c(3, false), c(1, true), c(5, false)}},
		{Cells: []*MatrixCellView{c(2, false), c(4, false), nil}},
		{Cells: []*MatrixCellView{c(2, false), nil, nil}},
	}}
	markCheapest(&g)
	want := [][]bool{{false, false, false}, {true, false, false}, {true, false, false}}
	for i, l := range g.Lines {
		for j, cell := range l.Cells {
			if cell != nil && cell.Cheapest != want[i][j] {
				t.Errorf("line %d column %d: cheapest %v, want %v", i, j, cell.Cheapest, want[i][j])
			}
		}
	}
}

// TestSection: the part of the site the layout marks current, by page
// kind and path.
func TestSection(t *testing.T) {
	for _, c := range []struct{ kind, path, want string }{
		{"home", "", ""},
		{"404", "404.html", ""},
		{"gpu", "gpus/h100-sxm5-80gb/", "gpus"},
		{"gpus", "gpus/", "gpus"},
		{"provider", "providers/lambda/", "providers"},
		{"guide", "guides/pitfalls/", "guides"},
		{"guide", "accuracy/", "guides"},
		{"guide", "faq/", "faq"},
		{"guide", "methodology/", "methodology"},
		{"guides", "guides/", "guides"},
		{"compare", "compare/a10-vs-l4/", "compare"},
		{"compareindex", "compare/", "compare"},
		{"compareinstances", "compare/instances/", "compare"},
		{"model", "models/llama-3-1-8b/", "models"},
		{"pricing", "pricing/all/", "pricing"},
		{"tco", "tco/", "tco"},
		{"api", "api/", "api"},
	} {
		if got := Section(c.kind, c.path); got != c.want {
			t.Errorf("Section(%q, %q) = %q, want %q", c.kind, c.path, got, c.want)
		}
	}
}
