package pages

import (
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
)

// TCOPage is the data of the cost-of-ownership page: a server-rendered
// example for one offer (priced in its default region) and the data the
// script needs for any offer.
type TCOPage struct {
	Offer  *catalog.Offer
	Input  derive.TCOInput
	Result derive.TCOResult
	// Lines are Result.Lines with their labels, in the same order.
	Lines []TCOLineView
	// HasBreakEven is true when a line has a break-even.
	HasBreakEven bool
	// Region describes the region priced ("" when the prices name none).
	Region string
	// Costs describe the hidden costs counted, with their source and date.
	Costs []string
	// Stopped describes what a stopped instance costs, when recorded;
	// StoppedNote is the data's note on it, in its own language.
	Stopped     string
	StoppedNote string
	Offers      []*catalog.Offer
	JSON        template.JS
}

// TCOLineView is a TCO line with its label ("Committed, 12 months, no
// upfront").
type TCOLineView struct {
	derive.TCOLine
	Label string
}

// tcoOffer is one offer in the page's JSON: the prices of its default
// region and the hidden-cost rates converted into its currency.
type tcoOffer struct {
	Label    string    `json:"label"`
	Currency string    `json:"currency"`
	Region   string    `json:"region"` // the region text shown ("" when none)
	Lines    []tcoLine `json:"lines"`
	Inc      string    `json:"inc"`
	Min      int       `json:"min"`
	// Hidden-cost rates in the offer's currency; absent when the provider
	// data records none. Storage is per GB-month, IP per address-month,
	// egress a list of [upper bound in GB or null, price per GB] tiers.
	Storage *float64      `json:"storage,omitempty"`
	Egress  [][2]*float64 `json:"egress,omitempty"`
	IP      *float64      `json:"ip,omitempty"`
	Costs   []string      `json:"costs"`
	Stopped string        `json:"stopped"`
	// StoppedNote is the data's note on a stopped instance and NoteLang
	// its language when it is not the edition's ("en" on a Chinese page).
	StoppedNote string `json:"stoppedNote,omitempty"`
	NoteLang    string `json:"noteLang,omitempty"`
}

type tcoLine struct {
	Label     string  `json:"label"`
	Billing   string  `json:"billing"`
	Term      int     `json:"term"` // committed: months; 0 for a prepaid day or week
	Price     float64 `json:"price"`
	Hourly    float64 `json:"hourly"`
	UnitHours float64 `json:"unitHours"`
}

// tcoText is the page script's strings, from the UI-string catalog:
// Caption, BreakEven and Missing are formats (%s: the currency and the
// hours; the line and the percentage; the list of missing costs, joined
// by List).
type tcoText struct {
	Caption     string            `json:"caption"`
	BreakEven   string            `json:"breakEven"`
	NoBreakEven string            `json:"noBreakEven"`
	Missing     string            `json:"missing"`
	MissingName map[string]string `json:"missingName"`
	List        string            `json:"list"`
	Sep         string            `json:"sep"` // between sentences
}

// tcoLabel names a TCO line: the billing mode, a commitment's term,
// payment and kind, and a unit other than the hour.
func (s *Edition) tcoLabel(l derive.TCOLine) string {
	t, f := s.r.T, s.r.Text
	label := t("billing." + l.Billing)
	if l.Billing == "committed" && l.TermMonths > 0 {
		label += f("billing.withterm", s.termLabel(l.TermMonths))
	}
	if l.Billing == "committed" {
		if l.Payment != "" {
			label += f("billing.withterm", t("payment."+l.Payment))
		}
		if l.Commitment != "" {
			label += f("punct.paren", t("commitment."+l.Commitment))
		}
	}
	if l.Unit != "" && l.Unit != "hour" {
		label += f("billing.withterm", t("unit.per."+l.Unit))
	}
	return label
}

// termLabel names a commitment term: "1 month", "1 year", "3 years",
// "6 months".
func (s *Edition) termLabel(months int) string { return s.r.Term(months) }

// regionText describes the region an offer's TCO is priced in.
func (s *Edition) regionText(o *catalog.Offer, region string) string {
	if region == "" {
		return ""
	}
	name := region
	if local := s.r.RegionName(o.Provider, region); local != region {
		name = s.r.Text("region.withid", local, region)
	}
	text := s.r.Text("tco.region", name)
	if n := len(derive.TCORegions(o)); n > 1 {
		text += fmt.Sprintf(s.r.T("tco.region.others"), n-1)
	}
	return text
}

// costText describes a hidden cost counted: "Egress: 0.12 USD per GB up to
// 1024 GB, then ... (third-party, as of 2026-07-30)".
func (s *Edition) costText(c derive.TCOCost) string {
	t := s.r.T
	name := t("tco.cost." + c.Kind)
	if c.Legacy {
		return s.r.Text("tco.cost.legacy", name)
	}
	e := c.Entry
	return s.r.Text("tco.cost.line", name, s.costRate(e), t("evidence."+e.Evidence), s.r.Date(e.AsOf))
}

// costRate writes an extra cost's rate as the provider data holds it:
// "0.3 CNY per GB-month", "0.12 USD per GiB up to 1024, 0.11 USD per GiB
// up to 10240, 0.08 USD per GiB above that".
func (s *Edition) costRate(e catalog.ExtraCost) string {
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	unit := s.r.T("costunit." + e.Unit)
	if len(e.Tiers) > 0 {
		out := ""
		for i, tr := range e.Tiers {
			if i > 0 {
				out += s.r.T("punct.comma")
			}
			out += s.r.Text("provider.costs.amount", num(tr.Price), e.Currency, unit)
			if tr.UpToGB != nil {
				out += s.r.Text("provider.costs.upto", num(*tr.UpToGB)+" "+render.SizeUnit(e.Unit))
			} else if i > 0 {
				out += s.r.T("provider.costs.above")
			}
		}
		return out
	}
	if e.Price == nil {
		return ""
	}
	return s.r.Text("provider.costs.amount", num(*e.Price), e.Currency, unit)
}

// stoppedText describes what a stopped instance costs, and the data's
// note on it (in its own language).
func (s *Edition) stoppedText(e *catalog.ExtraCost) (text, note string) {
	if e == nil || e.ComputeBilled == nil {
		return "", ""
	}
	key := "tco.stopped.free"
	if *e.ComputeBilled {
		key = "tco.stopped.billed"
	}
	return s.r.T(key), e.Notes
}

func (s *Edition) tcoPage() {
	if len(s.cat.Offers) == 0 {
		return
	}
	// The default example: the first offer with an on-demand and a
	// committed price in its default region (so the break-even shows),
	// else the cheapest on-demand H100 SXM offer, else the first offer.
	def := s.cat.Offers[0]
	if r := s.dd.Cheapest("h100-sxm5-80gb"); r != nil {
		def = r.Offer
	}
	in := derive.TCOInput{Utilisation: 0.5, JobHours: 8, StorageGB: 500, EgressGB: 100, PublicIPs: 1}
	for _, o := range s.cat.Offers {
		res := derive.TCO(o, in, &s.cat.FX)
		if len(res.Lines) > 0 && res.Lines[0].Billing == "on-demand" && hasBreakEven(res) {
			def = o
			break
		}
	}
	data := map[string]tcoOffer{}
	for _, o := range s.cat.Offers {
		region := derive.TCODefaultRegion(o)
		// The rates: a month of one unit of each, priced as derive.TCO does.
		rates := derive.TCOIn(o, region, derive.TCOInput{StorageGB: 1, PublicIPs: 1}, &s.cat.FX)
		t := tcoOffer{Label: s.r.Text("offer.label", o.Provider.LocalName(s.r.Lang()), o.Instance, o.GPUCount, o.GPU.Name),
			Currency: o.Currency, Region: s.regionText(o, region), Inc: o.Provider.Billing.Increment, Costs: []string{}}
		if o.Provider.Billing.MinimumSeconds != nil {
			t.Min = *o.Provider.Billing.MinimumSeconds
		}
		for _, c := range rates.Costs {
			v := c.Amount
			switch c.Kind {
			case "block-storage":
				t.Storage = &v
			case "public-ipv4":
				t.IP = &v
			}
		}
		t.Egress = s.egressTiers(o, region)
		full := derive.TCOIn(o, region, in, &s.cat.FX)
		for _, l := range full.Lines {
			t.Lines = append(t.Lines, tcoLine{Label: s.tcoLineLabel(l, o), Billing: l.Billing, Term: l.TermMonths, Price: l.Price, Hourly: l.Hourly, UnitHours: catalog.UnitHours(l.Unit)})
		}
		for _, c := range derive.TCOIn(o, region, derive.TCOInput{StorageGB: 1, PublicIPs: 1, EgressGB: 1}, &s.cat.FX).Costs {
			t.Costs = append(t.Costs, s.costText(c))
		}
		t.Stopped, t.StoppedNote = s.stoppedText(full.Stopped)
		if t.StoppedNote != "" {
			if l := render.TextLang(t.StoppedNote); !strings.HasPrefix(l+"-", s.r.Lang()+"-") {
				t.NoteLang = l
			}
		}
		data[o.ID] = t
	}
	tr := s.r.T
	text := tcoText{Caption: tr("tco.caption"), BreakEven: tr("tco.breakeven"), NoBreakEven: tr("tco.nobreakeven"), Missing: tr("tco.missing"), List: tr("punct.list"), Sep: tr("punct.sp"),
		MissingName: map[string]string{"storage": tr("tco.missing.storage"), "egress": tr("tco.missing.egress"), "public IP": tr("tco.missing.ip")}}
	b, _ := json.Marshal(map[string]any{"offers": data, "text": text})
	res := derive.TCO(def, in, &s.cat.FX)
	page := &TCOPage{Offer: def, Input: in, Result: res, Offers: s.cat.Offers, JSON: template.JS(b),
		Region: s.regionText(def, res.Region), HasBreakEven: hasBreakEven(res)}
	page.Stopped, page.StoppedNote = s.stoppedText(res.Stopped)
	for _, l := range res.Lines {
		page.Lines = append(page.Lines, TCOLineView{TCOLine: l, Label: s.tcoLineLabel(l, def)})
	}
	for _, c := range derive.TCOIn(def, res.Region, derive.TCOInput{StorageGB: 1, PublicIPs: 1, EgressGB: 1}, &s.cat.FX).Costs {
		page.Costs = append(page.Costs, s.costText(c))
	}
	for i, m := range res.Missing {
		res.Missing[i] = text.MissingName[m]
	}
	page.Result = res
	s.page(&render.Page{Kind: "tco", Path: "tco/", Title: s.r.T("tco.title"), Description: s.r.T("tco.description"),
		Data: page, Scripts: []string{"js/tco.js"}})
}

func hasBreakEven(r derive.TCOResult) bool {
	for _, l := range r.Lines {
		if l.HasBreakEven {
			return true
		}
	}
	return false
}

// egressTiers returns the egress charge of the offer's region as tiers in
// GB with prices per GB in the offer's currency, or nil when none is
// recorded. A flat price is one unbounded tier.
func (s *Edition) egressTiers(o *catalog.Offer, region string) [][2]*float64 {
	p := o.Provider
	costRegion := region
	if costRegion == "" && len(o.Regions) > 0 {
		costRegion = o.Regions[0]
	}
	conv := func(v float64, cur string) (float64, bool) { return s.cat.FX.Convert(v, cur, o.Currency) }
	if e, ok := p.CostFor("egress", costRegion); ok && (e.Price != nil || len(e.Tiers) > 0) {
		// Bounds and prices per GB: a GiB tier bound b is b / (GiB per GB)
		// GB, a price per GiB x (GiB per GB) per GB.
		scale := 1.0
		if e.Unit == "gib" {
			scale = 1e9 / (1 << 30)
		}
		tiers := e.Tiers
		if len(tiers) == 0 {
			tiers = []catalog.Tier{{Price: *e.Price}}
		}
		var out [][2]*float64
		for _, t := range tiers {
			price, ok := conv(t.Price*scale, e.Currency)
			if !ok {
				return nil
			}
			var bound *float64
			if t.UpToGB != nil {
				b := *t.UpToGB / scale
				bound = &b
			}
			out = append(out, [2]*float64{bound, &price})
		}
		return out
	}
	if h := p.HiddenCosts; h != nil && h.EgressPerGB != nil {
		if v, ok := conv(*h.EgressPerGB, h.Currency); ok && !math.IsNaN(v) {
			return [][2]*float64{{nil, &v}}
		}
	}
	return nil
}
