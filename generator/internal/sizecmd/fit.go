package sizecmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

// parseFit reads the flags of -fit: the GPUs (-gpu, -gpus) and, when the
// command names one, the model; -seq lowers the context limit (of every
// preset, without a model). The
// formats are what -fit lists, so the flags that choose one are refused.
func parseFit(v *flagVars, set map[string]bool, presets map[string]Preset, gpus []sizing.GPU) (config, error) {
	cfg := config{fit: true, json: v.json}
	if v.gpu == "" {
		return config{}, errors.New("-fit needs -gpu ID (and -gpus N, default 1): the GPUs to fit")
	}
	for _, f := range []string{"dtype", "kv-dtype", "quant", "workload", "tp", "pp", "cp", "batch"} {
		if set[f] {
			return config{}, fmt.Errorf("-fit lists every weight and KV-cache format for serving on all the GPUs; leave out -%s", f)
		}
	}
	var err error
	if cfg.gpu, err = findGPU(v.gpu, gpus); err != nil {
		return config{}, err
	}
	if v.gpus < 1 || v.gpus > sizing.MaxSearchGPUs {
		return config{}, fmt.Errorf("-gpus %d is outside 1..%d", v.gpus, sizing.MaxSearchGPUs)
	}
	cfg.in.GPUs = v.gpus
	if set["seq"] && (v.seq < 1 || v.seq > sizing.MaxSeqLen) {
		return config{}, fmt.Errorf("-seq %d is outside 1..%g", v.seq, float64(sizing.MaxSeqLen))
	}
	if v.model == "" && v.configPath == "" && !set["params"] {
		cfg.fitAll = true
		if set["seq"] {
			cfg.in.SeqLen = v.seq // a cap on every preset's context
		}
		return cfg, nil
	}
	m, err := readModel(v, set, presets, &cfg)
	if err != nil {
		return config{}, err
	}
	if err := m.Validate(); err != nil {
		return config{}, flagError(err)
	}
	if set["seq"] {
		cfg.maxContext = v.seq
	}
	cfg.in.Model = m
	return cfg, nil
}

// runFit prints what fits: the formats of one model, or the presets that
// fit, largest first. A question with no answer gets a sentence saying so
// and what would change it, not an empty table.
func runFit(cfg config, presets map[string]Preset, stdout, stderr io.Writer) int {
	g, n := *cfg.gpu, cfg.in.GPUs
	where := fmt.Sprintf("%d × %s", n, g.Name)
	if cfg.fitAll {
		ids := sortedKeys(presets)
		ms, ctxs := make([]sizing.Model, len(ids)), make([]int, len(ids))
		for i, id := range ids {
			ms[i], ctxs[i] = presets[id].Model, presets[id].MaxContext
			if c := cfg.in.SeqLen; c > 0 && (ctxs[i] == 0 || c < ctxs[i]) {
				ctxs[i] = c
			}
		}
		ranked := sizing.RankFits(ms, ctxs, g, n)
		if cfg.json {
			out := jsonFitAll{GPU: g.ID, GPUs: n, UsableBytesPerGPU: sizing.UsableBytes(g), Models: []jsonFitModel{}}
			for _, r := range ranked {
				out.Models = append(out.Models, jsonFitModel{Model: ids[r.Index], Name: presets[ids[r.Index]].Name, Params: ms[r.Index].Params, Option: fitJSON(r.Option)})
			}
			return writeJSON(stdout, stderr, out)
		}
		if len(ranked) == 0 {
			fmt.Fprintf(stdout, "No model preset fits %s with a %s-token sequence in any format the GPU runs. More GPUs (-gpus) or a GPU with more memory would; `-fit -model ID` says by how much each format is over.\n",
				where, sizing.Group(sizing.FitContext))
			return 0
		}
		fmt.Fprintf(stdout, "Model presets that fit %s (%s usable per GPU), largest first, each in the most precise format that holds a sequence of %s tokens (or its whole context, when shorter):\n\n",
			where, gib(sizing.UsableBytes(g)), sizing.Group(sizing.FitContext))
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "model\tparams\tweights / KV cache\tlongest context\tsequences at context\tdecode, 1 sequence\t")
		for _, r := range ranked {
			o := r.Option
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t\n", presets[ids[r.Index]].Name, humanCount(float64(ms[r.Index].Params)), sizing.FormatLabel(o.DType, o.Quant, o.KVDType),
				sizing.Group(o.MaxContext), fmt.Sprintf("%s at %s", sizing.Group(o.Concurrency), sizing.Group(o.Context)), decodeText(o))
		}
		tw.Flush()
		return 0
	}
	opts := sizing.ServingFit(cfg.in.Model, cfg.maxContext, g, n)
	if len(opts) == 0 {
		fmt.Fprintf(stderr, "size: %d GPUs cannot be laid out for this model (more pipeline stages than its %d layers); use fewer GPUs\n", n, cfg.in.Model.Layers)
		return ExitUsage
	}
	if cfg.json {
		out := jsonFit{GPU: g.ID, GPUs: n, UsableBytesPerGPU: sizing.UsableBytes(g), Model: jsonModel{ID: cfg.modelID, Model: cfg.in.Model}, MaxContext: cfg.maxContext}
		for _, o := range opts {
			out.Options = append(out.Options, fitJSON(o))
		}
		return writeJSON(stdout, stderr, out)
	}
	limit := "no stated limit"
	if cfg.maxContext > 0 {
		limit = "up to " + sizing.Group(cfg.maxContext)
	}
	fmt.Fprintf(stdout, "Serving on %s (TP %d, PP %d; %s usable per GPU), context %s:\n\n", where, opts[0].TP, opts[0].PP, gib(sizing.UsableBytes(g)), limit)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "weights / KV cache\tweights per GPU\tlongest context\tsequences at context\tdecode, 1 sequence\t")
	fits := false
	for _, o := range opts {
		if o.MaxContext == 0 {
			fmt.Fprintf(tw, "%s\t%s\tdoes not fit: %s more per GPU (CPU offload)\t\t\t\n", sizing.FormatLabel(o.DType, o.Quant, o.KVDType), gib(o.WeightsPerGPU), gib(o.OverBytes))
			continue
		}
		seqs := fmt.Sprintf("%s at %s", sizing.Group(o.Concurrency), sizing.Group(o.Context))
		if !o.Fits() {
			seqs = "none at " + sizing.Group(o.Context)
		}
		fits = fits || o.Fits()
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t\n", sizing.FormatLabel(o.DType, o.Quant, o.KVDType), gib(o.WeightsPerGPU), sizing.Group(o.MaxContext), seqs, decodeText(o))
	}
	tw.Flush()
	if !fits {
		fmt.Fprintf(stdout, "\nNo format holds a %s-token sequence on %s. More GPUs (-gpus) would, or CPU offload of what the table says is over.\n", sizing.Group(min(sizing.FitContext, max(cfg.maxContext, 1))), where)
	}
	return 0
}

// decodeText is an option's expected decode speed, or "–".
func decodeText(o sizing.ServingOption) string {
	if o.Decode <= 0 {
		return "–"
	}
	return sizing.Group(int(sig(o.Decode)+0.5)) + " tokens/s"
}

func writeJSON(stdout, stderr io.Writer, v any) int {
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintln(stderr, "size: "+oneLine(err.Error()))
		return 1
	}
	return 0
}

// JSON shapes of -fit.

type jsonFitOption struct {
	DType           string  `json:"dtype"`
	Quant           string  `json:"quant,omitempty"`
	KVDType         string  `json:"kv_dtype"`
	TP              int     `json:"tp"`
	PP              int     `json:"pp"`
	WeightsPerGPU   int64   `json:"weights_bytes_per_gpu"`
	Fits            bool    `json:"fits"`
	MaxContext      int     `json:"max_context"`
	Context         int     `json:"context"`
	Concurrency     int     `json:"concurrency"`
	OverBytesPerGPU int64   `json:"over_bytes_per_gpu"`
	DecodeTokensPS  float64 `json:"expected_decode_tokens_per_s"`
}

type jsonFit struct {
	GPU               string          `json:"gpu"`
	GPUs              int             `json:"gpus"`
	UsableBytesPerGPU int64           `json:"usable_bytes_per_gpu"`
	Model             jsonModel       `json:"model"`
	MaxContext        int             `json:"model_max_context"`
	Options           []jsonFitOption `json:"options"`
}

type jsonFitModel struct {
	Model  string        `json:"model"`
	Name   string        `json:"name"`
	Params int64         `json:"params"`
	Option jsonFitOption `json:"option"`
}

type jsonFitAll struct {
	GPU               string         `json:"gpu"`
	GPUs              int            `json:"gpus"`
	UsableBytesPerGPU int64          `json:"usable_bytes_per_gpu"`
	Models            []jsonFitModel `json:"models"`
}

func fitJSON(o sizing.ServingOption) jsonFitOption {
	return jsonFitOption{DType: string(o.DType), Quant: string(o.Quant), KVDType: string(o.KVDType), TP: o.TP, PP: o.PP,
		WeightsPerGPU: o.WeightsPerGPU, Fits: o.Fits(), MaxContext: o.MaxContext, Context: o.Context, Concurrency: o.Concurrency,
		OverBytesPerGPU: o.OverBytes, DecodeTokensPS: sig(o.Decode)}
}
