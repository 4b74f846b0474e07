package chartdata

import (
	"bytes"
	"encoding/xml"
	"io"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/chart"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

func data(t *testing.T) []struct {
	name string
	d    *derive.Data
} {
	return []struct {
		name string
		d    *derive.Data
	}{
		{"fixture", derive.New(testcat.Fixture(t), testcat.FixtureNow)},
		{"repo", derive.New(testcat.Repo(t), testcat.DataDate(testcat.Repo(t)))},
	}
}

func TestInputsMatchDerive(t *testing.T) {
	for _, tc := range data(t) {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.d
			pts, bars, series := PriceVsBF16(d), PricePerGB(d), Spread(d)
			pi, bi, si := 0, 0, 0
			for _, g := range d.Cat.GPUs {
				st := d.GPUStats(g.ID, "on-demand")
				if st.N == 0 {
					continue
				}
				// Points and bars are the cheapest current price
				// (Cheapest: not stale where one is); the spread is every
				// current price (GPUStats), none for a GPU with only stale ones.
				low := d.Cheapest(g.ID).PerGPUDC
				if g.BF16TFLOPS != nil {
					if p := pts[pi]; p.ID != g.ID || p.X != *g.BF16TFLOPS || p.Y != low || p.Href != "gpus/"+g.ID+"/" {
						t.Errorf("point %+v for %s (cheapest %v)", p, g.ID, low)
					}
					pi++
				}
				if b := bars[bi]; b.ID != g.ID || b.Value != low/g.MemoryGB {
					t.Errorf("bar %+v for %s", b, g.ID)
				}
				bi++
				if st.Stale { // no current price: not in today's spread
					continue
				}
				s := series[si]
				sum := chart.Summarise(s.Values)
				if s.ID != g.ID || sum.N != st.N || sum.Min != st.Min || sum.Median != st.Median || sum.Max != st.Max {
					t.Errorf("series %s: %+v, want %+v", g.ID, sum, st)
				}
				si++
			}
			if pi != len(pts) || bi != len(bars) || si != len(series) {
				t.Errorf("extra inputs: %d/%d points, %d/%d bars, %d/%d series", pi, len(pts), bi, len(bars), si, len(series))
			}
		})
	}
}

func TestCharts(t *testing.T) {
	var d diag.List
	strs := render.LoadStrings(testcat.RepoRoot(), []string{"en", "zh"}, &d)
	for _, tc := range data(t) {
		t.Run(tc.name, func(t *testing.T) {
			en := strs.For("en")
			s, err := Charts(tc.d, func(k string) string { return en[k] }, "en")
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []chart.Chart{s.PriceVsBF16, s.PricePerGB, s.Spread} {
				if bytes.Contains(c.SVG, []byte("style=")) {
					t.Error("style attribute")
				}
				dec := xml.NewDecoder(bytes.NewReader(c.SVG))
				for {
					if _, err := dec.Token(); err == io.EOF {
						break
					} else if err != nil {
						t.Fatalf("not XML: %v", err)
					}
				}
				if len(c.Table.Rows) == 0 {
					t.Error("empty table")
				}
			}
		})
	}
}

// TestFixtureFigures pins the fixture's numbers: Alpha's cheapest
// on-demand per GPU is min(40/8 USD, 28 CNY / 7) = 4 USD.
func TestFixtureFigures(t *testing.T) {
	d := derive.New(testcat.Fixture(t), testcat.FixtureNow)
	pts := PriceVsBF16(d)
	if len(pts) != 2 || pts[0].ID != "alpha-80gb" || pts[0].X != 900 || pts[0].Y != 4 || pts[1].Y != 0.75 {
		t.Errorf("points %+v", pts)
	}
	if bars := PricePerGB(d); bars[0].Value != 4.0/80 || bars[1].Value != 0.75/24 {
		t.Errorf("bars %+v", bars)
	}
	if s := Spread(d); len(s[0].Values) != 2 || s[0].Values[0] != 4 || s[0].Values[1] != 5 {
		t.Errorf("series %+v", s)
	}
}
