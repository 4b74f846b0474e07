package pages

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

// fitsShortcode expands {{< fits gpu="id" [gpus="n"] [rows="n"] >}}: the
// model presets that fit the GPUs for serving, larger first, each in its
// most precise format (derive.Data.FitOn), as a Markdown table in the
// edition's words: the same answer as `generator size -fit -gpu id`.
func (r *resolver) fitsShortcode(dd *derive.Data, lang string, t func(string) string, kv map[string]string) (string, error) {
	g := dd.Cat.GPU(kv["gpu"])
	if g == nil {
		return "", fmt.Errorf(`want {{< fits gpu="id" gpus="n" rows="n" >}} with a catalog GPU id (got %q)`, kv["gpu"])
	}
	n, err := intArgs(kv, map[string]int{"gpus": 1, "rows": 0}, "gpu")
	if err != nil {
		return "", err
	}
	ranked := dd.FitOn(g, n["gpus"])
	if len(ranked) == 0 {
		return render.Format(t("plan.fits.none"), n["gpus"], mdText(g.LocalName(lang))), nil
	}
	if k := n["rows"]; k > 0 && k < len(ranked) {
		ranked = ranked[:k]
	}
	var b strings.Builder
	row := func(cells ...string) { b.WriteString("| " + strings.Join(cells, " | ") + " |\n") }
	row(t("col.model"), t("gpu.one.format"), t("gpu.one.context"), t("gpu.one.seqs"), t("serve.col.decode"))
	row("---", "---", "--:", "--:", "--:")
	for _, x := range ranked {
		m, o, dec := x.Model, x.Option, x.Decode()
		seqs := render.Num(float64(o.Concurrency))
		if o.Context < sizing.FitContext {
			seqs += " " + render.Format(t("gpu.one.at"), render.Num(float64(o.Context)))
		}
		row(fmt.Sprintf("[%s](%s)", mdText(m.Name), r.url("models/"+m.ID+"/")), mdText(sizing.FormatLabel(o.DType, o.Quant, o.KVDType)),
			render.Num(float64(o.MaxContext)), mdText(seqs), mdText(dec.Num+" "+t("serve.u."+dec.Name())))
	}
	return b.String(), nil
}

// planShortcode expands {{< plan model="id" rate="r" prompt="n"
// output="n" [ttft="ms"] [tpot="ms"] [dtype="fp8"] [rows="n"] >}}: the
// cheapest serving plan per GPU for the load (sizing.PlanServing), priced
// from the current on-demand offers in the edition's currency, each with
// its offer and date, cheapest first: the same answer as `generator size
// -plan` (in USD there).
func (r *resolver) planShortcode(dd *derive.Data, lang string, t func(string) string, kv map[string]string) (string, error) {
	const usage = `want {{< plan model="id" rate="requests/s" prompt="tokens" output="tokens" ttft="ms" tpot="ms" dtype="fp8" rows="n" >}}`
	m := dd.Cat.Model(kv["model"])
	if m == nil {
		return "", fmt.Errorf("%s with a catalog model id (got %q)", usage, kv["model"])
	}
	n, err := intArgs(kv, map[string]int{"prompt": 0, "output": 0, "rows": 0}, "model", "rate", "ttft", "tpot", "dtype")
	if err != nil {
		return "", err
	}
	num := func(k string) (float64, error) {
		if kv[k] == "" {
			return 0, nil
		}
		return strconv.ParseFloat(kv[k], 64)
	}
	rate, err1 := num("rate")
	ttft, err2 := num("ttft")
	tpot, err3 := num("tpot")
	if err1 != nil || err2 != nil || err3 != nil {
		return "", fmt.Errorf("%s: rate, ttft and tpot are numbers", usage)
	}
	var formats []sizing.DType
	if d := kv["dtype"]; d != "" {
		dt, ok := sizing.ParseDType(d)
		if !ok {
			return "", fmt.Errorf("unknown dtype %q", d)
		}
		formats = []sizing.DType{dt}
	}
	var gpus []sizing.GPU
	for _, g := range dd.Cat.GPUs {
		gpus = append(gpus, derive.SizingGPU(g))
	}
	offers := CalcOffers(dd.Cat, dd.Headline, dd.Now)
	load := sizing.Load{Rate: rate, Prompt: n["prompt"], Answer: n["output"], TTFT: ttft / 1000, TPOT: tpot / 1000}
	plans, misses, ok := sizing.PlanServing(m.Model, m.MaxContext, load, gpus, offers, formats)
	if !ok {
		return "", fmt.Errorf("%s: the load cannot be planned (a rate, prompt or output that is not positive, or longer than %s's %d tokens)", usage, m.ID, m.MaxContext)
	}
	if len(plans) == 0 {
		return render.Format(t("plan.none"), len(misses)), nil
	}
	if k := n["rows"]; k > 0 && k < len(plans) {
		plans = plans[:k]
	}
	var b strings.Builder
	row := func(cells ...string) { b.WriteString("| " + strings.Join(cells, " | ") + " |\n") }
	// The answer first, on screen on a phone: the GPU, what it costs, how
	// many; then how it meets the targets; the offer (prose) last.
	row(t("col.gpu"), t("plan.col.hour"), t("plan.col.output"), t("plan.col.layout"), t("gpu.one.format"), t("plan.col.ttft"),
		t("plan.col.tpot"), t("plan.col.load"), t("plan.col.input"), t("plan.col.offer"))
	row("---", "--:", "--:", "--:", "---", "--:", "--:", "--:", "--:", "---")
	cur := dd.Currency
	ms := func(s float64) string { return strconv.FormatFloat(s*1000, 'f', 0, 64) + " ms" }
	for _, p := range plans {
		g, hr := dd.Cat.GPUs[p.GPU], dd.Headline[p.Offer]
		prov := hr.Offer.Provider
		row(fmt.Sprintf("[%s](%s)", mdText(g.LocalName(lang)), r.url("gpus/"+g.ID+"/")), mdText(render.Money(p.Hourly, cur)),
			mdText(render.Money(p.OutputPerM, cur)), mdText(render.Format(t("plan.layout"), p.Replicas, p.TP, p.GPUs, p.Batch)),
			mdText(sizing.FormatLabel(p.DType, p.Quant, p.KVDType)), ms(p.TTFT), ms(p.TPOT), strconv.Itoa(int(p.Utilization*100+0.5))+"%",
			mdText(render.Money(p.InputPerM, cur)),
			fmt.Sprintf("%d × [%s](%s) %s, %s", p.Instances, mdText(prov.LocalName(lang)), r.url("providers/"+prov.ID+"/"),
				mdText(hr.Offer.Instance), mdText(render.Format(t("plan.asof"), r.date(lang, hr.Price.AsOf)))))
	}
	return b.String(), nil
}

// intArgs reads the whole-number keys of kv (defaults as given), and
// refuses keys that are neither these nor allowed.
func intArgs(kv map[string]string, ints map[string]int, allowed ...string) (map[string]int, error) {
	out := map[string]int{}
	for k, d := range ints {
		out[k] = d
		if s, ok := kv[k]; ok {
			v, err := strconv.Atoi(s)
			if err != nil || v < 0 {
				return nil, fmt.Errorf("%s=%q is not a whole number", k, s)
			}
			out[k] = v
		}
	}
	for k := range kv {
		if _, ok := ints[k]; !ok && !slices.Contains(allowed, k) {
			return nil, fmt.Errorf("unknown key %q", k)
		}
	}
	return out, nil
}
