package sizecmd

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

// planFlags are -plan's own flags.
type planFlags struct {
	rate, ttftMS, tpotMS float64
	output               int
}

// parsePlan reads the flags of -plan (and -pay): the model, the load (-rate, -prompt,
// -output) and the targets (-ttft, -tpot in milliseconds); -dtype keeps one
// weight format, -gpu one GPU.
func parsePlan(v *flagVars, set map[string]bool, presets map[string]Preset, gpus []sizing.GPU) (config, error) {
	cfg := config{plan: true, json: v.json}
	name := "-plan"
	if v.pay {
		name = "-pay"
	}
	for _, f := range []string{"rate", "prompt", "output"} {
		if !set[f] {
			return config{}, fmt.Errorf("%s needs -rate (requests/s), -prompt and -output (tokens per request); -%s is missing", name, f)
		}
	}
	for _, f := range []string{"workload", "tp", "pp", "cp", "batch", "gpus", "fit"} {
		if set[f] {
			return config{}, fmt.Errorf("%s chooses the layout and the GPU count for serving; leave out -%s", name, f)
		}
	}
	if v.model == "" && v.configPath == "" && !set["params"] {
		return config{}, fmt.Errorf("%s needs a model: -model ID, -config config.json or a custom model", name)
	}
	m, err := readModel(v, set, presets, &cfg)
	if err != nil {
		return config{}, err
	}
	if err := m.Validate(); err != nil {
		return config{}, flagError(err)
	}
	cfg.in.Model, cfg.modelID = m, v.model
	p := v.planFlags
	switch {
	case !(p.rate > 0) || p.rate > sizing.MaxRate:
		return config{}, fmt.Errorf("-rate %g must be more than 0 and at most %g requests/s", p.rate, sizing.MaxRate)
	case v.prompt < 1 || p.output < 1 || v.prompt+p.output > sizing.MaxSeqLen:
		return config{}, fmt.Errorf("-prompt %d and -output %d must be at least 1 token each, %g in all at most", v.prompt, p.output, float64(sizing.MaxSeqLen))
	case p.ttftMS < 0 || p.tpotMS < 0:
		return config{}, errors.New("-ttft and -tpot are targets in milliseconds, 0 for none; they cannot be negative")
	case cfg.maxContext > 0 && v.prompt+p.output > cfg.maxContext:
		return config{}, fmt.Errorf("-prompt %d plus -output %d is over the model's context of %d tokens; shorten them", v.prompt, p.output, cfg.maxContext)
	}
	cfg.load = sizing.Load{Rate: p.rate, Prompt: v.prompt, Answer: p.output, TTFT: p.ttftMS / 1000, TPOT: p.tpotMS / 1000}
	if set["dtype"] {
		d, ok := sizing.ParseDType(v.dtype)
		if !ok {
			return config{}, fmt.Errorf("unknown dtype %q (want fp32, bf16, fp16, fp8, int8 or int4)", v.dtype)
		}
		cfg.formats = []sizing.DType{d}
	}
	if v.gpu != "" {
		if cfg.gpu, err = findGPU(v.gpu, gpus); err != nil {
			return config{}, err
		}
	}
	return cfg, nil
}

// runPlan prints the cheapest plan per GPU type for the load, and why the
// other GPUs have none; when no GPU has one, a sentence says what would
// change that.
func runPlan(cfg config, gpus []sizing.GPU, offers []Offer, stdout, stderr io.Writer) int {
	gpus, _, so, from := planned(cfg, gpus, offers)
	plans, misses, ok := sizing.PlanServing(cfg.in.Model, cfg.maxContext, cfg.load, gpus, so, cfg.formats)
	if !ok {
		fmt.Fprintln(stderr, "size: the load cannot be planned (check -rate, -prompt, -output, -ttft and -tpot)")
		return ExitUsage
	}
	l := cfg.load
	if cfg.json {
		out := jsonPlan{Model: jsonModel{ID: cfg.modelID, Model: cfg.in.Model}, Rate: l.Rate, Prompt: l.Prompt, Output: l.Answer,
			TTFTMs: l.TTFT * 1000, TPOTMs: l.TPOT * 1000, Plans: []jsonServePlan{}, Misses: []jsonPlanMiss{}}
		for _, p := range plans {
			o := from[p.Offer]
			out.Plans = append(out.Plans, jsonServePlan{GPU: gpus[p.GPU].ID, DType: string(p.DType), Quant: string(p.Quant), KVDType: string(p.KVDType),
				TP: p.TP, Batch: p.Batch, Replicas: p.Replicas, GPUs: p.GPUs, TTFTMs: sig(p.TTFT * 1000), TPOTMs: sig(p.TPOT * 1000),
				ReplicaRate: sig(p.ReplicaRate), Utilization: sig(p.Utilization), Offer: o.ID, AsOf: o.AsOf, Instances: p.Instances,
				USDPerHour: sig(p.Hourly), USDPerMInput: sig(p.InputPerM), USDPerMOutput: sig(p.OutputPerM)})
		}
		for _, m := range misses {
			out.Misses = append(out.Misses, jsonPlanMiss{GPU: gpus[m.GPU].ID, Reason: m.Reason, Best: sig(m.Best)})
		}
		return writeJSON(stdout, stderr, out)
	}
	targets := ""
	if l.TTFT > 0 {
		targets += ", time to first token ≤ " + ms(l.TTFT)
	}
	if l.TPOT > 0 {
		targets += ", time per output token ≤ " + ms(l.TPOT)
	}
	fmt.Fprintf(stdout, "Serving %s requests/s of %s-token prompts and %s-token answers%s.\n", strconv.FormatFloat(l.Rate, 'g', -1, 64), sizing.Group(l.Prompt), sizing.Group(l.Answer), targets)
	if len(plans) == 0 {
		fmt.Fprintln(stdout, "\nNo GPU meets this load at a current on-demand price:")
		writeMisses(stdout, gpus, misses)
		fmt.Fprintln(stdout, "\nLooser targets, shorter prompts or answers, or a 4-bit format (-dtype int4) would widen the choice.")
		return 0
	}
	fmt.Fprintf(stdout, "Cheapest plan per GPU, cheapest first (current on-demand prices, USD; the time to first token is a request's prompt plus half a decode step, the wait for the running step; a burst's queue is not counted, so keep headroom):\n\n")
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "GPU\tformat\treplicas × TP\tGPUs\tbatch\tTTFT\tTPOT\tload\t$/hour\toffer (as of)\t$/M input\t$/M output\t")
	for _, p := range plans {
		o := from[p.Offer]
		fmt.Fprintf(tw, "%s\t%s\t%d × TP %d\t%d\t%d\t%s\t%s\t%d%%\t%s\t%s × %s (%s)\t%s\t%s\t\n", gpus[p.GPU].Name,
			sizing.FormatLabel(p.DType, p.Quant, p.KVDType), p.Replicas, p.TP, p.GPUs, p.Batch,
			ms(p.TTFT), ms(p.TPOT), int(p.Utilization*100+0.5), strconv.FormatFloat(p.Hourly, 'f', 2, 64), sizing.Group(p.Instances), o.ID, o.AsOf,
			strconv.FormatFloat(p.InputPerM, 'f', 4, 64), strconv.FormatFloat(p.OutputPerM, 'f', 4, 64))
	}
	tw.Flush()
	if len(misses) > 0 {
		fmt.Fprintln(stdout, "\nNo plan:")
		writeMisses(stdout, gpus, misses)
	}
	return 0
}

// planned is what -plan and -pay plan on: the GPUs (the -gpu one, else
// all), their indexes by id, and the offers of those GPUs as the engine
// takes them, with the offers they came from.
func planned(cfg config, gpus []sizing.GPU, offers []Offer) ([]sizing.GPU, map[string]int, []sizing.Offer, []Offer) {
	if cfg.gpu != nil {
		gpus = []sizing.GPU{*cfg.gpu}
	}
	at := map[string]int{}
	for i, g := range gpus {
		at[g.ID] = i
	}
	so, from := engineOffers(offers, at)
	return gpus, at, so, from
}

// writeMisses says, per GPU, why it has no plan.
func writeMisses(w io.Writer, gpus []sizing.GPU, misses []sizing.PlanMiss) {
	for _, m := range misses {
		why := ""
		switch m.Reason {
		case sizing.MissFit:
			why = fmt.Sprintf("one sequence does not fit on up to %d GPUs of one node", sizing.MaxNodeTP)
		case sizing.MissSpeed:
			why = "its memory bandwidth or FLOP/s are not known, so no speed can be estimated"
		case sizing.MissTTFT:
			why = "time to first token at best " + ms(m.Best)
		case sizing.MissTPOT:
			why = "time per output token at best " + ms(m.Best)
		case sizing.MissOffer:
			why = fmt.Sprintf("no current on-demand offer holds the plan (%d GPUs)", int(m.Best))
		}
		fmt.Fprintf(w, "  %s: %s\n", gpus[m.GPU].Name, why)
	}
}

// ms writes seconds as milliseconds to a tenth.
func ms(s float64) string { return strconv.FormatFloat(s*1000, 'f', 1, 64) + " ms" }

// JSON shapes of -plan.

type jsonServePlan struct {
	GPU           string  `json:"gpu"`
	DType         string  `json:"dtype"`
	Quant         string  `json:"quant,omitempty"`
	KVDType       string  `json:"kv_dtype"`
	TP            int     `json:"tp"`
	Batch         int     `json:"batch"`
	Replicas      int     `json:"replicas"`
	GPUs          int     `json:"gpus"`
	TTFTMs        float64 `json:"ttft_ms"`
	TPOTMs        float64 `json:"tpot_ms"`
	ReplicaRate   float64 `json:"requests_per_s_per_replica"`
	Utilization   float64 `json:"utilization"`
	Offer         string  `json:"offer"`
	AsOf          string  `json:"as_of"`
	Instances     int     `json:"instances"`
	USDPerHour    float64 `json:"usd_per_hour"`
	USDPerMInput  float64 `json:"usd_per_million_input_tokens"`
	USDPerMOutput float64 `json:"usd_per_million_output_tokens"`
}

type jsonPlanMiss struct {
	GPU    string  `json:"gpu"`
	Reason string  `json:"reason"`
	Best   float64 `json:"best"`
}

type jsonPlan struct {
	Model  jsonModel       `json:"model"`
	Rate   float64         `json:"rate"`
	Prompt int             `json:"prompt"`
	Output int             `json:"output"`
	TTFTMs float64         `json:"ttft_ms"`
	TPOTMs float64         `json:"tpot_ms"`
	Plans  []jsonServePlan `json:"plans"`
	Misses []jsonPlanMiss  `json:"misses"`
}
