package build

import (
	"fmt"
	"strconv"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/chart"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
)

// PriceHistory is one price's history for templates/_pricehistory.html: a
// current price with two or more dated observations, its chart and the
// observations for the table beside it (oldest first).
type PriceHistory struct {
	Row   *derive.Row
	Title string
	Unit  string // the value unit, e.g. "USD/h", "CNY/month"
	Chart chart.Chart
}

// priceHistories draws the history of every current price of the offers
// with two or more observations, in the order of rows (a price's regional
// rows included: pass derive.Data.RegionRows).
func (s *siteBuild) priceHistories(idPrefix string, rows []*derive.Row) []PriceHistory {
	var out []PriceHistory
	for _, r := range rows {
		if len(r.History) < 2 {
			continue
		}
		o := r.Offer
		mode := s.r.T("billing." + r.Price.Billing)
		if r.TermMonths > 0 {
			mode += ", " + s.termLabel(r.TermMonths)
		}
		if r.Region != "" {
			mode += ", " + r.Region
		}
		title := fmt.Sprintf("%s %s %s (%s)", s.r.T("history.caption"), o.Provider.Name, o.Instance, mode)
		unit := o.Currency + "/" + map[string]string{"hour": "h", "day": "day", "week": "week", "month": "month"}[r.Unit]
		var pts []chart.TimePoint
		for i, h := range r.History {
			label := h.AsOf.Format(time.DateOnly)
			if h.Evidence != "" {
				label += " (" + s.r.T("evidence."+h.Evidence) + ")"
			}
			pts = append(pts, chart.TimePoint{ID: fmt.Sprintf("%s-%d", o.ID, i), Date: h.AsOf, Value: h.Price, Label: label})
		}
		id := fmt.Sprintf("%s-%d", idPrefix, len(out)+1)
		c, err := chart.History(pts, chart.Options{ID: id, Title: title,
			Desc: fmt.Sprintf("%d observations from %s to %s", len(pts), r.History[0].AsOf.Format(time.DateOnly), r.History[len(r.History)-1].AsOf.Format(time.DateOnly)),
			X:    chart.Axis{Label: s.r.T("history.axis.date")}, Y: chart.Axis{Label: s.r.T("history.axis.price"), Unit: unit, Format: func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }},
			Label: s.r.T("history.col.date")})
		if err != nil {
			continue // dates are unique per key (catalog checks), so this does not happen
		}
		out = append(out, PriceHistory{Row: r, Title: title, Unit: unit, Chart: c})
	}
	return out
}

// gpuHistories is the price histories of a GPU's offers, every region.
func (s *siteBuild) gpuHistories(gpuID string) []PriceHistory {
	var rows []*derive.Row
	for _, o := range s.cat.GPU(gpuID).Offers {
		rows = append(rows, s.dd.RegionRows(o.ID)...)
	}
	return s.priceHistories("history", rows)
}
