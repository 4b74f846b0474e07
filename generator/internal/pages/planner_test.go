package pages

import (
	"html"
	"math"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

// TestPlannerShortcodes: {{< fits >}}, {{< plan >}}, {{< train >}} and {{< pay >}} on the repository's
// catalog (on its data's own day, so its prices are current) give the
// engine's answers in both editions, every plan row with a dated price,
// and refuse bad arguments with a message that names them.
func TestPlannerShortcodes(t *testing.T) {
	c := testcat.Repo(t)
	now := testcat.DataDate(c)
	var d diag.List
	strs := render.LoadStrings(testcat.RepoRoot(), []string{"en", "zh"}, &d)
	dd := derive.New(c, now)
	r := Shortcodes(map[string]*derive.Data{"en": dd, "zh": dd}, nil, nil, strs, []catalog.Language{{Code: "en"}, {Code: "zh", DateStyle: "cjk"}})

	fits, err := r.Shortcode("en", "fits", nil, map[string]string{"gpu": "rtx-4090"})
	if err != nil {
		t.Fatal(err)
	}
	ms, ctxs := make([]sizing.Model, len(c.Models)), make([]int, len(c.Models))
	for i, m := range c.Models {
		ms[i], ctxs[i] = m.Model, m.MaxContext
	}
	want := sizing.RankFits(ms, ctxs, derive.SizingGPU(c.GPU("rtx-4090")), 1)
	if got := strings.Count(fits, "\n") - 2; got != len(want) || len(want) == 0 {
		t.Errorf("fits: %d rows, want %d:\n%s", got, len(want), fits)
	}
	if first := c.Models[want[0].Index]; !strings.Contains(strings.SplitN(fits, "\n", 4)[2], "/models/"+first.ID+"/") {
		t.Errorf("fits: first row is not %s:\n%s", first.ID, fits)
	}

	args := map[string]string{"model": "llama-3-1-70b", "rate": "20", "prompt": "2000", "output": "300", "ttft": "1000", "tpot": "30"}
	for _, lang := range []string{"en", "zh"} {
		plan, err := r.Shortcode(lang, "plan", nil, args)
		if err != nil {
			t.Fatal(err)
		}
		rows := strings.Split(strings.TrimSpace(plan), "\n")[2:]
		if len(rows) == 0 {
			t.Fatalf("%s: no plan:\n%s", lang, plan)
		}
		asOf := map[string]string{"en": "as of 20", "zh": "价格日期 20"}[lang]
		for _, row := range rows {
			if !strings.Contains(row, asOf) {
				t.Errorf("%s: a plan row without its price date: %s", lang, row)
			}
		}
	}

	// {{< train >}}: the engine's memory and time for the run as given,
	// and a dated job cost.
	targs := map[string]string{"model": "qwen2-5-7b", "workload": "full", "method": "grpo", "gpu": "h100-sxm5-80gb",
		"gpus": "8", "tp": "1", "seq": "1536", "batch": "8", "output": "1024", "tokens": "196608000"}
	in := sizing.WorkloadInput(c.Model("qwen2-5-7b").Model, sizing.FullTraining)
	in.Method, in.GPUs, in.TP, in.SeqLen, in.Batch, in.OutputLen, in.Tokens = sizing.GRPO, 8, 1, 1536, 8, 1024, 196608000
	sg := derive.SizingGPU(c.GPU("h100-sxm5-80gb"))
	res, err := sizing.Estimate(in, &sg)
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "zh"} {
		tr := translator{t: func(k string) string { return strs.For(lang)[k] }}
		out, err := r.Shortcode(lang, "train", nil, targs)
		if err != nil {
			t.Fatal(err)
		}
		out = html.UnescapeString(out) // Markdown text, its punctuation as references
		for _, want := range []string{
			"**" + tr.gib(res.TotalPerGPU) + "**", "| " + tr.gib(res.Breakdown.Rollout) + " |",
			tr.q(sizing.DurationQuantity(res.TrainSeconds)), tr.q(sizing.DurationQuantity(res.RolloutSeconds)),
			map[string]string{"en": "price as of 20", "zh": "价格日期 20"}[lang],
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: train does not say %q:\n%s", lang, want, out)
			}
		}
		if strings.Contains(out, tr.t("calc.part.critic")) {
			t.Errorf("%s: a critic row for GRPO:\n%s", lang, out)
		}
	}

	// {{< pay >}}: one row per way with a current price, each dated; the
	// cheapest first; a chart; the break-evens worded.
	pargs := map[string]string{"model": "llama-3-1-70b", "rate": "20", "prompt": "2000", "output": "300", "ttft": "1000", "tpot": "30"}
	gs := make([]sizing.GPU, len(c.GPUs))
	for i, g := range c.GPUs {
		gs[i] = derive.SizingGPU(g)
	}
	use, _ := UsageOffers(c, "llama-3-1-70b", dd.Currency, now)
	ways, _ := sizing.PayWays(c.Model("llama-3-1-70b").Model, c.Model("llama-3-1-70b").MaxContext,
		sizing.Load{Rate: 20, Prompt: 2000, Answer: 300, TTFT: 1, TPOT: 0.03}, gs, CalcOffers(c, dd.Headline, now), use, nil)
	if len(ways) < 4 {
		t.Fatalf("pay: %d ways on the repository's catalog, want at least 4 (dedicated, serverless, API)", len(ways))
	}
	for _, lang := range []string{"en", "zh"} {
		out, err := r.Shortcode(lang, "pay", nil, pargs)
		if err != nil {
			t.Fatal(err)
		}
		md := html.UnescapeString(out)
		rows := strings.Split(strings.TrimSpace(md[:strings.Index(md, "\n\n")]), "\n")[2:]
		if len(rows) != len(ways) {
			t.Fatalf("%s: %d rows for %d ways:\n%s", lang, len(rows), len(ways), md)
		}
		tr := func(k string) string { return strs.For(lang)[k] }
		asOf := map[string]string{"en": "as of 20", "zh": "价格日期 20"}[lang]
		for i, w := range ways {
			if !strings.HasPrefix(rows[i], "| "+tr("pay.way."+w.Way)+" | "+money(w.Monthly, dd.Currency)+" |") || !strings.Contains(rows[i], asOf) {
				t.Errorf("%s: row %d %q is not %s at %s a month, dated", lang, i, rows[i], w.Way, money(w.Monthly, dd.Currency))
			}
		}
		if !strings.Contains(out, `<figure class="chart"><svg`) {
			t.Errorf("%s: no chart", lang)
		}
	}

	// {{< payvolume >}}: the ways' monthly costs at every volume, as a
	// line chart and a table whose cells are PayWays' figures.
	vargs := map[string]string{"model": "llama-3-1-70b", "prompt": "2000", "output": "300", "ttft": "1000", "tpot": "30"}
	for _, lang := range []string{"en", "zh"} {
		out, err := r.Shortcode(lang, "payvolume", nil, vargs)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, `<figure class="chart"><svg`) || !strings.Contains(out, `class="chart-series chart-s0"`) {
			t.Errorf("%s: no line chart:\n%s", lang, out)
		}
		tr := func(k string) string { return strs.For(lang)[k] }
		var rows []string
		for _, l := range strings.Split(html.UnescapeString(out), "\n") {
			if strings.HasPrefix(l, "| ") && !strings.HasPrefix(l, "| "+tr("pay.volume.x")) && !strings.HasPrefix(l, "| --:") {
				rows = append(rows, l)
			}
		}
		vols := payVolumes()
		if len(rows) != len(vols) || vols[0] != 100 || vols[len(vols)-1] != 1e7 {
			t.Fatalf("%s: %d rows for the volumes %v:\n%s", lang, len(rows), vols, out)
		}
		for i, perDay := range vols {
			ways, ok := sizing.PayWays(c.Model("llama-3-1-70b").Model, c.Model("llama-3-1-70b").MaxContext,
				sizing.Load{Rate: perDay / 86400, Prompt: 2000, Answer: 300, TTFT: 1, TPOT: 0.03}, gs, CalcOffers(c, dd.Headline, now), use, nil)
			if !ok {
				t.Fatalf("PayWays refuses %v requests a day", perDay)
			}
			for _, w := range ways {
				if cell := " " + render.Num(math.Round(w.Monthly)) + " |"; !strings.Contains(rows[i], cell) {
					t.Errorf("%s: row %q lacks %s's %s", lang, rows[i], w.Way, cell)
				}
			}
		}
	}

	for _, tc := range []struct {
		name string
		kv   map[string]string
		want string
	}{
		{"payvolume", map[string]string{"model": "nope"}, "with a catalog model id"},
		{"payvolume", map[string]string{"model": "llama-3-8b", "prompt": "0", "output": "10"}, "the load cannot be planned"},
		{"payvolume", map[string]string{"model": "llama-3-8b", "rate": "1", "prompt": "100", "output": "10"}, `unknown key "rate"`},
		{"pay", map[string]string{"model": "nope"}, "with a catalog model id"},
		{"pay", map[string]string{"model": "llama-3-8b", "rate": "0", "prompt": "100", "output": "10"}, "the load cannot be planned"},
		{"pay", map[string]string{"model": "llama-3-8b", "rate": "lots", "prompt": "100", "output": "10"}, `rate="lots" is not a number`},
		{"train", map[string]string{"model": "qwen2-5-7b"}, "with a catalog model and GPU id"},
		{"train", map[string]string{"model": "qwen2-5-7b", "gpu": "h100-sxm5-80gb", "workload": "inference"}, "is not a training workload"},
		{"train", map[string]string{"model": "qwen2-5-7b", "gpu": "h100-sxm5-80gb", "method": "rlhf"}, `unknown method "rlhf"`},
		{"train", map[string]string{"model": "qwen2-5-7b", "gpu": "h100-sxm5-80gb", "tokens": "many"}, `tokens="many" is not a number`},
		{"fits", map[string]string{"gpu": "nope"}, `want {{< fits gpu="id"`},
		{"fits", map[string]string{"gpu": "rtx-4090", "gpus": "two"}, `gpus="two" is not a whole number`},
		{"fits", map[string]string{"gpu": "rtx-4090", "colour": "red"}, `unknown key "colour"`},
		{"plan", map[string]string{"model": "nope"}, "with a catalog model id"},
		{"plan", map[string]string{"model": "llama-3-8b", "rate": "0", "prompt": "100", "output": "10"}, "the load cannot be planned"},
		{"plan", map[string]string{"model": "llama-3-8b", "rate": "fast", "prompt": "100", "output": "10"}, "rate, ttft and tpot are numbers"},
	} {
		if _, err := r.Shortcode("en", tc.name, nil, tc.kv); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %v: error %v, want %q", tc.name, tc.kv, err, tc.want)
		}
	}
}
