// Package chartdata turns the derived catalog into the inputs of package
// chart and renders the site's three price charts. Prices are per
// GPU-hour in the display currency; only on-demand prices are used, so
// the figures match the "cheapest" columns and per-GPU statistics of the
// pages (derive.Data.Cheapest and GPUStats). Hrefs are page paths
// relative to the base URL ("gpus/<id>/").
package chartdata

import (
	"strconv"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/chart"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/message"
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

// Spread returns one series per GPU with a current on-demand price: the
// current on-demand price per GPU-hour, in the display currency, of each
// of its offers (cheapest first); stale prices are not today's spread.
func Spread(d *derive.Data) []chart.Series {
	var out []chart.Series
	for _, g := range d.Cat.GPUs {
		var vals []float64
		for _, r := range d.GPURows(g.ID) {
			if r.Price.Billing == "on-demand" && r.PerGPUDC > 0 && r.Current {
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

// Charts renders the three charts (ids PriceVsBF16ID, PricePerGBID and
// SpreadID) with their texts from t, the edition's UI-string lookup (keys
// chart.*), and the GPUs' names in lang, so every edition reads its own
// language.
func Charts(d *derive.Data, t func(string) string, lang string) (Set, error) {
	cur := d.Currency
	name := map[string]string{}
	for _, g := range d.Cat.GPUs {
		name[g.ID] = g.LocalName(lang)
	}
	perGPUHour := message.Fill(t("chart.unit.pergpuhour"), []string{cur}, nil)
	var s Set
	var err error
	pts := PriceVsBF16(d)
	for i := range pts {
		pts[i].Label = name[pts[i].ID]
	}
	s.PriceVsBF16, err = chart.Scatter(pts, chart.Options{
		ID:     PriceVsBF16ID,
		Title:  t("chart.scatter.title"),
		Desc:   message.Fill(t("chart.scatter.desc"), []string{strconv.Itoa(len(pts)), cur, cur}, nil),
		Label:  t("chart.label.gpu"),
		NoData: t("chart.nodata"),
		X:      chart.Axis{Label: t("chart.scatter.x"), Unit: "TFLOPS", Log: true, TitleFormat: t("chart.axis.title")},
		Y:      chart.Axis{Label: t("chart.scatter.y"), Unit: perGPUHour, Log: true, TitleFormat: t("chart.axis.title")},
	})
	if err != nil {
		return Set{}, err
	}
	bars := PricePerGB(d)
	for i := range bars {
		bars[i].Label = name[bars[i].ID]
	}
	s.PricePerGB, err = chart.Bars(bars, chart.Options{
		ID:     PricePerGBID,
		Title:  t("chart.pergb.title"),
		Desc:   message.Fill(t("chart.pergb.desc"), []string{strconv.Itoa(len(bars)), cur}, nil),
		Label:  t("chart.label.gpu"),
		NoData: t("chart.nodata"),
		X:      chart.Axis{Label: t("chart.pergb.x"), Unit: message.Fill(t("chart.unit.pergbhour"), []string{cur}, nil), TitleFormat: t("chart.axis.title")},
	})
	if err != nil {
		return Set{}, err
	}
	series := Spread(d)
	for i := range series {
		series[i].Label = name[series[i].ID]
	}
	s.Spread, err = chart.Ranges(series, chart.Options{
		ID:       SpreadID,
		Title:    t("chart.spread.title"),
		Desc:     message.Fill(t("chart.spread.desc"), []string{strconv.Itoa(len(series)), cur}, nil),
		Label:    t("chart.label.gpu"),
		Count:    t("chart.spread.count"),
		NoData:   t("chart.nodata"),
		X:        chart.Axis{Label: t("chart.spread.x"), Unit: perGPUHour, Log: true, TitleFormat: t("chart.axis.title")},
		Stats:    [3]string{t("chart.spread.min"), t("chart.spread.median"), t("chart.spread.max")},
		RangeTip: t("chart.spread.tip"),
	})
	if err != nil {
		return Set{}, err
	}
	return s, nil
}
