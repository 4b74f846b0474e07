package pages

import (
	"encoding/json"
	"html/template"
	"strconv"
	"time"

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
	// Options are the offers to pick from, in catalog order; an offer
	// without a current price says so in its label.
	Options []TCOOption
	JSON    template.JS
}

// TCOOption is one offer of the page's picker.
type TCOOption struct {
	ID, Label string
}

// TCOLineView is a TCO line with its label ("Committed, 12 months, no
// upfront") and whether its price is stale (over the catalog's
// stale_days old), which the page words beside its date.
type TCOLineView struct {
	derive.TCOLine
	Label string
	Stale bool
}

// tcoOffer is one offer in the page's JSON: the prices of its default
// region and the hidden-cost rates converted into its currency.
type tcoOffer struct {
	Label    string `json:"label"`
	Currency string `json:"currency"`
	Region   string `json:"region"` // the region text shown ("" when none)
	// The arithmetic's data: price lines, billing increment, hidden-cost
	// rates in the offer's currency (a rate not recorded is absent);
	// Labels name the lines, in their order.
	derive.TCOScript
	Labels []string `json:"labels"`
	// Dates are each line's dated line (its price's date, badged stale
	// where it is), as segments for the script.
	Dates   [][]dateSegment `json:"dates"`
	Costs   []string        `json:"costs"`
	Stopped string          `json:"stopped"`
	// StoppedNote is the data's note on a stopped instance and NoteLang
	// its language when it is not the edition's ("en" on a Chinese page).
	StoppedNote string `json:"stoppedNote,omitempty"`
	NoteLang    string `json:"noteLang,omitempty"`
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
	// ExtrasMissing (a format: the amount), ExtrasNone and AtLeast (a
	// format: the total) mark figures that leave out a cost not recorded.
	ExtrasMissing string `json:"extrasMissing"`
	ExtrasNone    string `json:"extrasNone"`
	AtLeast       string `json:"atLeast"`
	// FilterCount (a format: the matching and all offers) counts what the
	// offer filter leaves.
	FilterCount string `json:"filterCount"`
}

// tcoLabel names a TCO line: the billing mode, a commitment's term,
// payment and kind, and a unit other than the hour.
func (s *Edition) tcoLabel(l derive.TCOLine) string {
	t, f := s.r.T, s.r.Text
	if key := BillingKey(l.Billing, l.Unit, l.TermMonths); key != "billing."+l.Billing {
		return t(key) // a prepaid day or week names itself
	}
	label := t("billing." + l.Billing)
	sub := l.Billing == "committed" && l.Commitment == "subscription"
	if sub { // 包年包月: the kind names the mode, not a bracket after "committed"
		label = t("billing.subscription")
	}
	if l.Billing == "committed" && l.TermMonths > 0 {
		label += f("billing.withterm", s.termLabel(l.TermMonths))
	}
	if l.Billing == "committed" {
		if l.Payment != "" {
			label += f("billing.withterm", t("payment."+l.Payment))
		}
		if l.Commitment != "" && !sub {
			label += f("punct.paren", t("commitment."+l.Commitment))
		}
	}
	if l.Unit != "" && l.Unit != "hour" && !(sub && l.Unit == "month" && l.TermMonths == 1) {
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
		text += render.Format(s.r.T("tco.region.others"), n-1)
	}
	return text
}

// costText describes a hidden cost counted: "Egress: 0.12 USD per GB up to
// 1024 GB, then ... (third-party, as of 2026-07-30)".
func (s *Edition) costText(c derive.TCOCost) string {
	t := s.r.T
	name := t("tco.cost." + c.Kind)
	if c.Applies != "" {
		name = t("tco.cost." + c.Kind + "." + c.Applies)
	}
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
	return s.r.T(key), e.NotesIn(s.r.Lang())
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
	current := func(at time.Time) bool { return s.cat.Site.Staleness.CurrentAt(at, s.dd.Now) }
	for _, o := range s.cat.Offers {
		res := derive.TCO(o, in, &s.cat.FX)
		if len(res.Lines) > 0 && res.Lines[0].Billing == "on-demand" && current(res.Lines[0].AsOf) && hasBreakEven(res) {
			def = o
			break
		}
	}
	data := map[string]tcoOffer{}
	var options []TCOOption
	for _, o := range s.cat.Offers {
		region := derive.TCODefaultRegion(o)
		t := tcoOffer{Label: s.r.Text("offer.label", o.Provider.LocalName(s.r.Lang()), o.Instance, o.GPUCount, o.GPU.LocalName(s.lang.Code)),
			Currency: o.Currency, Region: s.regionText(o, region), TCOScript: derive.TCOScriptIn(o, region, &s.cat.FX), Labels: []string{}, Costs: []string{}}
		full := derive.TCOIn(o, region, in, &s.cat.FX)
		anyCurrent := false
		for _, l := range full.Lines {
			t.Labels = append(t.Labels, s.tcoLineLabel(l, o))
			var seg []dateSegment
			if !current(l.AsOf) {
				seg = append(seg, dateSegment{Text: s.r.T("band.stale"), Badge: true}, dateSegment{Text: " "})
			}
			t.Dates = append(t.Dates, append(seg, s.dated("serve.asof", l.AsOf)...))
			anyCurrent = anyCurrent || current(l.AsOf)
		}
		opt := TCOOption{ID: o.ID, Label: t.Label}
		if !anyCurrent {
			opt.Label = s.r.Text("tco.option.stale", t.Label)
		}
		options = append(options, opt)
		for _, c := range derive.TCOIn(o, region, derive.TCOInput{StorageGB: 1, PublicIPs: 1, EgressGB: 1}, &s.cat.FX).Costs {
			t.Costs = append(t.Costs, s.costText(c))
		}
		t.Stopped, t.StoppedNote = s.stoppedText(full.Stopped)
		if t.StoppedNote != "" {
			if !catalog.WrittenIn(t.StoppedNote, s.r.Lang()) {
				t.NoteLang = catalog.TextLang(t.StoppedNote)
			}
		}
		data[o.ID] = t
	}
	tr := s.r.T
	text := tcoText{Caption: tr("tco.caption"), BreakEven: tr("tco.breakeven"), NoBreakEven: tr("tco.nobreakeven"), Missing: tr("tco.missing"), List: tr("punct.list"), Sep: tr("punct.sp"),
		ExtrasMissing: tr("tco.extras.missing"), ExtrasNone: tr("tco.extras.none"), AtLeast: tr("tco.total.atleast"), FilterCount: tr("tco.filter.count"),
		MissingName: map[string]string{"storage": tr("tco.missing.storage"), "egress": tr("tco.missing.egress"), "public IP": tr("tco.missing.ip")}}
	b, _ := json.Marshal(map[string]any{"offers": data, "text": text})
	res := derive.TCO(def, in, &s.cat.FX)
	page := &TCOPage{Offer: def, Input: in, Result: res, Options: options, JSON: template.JS(b),
		Region: s.regionText(def, res.Region), HasBreakEven: hasBreakEven(res)}
	page.Stopped, page.StoppedNote = s.stoppedText(res.Stopped)
	for _, l := range res.Lines {
		page.Lines = append(page.Lines, TCOLineView{TCOLine: l, Label: s.tcoLineLabel(l, def), Stale: !current(l.AsOf)})
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
