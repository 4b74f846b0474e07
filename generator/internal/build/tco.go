package build

import (
	"encoding/json"
	"html/template"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
)

// TCOPage is the data of the cost-of-ownership page: a server-rendered
// example for one offer and the data the script needs for any offer.
type TCOPage struct {
	Offer  *catalog.Offer
	Input  derive.TCOInput
	Result derive.TCOResult
	Offers []*catalog.Offer
	JSON   template.JS
}

type tcoOffer struct {
	Label    string             `json:"label"`
	Currency string             `json:"currency"`
	Prices   map[string]float64 `json:"prices"`
	Inc      string             `json:"inc"`
	Min      int                `json:"min"`
	// Hidden-cost rates converted into the offer's currency; absent when
	// the provider data records none.
	Storage *float64 `json:"storage,omitempty"`
	Egress  *float64 `json:"egress,omitempty"`
	IP      *float64 `json:"ip,omitempty"`
}

func (s *siteBuild) tcoPage() {
	if len(s.cat.Offers) == 0 {
		return
	}
	// The default example: the first offer with an on-demand and a
	// reserved price (so the break-even shows), else the cheapest
	// on-demand H100 SXM offer, else the first offer.
	def := s.cat.Offers[0]
	if r := s.dd.Cheapest("h100-sxm5-80gb"); r != nil {
		def = r.Offer
	}
	for _, o := range s.cat.Offers {
		_, od := o.Price("on-demand")
		_, r1 := o.Price("reserved-1y")
		_, r3 := o.Price("reserved-3y")
		if od && (r1 || r3) {
			def = o
			break
		}
	}
	in := derive.TCOInput{Utilisation: 0.5, JobHours: 8, StorageGB: 500, EgressGB: 100, PublicIPs: 1}
	data := map[string]tcoOffer{}
	for _, o := range s.cat.Offers {
		t := tcoOffer{Label: o.Provider.Name + " " + o.Instance + " (" + render.Num(float64(o.GPUCount)) + "× " + o.GPU.Name + ")",
			Currency: o.Currency, Prices: map[string]float64{}, Inc: o.Provider.Billing.Increment}
		if o.Provider.Billing.MinimumSeconds != nil {
			t.Min = *o.Provider.Billing.MinimumSeconds
		}
		for _, p := range o.Prices {
			t.Prices[p.Billing] = p.Price
		}
		if h := o.Provider.HiddenCosts; h != nil {
			conv := func(v *float64) *float64 {
				if v == nil {
					return nil
				}
				c, ok := s.cat.FX.Convert(*v, h.Currency, o.Currency)
				if !ok {
					return nil
				}
				return &c
			}
			t.Storage, t.Egress, t.IP = conv(h.StoragePerGBMonth), conv(h.EgressPerGB), conv(h.PublicIPPerHour)
		}
		data[o.ID] = t
	}
	b, _ := json.Marshal(data)
	s.page(&render.Page{Kind: "tco", Path: "tco/", Title: s.r.T("tco.title"), Description: s.r.T("tco.description"),
		Data:    &TCOPage{Offer: def, Input: in, Result: derive.TCO(def, in, &s.cat.FX), Offers: s.cat.Offers, JSON: template.JS(b)},
		Scripts: []string{"js/tco.js"}})
}
