// Package chartdata turns the derived catalog into the inputs of package
// chart and renders the site's three price charts. Prices are per
// GPU-hour in the display currency; only on-demand prices are used, so
// the figures match the "cheapest" columns and per-GPU statistics of the
// pages (derive.Data.Cheapest and GPUStats). Hrefs are page paths
// relative to the base URL ("gpus/<id>/").
package chartdata

import (
	"fmt"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/chart"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
)

// IDs of the charts Charts renders, unique on a page.
const (
	PriceVsBF16ID = "chart-price-bf16"
	PricePerGBID  = "chart-price-per-gb"
	SpreadID      = "chart-price-spread"
)

func href(id string) string { return "gpus/" + id + "/" }

// PriceVsBF16 returns one point per GPU that has a dense BF16 figure and
// an on-demand price: X is dense BF16 TFLOPS, Y the cheapest on-demand
// price per GPU-hour in the display currency. GPUs are in catalog order.
func PriceVsBF16(d *derive.Data) []chart.Point {
	var out []chart.Point
	for _, g := range d.Cat.GPUs {
		r := d.Cheapest(g.ID)
		if r == nil || g.BF16TFLOPS == nil || !(r.PerGPUDC > 0) {
			continue
		}
		out = append(out, chart.Point{ID: g.ID, Label: g.Name, Href: href(g.ID), X: *g.BF16TFLOPS, Y: r.PerGPUDC})
	}
	return out
}

// PricePerGB returns one bar per GPU with an on-demand price: the
// cheapest on-demand price per GPU-hour in the display currency divided
// by the GPU's memory in GB.
func PricePerGB(d *derive.Data) []chart.Bar {
	var out []chart.Bar
	for _, g := range d.Cat.GPUs {
		r := d.Cheapest(g.ID)
		if r == nil || !(g.MemoryGB > 0) {
			continue
		}
		out = append(out, chart.Bar{ID: g.ID, Label: g.Name, Href: href(g.ID), Value: r.PerGPUDC / g.MemoryGB})
	}
	return out
}

// Spread returns one series per GPU with an on-demand price: the
// on-demand price per GPU-hour, in the display currency, of each of its
// offers (cheapest first).
func Spread(d *derive.Data) []chart.Series {
	var out []chart.Series
	for _, g := range d.Cat.GPUs {
		var vals []float64
		for _, r := range d.GPURows(g.ID) {
			if r.Price.Billing == "on-demand" && r.PerGPUDC > 0 {
				vals = append(vals, r.PerGPUDC)
			}
		}
		if len(vals) > 0 {
			out = append(out, chart.Series{ID: g.ID, Label: g.Name, Href: href(g.ID), Values: vals})
		}
	}
	return out
}

// Set is the site's three price charts.
type Set struct {
	PriceVsBF16, PricePerGB, Spread chart.Chart
}

// Charts renders the three charts with English texts (ids PriceVsBF16ID,
// PricePerGBID and SpreadID).
func Charts(d *derive.Data) (Set, error) {
	cur := d.Currency
	perGPUHour := cur + " per GPU-hour"
	var s Set
	var err error
	pts := PriceVsBF16(d)
	s.PriceVsBF16, err = chart.Scatter(pts, chart.Options{
		ID:    PriceVsBF16ID,
		Title: "Cheapest on-demand price against dense BF16 compute",
		Desc: fmt.Sprintf("Scatter plot of %d GPUs, both axes logarithmic: horizontally each GPU's dense (non-sparse) BF16 TFLOPS, vertically its cheapest on-demand price per GPU-hour in %s. Points lower and further right give more compute per %s. The table lists the same figures.",
			len(pts), cur, cur),
		Label: "GPU",
		X:     chart.Axis{Label: "Dense BF16", Unit: "TFLOPS", Log: true},
		Y:     chart.Axis{Label: "Cheapest on-demand price", Unit: perGPUHour, Log: true},
	})
	if err != nil {
		return Set{}, err
	}
	bars := PricePerGB(d)
	s.PricePerGB, err = chart.Bars(bars, chart.Options{
		ID:    PricePerGBID,
		Title: "Price per GB of GPU memory",
		Desc: fmt.Sprintf("Bar chart of %d GPUs, cheapest first: each GPU's cheapest on-demand price per GPU-hour in %s divided by its memory in GB. The table lists the same figures.",
			len(bars), cur),
		Label: "GPU",
		X:     chart.Axis{Label: "Cheapest on-demand price per GB of memory", Unit: cur + " per GB-hour"},
	})
	if err != nil {
		return Set{}, err
	}
	series := Spread(d)
	s.Spread, err = chart.Ranges(series, chart.Options{
		ID:    SpreadID,
		Title: "Spread of on-demand prices per GPU",
		Desc: fmt.Sprintf("Range chart of %d GPUs, lowest median first, logarithmic axis: for each GPU a line from its cheapest to its dearest on-demand offer, a dot per offer and a tick at the median, in %s per GPU-hour. The table lists the count, minimum, median and maximum.",
			len(series), cur),
		Label: "GPU",
		Count: "Offers",
		X:     chart.Axis{Label: "On-demand price", Unit: perGPUHour, Log: true},
	})
	if err != nil {
		return Set{}, err
	}
	return s, nil
}
