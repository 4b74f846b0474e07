package chart

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/message"
)

// TimePoint is one dated value of a history chart.
type TimePoint struct {
	ID    string    // a stable identifier, written as data-id
	Date  time.Time // the day the value was true
	Value float64
	// Label names the point in the table and its tooltip (e.g. the
	// source); empty: the date.
	Label string
}

// historyHeight is a history chart's height in user units.
const historyHeight = 220

// History draws a price history: one series of dated values as a step
// line (a value holds until the next observation) with a dot per value,
// oldest on the left, on a linear value scale from zero. Dates must be
// distinct. The table has the columns label (the date when a point has no
// label) and value, oldest first. o.X is the date axis (its Format is
// unused: dates print as YYYY-MM-DD), o.Y the value axis.
func History(points []TimePoint, o Options) (Chart, error) {
	if err := o.check(); err != nil {
		return Chart{}, err
	}
	points, vals, err := sortedHistory(points)
	if err != nil {
		return Chart{}, err
	}
	w := o.width()
	if o.Width == 0 {
		w = 560
	}
	g := &svg{o: o, w: w, h: historyHeight}
	p := historyPlot{left: 64.0, right: g.w - 24, top: 16.0, bottom: g.h - 56}
	sy := newScale(vals, false, p.bottom, p.top)
	g.open()
	t := Table{Caption: o.Title, Columns: []string{o.Label, o.Y.Title()}}
	if len(points) == 0 {
		g.empty()
		return Chart{SVG: g.close(), Table: t}, nil
	}
	p.first, p.last = points[0].Date, points[len(points)-1].Date
	p.span = p.last.Sub(p.first).Hours() / 24
	if p.span <= 0 {
		p.span = 1
	}
	g.dateAxis(p, o.X.Title())
	g.historyYAxis(p, sy, o.Y.Title())
	g.stepLine(p, sy, points)
	t.Rows = g.historyPoints(p, sy, points)
	return Chart{SVG: g.close(), Table: t}, nil
}

// sortedHistory returns a copy of points sorted by date, oldest first,
// and their values in that order. The error names a value that is not
// finite or is negative, or two points with the same date.
func sortedHistory(points []TimePoint) ([]TimePoint, []float64, error) {
	points = append([]TimePoint(nil), points...)
	sort.SliceStable(points, func(i, j int) bool { return points[i].Date.Before(points[j].Date) })
	var vals []float64
	for i, p := range points {
		if err := checkValue(p.ID, "value", p.Value, false); err != nil {
			return nil, nil, err
		}
		if p.Value < 0 {
			return nil, nil, fmt.Errorf("chart: value of %q is negative (%v)", p.ID, p.Value)
		}
		if i > 0 && p.Date.Equal(points[i-1].Date) {
			return nil, nil, fmt.Errorf("chart: %q and %q have the same date %s", points[i-1].ID, p.ID, p.Date.Format(time.DateOnly))
		}
		vals = append(vals, p.Value)
	}
	return points, vals, nil
}

// historyPlot is the geometry of a history chart's plot: its edges in
// user units and its date scale, from first on the left to last on the
// right.
type historyPlot struct {
	left, right, top, bottom float64
	first, last              time.Time
	span                     float64 // days from first to last; 1 when they are the same day
}

// x is the horizontal position of the date d.
func (p historyPlot) x(d time.Time) float64 {
	return p.left + d.Sub(p.first).Hours()/24/p.span*(p.right-p.left)
}

// dateTicks returns the dates the date axis labels: the first and last
// date, and each year's 1 January between them when there is room (every
// year, or every few years over a long span).
func dateTicks(p historyPlot) []time.Time {
	ticks := []time.Time{p.first}
	years := p.last.Year() - p.first.Year()
	step := 1
	for years/step > 4 {
		step++
	}
	for y := p.first.Year() + 1; y <= p.last.Year(); y += step {
		d := time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
		if p.x(d)-p.x(p.first) > 70 && p.x(p.last)-p.x(d) > 70 {
			ticks = append(ticks, d)
		}
	}
	if !p.last.Equal(p.first) {
		ticks = append(ticks, p.last)
	}
	return ticks
}

// dateAxis draws the date axis: a grid line and a label per tick
// (dateTicks), the axis line and the axis title.
func (g *svg) dateAxis(p historyPlot, title string) {
	g.b.WriteString(`<g class="chart-axis chart-x-axis">`)
	ticks := dateTicks(p)
	for i, d := range ticks {
		x := p.x(d)
		g.line(x, p.top, x, p.bottom, "grid")
		anchor := "middle"
		switch {
		case i == 0 && len(ticks) > 1:
			anchor = "start"
		case i == len(ticks)-1 && len(ticks) > 1:
			anchor = "end"
		}
		g.text(x, p.bottom+16, anchor, "tick", d.Format(time.DateOnly))
	}
	g.line(p.left, p.bottom, p.right, p.bottom, "axis-line")
	g.text((p.left+p.right)/2, p.bottom+36, "middle", "axis-title", title)
	g.b.WriteString(`</g>`)
}

// historyYAxis draws the value axis on the scale sy: a grid line and a
// label per tick, the axis line and the rotated axis title.
func (g *svg) historyYAxis(p historyPlot, sy scale, title string) {
	g.b.WriteString(`<g class="chart-axis chart-y-axis">`)
	for _, tk := range sy.ticks {
		y := sy.at(tk)
		g.line(p.left, y, p.right, y, "grid")
		g.text(p.left-6, y+4, "end", "tick", sy.tickFormat(tk))
	}
	g.line(p.left, p.top, p.left, p.bottom, "axis-line")
	fmt.Fprintf(&g.b, `<text class="chart-axis-title" x="%s" y="14" text-anchor="middle" transform="rotate(-90)">%s</text>`, coord(-(p.top+p.bottom)/2), esc(title))
	g.b.WriteString(`</g>`)
}

// stepLine draws the step line through points (sorted, at least one):
// each value holds until the next observation.
func (g *svg) stepLine(p historyPlot, sy scale, points []TimePoint) {
	var path strings.Builder
	for i, pt := range points {
		x, y := p.x(pt.Date), sy.at(pt.Value)
		if i == 0 {
			fmt.Fprintf(&path, "M%s %s", coord(x), coord(y))
		} else {
			fmt.Fprintf(&path, "H%sV%s", coord(x), coord(y))
		}
	}
	fmt.Fprintf(&g.b, `<path class="chart-line" d="%s" fill="none" stroke="currentColor" stroke-width="2"/>`, path.String())
}

// historyPoints draws a dot with its tooltip (g.o.PointTip) per point and
// returns the points' table rows, in the same order.
func (g *svg) historyPoints(p historyPlot, sy scale, points []TimePoint) []Row {
	var rows []Row
	g.b.WriteString(`<g class="chart-points">`)
	tip := g.o.PointTip
	if tip == "" {
		tip = "{0}: {1} {2}"
	}
	for _, pt := range points {
		label := pt.Label
		if label == "" {
			label = pt.Date.Format(time.DateOnly)
		}
		x, y := p.x(pt.Date), sy.at(pt.Value)
		fmt.Fprintf(&g.b, `<g class="chart-point" data-id="%s" data-date="%s" data-value="%s"><circle cx="%s" cy="%s" r="4"/><title>%s</title></g>`,
			esc(pt.ID), pt.Date.Format(time.DateOnly), exact(pt.Value), coord(x), coord(y), esc(message.Fill(tip, []string{label, g.o.Y.format(pt.Value), g.o.Y.Unit}, nil)))
		rows = append(rows, Row{ID: pt.ID, Label: label, Values: []float64{pt.Value}})
	}
	g.b.WriteString(`</g>`)
	return rows
}
