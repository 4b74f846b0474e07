package pages

import (
	"fmt"
	"math"
	"slices"
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
	m, load, err := payArgs(dd, kv, true)
	if err != nil {
		return "", fmt.Errorf("%s%v", usage, err)
	}
	pw := newPayWorld(dd, m.ID)
	use, refs := pw.usage, pw.refs
	ways, ok := sizing.PayWays(m.Model, m.MaxContext, load, pw.gpus, pw.offers, use, nil)
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

// payArgs reads a pay shortcode's model and load (rate only when
// withRate); an error starts with the words that follow the usage line.
func payArgs(dd *derive.Data, kv map[string]string, withRate bool) (*catalog.Model, sizing.Load, error) {
	m := dd.Cat.Model(kv["model"])
	if m == nil {
		return nil, sizing.Load{}, fmt.Errorf(" with a catalog model id (got %q)", kv["model"])
	}
	keys := []string{"model", "ttft", "tpot"}
	if withRate {
		keys = append(keys, "rate")
	}
	n, err := intArgs(kv, map[string]int{"prompt": 0, "output": 0}, keys...)
	if err != nil {
		return nil, sizing.Load{}, fmt.Errorf(": %v", err)
	}
	var f [3]float64
	for i, k := range [...]string{"rate", "ttft", "tpot"} {
		if s := kv[k]; s != "" && (k != "rate" || withRate) {
			if f[i], err = strconv.ParseFloat(s, 64); err != nil {
				return nil, sizing.Load{}, fmt.Errorf(": %s=%q is not a number", k, s)
			}
		}
	}
	return m, sizing.Load{Rate: f[0], Prompt: n["prompt"], Answer: n["output"], TTFT: f[1] / 1000, TPOT: f[2] / 1000}, nil
}

// payWorld is what the ways to pay of one model are priced on: the
// catalog's GPUs, its current offers and the model's usage prices.
type payWorld struct {
	gpus   []sizing.GPU
	offers []sizing.Offer
	usage  []sizing.Usage
	refs   []UsageRef
}

func newPayWorld(dd *derive.Data, model string) payWorld {
	var w payWorld
	for _, g := range dd.Cat.GPUs {
		w.gpus = append(w.gpus, derive.SizingGPU(g))
	}
	w.offers = CalcOffers(dd.Cat, dd.Headline, dd.Now)
	w.usage, w.refs = UsageOffers(dd.Cat, model, dd.Currency, dd.Now)
	return w
}

// payVolumes are the daily request volumes the volume chart prices a
// load at: 1 and 3 times each power of ten from 100 to 10,000,000.
func payVolumes() []float64 {
	var v []float64
	for p := 100.0; p <= 1e7; p *= 10 {
		v = append(v, p)
		if p < 1e7 {
			v = append(v, 3*p)
		}
	}
	return v
}

// payVolumeShortcode expands {{< payvolume model="id" prompt="n"
// output="n" [ttft="ms"] [tpot="ms"] >}}: a line chart of the monthly cost
// of each way to pay (sizing.PayWays: the cheapest of each kind, current
// prices only) for the load at every volume of payVolumes, on
// logarithmic axes, where the lines cross at the volumes from which one
// way costs less than another; and the same figures as a table. A way
// with no price at a volume leaves a gap.
func (r *resolver) payVolumeShortcode(dd *derive.Data, lang string, t func(string) string, kv map[string]string) (string, error) {
	const usage = `want {{< payvolume model="id" prompt="tokens" output="tokens" ttft="ms" tpot="ms" >}}`
	m, load, err := payArgs(dd, kv, false)
	if err != nil {
		return "", fmt.Errorf("%s%v", usage, err)
	}
	pw := newPayWorld(dd, m.ID)
	kinds := []string{sizing.PayOnDemand, sizing.PayCommitted, sizing.PaySpot, sizing.PayServerless, sizing.PayAPI}
	xs := payVolumes()
	vals := make([][]float64, len(kinds))
	for k := range kinds {
		vals[k] = make([]float64, len(xs))
		for i := range xs {
			vals[k][i] = math.NaN()
		}
	}
	for i, perDay := range xs {
		load.Rate = perDay / 86400
		ways, ok := sizing.PayWays(m.Model, m.MaxContext, load, pw.gpus, pw.offers, pw.usage, nil)
		if !ok {
			return "", fmt.Errorf("%s: the load cannot be planned (a prompt or output that is not positive, or longer than %s's %d tokens)", usage, m.ID, m.MaxContext)
		}
		for _, w := range ways {
			vals[slices.Index(kinds, w.Way)][i] = w.Monthly
		}
	}
	cur := dd.Currency
	tr := translator{t: t}
	var lines []chart.Line
	for k, kind := range kinds {
		if slices.ContainsFunc(vals[k], func(v float64) bool { return !math.IsNaN(v) }) {
			lines = append(lines, chart.Line{ID: kind, Label: t("pay.way." + kind), Values: vals[k]})
		}
	}
	if len(lines) == 0 {
		return mdText(t("pay.none")) + "\n", nil
	}
	num := func(v float64) string { return render.Num(v) }
	c, err := chart.Lines(xs, lines, chart.Options{ID: "payvolume-" + m.ID, Title: tr.fill("pay.volume.chart", m.Name),
		Desc: t("pay.volume.desc"), Label: t("pay.volume.x"), PointTip: t("pay.volume.tip"),
		X: chart.Axis{Label: t("pay.volume.x"), Log: true, Format: num},
		Y: chart.Axis{Label: t("pay.col.month"), Unit: cur, Log: true, Format: num, TitleFormat: t("chart.axis.title")}})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(`<figure class="chart">` + strings.ReplaceAll(string(c.HTML()), "\n\n", "\n") + "</figure>\n\n")
	b.WriteString(mdText(tr.fill("pay.volume.table", cur)) + "\n\n")
	cols := c.Table.Columns
	b.WriteString("| " + mdText(cols[0]) + " |")
	for _, h := range cols[1:] {
		b.WriteString(" " + mdText(h) + " |")
	}
	b.WriteString("\n| --: |" + strings.Repeat(" --: |", len(cols)-1) + "\n")
	for _, row := range c.Table.Rows {
		b.WriteString("| " + mdText(row.Label) + " |")
		for _, v := range row.Values {
			cell := "–"
			if !math.IsNaN(v) {
				cell = mdText(render.Num(math.Round(v)))
			}
			b.WriteString(" " + cell + " |")
		}
		b.WriteString("\n")
	}
	return b.String() + "\n", nil
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
