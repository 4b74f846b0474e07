package pages

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/chart"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

// UsageRef is one usage price as sizing.Usage prices it: its platform and
// its catalog entry (API or Serverless).
type UsageRef struct {
	Platform   *catalog.Platform
	API        *catalog.APIPrice
	Serverless *catalog.ServerlessPrice
}

// AsOf is the price's date.
func (u UsageRef) AsOf() time.Time {
	if u.API != nil {
		return u.API.AsOf
	}
	return u.Serverless.AsOf
}

// AllUsage returns every usage price of the catalog in currency cur
// (data/fx.toml's rates), stale by c's age bands at now: each platform's
// hosted APIs (of any model) and serverless GPUs, in file order; refs[i]
// is usage[i]'s entry. A price in a currency without a rate is left out.
func AllUsage(c *catalog.Catalog, cur string, now time.Time) (usage []sizing.Usage, refs []UsageRef) {
	gpuAt := map[string]int{}
	for i, g := range c.GPUs {
		gpuAt[g.ID] = i
	}
	stale := func(t time.Time) bool {
		return derive.Band(derive.AgeDays(t, now), c.Site.Staleness) == "stale"
	}
	for _, p := range c.Platforms {
		for _, a := range p.API {
			in, ok1 := c.FX.Convert(a.InputPerM, a.Currency, cur)
			out, ok2 := c.FX.Convert(a.OutputPerM, a.Currency, cur)
			if !ok1 || !ok2 {
				continue
			}
			usage = append(usage, sizing.Usage{GPU: -1, InputPerM: in, OutputPerM: out, Stale: stale(a.AsOf)})
			refs = append(refs, UsageRef{Platform: p, API: a})
		}
		for _, s := range p.Serverless {
			ps, ok := c.FX.Convert(s.PerSecond, s.Currency, cur)
			gi, known := gpuAt[s.GPU]
			if !ok || !known {
				continue
			}
			usage = append(usage, sizing.Usage{GPU: gi, PerSecond: ps, IdleSeconds: s.Idle(), Stale: stale(s.AsOf)})
			refs = append(refs, UsageRef{Platform: p, Serverless: s})
		}
	}
	return usage, refs
}

// UsageOffers returns the usage prices that PayWays weighs for model id:
// AllUsage less the hosted APIs of other models.
func UsageOffers(c *catalog.Catalog, model, cur string, now time.Time) (usage []sizing.Usage, refs []UsageRef) {
	all, allRefs := AllUsage(c, cur, now)
	for i, ref := range allRefs {
		if ref.API == nil || ref.API.Model == model {
			usage, refs = append(usage, all[i]), append(refs, ref)
		}
	}
	return usage, refs
}

// payShortcode expands {{< pay model="id" rate="requests/s" prompt="n"
// output="n" [ttft="ms"] [tpot="ms"] >}}: the cheapest way of each kind
// to pay for serving that load (sizing.PayWays): dedicated GPUs on
// demand, committed and spot, serverless GPUs and hosted APIs, from
// current prices only, each with its price and date; the break-even rates
// and load shares; and a bar chart of the monthly costs. The guide must
// have raw_html = true for the chart. The same answer as `generator size
// -pay` (in USD there).
func (r *resolver) payShortcode(dd *derive.Data, lang string, t func(string) string, kv map[string]string) (string, error) {
	const usage = `want {{< pay model="id" rate="requests/s" prompt="tokens" output="tokens" ttft="ms" tpot="ms" >}}`
	m := dd.Cat.Model(kv["model"])
	if m == nil {
		return "", fmt.Errorf("%s with a catalog model id (got %q)", usage, kv["model"])
	}
	n, err := intArgs(kv, map[string]int{"prompt": 0, "output": 0}, "model", "rate", "ttft", "tpot")
	if err != nil {
		return "", fmt.Errorf("%s: %v", usage, err)
	}
	var f [3]float64
	for i, k := range [...]string{"rate", "ttft", "tpot"} {
		if s := kv[k]; s != "" {
			if f[i], err = strconv.ParseFloat(s, 64); err != nil {
				return "", fmt.Errorf("%s: %s=%q is not a number", usage, k, s)
			}
		}
	}
	var gpus []sizing.GPU
	for _, g := range dd.Cat.GPUs {
		gpus = append(gpus, derive.SizingGPU(g))
	}
	offers := CalcOffers(dd.Cat, dd.Headline, dd.Now)
	use, refs := UsageOffers(dd.Cat, m.ID, dd.Currency, dd.Now)
	load := sizing.Load{Rate: f[0], Prompt: n["prompt"], Answer: n["output"], TTFT: f[1] / 1000, TPOT: f[2] / 1000}
	ways, ok := sizing.PayWays(m.Model, m.MaxContext, load, gpus, offers, use, nil)
	if !ok {
		return "", fmt.Errorf("%s: the load cannot be planned (a rate, prompt or output that is not positive, or longer than %s's %d tokens)", usage, m.ID, m.MaxContext)
	}
	if len(ways) == 0 {
		return mdText(t("pay.none")) + "\n", nil
	}
	cur := dd.Currency
	var b strings.Builder
	row := func(cells ...string) { b.WriteString("| " + strings.Join(cells, " | ") + " |\n") }
	row(t("pay.col.way"), t("pay.col.month"), t("pay.col.request"), t("pay.col.where"))
	row("---", "--:", "--:", "---")
	var bars []chart.Bar
	for _, w := range ways {
		label := t("pay.way." + w.Way)
		where := r.payWhere(dd, lang, t, w, use, refs)
		row(mdText(label), mdText(money(w.Monthly, cur)), mdText(money(w.PerRequest*1000, cur)), where)
		bars = append(bars, chart.Bar{ID: w.Way, Label: label, Value: w.Monthly})
	}
	b.WriteString("\n")
	tr := translator{t: t}
	b.WriteString(mdText(tr.fill("pay.load", render.Num(load.Rate), render.Num(math.Round(load.Rate*86400)), render.Num(float64(load.Prompt)), render.Num(float64(load.Answer)))) + "\n")
	for _, w := range ways {
		if s := payBreakEven(t, w, ways); s != "" {
			b.WriteString("\n- " + mdText(s))
		}
	}
	b.WriteString("\n\n")
	// One chart per model and rate: a guide may price a model at two.
	id := "pay-" + m.ID + "-" + strings.NewReplacer(".", "-", "+", "-").Replace(strconv.FormatFloat(load.Rate, 'f', -1, 64))
	c, err := chart.Bars(bars, chart.Options{ID: id, Title: tr.fill("pay.chart", m.Name, render.Num(load.Rate)),
		Desc: t("pay.chart.desc"), X: chart.Axis{Label: t("pay.col.month"), Unit: cur, TitleFormat: t("chart.axis.title")}, Label: t("pay.col.way")})
	if err != nil {
		return "", err
	}
	b.WriteString(`<figure class="chart">` + strings.ReplaceAll(string(c.HTML()), "\n\n", "\n") + "</figure>\n")
	return b.String(), nil
}

// payWhere is a way's offer or usage price, linked and dated.
func (r *resolver) payWhere(dd *derive.Data, lang string, t func(string) string, w sizing.PayWay, usage []sizing.Usage, refs []UsageRef) string {
	cur := dd.Currency
	tr := translator{t: t}
	switch w.Way {
	case sizing.PayServerless, sizing.PayAPI:
		u := refs[w.Index]
		what := usageWhat(tr, lang, cur, usage[w.Index], u, strconv.FormatFloat(w.IdleSeconds, 'f', 2, 64))
		return mdText(what + t("punct.comma") + render.Format(t("plan.asof"), r.date(lang, u.AsOf())))
	}
	hr := dd.Headline[w.Index]
	prov := hr.Offer.Provider
	term := ""
	if hr.Price.Billing == "committed" && hr.Price.TermMonths > 0 {
		term = tr.fill("pay.term", strconv.Itoa(hr.Price.TermMonths))
	}
	return fmt.Sprintf("%d × [%s](%s) %s", w.Plan.Instances, mdText(prov.LocalName(lang)), r.url("providers/"+prov.ID+"/"),
		mdText(hr.Offer.Instance+term+t("punct.comma")+render.Format(t("plan.asof"), r.date(lang, hr.Price.AsOf))))
}

// payBreakEven words w's break-even against the other ways, or "".
func payBreakEven(t func(string) string, w sizing.PayWay, ways []sizing.PayWay) string {
	key, figure := sizing.BreakEven(w, ways)
	if key == "" {
		return ""
	}
	return translator{t: t}.fill("pay.be."+key, t("pay.way."+w.Way), figure)
}
