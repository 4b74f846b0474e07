package pages

import (
	"encoding/json"
	"slices"
	"strconv"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

// CalcPayRow is one way to pay (sizing.PayWay) as the calculator shows it.
// Where is the offer (Row, Instances and Term: a dedicated way) or the
// usage price (What and AsOf: serverless or an API) that prices it. Bar
// is the width of its monthly cost's bar in a 0..1000 viewBox, the
// dearest way's bar full (as renderPay draws it).
type CalcPayRow struct {
	Way, Monthly, PerK, Bar string
	Row                     *derive.Row
	Instances               int
	Term                    string
	What                    string
	AsOf                    time.Time
}

// calcUsage is a usage price for the script (sizing.Usage with what the
// table says of it), written as a JSON array: [model id ("" for a
// serverless GPU), GPU index (−1 for a hosted API), price per GPU-second,
// billed idle seconds, input and output price per million tokens (in the
// display currency), stale (1) or not (0), what the table says of it
// (calcUsageWhat, without its date), as-of date, the as-of date in the
// edition's style]. The idle seconds a request pays for depend on the
// load: "{3}" in What stands for them.
type calcUsage struct {
	Model                string
	U                    sizing.Usage
	What, AsOf, AsOfText string
}

// MarshalJSON writes the array form.
func (u calcUsage) MarshalJSON() ([]byte, error) {
	stale := 0
	if u.U.Stale {
		stale = 1
	}
	return json.Marshal([]any{u.Model, u.U.GPU, u.U.PerSecond, u.U.IdleSeconds, u.U.InputPerM, u.U.OutputPerM, stale, u.What, u.AsOf, u.AsOfText})
}

// usageWhat is what the ways-to-pay table says of usage price u (ref):
// the platform, its name for the model or GPU and its price; for a
// serverless GPU with a billed idle timeout, idle is the GPU-seconds a
// request pays for waiting ("{3}" for the script to fill).
func usageWhat(tr translator, lang, cur string, u sizing.Usage, ref UsageRef, idle string) string {
	var what string
	switch {
	case ref.API != nil:
		what = tr.fill("pay.api", ref.API.ServedAs, money(u.InputPerM, cur), money(u.OutputPerM, cur))
	case u.IdleSeconds > 0:
		what = tr.fill("pay.serverless.idle", ref.Serverless.ServedAs, money(u.PerSecond*3600, cur), render.Num(u.IdleSeconds), idle)
	default:
		what = tr.fill("pay.serverless", ref.Serverless.ServedAs, money(u.PerSecond*3600, cur))
	}
	return ref.Platform.LocalName(lang) + " " + what
}

// calcUsageData is every usage price of the catalog for the script: the
// hosted APIs of every model preset and the serverless GPUs.
func (s *Edition) calcUsageData(tr translator) []calcUsage {
	usage, refs := AllUsage(s.cat, s.dd.Currency, s.dd.Now)
	out := make([]calcUsage, len(usage))
	for i, u := range usage {
		ref := refs[i]
		model := ""
		if ref.API != nil {
			model = ref.API.Model
		}
		out[i] = calcUsage{Model: model, U: u, What: usageWhat(tr, s.r.Lang(), s.dd.Currency, u, ref, "{3}"),
			AsOf: ref.AsOf().Format("2006-01-02"), AsOfText: s.r.Date(ref.AsOf())}
	}
	return out
}

// calcPay fills sv's ways to pay for the default model m and load l
// (sizing.PayWays on the catalog's GPUs and offers, and the usage prices
// of m), as static/js/calculator.js renderPay writes them.
func (s *Edition) calcPay(sv *CalcServe, m *catalog.Model, l sizing.Load, tr translator, gpus []sizing.GPU, offers []sizing.Offer) {
	usage, refs := UsageOffers(s.cat, m.ID, s.dd.Currency, s.dd.Now)
	ways, ok := sizing.PayWays(m.Model, m.MaxContext, l, gpus, offers, usage, nil)
	cur := s.dd.Currency
	switch {
	case !ok:
		sv.PayNote, _ = planNotes(tr, false, 0, 0, m.MaxContext)
	case len(ways) == 0:
		sv.PayNote = tr.t("pay.none")
	}
	dearest := 0.0
	for _, w := range ways {
		dearest = max(dearest, w.Monthly)
	}
	for _, w := range ways {
		r := CalcPayRow{Way: tr.t("pay.way." + w.Way), Monthly: money(w.Monthly, cur), PerK: money(w.PerRequest*1000, cur),
			Bar: strconv.FormatFloat(w.Monthly/dearest*1000, 'f', 1, 64)}
		switch w.Way {
		case sizing.PayServerless, sizing.PayAPI:
			r.What = usageWhat(tr, s.r.Lang(), cur, usage[w.Index], refs[w.Index], strconv.FormatFloat(w.IdleSeconds, 'f', 2, 64))
			r.AsOf = refs[w.Index].AsOf()
		default:
			r.Row, r.Instances = s.dd.Headline[w.Index], w.Plan.Instances
			if p := r.Row.Price; p.Billing == "committed" && p.TermMonths > 0 {
				r.Term = tr.fill("pay.term", strconv.Itoa(p.TermMonths))
			}
		}
		sv.Pay = append(sv.Pay, r)
		if key, figure := sizing.BreakEven(w, ways); key != "" {
			sv.PayBreakEven = append(sv.PayBreakEven, tr.fill("pay.be."+key, tr.t("pay.way."+w.Way), figure))
		}
	}
	if len(ways) > 0 && !slices.ContainsFunc(ways, func(w sizing.PayWay) bool { return w.Way == sizing.PayAPI }) {
		sv.PayBreakEven = append(sv.PayBreakEven, tr.t("calc.pay.noapi"))
	}
}
