// Package chart draws small, accessible charts as inline SVG at build
// time: a labelled scatter plot, sorted horizontal bars, per-item ranges
// (min, median, max and one dot per value), a dated step line (History)
// and lines over shared positions (Lines). It takes plain structs, not
// catalog types, and performs no I/O.
//
// Every SVG has role="img", a <title> and a <desc> that aria-labelledby
// names, axis labels with units, and no style attributes (the site's CSP
// forbids inline styles): shapes carry class names for the stylesheet and
// inherit currentColor. Every class but the root's "chart" starts with
// "chart-" (chart-point, chart-bar, chart-dot, chart-span, chart-median,
// chart-grid, chart-tick, chart-axis-title ...), clear of the site's other
// classes. Each plotted element carries its exact input numbers as data-*
// attributes, and every chart comes with the same data as table rows, for
// an HTML table beside it.
package chart

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"html/template"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/message"
)

// Axis describes one axis of a chart.
type Axis struct {
	// Label names the quantity, e.g. "Dense BF16".
	Label string
	// Unit is shown after the label in parentheses, e.g. "TFLOPS".
	Unit string
	// Log selects a logarithmic scale (every value must then be > 0).
	// Bars always use a linear scale from zero.
	Log bool
	// Format formats values in tooltips and value labels; nil prints
	// three significant digits.
	Format func(float64) string
	// TitleFormat joins the label ({0}) and the unit ({1}) in the page's
	// language ("{0}（{1}）", package message); "{0} ({1})" when empty.
	TitleFormat string
}

// Title is the axis title: the label and the unit in parentheses.
func (a Axis) Title() string {
	if a.Unit == "" {
		return a.Label
	}
	if a.TitleFormat != "" {
		return message.Fill(a.TitleFormat, []string{a.Label, a.Unit}, nil)
	}
	return a.Label + " (" + a.Unit + ")"
}

func (a Axis) format(v float64) string {
	if a.Format != nil {
		return a.Format(v)
	}
	return Sig3(v)
}

// Options are a chart's texts and axes.
type Options struct {
	// ID is unique on the page (a letter, then letters, digits, "-" or
	// "_"): the <title> and <desc> ids are ID+"-title" and ID+"-desc".
	ID string
	// Title and Desc are the chart's accessible name and description;
	// Title is also the table's caption.
	Title, Desc string
	// X is the horizontal axis. For Bars and Ranges it is the value axis.
	X Axis
	// Y is the vertical axis of Scatter; unused by Bars and Ranges.
	Y Axis
	// Width is the SVG's width in user units; 720 when 0.
	Width int
	// Label heads the table's label column, e.g. "GPU".
	Label string
	// Count heads the count column of a Ranges table; "Values" when
	// empty.
	Count string
	// NoData is shown in an empty chart; "No data" when empty.
	NoData string
	// Stats head a Ranges table's minimum, median and maximum columns,
	// each taking the axis title ("Minimum {0}" when empty, package
	// message), and RangeTip is a range's tooltip: label, count, minimum,
	// maximum, unit and median ("{0}: {1} values, {2} to {3} {4}, median
	// {5}" when empty). They give the page's language.
	Stats    [3]string
	RangeTip string
	// PointTip is a History point's tooltip: label, value and unit ("{0}:
	// {1} {2}" when empty), in the page's language.
	PointTip string
}

// Chart is a rendered chart and its data as a table.
type Chart struct {
	// SVG is the <svg> element, ready to inline in HTML.
	SVG []byte
	// Narrow is the same chart laid out for a phone (NarrowWidth user
	// units wide, so its 12-unit text is 12 px on a 390 px screen), with
	// the ids ID+"-n", ID+"-n-title" and ID+"-n-desc"; nil when the chart
	// kind has no narrow layout.
	Narrow []byte
	// Table holds the plotted data, in plotted order.
	Table Table
}

// NarrowWidth is the width of a chart's narrow layout in user units: at
// most the content width of a 390 px phone screen (358 px), so that it is
// drawn at scale 1 or larger.
const NarrowWidth = 350

// HTML returns the chart for html/template. With a narrow layout it is
// both SVGs, classed chart-wide and chart-narrow for the stylesheet to
// show one by the screen's width; without one it is the SVG in a box that
// scrolls sideways on a narrow screen (chart-scroll, focusable and named
// by the chart's title) rather than shrinking its text. The markup is
// built by this package with every text escaped.
func (c Chart) HTML() template.HTML {
	if c.Narrow != nil {
		wide := bytes.Replace(c.SVG, []byte(`<svg xmlns="http://www.w3.org/2000/svg" class="chart"`), []byte(`<svg xmlns="http://www.w3.org/2000/svg" class="chart chart-wide"`), 1)
		narrow := bytes.Replace(c.Narrow, []byte(`<svg xmlns="http://www.w3.org/2000/svg" class="chart"`), []byte(`<svg xmlns="http://www.w3.org/2000/svg" class="chart chart-narrow"`), 1)
		return template.HTML(string(wide) + string(narrow))
	}
	return template.HTML(`<div class="chart-scroll" tabindex="0" role="region" aria-label="` + esc(c.Table.Caption) + `">` + string(c.SVG) + `</div>`)
}

// Table is a chart's data for an HTML table.
type Table struct {
	Caption string
	// Columns are the header cells; the first heads the label column.
	Columns []string
	Rows    []Row
}

// Row is one table row: a label and one value per column after the
// first, exactly as given to the chart (or, for Ranges, computed from its
// values).
type Row struct {
	ID, Label, Href string
	Values          []float64
}

// Point is one point of a scatter plot.
type Point struct {
	ID    string // a stable identifier, written as data-id
	Label string // shown beside the point when there is room, and in the table
	Href  string // for the table row; not used in the SVG
	X, Y  float64
}

// Bar is one bar of a bar chart.
type Bar struct {
	ID, Label, Href string
	Value           float64
}

// Series is one row of a range chart: the values of one item.
type Series struct {
	ID, Label, Href string
	Values          []float64
}

var idPattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)

const (
	defaultWidth = 720
	fontSize     = 12
	charWidth    = 0.6 * fontSize // a rough average glyph width
	rowHeight    = 24
)

func (o Options) check() error {
	if !idPattern.MatchString(o.ID) {
		return fmt.Errorf("chart: id %q: use a letter, then letters, digits, - or _", o.ID)
	}
	if o.Title == "" || o.Desc == "" {
		return fmt.Errorf("chart %s: a title and a description are required", o.ID)
	}
	return nil
}

func (o Options) width() float64 {
	if o.Width > 0 {
		return float64(o.Width)
	}
	return defaultWidth
}

func checkValue(id, what string, v float64, log bool) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("chart: %s of %q is %v", what, id, v)
	}
	if log && v <= 0 {
		return fmt.Errorf("chart: %s of %q is %v, not positive: it cannot go on a logarithmic axis", what, id, v)
	}
	return nil
}

// Sig3 formats v with three significant digits and no exponent:
// 1978.9 -> "1979", 2.494 -> "2.49", 0.03114 -> "0.0311".
func Sig3(v float64) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	d := 2 - int(math.Floor(math.Log10(math.Abs(v))))
	if d < 0 {
		d = 0
	}
	return strconv.FormatFloat(v, 'f', d, 64)
}

// exact is a value as written in data-* attributes: the shortest decimal
// that parses back to the same float64.
func exact(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// coord formats an SVG coordinate.
func coord(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) }

func esc(s string) string { return html.EscapeString(s) }

// scale maps data values to pixels along one axis.
type scale struct {
	lo, hi     float64 // domain
	from, to   float64 // pixel range
	log        bool
	ticks      []float64
	tickFormat func(float64) string
}

func (s scale) at(v float64) float64 {
	if s.log {
		return s.from + (math.Log10(v)-math.Log10(s.lo))/(math.Log10(s.hi)-math.Log10(s.lo))*(s.to-s.from)
	}
	return s.from + (v-s.lo)/(s.hi-s.lo)*(s.to-s.from)
}

// newScale picks a "nice" domain covering vals and its ticks. A linear
// scale starts at zero when every value is non-negative.
func newScale(vals []float64, log bool, from, to float64) scale {
	s := scale{from: from, to: to, log: log}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vals {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if len(vals) == 0 {
		lo, hi = 1, 10
	}
	if log {
		// Candidates are 1, 2 and 5 times powers of ten around the data.
		var cands []float64
		for e := math.Floor(math.Log10(lo)) - 1; e <= math.Ceil(math.Log10(hi))+1; e++ {
			for _, m := range []float64{1, 2, 5} {
				cands = append(cands, m*math.Pow(10, e))
			}
		}
		const eps = 1e-9
		i := 0 // the largest candidate <= lo
		for i+1 < len(cands) && cands[i+1] <= lo*(1+eps) {
			i++
		}
		j := len(cands) - 1 // the smallest candidate >= hi
		for j-1 >= 0 && cands[j-1] >= hi*(1-eps) {
			j--
		}
		if j <= i {
			i, j = max(i-1, 0), min(i+1, len(cands)-1)
		}
		s.lo, s.hi = cands[i], cands[j]
		s.ticks = cands[i : j+1]
		if len(s.ticks) > 10 { // many decades: decades only, plus the ends
			s.ticks = nil
			for k := i; k <= j; k++ {
				if k == i || k == j || k%3 == 0 {
					s.ticks = append(s.ticks, cands[k])
				}
			}
		}
		s.tickFormat = func(v float64) string {
			return strconv.FormatFloat(v, 'f', max(0, -int(math.Floor(math.Log10(v)+1e-9))), 64)
		}
		return s
	}
	if lo >= 0 {
		lo = 0
	}
	if hi <= lo {
		hi = lo + 1
	}
	step := niceStep((hi - lo) / 5)
	s.lo = math.Floor(lo/step) * step
	s.hi = math.Ceil(hi/step) * step
	decimals := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	for i := 0; ; i++ {
		t := s.lo + float64(i)*step
		if t > s.hi+step/2 {
			break
		}
		s.ticks = append(s.ticks, math.Round(t/step)*step)
	}
	s.tickFormat = func(v float64) string { return strconv.FormatFloat(v, 'f', decimals, 64) }
	return s
}

// niceStep rounds a raw step up to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	if raw <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// svg accumulates the markup of one chart.
type svg struct {
	b    strings.Builder
	o    Options
	w, h float64
}

func (g *svg) open() {
	id := esc(g.o.ID)
	fmt.Fprintf(&g.b, `<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="%s" role="img" aria-labelledby="%s-title %s-desc" viewBox="0 0 %s %s" width="%s" height="%s" font-size="%d" fill="currentColor">`,
		id, id, id, coord(g.w), coord(g.h), coord(g.w), coord(g.h), fontSize)
	fmt.Fprintf(&g.b, `<title id="%s-title">%s</title><desc id="%s-desc">%s</desc>`, id, esc(g.o.Title), id, esc(g.o.Desc))
}

// empty writes a "No data" note in the middle of the chart.
func (g *svg) empty() {
	msg := g.o.NoData
	if msg == "" {
		msg = "No data"
	}
	g.text(g.w/2, g.h/2, "middle", "no-data", msg)
}

func (g *svg) close() []byte {
	g.b.WriteString(`</svg>`)
	return []byte(g.b.String())
}

func (g *svg) text(x, y float64, anchor, class, s string, extra ...string) {
	a := ""
	if anchor != "" && anchor != "start" {
		a = ` text-anchor="` + anchor + `"`
	}
	fmt.Fprintf(&g.b, `<text class="chart-%s" x="%s" y="%s"%s%s>%s</text>`, class, coord(x), coord(y), a, strings.Join(extra, ""), esc(s))
}

// lineLook returns presentation attributes that make a chart readable
// without the stylesheet (which may override them).
func lineLook(class string) string {
	switch class {
	case "grid":
		return ` stroke-opacity="0.15"`
	case "span":
		return ` stroke-width="2"`
	case "median":
		return ` stroke-width="3"`
	}
	return ""
}

func (g *svg) line(x1, y1, x2, y2 float64, class string) {
	fmt.Fprintf(&g.b, `<line class="chart-%s" x1="%s" y1="%s" x2="%s" y2="%s" stroke="currentColor"%s/>`, class, coord(x1), coord(y1), coord(x2), coord(y2), lineLook(class))
}

// xAxis draws vertical grid lines with tick labels below the plot and
// the axis title under them. A tick label that would touch the one
// before it, or reach past the drawing, is left out (its grid line
// stays); a title too long for the drawing wraps onto a second line.
func (g *svg) xAxis(s scale, top, bottom float64, a Axis) {
	g.b.WriteString(`<g class="chart-axis chart-x-axis">`)
	last := math.Inf(-1)
	for _, t := range s.ticks {
		x := s.at(t)
		g.line(x, top, x, bottom, "grid")
		l := s.tickFormat(t)
		half := textWidth(l) / 2
		if x-half < last+charWidth || x-half < 0 || x+half > g.w {
			continue
		}
		g.text(x, bottom+16, "middle", "tick", l)
		last = x + half
	}
	g.line(s.from, bottom, s.to, bottom, "axis-line")
	for i, line := range wrap(a.Title(), g.w-8) {
		half := textWidth(line) / 2
		x := math.Max(math.Min((s.from+s.to)/2, g.w-4-half), 4+half) // centred under the plot, inside the drawing
		g.text(x, bottom+36+float64(i)*(fontSize+3), "middle", "axis-title", line)
	}
	g.b.WriteString(`</g>`)
}

// textWidth estimates the width of s in user units.
func textWidth(s string) float64 {
	w := 0.0
	for _, r := range s {
		if r >= 0x2e80 { // CJK: about a full em
			w += fontSize
		} else {
			w += charWidth
		}
	}
	return w
}

// wrap splits s at spaces into lines no wider than width (a word longer
// than width stays whole on its line).
func wrap(s string, width float64) []string {
	if textWidth(s) <= width {
		return []string{s}
	}
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && textWidth(line+" "+w) > width {
			lines = append(lines, line)
			line = w
			continue
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}

// shortUnit abbreviates a unit for value labels: "USD per GPU-hour" ->
// "USD/GPU-h".
func shortUnit(u string) string {
	return strings.ReplaceAll(strings.ReplaceAll(u, " per ", "/"), "-hour", "-h")
}

// withUnit is a value label: the formatted value and the short unit.
func withUnit(a Axis, v float64) string {
	if a.Unit == "" {
		return a.format(v)
	}
	return a.format(v) + " " + shortUnit(a.Unit)
}

// narrowOptions are the options of a chart's narrow layout.
func (o Options) narrow() Options {
	o.ID += "-n"
	o.Width = NarrowWidth
	return o
}

// Scatter draws one point per input with its label beside it where the
// label fits inside the plot without overlapping another. The table has
// the columns label, X and Y, in input order. Its narrow layout is a
// square plot with the axis titles wrapped.
func Scatter(points []Point, o Options) (Chart, error) {
	if err := o.check(); err != nil {
		return Chart{}, err
	}
	var xs, ys []float64
	for _, p := range points {
		if err := errors.Join(checkValue(p.ID, "x", p.X, o.X.Log), checkValue(p.ID, "y", p.Y, o.Y.Log)); err != nil {
			return Chart{}, err
		}
		xs, ys = append(xs, p.X), append(ys, p.Y)
	}
	wide, t := scatter(points, o, xs, ys, false)
	narrow, _ := scatter(points, o.narrow(), xs, ys, true)
	return Chart{SVG: wide, Narrow: narrow, Table: t}, nil
}

func scatter(points []Point, o Options, xs, ys []float64, narrow bool) ([]byte, Table) {
	g := &svg{o: o, w: o.width(), h: 440}
	ytitle := []string{o.Y.Title()}
	left, right, top, bottom := 64.0, g.w-24, 16.0, g.h-56
	if narrow {
		g.h = 360
		ytitle = wrap(o.Y.Title(), g.h-80)
		left, right, bottom = 46+float64(len(ytitle)-1)*(fontSize+3), g.w-12, g.h-40-float64(len(wrap(o.X.Title(), g.w-8)))*(fontSize+3)
	}
	sx := newScale(xs, o.X.Log, left, right)
	sy := newScale(ys, o.Y.Log, bottom, top)
	g.open()
	g.xAxis(sx, top, bottom, o.X)
	g.b.WriteString(`<g class="chart-axis chart-y-axis">`)
	for _, t := range sy.ticks {
		y := sy.at(t)
		g.line(left, y, right, y, "grid")
		g.text(left-6, y+4, "end", "tick", sy.tickFormat(t))
	}
	g.line(left, top, left, bottom, "axis-line")
	for i, line := range ytitle {
		fmt.Fprintf(&g.b, `<text class="chart-axis-title" x="%s" y="%s" text-anchor="middle" transform="rotate(-90)">%s</text>`, coord(-(top+bottom)/2), coord(14+float64(i)*(fontSize+3)), esc(line))
	}
	g.b.WriteString(`</g>`)

	t := Table{Caption: o.Title, Columns: []string{o.Label, o.X.Title(), o.Y.Title()}}
	var placed []box
	for _, p := range points {
		x, y := sx.at(p.X), sy.at(p.Y)
		placed = append(placed, box{x - 4, y - 4, x + 4, y + 4})
	}
	plot := box{left + 2, top, right, bottom - 2}
	g.b.WriteString(`<g class="chart-points">`)
	for i, p := range points {
		x, y := sx.at(p.X), sy.at(p.Y)
		fmt.Fprintf(&g.b, `<g class="chart-point" data-id="%s" data-x="%s" data-y="%s"><circle cx="%s" cy="%s" r="4"/><title>%s: %s %s, %s %s</title>`,
			esc(p.ID), exact(p.X), exact(p.Y), coord(x), coord(y), esc(p.Label), esc(o.X.format(p.X)), esc(o.X.Unit), esc(o.Y.format(p.Y)), esc(o.Y.Unit))
		if lb, anchor, ok := fit(p.Label, x, y, placed, i, plot); ok {
			placed = append(placed, lb)
			g.text(lb.textX(anchor), lb.y1-3, anchor, "point-label", p.Label)
		}
		g.b.WriteString(`</g>`)
		t.Rows = append(t.Rows, Row{ID: p.ID, Label: p.Label, Href: p.Href, Values: []float64{p.X, p.Y}})
	}
	g.b.WriteString(`</g>`)
	if len(t.Rows) == 0 {
		g.empty()
	}
	return g.close(), t
}

// box is an axis-aligned rectangle: x0, y0 top left, x1, y1 bottom right.
type box struct{ x0, y0, x1, y1 float64 }

func (a box) overlaps(b box) bool { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1 }

func (a box) inside(b box) bool { return a.x0 >= b.x0 && a.x1 <= b.x1 && a.y0 >= b.y0 && a.y1 <= b.y1 }

func (a box) textX(anchor string) float64 {
	switch anchor {
	case "end":
		return a.x1
	case "middle":
		return (a.x0 + a.x1) / 2
	}
	return a.x0
}

// fit finds a place for a point's label: right, left, above or below the
// point, inside bounds and clear of every placed box except the point's
// own (index self). It returns the label's box and text anchor.
func fit(label string, x, y float64, placed []box, self int, bounds box) (box, string, bool) {
	if label == "" {
		return box{}, "", false
	}
	w, h := textWidth(label), float64(fontSize)+2
	for _, c := range []struct {
		b      box
		anchor string
	}{
		{box{x + 7, y - h/2, x + 7 + w, y + h/2}, "start"},
		{box{x - 7 - w, y - h/2, x - 7, y + h/2}, "end"},
		{box{x - w/2, y - 6 - h, x + w/2, y - 6}, "middle"},
		{box{x - w/2, y + 6, x + w/2, y + 6 + h}, "middle"},
	} {
		if !c.b.inside(bounds) {
			continue
		}
		clear := true
		for i, p := range placed {
			if i != self && c.b.overlaps(p) {
				clear = false
				break
			}
		}
		if clear {
			return c.b, c.anchor, true
		}
	}
	return box{}, "", false
}

// labelWidth is the room for row labels: the longest label, within
// [60, 240] units.
func labelWidth(labels []string) float64 {
	w := 0.0
	for _, l := range labels {
		w = math.Max(w, textWidth(l))
	}
	return math.Min(240, math.Max(60, w+12))
}

// truncate shortens a row label to fit width units.
func truncate(s string, width float64) string {
	if textWidth(s) <= width-12 {
		return s
	}
	r := []rune(s)
	for len(r) > 1 && textWidth(string(r))+charWidth > width-12 {
		r = r[:len(r)-1]
	}
	if len(r) < 2 {
		return s
	}
	return string(r) + "…"
}

// Bars draws one horizontal bar per input, smallest value first (ties by
// label, then id), on a linear scale from zero, each bar labelled with its
// value and unit. Values must not be negative. The table has the columns
// label and value, in plotted order. In the narrow layout each label
// stands on its own line above its bar.
func Bars(bars []Bar, o Options) (Chart, error) {
	if err := o.check(); err != nil {
		return Chart{}, err
	}
	bars = append([]Bar(nil), bars...)
	var vals []float64
	for _, b := range bars {
		if err := checkValue(b.ID, "value", b.Value, false); err != nil {
			return Chart{}, err
		}
		if b.Value < 0 {
			return Chart{}, fmt.Errorf("chart: value of %q is negative (%v)", b.ID, b.Value)
		}
		vals = append(vals, b.Value)
	}
	sort.SliceStable(bars, func(i, j int) bool {
		a, b := bars[i], bars[j]
		if a.Value != b.Value {
			return a.Value < b.Value
		}
		if a.Label != b.Label {
			return a.Label < b.Label
		}
		return a.ID < b.ID
	})
	wide, t := barChart(bars, vals, o, false)
	narrow, _ := barChart(bars, vals, o.narrow(), true)
	return Chart{SVG: wide, Narrow: narrow, Table: t}, nil
}

func barChart(bars []Bar, vals []float64, o Options, narrow bool) ([]byte, Table) {
	g := &svg{o: o, w: o.width()}
	var labels []string
	valueRoom := 0.0 // room for the value text after the longest bar
	for _, b := range bars {
		labels = append(labels, b.Label)
		valueRoom = math.Max(valueRoom, textWidth(withUnit(o.X, b.Value))+8)
	}
	lw, row, barTop, labelY := labelWidth(labels), float64(rowHeight), 4.0, 0.0
	if narrow {
		lw, row, barTop, labelY = 4, 40, 19, 14
	}
	top := 12.0
	bottom := top + float64(max(len(bars), 1))*row
	g.h = bottom + 44 + float64(len(wrap(o.X.Title(), g.w-8)))*(fontSize+3)
	s := newScale(vals, false, lw, g.w-12-valueRoom)
	g.open()
	g.xAxis(s, top, bottom, o.X)
	t := Table{Caption: o.Title, Columns: []string{o.Label, o.X.Title()}}
	g.b.WriteString(`<g class="chart-bars">`)
	for i, b := range bars {
		y := top + float64(i)*row
		x1 := s.at(b.Value)
		fmt.Fprintf(&g.b, `<g class="chart-bar" data-id="%s" data-value="%s">`, esc(b.ID), exact(b.Value))
		if narrow {
			g.text(lw, y+labelY, "", "row-label", truncate(b.Label, g.w-lw+12))
		} else {
			g.text(lw-8, y+row/2+4, "end", "row-label", truncate(b.Label, lw))
		}
		bh := row - barTop - 4
		if narrow {
			bh = 14
		}
		fmt.Fprintf(&g.b, `<rect x="%s" y="%s" width="%s" height="%s"/>`, coord(lw), coord(y+barTop), coord(math.Max(x1-lw, 0.5)), coord(bh))
		g.text(x1+4, y+barTop+bh/2+4, "", "bar-value", withUnit(o.X, b.Value))
		fmt.Fprintf(&g.b, `<title>%s: %s %s</title></g>`, esc(b.Label), esc(o.X.format(b.Value)), esc(o.X.Unit))
		t.Rows = append(t.Rows, Row{ID: b.ID, Label: b.Label, Href: b.Href, Values: []float64{b.Value}})
	}
	g.b.WriteString(`</g>`)
	if len(t.Rows) == 0 {
		g.empty()
	}
	return g.close(), t
}

// Stats are the summary figures of one series.
type Stats struct {
	N                int
	Min, Median, Max float64
}

// Summarise returns the count, minimum, median (the mean of the middle
// two for an even count) and maximum of vals.
func Summarise(vals []float64) Stats {
	if len(vals) == 0 {
		return Stats{}
	}
	v := append([]float64(nil), vals...)
	sort.Float64s(v)
	s := Stats{N: len(v), Min: v[0], Max: v[len(v)-1]}
	if len(v)%2 == 1 {
		s.Median = v[len(v)/2]
	} else {
		s.Median = (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	return s
}

// Ranges draws one row per series with values: a line from its minimum
// to its maximum, a dot per value and a tick at the median, whose value
// and unit label the row. Rows are sorted by median, then label, then id;
// series without values are left out. The table has the columns label,
// count, minimum, median and maximum. In the narrow layout each label
// and median stand on their own line above the row's range.
func Ranges(series []Series, o Options) (Chart, error) {
	if err := o.check(); err != nil {
		return Chart{}, err
	}
	var rows []rangeRow
	var vals []float64
	for _, s := range series {
		if len(s.Values) == 0 {
			continue
		}
		for _, v := range s.Values {
			if err := checkValue(s.ID, "value", v, o.X.Log); err != nil {
				return Chart{}, err
			}
		}
		rows = append(rows, rangeRow{s, Summarise(s.Values)})
		vals = append(vals, s.Values...)
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.st.Median != b.st.Median {
			return a.st.Median < b.st.Median
		}
		if a.Label != b.Label {
			return a.Label < b.Label
		}
		return a.ID < b.ID
	})
	wide, t := rangeChart(rows, vals, o, false)
	narrow, _ := rangeChart(rows, vals, o.narrow(), true)
	return Chart{SVG: wide, Narrow: narrow, Table: t}, nil
}

type rangeRow struct {
	Series
	st Stats
}

func rangeChart(rows []rangeRow, vals []float64, o Options, narrow bool) ([]byte, Table) {
	g := &svg{o: o, w: o.width()}
	var labels []string
	valueRoom := 0.0
	for _, r := range rows {
		labels = append(labels, r.Label)
		valueRoom = math.Max(valueRoom, textWidth(withUnit(o.X, r.st.Median))+12)
	}
	lw, row, mid := labelWidth(labels), float64(rowHeight), float64(rowHeight)/2
	right := g.w - 12 - valueRoom
	if narrow {
		lw, row, mid, right = 8, 40, 28, g.w-8
	}
	top := 12.0
	bottom := top + float64(max(len(rows), 1))*row
	g.h = bottom + 44 + float64(len(wrap(o.X.Title(), g.w-8)))*(fontSize+3)
	s := newScale(vals, o.X.Log, lw, right)
	g.open()
	g.xAxis(s, top, bottom, o.X)
	count := o.Count
	if count == "" {
		count = "Values"
	}
	stats := o.Stats
	for i, d := range [3]string{"Minimum {0}", "Median {0}", "Maximum {0}"} {
		if stats[i] == "" {
			stats[i] = d
		}
	}
	tip := o.RangeTip
	if tip == "" {
		tip = "{0}: {1} values, {2} to {3} {4}, median {5}"
	}
	title := []string{o.X.Title()}
	t := Table{Caption: o.Title, Columns: []string{o.Label, count, message.Fill(stats[0], title, nil), message.Fill(stats[1], title, nil), message.Fill(stats[2], title, nil)}}
	g.b.WriteString(`<g class="chart-ranges">`)
	for i, r := range rows {
		y := top + float64(i)*row + mid
		fmt.Fprintf(&g.b, `<g class="chart-range" data-id="%s" data-n="%d" data-min="%s" data-median="%s" data-max="%s">`,
			esc(r.ID), r.st.N, exact(r.st.Min), exact(r.st.Median), exact(r.st.Max))
		median := withUnit(o.X, r.st.Median)
		if narrow {
			g.text(4, y-14, "", "row-label", truncate(r.Label, g.w-textWidth(median)-8))
			g.text(g.w-4, y-14, "end", "range-value", median)
		} else {
			g.text(lw-8, y+4, "end", "row-label", truncate(r.Label, lw))
			g.text(g.w-4, y+4, "end", "range-value", median)
		}
		g.line(s.at(r.st.Min), y, s.at(r.st.Max), y, "span")
		for _, v := range r.Values {
			fmt.Fprintf(&g.b, `<circle class="chart-dot" cx="%s" cy="%s" r="3" data-value="%s"/>`, coord(s.at(v)), coord(y), exact(v))
		}
		m := s.at(r.st.Median)
		g.line(m, y-7, m, y+7, "median")
		fmt.Fprintf(&g.b, `<title>%s</title></g>`, esc(message.Fill(tip, []string{r.Label, strconv.Itoa(r.st.N),
			o.X.format(r.st.Min), o.X.format(r.st.Max), o.X.Unit, o.X.format(r.st.Median)}, nil)))
		t.Rows = append(t.Rows, Row{ID: r.ID, Label: r.Label, Href: r.Href, Values: []float64{float64(r.st.N), r.st.Min, r.st.Median, r.st.Max}})
	}
	g.b.WriteString(`</g>`)
	if len(t.Rows) == 0 {
		g.empty()
	}
	return g.close(), t
}
