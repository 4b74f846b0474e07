package pages

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

// trainShortcode expands {{< train model="id" gpu="id" [workload="full"]
// [method="sft"] [gpus="1"] [tp="1"] [seq="n"] [batch="n"]
// [output="n"] [tokens="x"] >}}: one training run as the engine sizes it,
// from the workload's recipe (sizing.RecipeFor): the memory per GPU by
// part, whether it fits, the training compute and time (with the rollout's
// share for GRPO and PPO), and the job's cost at the cheapest current
// on-demand offer of the GPU (sizing.Job.Plan, as the calculator prices
// it), with its date. The same figures as `generator size` with the same
// flags (-tp 1 unless given: data parallel, as FSDP and ZeRO-3 run).
func (r *resolver) trainShortcode(dd *derive.Data, lang string, t func(string) string, kv map[string]string) (string, error) {
	const usage = `want {{< train model="id" gpu="id" workload="full|lora|qlora" method="sft|dpo|grpo|grpo-kl|ppo" gpus="n" tp="n" seq="n" batch="n" output="n" tokens="x" >}}`
	m, g := dd.Cat.Model(kv["model"]), dd.Cat.GPU(kv["gpu"])
	if m == nil || g == nil {
		return "", fmt.Errorf("%s with a catalog model and GPU id (got %q, %q)", usage, kv["model"], kv["gpu"])
	}
	n, err := intArgs(kv, map[string]int{"gpus": 1, "tp": 1, "seq": 4096, "batch": 1, "output": 0},
		"model", "gpu", "workload", "method", "tokens")
	if err != nil {
		return "", fmt.Errorf("%s: %v", usage, err)
	}
	w, ok := sizing.ParseWorkload(kv["workload"])
	if kv["workload"] == "" {
		w, ok = sizing.FullTraining, true
	}
	if !ok || w == sizing.Inference {
		return "", fmt.Errorf("%s: workload %q is not a training workload", usage, kv["workload"])
	}
	in := sizing.WorkloadInput(m.Model, w)
	in.Method = sizing.Method(kv["method"])
	in.GPUs, in.TP, in.SeqLen, in.Batch, in.OutputLen = n["gpus"], n["tp"], n["seq"], n["batch"], n["output"]
	if s := kv["tokens"]; s != "" {
		if in.Tokens, err = strconv.ParseFloat(s, 64); err != nil {
			return "", fmt.Errorf("%s: tokens=%q is not a number", usage, s)
		}
	}
	sg := derive.SizingGPU(g)
	res, err := sizing.Estimate(in, &sg)
	if err != nil {
		return "", fmt.Errorf("%s: %v", usage, err)
	}
	tr := translator{t: t}
	var b strings.Builder
	row := func(cells ...string) { b.WriteString("| " + strings.Join(cells, " | ") + " |\n") }
	row(t("calc.col.component"), t("train.col.pergpu"))
	row("---", "--:")
	for _, p := range Parts(res.Breakdown, func(k string) string { return t("calc.part." + k) }, tr.gib) {
		if p.Bytes > 0 || !p.Optional {
			row(mdText(p.Label), p.Text)
		}
	}
	if res.PagedOutBytes > 0 {
		row(mdText(t("calc.part.paged")), "−"+tr.gib(res.PagedOutBytes))
	}
	verdict := t("calc.result.nofit")
	if sizing.Fits(res, sg) {
		verdict = t("calc.result.fits")
	}
	row("**"+mdText(t("train.total"))+"**", "**"+tr.gib(res.TotalPerGPU)+"**")
	b.WriteString("\n")
	b.WriteString(mdText(render.Format(t("train.fits"), tr.gib(sizing.UsableBytes(sg)), g.LocalName(lang), verdict)))
	b.WriteString(" " + mdText(render.Format(t("train.compute"), tr.q(sizing.FLOPsQuantity(res.TrainFLOPs)))))
	if res.TrainSeconds > 0 {
		b.WriteString(" " + mdText(render.Format(t("train.time"), tr.q(sizing.DurationQuantity(res.TrainSeconds)), in.GPUs, g.LocalName(lang), render.Num(res.MFU*100))))
		if res.RolloutSeconds > 0 {
			b.WriteString(" " + mdText(render.Format(t("train.rollout"), tr.q(sizing.DurationQuantity(res.RolloutSeconds)), render.Num(float64(in.OutputLen)))))
		}
	}
	return b.String() + " " + r.trainCost(dd, lang, t, in, res, g) + "\n", nil
}

// trainCost words the job's cost at the cheapest current on-demand offer
// of GPU g, with its date, or says there is none.
func (r *resolver) trainCost(dd *derive.Data, lang string, t func(string) string, in sizing.Input, res sizing.Result, g *catalog.GPU) string {
	sg := derive.SizingGPU(g)
	offers := CalcOffers(dd.Cat, dd.Headline, dd.Now)
	// Only the chosen GPU's offers are priced (CalcJob prices the run as
	// given when it fits, else at its fewest GPUs).
	fits := map[string]sizing.Fit{}
	if f, ok := sizing.MinFit(in, sg); ok {
		fits[g.ID] = f
	}
	job := CalcJob(dd.Cat, in, res, g, fits, sizing.ServingConcurrency)
	best := -1
	plan := job.Plan(offers)
	for i, c := range plan.Chosen {
		if c.Job > 0 && !offers[c.Offer].Stale && dd.Headline[c.Offer].Price.Billing == "on-demand" && (best < 0 || c.Job < plan.Chosen[best].Job) {
			best = i
		}
	}
	if best < 0 {
		return mdText(render.Format(t("train.nocost"), g.LocalName(lang)))
	}
	c := plan.Chosen[best]
	hr := dd.Headline[c.Offer]
	prov := hr.Offer.Provider
	// The offer is a link: a placeholder rune (kept by mdText) marks where.
	link := fmt.Sprintf("[%s](%s) %s", mdText(prov.LocalName(lang)), r.url("providers/"+prov.ID+"/"), mdText(hr.Offer.Instance))
	cost := mdText(render.Format(t("train.cost"), money(c.Job, dd.Currency), c.Instances, "\x00", money(c.Hourly, dd.Currency), r.date(lang, hr.Price.AsOf)))
	return strings.Replace(cost, "\x00", link, 1)
}
