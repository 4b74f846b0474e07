package chart

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/message"
)

// Line is one series of a line chart.
type Line struct {
	ID    string // a stable identifier, written as data-id
	Label string // in the legend, the table's header and each point's tooltip
	// Values are the line's values at the chart's X positions, one each;
	// NaN where the series has none (the line breaks there).
	Values []float64
}

// linesHeight is a line chart's plot height in user units.
const linesHeight = 240

// dashes are the lines' dash patterns, by index (cycled), so that lines
// differ without colour; the stylesheet may also colour them by their
// class chart-sN.
var dashes = [...]string{"", "8 4", "2 3", "10 3 2 3", "4 4 1 4"}

// Lines draws series against the shared positions xs (ascending) as
// lines with a dot per value, on the axes o.X and o.Y (logarithmic where
// Log is set, where every value must be positive), with a legend under
// the plot that shows each line's dash beside its label. A dot's tooltip
// is o.PointTip filled with the line's label, the value and its unit, and
// the X value and its unit ("{0}: {1} {2} at {3} {4}" when empty). The
// table has the X column (headed o.Label) and one column per line, one
// row per position; a missing value is NaN. The narrow layout is the same
// chart NarrowWidth wide.
func Lines(xs []float64, lines []Line, o Options) (Chart, error) {
	if err := o.check(); err != nil {
		return Chart{}, err
	}
	var errs []error
	var ys []float64
	for i, x := range xs {
		errs = append(errs, checkValue("x", "position", x, o.X.Log))
		if i > 0 && !(x > xs[i-1]) {
			errs = append(errs, fmt.Errorf("chart %s: positions must ascend (%v after %v)", o.ID, x, xs[i-1]))
		}
	}
	for _, l := range lines {
		if len(l.Values) != len(xs) {
			errs = append(errs, fmt.Errorf("chart %s: line %q has %d values for %d positions", o.ID, l.ID, len(l.Values), len(xs)))
			continue
		}
		for _, v := range l.Values {
			if !math.IsNaN(v) {
				errs = append(errs, checkValue(l.ID, "value", v, o.Y.Log))
				ys = append(ys, v)
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return Chart{}, err
	}
	wide, t := lineChart(xs, ys, lines, o)
	narrow, _ := lineChart(xs, ys, lines, o.narrow())
	return Chart{SVG: wide, Narrow: narrow, Table: t}, nil
}

func lineChart(xs, ys []float64, lines []Line, o Options) ([]byte, Table) {
	g := &svg{o: o, w: o.width()}
	ytitle := wrap(o.Y.Title(), linesHeight-20)
	top := 12.0
	bottom := top + linesHeight
	sy := newScale(ys, o.Y.Log, bottom, top)
	widest := 0.0 // the widest value label, which the plot starts after
	for _, tk := range sy.ticks {
		widest = math.Max(widest, textWidth(o.Y.format(tk)))
	}
	left, right := 26+widest+float64(len(ytitle)-1)*(fontSize+3), g.w-36
	xtitle := wrap(o.X.Title(), g.w-8)
	legendTop := bottom + 36 + float64(len(xtitle))*(fontSize+3)
	const legendRow = 20.0
	g.h = legendTop + float64(len(lines))*legendRow + 4
	sx := newScale(xs, o.X.Log, left, right)
	if o.X.Format != nil {
		sx.tickFormat = o.X.Format
	}
	g.open()
	g.xAxis(sx, top, bottom, o.X)
	g.b.WriteString(`<g class="chart-axis chart-y-axis">`)
	last := bottom + 6 // the X axis's first label sits under the corner
	for _, tk := range sy.ticks {
		y := sy.at(tk)
		g.line(left, y, right, y, "grid")
		if y <= last-fontSize-2 { // a label clear of the one below it
			g.text(left-6, y+4, "end", "tick", o.Y.format(tk))
			last = y
		}
	}
	g.line(left, top, left, bottom, "axis-line")
	for i, line := range ytitle {
		fmt.Fprintf(&g.b, `<text class="chart-axis-title" x="%s" y="%s" text-anchor="middle" transform="rotate(-90)">%s</text>`, coord(-(top+bottom)/2), coord(14+float64(i)*(fontSize+3)), esc(line))
	}
	g.b.WriteString(`</g>`)
	tip := o.PointTip
	if tip == "" {
		tip = "{0}: {1} {2} at {3} {4}"
	}
	t := Table{Caption: o.Title, Columns: []string{o.Label}}
	for i, l := range lines {
		t.Columns = append(t.Columns, l.Label)
		dash := ""
		if d := dashes[i%len(dashes)]; d != "" {
			dash = ` stroke-dasharray="` + d + `"`
		}
		fmt.Fprintf(&g.b, `<g class="chart-series chart-s%d" data-id="%s">`, i%len(dashes), esc(l.ID))
		var path strings.Builder
		pen := "M"
		for k, v := range l.Values {
			if math.IsNaN(v) {
				pen = "M"
				continue
			}
			fmt.Fprintf(&path, "%s%s %s", pen, coord(sx.at(xs[k])), coord(sy.at(v)))
			pen = "L"
		}
		fmt.Fprintf(&g.b, `<path class="chart-line" d="%s" fill="none" stroke="currentColor" stroke-width="2"%s/>`, path.String(), dash)
		for k, v := range l.Values {
			if math.IsNaN(v) {
				continue
			}
			fmt.Fprintf(&g.b, `<circle class="chart-dot" cx="%s" cy="%s" r="3" data-x="%s" data-value="%s"><title>%s</title></circle>`,
				coord(sx.at(xs[k])), coord(sy.at(v)), exact(xs[k]), exact(v),
				esc(message.Fill(tip, []string{l.Label, o.Y.format(v), o.Y.Unit, o.X.format(xs[k]), o.X.Unit}, nil)))
		}
		y := legendTop + float64(i)*legendRow
		fmt.Fprintf(&g.b, `<line class="chart-legend-line" x1="%s" y1="%s" x2="%s" y2="%s" stroke="currentColor" stroke-width="2"%s/>`,
			coord(left), coord(y-4), coord(left+28), coord(y-4), dash)
		g.b.WriteString(`</g>`)
		g.text(left+36, y, "", "legend", truncate(l.Label, g.w-left-24))
	}
	for k, x := range xs {
		r := Row{ID: exact(x), Label: o.X.format(x)}
		for _, l := range lines {
			if len(l.Values) == len(xs) {
				r.Values = append(r.Values, l.Values[k])
			}
		}
		t.Rows = append(t.Rows, r)
	}
	if len(ys) == 0 {
		g.empty()
	}
	return g.close(), t
}
