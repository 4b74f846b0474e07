package pages

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
// whose observations changed (two or more, not all the same price), in
// the order of rows (a price's regional rows included: pass
// derive.Data.RegionRows). A flat history is no chart: the price table
// already gives the price and its date.
func (s *Edition) priceHistories(idPrefix string, rows []*derive.Row) []PriceHistory {
	var out []PriceHistory
	for _, r := range rows {
		if !changed(r.History) {
			continue
		}
		o := r.Offer
		mode := s.r.T("billing." + r.Price.Billing)
		if r.TermMonths > 0 {
			mode += s.r.Text("billing.withterm", s.termLabel(r.TermMonths))
		}
		if r.Region != "" {
			// The region's id, or its name where the data gives one in
			// the edition's language.
			region := r.Region
			for _, reg := range o.Provider.Regions {
				if reg.ID == r.Region && s.r.RegionLocal(reg) != "" {
					region = s.r.RegionLocal(reg)
				}
			}
			mode += s.r.Text("billing.withterm", region)
		}
		title := s.r.Text("history.caption", o.Provider.LocalName(s.r.Lang()), o.Instance, mode)
		unit := o.Currency + "/" + s.r.T("unit.short."+r.Unit)
		var pts []chart.TimePoint
		for i, h := range r.History {
			label := h.AsOf.Format(time.DateOnly)
			if h.Evidence != "" {
				label += s.r.Text("punct.paren", s.r.T("evidence."+h.Evidence))
			}
			pts = append(pts, chart.TimePoint{ID: fmt.Sprintf("%s-%d", o.ID, i), Date: h.AsOf, Value: h.Price, Label: label})
		}
		id := fmt.Sprintf("%s-%d", idPrefix, len(out)+1)
		c, err := chart.History(pts, chart.Options{ID: id, Title: title,
			Desc: s.r.Text("history.desc", len(pts), s.r.Date(r.History[0].AsOf), s.r.Date(r.History[len(r.History)-1].AsOf)),
			X:    chart.Axis{Label: s.r.T("history.axis.date")}, Y: chart.Axis{Label: s.r.T("history.axis.price"), Unit: unit, TitleFormat: s.r.T("chart.axis.title"), Format: priceFigure},
			Label: s.r.T("history.col.date"), PointTip: s.r.T("chart.point.tip")})
		if err != nil {
			continue // dates are unique per key (catalog checks), so this does not happen
		}
		out = append(out, PriceHistory{Row: r, Title: title, Unit: unit, Chart: c})
	}
	return out
}

// changed says whether a history has two or more observations and not all
// of them the same price.
func changed(h []derive.HistoryPoint) bool {
	for _, o := range h[min(1, len(h)):] {
		if o.Price != h[0].Price {
			return true
		}
	}
	return false
}

// priceFigure writes a price as the price tables do (render.Money without
// the currency): three decimals under 1, else two.
func priceFigure(v float64) string {
	if v < 1 {
		return strconv.FormatFloat(v, 'f', 3, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// gpuHistories is the price histories of a GPU's offers, every region.
func (s *Edition) gpuHistories(gpuID string) []PriceHistory {
	var rows []*derive.Row
	for _, o := range s.cat.GPU(gpuID).Offers {
		rows = append(rows, s.dd.RegionRows(o.ID)...)
	}
	return s.priceHistories("history", rows)
}
