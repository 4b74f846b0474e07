// Package sizecmd implements the generator's `size` subcommand: the sizing
// calculator on the command line, over the catalog's model presets and GPUs.
package sizecmd

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/hfconfig"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

// ExitUsage is the exit status for bad input.
const ExitUsage = 2

// Offer is a current on-demand price of a catalog instance, for the cost
// per million output tokens.
type Offer struct {
	ID      string  // the offer's catalog id
	GPU     string  // its GPU's id
	GPUs    int     // GPUs in the instance
	PerHour float64 // price per instance-hour (the hourly equivalent of a longer term), USD
	AsOf    string  // the price's date, YYYY-MM-DD
	Mode    int     // billing mode, as sizing.Offer.Mode: 0 on demand, 1 committed, 2 spot
}

// UsageOffer is a current usage price in USD (sizing.Usage): a hosted API
// of Model (per million input and output tokens) or a serverless GPU (per
// GPU-second).
type UsageOffer struct {
	Platform, ServedAs, AsOf string
	Model                    string // an API's model preset id ("" for serverless)
	GPU                      string // a serverless GPU's id ("" for an API)
	InputPerM, OutputPerM    float64
	PerSecond                float64
	IdleSeconds              float64 // a serverless GPU's documented idle timeout (0: none documented)
}

// Data is what `size` answers from: the catalog's model presets by id,
// its GPUs, its current dedicated prices (Offer.Mode) and its current
// usage prices.
type Data struct {
	Presets map[string]Preset
	GPUs    []sizing.GPU
	Offers  []Offer
	Usage   []UsageOffer
}

// Preset is a catalog model preset: its name, shape and context limit.
type Preset struct {
	Name       string
	Model      sizing.Model
	MaxContext int
}

// Run runs `size` with args (the arguments after the subcommand name) on
// data. It prints a report (or JSON with -json) to stdout and returns 0; on
// bad input it prints one line "size: ..." to stderr and returns 2.
func Run(args []string, data Data, stdout, stderr io.Writer) int {
	presets, gpus := data.Presets, data.GPUs
	var offers []Offer // on demand: the plan's and the cost per token's
	for _, o := range data.Offers {
		if o.Mode == 0 {
			offers = append(offers, o)
		}
	}
	cfg, err := parse(args, presets, gpus)
	if errors.Is(err, flag.ErrHelp) {
		fs, _ := newFlagSet()
		fmt.Fprintln(stdout, "usage: size [-model ID | -config config.json | -params N -layers N -hidden N -heads N ...] [flags]")
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "size: "+oneLine(err.Error()))
		return ExitUsage
	}
	if cfg.fit {
		return runFit(cfg, presets, stdout, stderr)
	}
	if cfg.plan && cfg.pay {
		return runPay(cfg, gpus, data.Offers, data.Usage, stdout, stderr)
	}
	if cfg.plan {
		return runPlan(cfg, gpus, offers, stdout, stderr)
	}
	rep, err := compute(cfg, gpus, offers)
	if err != nil {
		fmt.Fprintln(stderr, "size: "+oneLine(err.Error()))
		return ExitUsage
	}
	if cfg.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep.toJSON()); err != nil {
			fmt.Fprintln(stderr, "size: "+oneLine(err.Error()))
			return 1
		}
		return 0
	}
	rep.writeText(stdout)
	return 0
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// config is the parsed command line.
type config struct {
	modelID string
	hf      *hfconfig.Config // the model read from -config
	hfPath  string
	in      sizing.Input
	gpu     *sizing.GPU
	json    bool
	autoTP  bool // the layout was chosen from the GPU count (-tp 0)
	// maxContext is the model's context limit (a preset's or config's; 0
	// when not known).
	maxContext int
	// fit asks what fits (-fit); fitAll lists the presets that fit.
	fit, fitAll bool
	// plan asks for serving plans (-plan) for load, in formats (nil: the
	// engine's default).
	plan    bool
	pay     bool // -pay: the four ways to pay for the load (plan's flags)
	load    sizing.Load
	formats []sizing.DType
	// concurrency is the serving concurrency of the cost per token.
	concurrency int
}

// flagVars holds the flag destinations.
type flagVars struct {
	model, configPath                                string
	custom                                           sizing.Model // the custom model's flags (sizing.ModelFields)
	workload, method, dtype, kvDtype, quant          string
	seq, prompt, batch, gpus, tp, pp, cp, zero       int
	images                                           int
	trainVision                                      bool
	groupSize                                        int
	offload, checkpointing, optimizer, loss, targets string
	flash, json, seqParallel, quantEmbed             bool
	noMaster, masterWeights, optInBackward           bool
	offloadActs                                      bool
	root                                             string // read by the caller before the catalog loads (cmd_size.go); here for -h
	loraRank, specTokens                             int
	tokens, mfu, bpw, specAccept                     float64
	gpu                                              string
	concurrency                                      int
	fit, plan, pay                                   bool
	planFlags
}

func newFlagSet() (*flag.FlagSet, *flagVars) {
	d := sizing.DefaultInput(sizing.Model{})
	v := &flagVars{}
	fs := flag.NewFlagSet("size", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&v.model, "model", "", "model preset `id` from data/models")
	fs.StringVar(&v.configPath, "config", "", "read the model from a Hugging Face config.json at `path`")
	for _, f := range sizing.ModelFields() {
		switch p := f.Ref(&v.custom).(type) {
		case *int64:
			fs.Int64Var(p, f.Flag(), 0, "custom model: "+f.Doc())
		case *int:
			fs.IntVar(p, f.Flag(), 0, "custom model: "+f.Doc())
		case *bool:
			fs.BoolVar(p, f.Flag(), false, "custom model: "+f.Doc())
		}
	}
	fs.StringVar(&v.workload, "workload", string(d.Workload), "inference, full, lora or qlora")
	fs.StringVar(&v.method, "method", string(sizing.SFT), "training method: sft, dpo (a frozen reference beside the policy), grpo (TRL's default: no reference, a colocated vLLM generating), grpo-kl (grpo with the KL term's reference) or ppo (actor, critic, reward and reference models and vLLM on the same GPUs)")
	fs.StringVar(&v.dtype, "dtype", "", "the weights' storage format: fp32, bf16, fp16, fp8, int8, int4 (nf4); full training also computes in it, a LoRA or QLoRA base on int8 or int4 computes in bf16 (default: the workload's recipe, bf16; int4 for qlora)")
	fs.StringVar(&v.quant, "quant", string(d.Quant), "int4 format: nf4-dq, nf4, gptq or awq")
	fs.IntVar(&v.groupSize, "group-size", 0, "GPTQ/AWQ group size (0 = 128)")
	fs.Float64Var(&v.bpw, "bpw", 0, "average bits per weight of a mixed-width format (a GGUF or EXL2 file's bits over its parameters, e.g. 4.82 for Llama 3 70B Q4_K_M), with -dtype int4 or int8; 0 = the format's own")
	fs.BoolVar(&v.quantEmbed, "quant-embeddings", false, "also quantize the embeddings and output layer (default: 16 bits)")
	fs.StringVar(&v.kvDtype, "kv-dtype", string(d.KVDType), "KV-cache dtype")
	fs.IntVar(&v.seq, "seq", d.SeqLen, "sequence length in tokens (context for inference)")
	fs.IntVar(&v.prompt, "prompt", 0, "prompt tokens for the time to first token (0 = seq)")
	fs.IntVar(&v.images, "images", 0, "images per sequence of a vision-language model (their tokens are part of -seq)")
	fs.BoolVar(&v.trainVision, "train-vision", false, "also train the vision encoder (full training; frozen by default)")
	fs.IntVar(&v.batch, "batch", d.Batch, "concurrent sequences (inference) or micro-batch per replica (training)")
	fs.IntVar(&v.gpus, "gpus", d.GPUs, "total GPUs")
	fs.IntVar(&v.tp, "tp", 0, "tensor-parallel degree (0 = chosen from -gpus: within a node, then pipeline or data parallel)")
	fs.IntVar(&v.pp, "pp", d.PP, "pipeline-parallel degree (with -tp)")
	fs.IntVar(&v.cp, "cp", 1, "context-parallel degree (the sequence split over GPUs)")
	fs.BoolVar(&v.seqParallel, "sequence-parallel", false, "Megatron sequence parallelism with TP (training)")
	fs.IntVar(&v.zero, "zero", 0, "DeepSpeed ZeRO stage 0-3 (training; default: the workload's recipe, 3 for training)")
	fs.StringVar(&v.offload, "offload", string(d.Offload), "CPU offload: none, optimizer or full (training)")
	fs.StringVar(&v.checkpointing, "checkpointing", "", "activation checkpointing: none, selective or full (default: the workload's recipe, full for training)")
	fs.BoolVar(&v.flash, "flash", d.Flash, "FlashAttention (no s×s score matrix)")
	fs.StringVar(&v.optimizer, "optimizer", "", "adamw, adamw8bit, adamw-bf16, sgd, paged-adamw or paged-adamw8bit (default: the workload's recipe, adamw; paged-adamw for qlora)")
	fs.StringVar(&v.loss, "loss", "", "how the training loss holds the logits: fused (Megatron; LitGPT), fp32 (Hugging Face Transformers' upcast) or chunked (Liger, Cut Cross-Entropy) (default: the workload's recipe, fp32 for lora and qlora, fused for full)")
	// Its default is the workload's recipe's, so the flag's own is
	// never used (and false, so that -h prints none).
	fs.BoolVar(&v.masterWeights, "master-weights", false, "keep an fp32 master copy of the trained weights or adapters beside their 16-bit copy; -master-weights=false trains them in pure bf16 (default: the workload's recipe: kept, except for qlora)")
	fs.BoolVar(&v.noMaster, "no-master", false, "the older spelling of -master-weights=false")
	fs.StringVar(&v.root, "root", ".", "site root `dir` holding data/, whose model presets, GPUs and prices the command reads (or $GPU_ATLAS_ROOT)")
	fs.BoolVar(&v.optInBackward, "optimizer-in-backward", false, "run each parameter's optimizer step in the backward pass and free its gradient (PyTorch's post-accumulate-grad hooks, torchtune's optimizer_in_bwd): no full gradient buffer; not with -pp above 1")
	fs.BoolVar(&v.offloadActs, "offload-activations", false, "move the activations each layer keeps for its backward pass to CPU memory and back (TransformerEngine and Megatron cpu_offloading, torchtune's and TRL's activation offloading; training): the GPU keeps two layers' worth, the copies over PCIe add time where they outrun the compute; not with -pp above 1")
	fs.IntVar(&v.specTokens, "spec-tokens", 0, "speculative decoding: tokens a one-layer draft head (DeepSeek's MTP module, an EAGLE head) proposes per step, 0-16 (inference; 0 = none)")
	fs.Float64Var(&v.specAccept, "spec-accept", 0, "speculative decoding: the chance each drafted token is accepted, in [0, 1); 0 = 0.85, DeepSeek-V3's for its MTP module")
	fs.IntVar(&v.loraRank, "lora-rank", d.LoRARank, "LoRA rank")
	fs.StringVar(&v.targets, "lora-targets", strings.Join(d.LoRATargets, ","), "LoRA targets, comma-separated: q,k,v,o,gate,up,down")
	fs.Float64Var(&v.tokens, "tokens", d.Tokens, "training tokens (for FLOPs and time)")
	fs.Float64Var(&v.mfu, "mfu", d.MFU, "model FLOPs utilisation for training time, in [0, 1]; 0 takes the GPU's typical figure (see /accuracy/)")
	fs.StringVar(&v.gpu, "gpu", "", "catalog GPU `id` to check the fit against")
	fs.IntVar(&v.concurrency, "concurrency", sizing.ServingConcurrency, "concurrent sequences per replica the cost per million tokens is figured at (inference)")
	fs.BoolVar(&v.json, "json", false, "print JSON")
	fs.BoolVar(&v.plan, "plan", false, "the cheapest plan per GPU to serve -rate requests/s of -prompt and -output tokens within -ttft and -tpot, priced from current on-demand offers")
	fs.BoolVar(&v.pay, "pay", false, "four ways to pay for serving -rate requests/s of -prompt and -output tokens within -ttft and -tpot: dedicated GPUs on demand, committed and spot, serverless GPUs and hosted APIs, from current prices, with the break-even points")
	fs.Float64Var(&v.rate, "rate", 0, "requests per second to serve (-plan, -pay)")
	fs.IntVar(&v.output, "output", 0, "answer tokens per request (-plan), or completion tokens per sample of -method grpo, grpo-kl or ppo (of -seq; the rollout time needs it)")
	fs.Float64Var(&v.ttftMS, "ttft", 0, "time-to-first-token target in ms, 0 for none (-plan)")
	fs.Float64Var(&v.tpotMS, "tpot", 0, "time-per-output-token target in ms, 0 for none (-plan)")
	fs.BoolVar(&v.fit, "fit", false, "what fits -gpus GPUs of type -gpu: with a model, every weight and KV-cache format with its longest context and concurrency; without one, the model presets that fit, largest first")
	return fs, v
}

func parse(args []string, presets map[string]Preset, gpus []sizing.GPU) (config, error) {
	fs, v := newFlagSet()
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	var cfg config
	if v.fit {
		return parseFit(v, set, presets, gpus)
	}
	if v.plan || v.pay {
		cfg, err := parsePlan(v, set, presets, gpus)
		cfg.pay = v.pay
		return cfg, err
	}
	m, err := readModel(v, set, presets, &cfg)
	if err != nil {
		return config{}, err
	}

	in, err := readInput(v, set, m)
	if err != nil {
		return config{}, err
	}

	cfg.modelID, cfg.json, cfg.concurrency = v.model, v.json, v.concurrency
	if v.concurrency < 1 || v.concurrency > sizing.MaxBatch {
		return config{}, fmt.Errorf("-concurrency %d is outside 1..%g", v.concurrency, float64(sizing.MaxBatch))
	}
	if v.gpu != "" {
		if cfg.gpu, err = findGPU(v.gpu, gpus); err != nil {
			return config{}, err
		}
	}
	if in.TP == 0 {
		// The layout the GPU count implies (sizing.AutoLayout), as the
		// calculator chooses it.
		if err := in.Model.Validate(); err != nil {
			return config{}, flagError(err)
		}
		in = sizing.AutoLayout(in, cfg.gpu)
		cfg.autoTP = true
	}
	if err := in.Validate(); err != nil {
		return config{}, flagError(err)
	}
	// A sequence longer than the model was trained for is not a setup
	// anyone runs (its positions are out of range).
	if cfg.maxContext > 0 && in.SeqLen > cfg.maxContext {
		return config{}, fmt.Errorf("-seq %d is over the model's context of %d tokens; use -seq %d or less", in.SeqLen, cfg.maxContext, cfg.maxContext)
	}
	cfg.in = in
	return cfg, nil
}

// readInput is the engine's input for model m from the flags: the
// workload's recipe (sizing.RecipeFor) for every setting of it the command
// line leaves out, then what the flags set.
func readInput(v *flagVars, set map[string]bool, m sizing.Model) (sizing.Input, error) {
	in := sizing.DefaultInput(m)
	var ok bool
	if in.Workload, ok = sizing.ParseWorkload(v.workload); !ok {
		return in, fmt.Errorf("unknown workload %q (want inference, full, lora or qlora)", v.workload)
	}
	// The workload's recipe (sizing.RecipeFor) for every setting of it the
	// command line leaves out: QLoRA's NF4 base, paged AdamW and bf16
	// adapters, checkpointing and ZeRO-3 for training.
	in = sizing.RecipeFor(in.Workload).Apply(in)
	if set["dtype"] {
		if in.DType, ok = sizing.ParseDType(v.dtype); !ok {
			return in, fmt.Errorf("unknown dtype %q (want fp32, bf16, fp16, fp8, int8, int4 or nf4)", v.dtype)
		}
	}
	if in.KVDType, ok = sizing.ParseDType(v.kvDtype); !ok {
		return in, fmt.Errorf("unknown kv dtype %q (want fp32, bf16, fp16, fp8, int8 or int4)", v.kvDtype)
	}
	if in.Offload, ok = sizing.ParseOffload(v.offload); !ok {
		return in, fmt.Errorf("unknown offload %q (want none, optimizer or full)", v.offload)
	}
	if set["checkpointing"] {
		if in.Checkpointing, ok = sizing.ParseCheckpointing(v.checkpointing); !ok {
			return in, fmt.Errorf("unknown checkpointing %q (want none, selective or full)", v.checkpointing)
		}
	}
	if set["optimizer"] {
		if in.Optimizer, ok = sizing.ParseOptimizer(v.optimizer); !ok {
			return in, fmt.Errorf("unknown optimizer %q (want adamw, adamw8bit, adamw-bf16, sgd, paged-adamw or paged-adamw8bit)", v.optimizer)
		}
	}
	if set["loss"] {
		if in.Loss, ok = sizing.ParseLoss(v.loss); !ok {
			return in, fmt.Errorf("unknown loss %q (want fused, fp32 or chunked)", v.loss)
		}
	}
	if in.Quant, ok = sizing.ParseQuant(v.quant); !ok {
		return in, fmt.Errorf("unknown 4-bit format %q (want nf4-dq, nf4, gptq or awq)", v.quant)
	}
	in.SeqLen, in.Batch, in.GPUs, in.TP, in.PP = v.seq, v.batch, v.gpus, v.tp, v.pp
	if set["zero"] {
		in.ZeRO = v.zero
	}
	in.PromptLen, in.CP, in.GroupSize = v.prompt, v.cp, v.groupSize
	in.SequenceParallel, in.QuantEmbeddings = v.seqParallel, v.quantEmbed
	switch {
	case set["master-weights"] && set["no-master"] && v.masterWeights == v.noMaster:
		return in, errors.New("-master-weights and -no-master disagree: give -master-weights alone")
	case set["master-weights"]:
		in.NoMaster = !v.masterWeights
	case set["no-master"]:
		in.NoMaster = v.noMaster
	}
	in.OptimizerInBackward = v.optInBackward
	in.OffloadActivations, in.SpecTokens, in.SpecAccept = v.offloadActs, v.specTokens, v.specAccept
	in.Flash = v.flash
	in.LoRARank = v.loraRank
	in.LoRATargets = nil
	for _, t := range strings.Split(v.targets, ",") {
		if t = strings.ToLower(strings.TrimSpace(t)); t != "" {
			in.LoRATargets = append(in.LoRATargets, t)
		}
	}
	in.Tokens, in.MFU, in.BitsPerWeight = v.tokens, v.mfu, v.bpw
	in.Images, in.TrainVision = v.images, v.trainVision
	in.Method = sizing.Method(strings.ToLower(v.method))
	if in.Workload == sizing.Inference && set["method"] && in.Method != sizing.SFT {
		return in, fmt.Errorf("-method %s trains a model: add -workload full, lora or qlora", v.method)
	}
	if in.Workload != sizing.Inference {
		in.OutputLen = v.output
		if in.Method.Generates() && in.OutputLen >= in.SeqLen {
			return in, fmt.Errorf("-output %d must be below -seq %d: a sample is its prompt and completion", in.OutputLen, in.SeqLen)
		}
	}
	return in, nil
}

// readModel reads the model the flags name (-model, -config or a custom
// one), with custom flags overriding a preset's or config's figures; it
// records where the model came from in cfg.
func readModel(v *flagVars, set map[string]bool, presets map[string]Preset, cfg *config) (sizing.Model, error) {
	var m sizing.Model
	switch {
	case v.model != "" && v.configPath != "":
		return m, errors.New("give -model or -config, not both")
	case v.model != "":
		p, ok := presets[v.model]
		if !ok {
			return m, fmt.Errorf("unknown model %q (known: %s)", v.model, strings.Join(sortedKeys(presets), ", "))
		}
		m, cfg.maxContext = p.Model, p.MaxContext
	case v.configPath != "":
		data, err := os.ReadFile(v.configPath)
		if err != nil {
			return m, err
		}
		c, err := hfconfig.Parse(data)
		if err != nil {
			var e *hfconfig.Error
			if errors.As(err, &e) && e.Line > 0 {
				return m, fmt.Errorf("%s:%d:%d: %s", v.configPath, e.Line, e.Col, e.Error())
			}
			return m, fmt.Errorf("%s: %v", v.configPath, err)
		}
		m, cfg.hf, cfg.hfPath, cfg.maxContext = c.Model, &c, v.configPath, c.MaxContext
	case !set["params"]:
		return m, errors.New("give -model ID, -config config.json or a custom model with -params, -layers, -hidden and -heads")
	}
	// Custom flags override the preset's fields.
	for _, f := range sizing.ModelFields() {
		if set[f.Flag()] {
			f.Set(&m, f.Get(&v.custom))
		}
	}

	return m, nil
}

// flagError puts before an engine error the flag that sets what it is
// about: "-kv-heads: kv heads 5 must divide heads 32".
func flagError(err error) error {
	name := sizing.Field(err)
	if name == "" {
		return err
	}
	flag := strings.ReplaceAll(name, "_", "-")
	for _, f := range sizing.ModelFields() {
		if f.Name == name {
			flag = f.Flag()
		}
	}
	return fmt.Errorf("-%s: %w", flag, err)
}

// findGPU returns the catalog GPU with the id.
func findGPU(id string, gpus []sizing.GPU) (*sizing.GPU, error) {
	for i := range gpus {
		if gpus[i].ID == id {
			g := gpus[i]
			return &g, nil
		}
	}
	ids := make([]string, len(gpus))
	for i, g := range gpus {
		ids[i] = g.ID
	}
	sort.Strings(ids)
	return nil, fmt.Errorf("unknown gpu %q (known: %s)", id, strings.Join(ids, ", "))
}

func sortedKeys(m map[string]Preset) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// minGPU is one catalog GPU's smallest count (0 when none fits).
type minGPU struct {
	gpu sizing.GPU
	n   int
}

// cost is the cost per million tokens on one offer (sizing.Job.Plan): the
// expected speeds of the smallest layout of its GPU that serves
// config.concurrency sequences, with as many replicas as its instances
// hold.
type cost struct {
	offer               Offer
	instances, replicas int
	perM, inputPerM     float64 // USD per million output and prompt tokens
}

// report is everything Run prints.
type report struct {
	cfg    config
	res    sizing.Result
	usable int64
	fits   bool
	mins   []minGPU // sorted: fitting first by count, then by id
	costs  []cost   // inference only; cheapest first, then by offer id
}

func compute(cfg config, gpus []sizing.GPU, offers []Offer) (report, error) {
	res, err := sizing.Estimate(cfg.in, cfg.gpu)
	if err != nil {
		return report{}, err
	}
	rep := report{cfg: cfg, res: res}
	if cfg.gpu != nil {
		rep.usable = sizing.UsableBytes(*cfg.gpu)
		rep.fits = sizing.Fits(res, *cfg.gpu)
	}
	for _, g := range gpus {
		n, ok := sizing.MinGPUs(cfg.in, g)
		if !ok {
			n = 0
		}
		rep.mins = append(rep.mins, minGPU{gpu: g, n: n})
	}
	sort.SliceStable(rep.mins, func(i, j int) bool {
		a, b := rep.mins[i], rep.mins[j]
		if (a.n == 0) != (b.n == 0) {
			return a.n != 0
		}
		if a.n != b.n {
			return a.n < b.n
		}
		return a.gpu.ID < b.gpu.ID
	})
	if cfg.in.Workload == sizing.Inference && len(offers) > 0 {
		rep.costs = perToken(cfg, gpus, offers)
	}
	return rep, nil
}

// perToken prices cfg's inference on offers with sizing.Job.Plan: every
// offer whose GPU computes the weight format, cheapest per million output
// tokens first.
func perToken(cfg config, gpus []sizing.GPU, offers []Offer) []cost {
	job := sizing.Job{Chosen: -1, DType: cfg.in.DType, Inference: true, PerTokenRows: -1}
	serve := cfg.in
	serve.Batch = cfg.concurrency
	at := map[string]int{}
	for i, g := range gpus {
		at[g.ID] = i
		job.GPUs = append(job.GPUs, g)
		var fp, sp *sizing.Fit
		if f, ok := sizing.MinFit(cfg.in, g); ok {
			fp = &f
		}
		if f, ok := sizing.MinFit(serve, g); ok {
			sp = &f
		}
		job.Fits, job.Serve = append(job.Fits, fp), append(job.Serve, sp)
	}
	so, from := engineOffers(offers, at)
	var out []cost
	for _, c := range job.Plan(so).PerToken {
		o := from[c.Offer]
		out = append(out, cost{offer: o, instances: c.Instances, replicas: c.Instances * o.GPUs / job.Serve[so[c.Offer].GPU].N,
			perM: c.OutputPerM, inputPerM: c.InputPerM})
	}
	return out
}

// engineOffers are the offers of the GPUs in at (GPU id -> index) as the
// engine takes them, with the offers they came from, index for index.
func engineOffers(offers []Offer, at map[string]int) (so []sizing.Offer, from []Offer) {
	for _, o := range offers {
		if i, ok := at[o.GPU]; ok {
			so = append(so, sizing.Offer{GPU: i, GPUs: o.GPUs, Price: o.PerHour, Mode: o.Mode})
			from = append(from, o)
		}
	}
	return so, from
}

// costRows is how many offers the text report lists (-json has all).
const costRows = 10

// gib renders bytes in GiB with two decimals and the unit.
func gib(b int64) string {
	return strconv.FormatFloat(float64(b)/(1<<30), 'f', 2, 64) + " GiB"
}

// sig rounds f to 6 significant digits, so that printed figures do not
// depend on the last bits of floating-point evaluation order.
func sig(f float64) float64 {
	if f == 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return f
	}
	r, err := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 6, 64), 64)
	if err != nil {
		return f
	}
	return r
}

func humanCount(f float64) string {
	switch {
	case f >= 1e12:
		return strconv.FormatFloat(f/1e12, 'f', 2, 64) + " T"
	case f >= 1e9:
		return strconv.FormatFloat(f/1e9, 'f', 2, 64) + " B"
	case f >= 1e6:
		return strconv.FormatFloat(f/1e6, 'f', 2, 64) + " M"
	}
	return strconv.FormatFloat(f, 'f', 0, 64)
}

func humanDuration(s float64) string {
	switch {
	case s >= 86400:
		return strconv.FormatFloat(s/86400, 'f', 1, 64) + " days"
	case s >= 3600:
		return strconv.FormatFloat(s/3600, 'f', 1, 64) + " hours"
	case s >= 60:
		return strconv.FormatFloat(s/60, 'f', 1, 64) + " minutes"
	}
	return strconv.FormatFloat(s, 'f', 1, 64) + " seconds"
}

func (r report) writeText(w io.Writer) {
	r.writeSetup(w)
	r.writeMemory(w)
	r.writeSpeed(w)
	r.writeTables(w)
}

// writeSetup prints the model, the workload and the layout.
func (r report) writeSetup(w io.Writer) {
	in := r.cfg.in
	m := in.Model
	name := r.cfg.modelID
	switch {
	case r.cfg.hf != nil:
		name = r.cfg.hfPath + " (" + r.cfg.hf.ModelType + ")"
		if r.cfg.hf.Generic {
			name += ", read as a Llama-style model"
		}
	case name == "":
		name = "custom model"
	}
	fmt.Fprintf(w, "Model:     %s (%s params", name, humanCount(float64(m.Params)))
	if m.ActiveParams > 0 && m.ActiveParams != m.Params {
		fmt.Fprintf(w, ", %s active", humanCount(float64(m.ActiveParams)))
	}
	fmt.Fprintf(w, ", %d layers, hidden %d, %d heads", m.Layers, m.Hidden, m.Heads)
	if m.KVHeads > 0 && m.KVHeads != m.Heads {
		fmt.Fprintf(w, ", %d KV heads", m.KVHeads)
	}
	fmt.Fprintln(w, ")")
	if arch := archNotes(m); arch != "" {
		fmt.Fprintf(w, "           %s\n", arch)
	}
	fmt.Fprintf(w, "Workload:  %s, %s weights", in.Workload, in.DType)
	switch {
	case in.BitsPerWeight > 0:
		fmt.Fprintf(w, " at %g bits per weight", in.BitsPerWeight)
	case in.DType == sizing.INT4:
		fmt.Fprintf(w, " (%s)", in.Quant)
	}
	if in.Workload == sizing.Inference {
		fmt.Fprintf(w, ", %s KV cache", in.KVDType)
	}
	fmt.Fprintf(w, ", seq %d, batch %d", in.SeqLen, in.Batch)
	if in.Workload == sizing.Inference && in.SpecTokens > 0 {
		fmt.Fprintf(w, ", speculative decoding: %d draft tokens a step, each accepted at %g", in.SpecTokens, specAccept(in))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Parallel:  %d GPU(s): TP %d, PP %d, DP %d", in.GPUs, r.res.TP, r.res.PP, r.res.DataParallel)
	if r.res.CP > 1 {
		fmt.Fprintf(w, ", CP %d", r.res.CP)
	}
	if r.cfg.autoTP {
		fmt.Fprint(w, " (chosen from the GPU count)")
	}
	if in.Workload != sizing.Inference {
		fmt.Fprintf(w, ", ZeRO %d, offload %s, checkpointing %s, %s, %s loss", in.ZeRO, in.Offload, in.Checkpointing, in.Optimizer, in.Loss)
		if in.NoMaster {
			fmt.Fprint(w, ", no fp32 master copy")
		}
		if in.OptimizerInBackward {
			fmt.Fprint(w, ", optimizer step in backward")
		}
		if in.OffloadActivations {
			fmt.Fprint(w, ", activations offloaded to CPU")
		}
		if in.SequenceParallel {
			fmt.Fprint(w, ", sequence parallel")
		}
	}
	fmt.Fprintf(w, ", flash %v\n", in.Flash)
	if in.Workload == sizing.LoRA || in.Workload == sizing.QLoRA {
		fmt.Fprintf(w, "Adapters:  rank %d on %s: %s params\n", in.LoRARank, strings.Join(in.LoRATargets, ","), humanCount(float64(r.res.AdapterParams)))
	}

}

// writeMemory prints the memory per GPU by part.
func (r report) writeMemory(w io.Writer) {
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Memory per GPU:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	b := r.res.Breakdown
	// The parts every estimate has, then those only some have (printed
	// when not zero).
	for _, row := range []struct {
		name     string
		v        int64
		optional bool
	}{
		{"weights", b.Weights, false}, {"KV cache", b.KVCache, false}, {"activations", b.Activations, false},
		{"gradients", b.Gradients, false}, {"optimizer", b.Optimizer, false}, {"adapters", b.Adapters, false},
		{"gathered layer", b.GatheredLayer, true}, {"reference/reward", b.Reference, true}, {"critic", b.Critic, true},
		{"rollout (vLLM)", b.Rollout, true}, {"overhead", b.Overhead, false}, {"paged to CPU", -r.res.PagedOutBytes, true},
		{"total", r.res.TotalPerGPU, false},
	} {
		if row.optional && row.v == 0 {
			continue
		}
		fmt.Fprintf(tw, "  %s\t%s\t(%s)\t\n", row.name, gib(row.v), sizing.FormatBytes(row.v, false))
	}
	tw.Flush()

}

// writeSpeed prints whether the job fits the GPU, its expected speeds and
// bounds, and the training compute and time.
func (r report) writeSpeed(w io.Writer) {
	in := r.cfg.in
	fmt.Fprintln(w)
	if g := r.cfg.gpu; g != nil {
		verdict := "no"
		if r.fits {
			verdict = "yes"
		}
		fmt.Fprintf(w, "Fits on %s: %s (%s usable of %s)\n", g.Name, verdict, gib(r.usable), gib(g.MemoryBytes))
		f1 := func(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }
		if in.Workload == sizing.Inference && r.res.DecodeTokensPerSec == 0 {
			fmt.Fprintln(w, "Decode:    unknown: the GPU's memory bandwidth and FLOP/s are not recorded")
		}
		if r.res.DecodeTokensPerSec > 0 {
			bound := "memory-bandwidth bound"
			if r.res.DecodeComputeBound {
				bound = "compute bound"
			}
			fmt.Fprintf(w, "Decode:    about %s tokens/s expected for the batch of one replica, at most %s (roofline, %s)\n", f1(r.res.ExpectedDecode), f1(r.res.DecodeTokensPerSec), bound)
			fmt.Fprintf(w, "           about %s tokens/s on all %d GPU(s), %s per GPU (at most %s)\n", f1(r.res.ExpectedThroughput), in.GPUs, f1(r.res.ExpectedPerGPU), f1(r.res.ThroughputTokensPerSec))
		}
		if in.Workload == sizing.Inference && r.res.TTFTSeconds == 0 {
			fmt.Fprintln(w, "First token: unknown: the GPU's FLOP/s are not recorded")
		}
		if r.res.TTFTSeconds > 0 {
			fmt.Fprintf(w, "First token: about %s expected for a %d-token prompt, at least %s (roofline)\n", sizing.FormatLatency(r.res.ExpectedTTFT), in.PromptTokens(), sizing.FormatLatency(r.res.TTFTSeconds))
		}
	}
	if r.res.PrefillFLOPs > 0 {
		fmt.Fprintf(w, "Prefill FLOPs: %s\n", strconv.FormatFloat(r.res.PrefillFLOPs, 'e', 3, 64))
	}
	if r.res.TrainFLOPs > 0 {
		fmt.Fprintf(w, "Train FLOPs: %s model, %s hardware (with recomputation)\n", strconv.FormatFloat(r.res.TrainFLOPs, 'e', 3, 64), strconv.FormatFloat(r.res.HardwareFLOPs, 'e', 3, 64))
		if r.res.TrainSeconds > 0 {
			fmt.Fprintf(w, "Train speed: %s tokens/s per GPU, %s per optimizer step, at %g%% MFU\n",
				strconv.FormatFloat(r.res.TrainTokensPerSecPerGPU, 'f', 0, 64), humanDuration(r.res.StepSeconds), math.Round(r.res.MFU*1000)/10)
			fmt.Fprintf(w, "Train time:  %s on %d GPU(s)\n", humanDuration(r.res.TrainSeconds), in.GPUs)
			if r.res.RolloutSeconds > 0 {
				fmt.Fprintf(w, "             of which %s generating %d-token completions (vLLM)\n", humanDuration(r.res.RolloutSeconds), in.OutputLen)
			}
		} else if r.cfg.gpu != nil && in.Tokens > 0 && in.Method.Generates() && in.OutputLen == 0 {
			fmt.Fprintln(w, "Train time:  unknown: give the completions' length with -output (the rollout time needs it)")
		} else if r.cfg.gpu != nil && in.Tokens > 0 {
			fmt.Fprintln(w, "Train time:  unknown: the GPU's BF16 FLOP/s are not recorded")
		}
	}

}

// writeTables prints the fewest GPUs of each catalog GPU and the cheapest
// costs per million tokens.
func (r report) writeTables(w io.Writer) {
	if len(r.mins) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Minimum GPUs (powers of two up to 4096; TP ≤ 8 within a node):")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, mg := range r.mins {
			n := "none"
			if mg.n > 0 {
				n = strconv.Itoa(mg.n)
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", mg.gpu.ID, mg.gpu.Name, n)
		}
		tw.Flush()
	}

	if len(r.costs) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintf(w, "Cost per million tokens (on-demand, USD, at the expected speeds with %d concurrent sequences per replica; cheapest %d of %d offers):\n",
			r.cfg.concurrency, min(costRows, len(r.costs)), len(r.costs))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, c := range r.costs[:min(costRows, len(r.costs))] {
			fmt.Fprintf(tw, "  %s\t%d× %s\t%d instance(s), %d replica(s)\t$%s/h%s\tinput $%s\toutput $%s\n", c.offer.ID, c.offer.GPUs, c.offer.GPU,
				c.instances, c.replicas, strconv.FormatFloat(c.offer.PerHour, 'f', 2, 64), asOf(c.offer), strconv.FormatFloat(c.inputPerM, 'f', 4, 64),
				strconv.FormatFloat(c.perM, 'f', 4, 64))
		}
		tw.Flush()
	}
}

// archNotes describes the architecture features beyond a dense GQA
// transformer, or "".
func archNotes(m sizing.Model) string {
	var parts []string
	if m.KVLoRARank > 0 {
		parts = append(parts, fmt.Sprintf("MLA: kv rank %d, q rank %d, rope %d, head dim %d", m.KVLoRARank, m.QLoRARank, m.QKRopeHeadDim, m.HeadDim))
	}
	if m.SlidingWindow > 0 {
		n := m.LocalLayers
		if n == 0 {
			n = m.Layers
		}
		parts = append(parts, fmt.Sprintf("sliding window %d tokens in %d of %d layers", m.SlidingWindow, n, m.Layers))
	}
	if m.Experts > 0 {
		e := fmt.Sprintf("MoE: %d experts of %d, %d per token", m.Experts, m.FFN, m.ExpertsPerToken)
		if m.SharedExperts > 0 {
			e += fmt.Sprintf(", %d shared", m.SharedExperts)
		}
		if m.DenseLayers > 0 {
			e += fmt.Sprintf(", %d dense layers", m.DenseLayers)
		}
		parts = append(parts, e)
	}
	return strings.Join(parts, "; ")
}

// known is x (to 6 significant digits) when it is a figure, nil when the
// engine could not give one (0: a GPU figure it needs is not recorded, or
// nothing was asked).
func known(x float64) *float64 {
	if !(x > 0) {
		return nil
	}
	v := sig(x)
	return &v
}

// asOf is " (as of DATE)" for a dated offer.
func asOf(o Offer) string {
	if o.AsOf == "" {
		return ""
	}
	return " (as of " + o.AsOf + ")"
}

// JSON shapes.

// jsonModel is the model in the JSON input: what it was read from, then
// each figure of its shape under its name (sizing.ModelFields).
type jsonModel struct {
	ID        string // -model id
	Config    string // -config path
	ModelType string // the config's model_type
	Generic   bool   // read as a Llama-style model
	Model     sizing.Model
}

// MarshalJSON writes id, config, model_type and generic when set, then the
// figures in sizing.ModelFields order.
func (m jsonModel) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	add := func(k string, v any) {
		if len(b) > 1 {
			b = append(b, ',')
		}
		kb, _ := json.Marshal(k)
		vb, _ := json.Marshal(v)
		b = append(append(append(b, kb...), ':'), vb...)
	}
	for _, kv := range []struct {
		k   string
		v   any
		set bool
	}{{"id", m.ID, m.ID != ""}, {"config", m.Config, m.Config != ""}, {"model_type", m.ModelType, m.ModelType != ""}, {"generic", m.Generic, m.Generic}} {
		if kv.set {
			add(kv.k, kv.v)
		}
	}
	for _, f := range sizing.ModelFields() {
		if f.Bool {
			add(f.Name, f.Get(&m.Model) != 0)
		} else {
			add(f.Name, f.Get(&m.Model))
		}
	}
	return append(b, '}'), nil
}

type jsonInput struct {
	Model           jsonModel `json:"model"`
	Workload        string    `json:"workload"`
	DType           string    `json:"dtype"`
	KVDType         string    `json:"kv_dtype"`
	Quant           string    `json:"quant"`
	GroupSize       int       `json:"group_size"`
	QuantEmbeddings bool      `json:"quant_embeddings"`
	Seq             int       `json:"seq"`
	Prompt          int       `json:"prompt"`
	Batch           int       `json:"batch"`
	GPUs            int       `json:"gpus"`
	AutoLayout      bool      `json:"auto_layout"`
	TP              int       `json:"tp"`
	PP              int       `json:"pp"`
	CP              int       `json:"cp"`
	SeqParallel     bool      `json:"sequence_parallel"`
	ZeRO            int       `json:"zero"`
	NoMaster        bool      `json:"no_master"`
	MasterWeights   *bool     `json:"master_weights"` // training only; null for inference
	OptInBackward   bool      `json:"optimizer_in_backward"`
	OffloadActs     bool      `json:"offload_activations"`
	SpecTokens      int       `json:"spec_tokens,omitempty"`
	SpecAccept      float64   `json:"spec_accept,omitempty"`
	Offload         string    `json:"offload"`
	Checkpointing   string    `json:"checkpointing"`
	Flash           bool      `json:"flash"`
	Optimizer       string    `json:"optimizer"`
	Loss            string    `json:"loss"`
	LoRARank        int       `json:"lora_rank"`
	LoRATargets     []string  `json:"lora_targets"`
	Tokens          float64   `json:"tokens"`
	MFU             float64   `json:"mfu"`
	BitsPerWeight   float64   `json:"bits_per_weight,omitempty"`
	Method          string    `json:"method"`
	Output          int       `json:"output,omitempty"`
	Images          int       `json:"images,omitempty"`
	TrainVision     bool      `json:"train_vision,omitempty"`
}

type jsonGPU struct {
	ID                   string  `json:"id"`
	Name                 string  `json:"name"`
	MemoryBytes          int64   `json:"memory_bytes"`
	BandwidthBytesPerSec float64 `json:"bandwidth_bytes_per_s"`
	DenseBF16FLOPS       float64 `json:"bf16_flops"`
	DenseFP8FLOPS        float64 `json:"fp8_flops"`
	UsableBytes          int64   `json:"usable_bytes"`
}

type jsonBreakdown struct {
	Weights     int64 `json:"weights"`
	KVCache     int64 `json:"kv_cache"`
	Activations int64 `json:"activations"`
	Gradients   int64 `json:"gradients"`
	Optimizer   int64 `json:"optimizer"`
	Adapters    int64 `json:"adapters"`
	Gathered    int64 `json:"gathered_layer"`
	Reference   int64 `json:"reference"`
	Critic      int64 `json:"critic"`
	Rollout     int64 `json:"rollout"`
	Overhead    int64 `json:"overhead"`
}

// jsonReport is the -json output. Floats are rounded to 6 significant
// digits; byte counts are exact.
type jsonReport struct {
	Input            jsonInput       `json:"input"`
	GPU              *jsonGPU        `json:"gpu"`
	TotalBytesPerGPU int64           `json:"total_bytes_per_gpu"`
	Breakdown        jsonBreakdown   `json:"breakdown"`
	Fits             *bool           `json:"fits"`
	MinGPUs          map[string]*int `json:"min_gpus"`
	PagedOutBytes    int64           `json:"paged_out_bytes"`
	TrainFLOPs       float64         `json:"train_flops"`
	TrainSeconds     *float64        `json:"train_seconds"`
	// RolloutSeconds is the part of train_seconds spent generating (GRPO,
	// PPO); null when unknown or not generating.
	RolloutSeconds *float64 `json:"rollout_seconds"`
	// HardwareFLOPs adds recomputation to train_flops; MFUUsed is the MFU
	// the training time assumed; TrainTokensPerS the training throughput
	// per GPU; StepSeconds one optimizer step.
	HardwareFLOPs    float64  `json:"hardware_flops"`
	MFUUsed          *float64 `json:"mfu_used"`
	TrainTokensPerS  *float64 `json:"train_tokens_per_s_per_gpu"`
	StepSeconds      *float64 `json:"step_seconds"`
	PrefillFLOPs     float64  `json:"prefill_flops"`
	TTFTSeconds      *float64 `json:"ttft_seconds"`
	DecodeTokensPerS *float64 `json:"decode_tokens_per_s"`
	DecodeCompute    *bool    `json:"decode_compute_bound"`
	ThroughputPerS   *float64 `json:"throughput_tokens_per_s"`
	PerGPUPerS       *float64 `json:"tokens_per_s_per_gpu"`
	KVBytesPerToken  int64    `json:"kv_bytes_per_token"`
	AdapterParams    int64    `json:"adapter_params"`
	DataParallel     int      `json:"data_parallel"`
	// The expected counterparts of the bounds above (sizing.Result).
	ExpectedDecode     *float64   `json:"expected_decode_tokens_per_s"`
	ExpectedTTFT       *float64   `json:"expected_ttft_seconds"`
	ExpectedThroughput *float64   `json:"expected_throughput_tokens_per_s"`
	ExpectedPerGPU     *float64   `json:"expected_tokens_per_s_per_gpu"`
	PrefillTokensPerS  *float64   `json:"expected_prefill_tokens_per_s"`
	Concurrency        int        `json:"concurrency"`
	CostPerMillion     []jsonCost `json:"cost_per_million_tokens"`
}

// jsonCost is one offer's cost per million output tokens (usd_per_million_tokens)
// and prompt tokens, on the instances that serve the concurrency.
type jsonCost struct {
	Offer      string  `json:"offer"`
	GPU        string  `json:"gpu"`
	GPUs       int     `json:"gpus"`
	Instances  int     `json:"instances"`
	Replicas   int     `json:"replicas"`
	USDPerHour float64 `json:"usd_per_hour"`
	USD        float64 `json:"usd_per_million_tokens"`
	USDInput   float64 `json:"usd_per_million_input_tokens"`
	AsOf       string  `json:"as_of,omitempty"`
}

func (r report) toJSON() jsonReport {
	in := r.cfg.in
	m := in.Model
	b := r.res.Breakdown
	out := jsonReport{
		Input: jsonInput{
			Model:    jsonModel{ID: r.cfg.modelID, Model: m},
			Workload: string(in.Workload), DType: string(in.DType), KVDType: string(in.KVDType),
			Quant: string(in.Quant), GroupSize: in.GroupSize, QuantEmbeddings: in.QuantEmbeddings,
			Seq: in.SeqLen, Prompt: in.PromptLen, Batch: in.Batch, GPUs: in.GPUs, AutoLayout: r.cfg.autoTP,
			TP: in.TP, PP: max(in.PP, 1), CP: max(in.CP, 1), SeqParallel: in.SequenceParallel, ZeRO: in.ZeRO, NoMaster: in.NoMaster, MasterWeights: masterWeights(in), OptInBackward: in.OptimizerInBackward,
			OffloadActs: in.OffloadActivations, SpecTokens: in.SpecTokens, SpecAccept: specAccept(in),
			Offload: string(in.Offload), Checkpointing: string(in.Checkpointing), Flash: in.Flash,
			Optimizer: string(in.Optimizer), Loss: string(in.Loss), LoRARank: in.LoRARank, LoRATargets: in.LoRATargets,
			Tokens: in.Tokens, MFU: in.MFU, BitsPerWeight: in.BitsPerWeight,
			Method: string(in.Method), Output: in.OutputLen, Images: in.Images, TrainVision: in.TrainVision,
		},
		TotalBytesPerGPU: r.res.TotalPerGPU,
		Breakdown: jsonBreakdown{Weights: b.Weights, KVCache: b.KVCache, Activations: b.Activations,
			Gradients: b.Gradients, Optimizer: b.Optimizer, Adapters: b.Adapters, Gathered: b.GatheredLayer,
			Reference: b.Reference, Critic: b.Critic, Rollout: b.Rollout, Overhead: b.Overhead},
		PagedOutBytes:   r.res.PagedOutBytes,
		MinGPUs:         map[string]*int{},
		TrainFLOPs:      sig(r.res.TrainFLOPs),
		HardwareFLOPs:   sig(r.res.HardwareFLOPs),
		PrefillFLOPs:    sig(r.res.PrefillFLOPs),
		KVBytesPerToken: r.res.KVBytesPerToken,
		AdapterParams:   r.res.AdapterParams,
		DataParallel:    r.res.DataParallel,
	}
	if c := r.cfg.hf; c != nil {
		out.Input.Model.Config, out.Input.Model.ModelType, out.Input.Model.Generic = r.cfg.hfPath, c.ModelType, c.Generic
	}
	if out.Input.LoRATargets == nil {
		out.Input.LoRATargets = []string{}
	}
	if g := r.cfg.gpu; g != nil {
		out.GPU = &jsonGPU{ID: g.ID, Name: g.Name, MemoryBytes: g.MemoryBytes,
			BandwidthBytesPerSec: g.BandwidthBytesPerSec, DenseBF16FLOPS: g.DenseBF16FLOPS, DenseFP8FLOPS: g.DenseFP8FLOPS, UsableBytes: r.usable}
		fits := r.fits
		out.Fits = &fits
		// A speed the GPU's recorded figures cannot give (no bandwidth or
		// FLOP/s) is null, never 0.
		out.DecodeTokensPerS, out.TrainSeconds = known(r.res.DecodeTokensPerSec), known(r.res.TrainSeconds)
		out.RolloutSeconds = known(r.res.RolloutSeconds)
		out.TTFTSeconds, out.ThroughputPerS, out.PerGPUPerS = known(r.res.TTFTSeconds), known(r.res.ThroughputTokensPerSec), known(r.res.TokensPerSecPerGPU)
		if r.res.DecodeTokensPerSec > 0 {
			cb := r.res.DecodeComputeBound
			out.DecodeCompute = &cb
		}
		out.ExpectedDecode, out.ExpectedTTFT, out.ExpectedThroughput = known(r.res.ExpectedDecode), known(r.res.ExpectedTTFT), known(r.res.ExpectedThroughput)
		out.ExpectedPerGPU, out.PrefillTokensPerS = known(r.res.ExpectedPerGPU), known(r.res.PrefillTokensPerSec)
		if r.res.TrainFLOPs > 0 {
			mfu, tps, step := sig(r.res.MFU), sig(r.res.TrainTokensPerSecPerGPU), sig(r.res.StepSeconds)
			out.MFUUsed, out.TrainTokensPerS, out.StepSeconds = &mfu, &tps, &step
		}
	}
	for _, mg := range r.mins {
		if mg.n > 0 {
			n := mg.n
			out.MinGPUs[mg.gpu.ID] = &n
		} else {
			out.MinGPUs[mg.gpu.ID] = nil
		}
	}
	out.Concurrency = r.cfg.concurrency
	out.CostPerMillion = []jsonCost{}
	for _, c := range r.costs {
		out.CostPerMillion = append(out.CostPerMillion, jsonCost{Offer: c.offer.ID, AsOf: c.offer.AsOf, GPU: c.offer.GPU, GPUs: c.offer.GPUs,
			Instances: c.instances, Replicas: c.replicas, USDPerHour: c.offer.PerHour, USD: sig(c.perM), USDInput: sig(c.inputPerM)})
	}
	return out
}

// specAccept is the acceptance rate of a drafted token the estimate
// assumed (sizing.Input.SpecAcceptance); 0 without speculative decoding.
func specAccept(in sizing.Input) float64 {
	if in.SpecTokens == 0 || in.Workload != sizing.Inference {
		return 0
	}
	return in.SpecAcceptance()
}

// masterWeights is whether training keeps an fp32 master copy (JSON's
// master_weights); nil for inference, which has none to keep.
func masterWeights(in sizing.Input) *bool {
	if in.Workload == sizing.Inference {
		return nil
	}
	keep := !in.NoMaster
	return &keep
}
