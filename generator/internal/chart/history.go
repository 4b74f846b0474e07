package chart

import (
	"fmt"
	"sort"
	"strings"
	"time"
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
	points = append([]TimePoint(nil), points...)
	sort.SliceStable(points, func(i, j int) bool { return points[i].Date.Before(points[j].Date) })
	var vals []float64
	for i, p := range points {
		if err := checkValue(p.ID, "value", p.Value, false); err != nil {
			return Chart{}, err
		}
		if p.Value < 0 {
			return Chart{}, fmt.Errorf("chart: value of %q is negative (%v)", p.ID, p.Value)
		}
		if i > 0 && p.Date.Equal(points[i-1].Date) {
			return Chart{}, fmt.Errorf("chart: %q and %q have the same date %s", points[i-1].ID, p.ID, p.Date.Format(time.DateOnly))
		}
		vals = append(vals, p.Value)
	}
	w := o.width()
	if o.Width == 0 {
		w = 560
	}
	g := &svg{o: o, w: w, h: historyHeight}
	left, right, top, bottom := 64.0, g.w-24, 16.0, g.h-56
	sy := newScale(vals, false, bottom, top)
	g.open()
	// The date axis: the first and last date, and each year's 1 January
	// between them when there is room.
	t := Table{Caption: o.Title, Columns: []string{o.Label, o.Y.Title()}}
	if len(points) == 0 {
		g.empty()
		return Chart{SVG: g.close(), Table: t}, nil
	}
	first, last := points[0].Date, points[len(points)-1].Date
	span := last.Sub(first).Hours() / 24
	if span <= 0 {
		span = 1
	}
	xAt := func(d time.Time) float64 { return left + d.Sub(first).Hours()/24/span*(right-left) }
	g.b.WriteString(`<g class="chart-axis chart-x-axis">`)
	ticks := []time.Time{first}
	years := last.Year() - first.Year()
	step := 1
	for years/step > 4 {
		step++
	}
	for y := first.Year() + 1; y <= last.Year(); y += step {
		d := time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
		if xAt(d)-xAt(first) > 70 && xAt(last)-xAt(d) > 70 {
			ticks = append(ticks, d)
		}
	}
	if !last.Equal(first) {
		ticks = append(ticks, last)
	}
	for i, d := range ticks {
		x := xAt(d)
		g.line(x, top, x, bottom, "grid")
		anchor := "middle"
		switch {
		case i == 0 && len(ticks) > 1:
			anchor = "start"
		case i == len(ticks)-1 && len(ticks) > 1:
			anchor = "end"
		}
		g.text(x, bottom+16, anchor, "tick", d.Format(time.DateOnly))
	}
	g.line(left, bottom, right, bottom, "axis-line")
	g.text((left+right)/2, bottom+36, "middle", "axis-title", o.X.Title())
	g.b.WriteString(`</g><g class="chart-axis chart-y-axis">`)
	for _, tk := range sy.ticks {
		y := sy.at(tk)
		g.line(left, y, right, y, "grid")
		g.text(left-6, y+4, "end", "tick", sy.tickFormat(tk))
	}
	g.line(left, top, left, bottom, "axis-line")
	fmt.Fprintf(&g.b, `<text class="chart-axis-title" x="%s" y="14" text-anchor="middle" transform="rotate(-90)">%s</text>`, coord(-(top+bottom)/2), esc(o.Y.Title()))
	g.b.WriteString(`</g>`)
	// The step line: each value holds until the next observation.
	var path strings.Builder
	for i, p := range points {
		x, y := xAt(p.Date), sy.at(p.Value)
		if i == 0 {
			fmt.Fprintf(&path, "M%s %s", coord(x), coord(y))
		} else {
			fmt.Fprintf(&path, "H%sV%s", coord(x), coord(y))
		}
	}
	fmt.Fprintf(&g.b, `<path class="chart-line" d="%s" fill="none" stroke="currentColor" stroke-width="2"/>`, path.String())
	g.b.WriteString(`<g class="chart-points">`)
	tip := o.PointTip
	if tip == "" {
		tip = "%s: %s %s"
	}
	for _, p := range points {
		label := p.Label
		if label == "" {
			label = p.Date.Format(time.DateOnly)
		}
		x, y := xAt(p.Date), sy.at(p.Value)
		fmt.Fprintf(&g.b, `<g class="chart-point" data-id="%s" data-date="%s" data-value="%s"><circle cx="%s" cy="%s" r="4"/><title>%s</title></g>`,
			esc(p.ID), p.Date.Format(time.DateOnly), exact(p.Value), coord(x), coord(y), esc(fmt.Sprintf(tip, label, o.Y.format(p.Value), o.Y.Unit)))
		t.Rows = append(t.Rows, Row{ID: p.ID, Label: label, Values: []float64{p.Value}})
	}
	g.b.WriteString(`</g>`)
	return Chart{SVG: g.close(), Table: t}, nil
}
