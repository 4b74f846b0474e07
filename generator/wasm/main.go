//go:build js && wasm

// Command wasm is the in-browser sizing calculator: a thin binding around
// package sizing that exports, with go:wasmexport,
//
//	gpuAtlasBuffer(n) -> address   the n-byte buffer the host writes into
//	gpuAtlasSize(n) -> length      reads an input object, writes a result
//	gpuAtlasData() -> address      where the last result was written
//
// Input and output are UTF-8 JSON text in the buffer (static/js/calculator.js
// wraps the export as gpuAtlasSize(input) -> result, JSON.stringify and
// JSON.parse on its side). What a reader asks for apart is in modules of
// their own, loaded only then: the ways to pay and the model presets that
// fit the reader's GPUs in generator/wasmextra, the config.json parser in
// generator/wasmconfig. Each would add to this one, which must stay under
// 2,050,000 bytes raw (issue 34). Numbers cross as JSON numbers in their
// shortest form, which both sides read back to the same float64; a number
// that is not finite crosses as the string "\u0000NaN", "\u0000Infinity"
// or "\u0000-Infinity", and is read as that number. main blocks, so that
// the exports stay callable. The site build (assets.buildWASM) compiles it,
// with generator/wasmextra and generator/wasmconfig, as
//
//	GOEXPERIMENT=nogreenteagc GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w -buildid=" -o DIR/ ./generator/wasm ./generator/wasmextra ./generator/wasmconfig
//
// (the pre-Green Tea collector is about 45 kB smaller; without the opt-out
// the module would be over the raw budget of BenchmarkPageWeight).
//
// The input object (every field but model is optional and defaults to
// sizing.DefaultInput; with workload "qlora" dtype defaults to int4; enum
// values must be the canonical lower-case names, e.g. "int4" not "nf4"):
//
//	{model: {params, activeParams, layers, ...: each figure of the shape
//	         under its JS key, sizing.ModelFields},
//	 workload, dtype, kvDtype, quant, groupSize, bpw, quantEmbeddings, seq, prompt,
//	 batch, gpus, tp (0 or absent: chosen from gpus, sizing.AutoLayout), pp, cp,
//	 sequenceParallel, zero, offload, checkpointing, flash, optimizer,
//	 noMaster, optimizerInBackward, offloadActivations, specTokens, specAccept, loss (fused, fp32, chunked: sizing.Loss), loraRank, loraTargets: [...], tokens, mfu, method (sft, dpo,
//	 grpo, grpo-kl, ppo: sizing.Method), output (completion tokens), images
//	 (per sequence), trainVision,
//	 gpu: {id, name, memoryBytes, bandwidth, bf16Flops, fp8Flops, fp32Flops,
//	       link, precisions} | null,
//	 catalog: [gpu, ...],
//	 offers: [[gpu (index in catalog), GPUs per instance, billing mode
//	          index, price per instance-hour, stale (0/1)], ...],
//	 concurrency (sequences per replica the cost per token is figured at;
//	              default sizing.ServingConcurrency), includeStale,
//	 maxContext (the model's context limit, 0: none),
//	 load: {rate (requests/s; 0 or absent: no plan), prompt, answer
//	        (tokens), ttft, tpot (targets in ms, 0: none)}}
//
// The result object:
//
//	{ok, error: {key, args} | null,
//	 breakdown: {weights, kvCache, activations, gradients, optimizer, adapters,
//	             gathered, reference, critic, rollout, overhead},
//	 totalPerGPU, pagedOut, fits and runs (null without gpu; runs: the GPU
//	 computes the dtype, sizing.GPU.Runs), usableBytes (null without gpu),
//	 layout: {tp, pp, cp, dp, auto (0: given; 1: chosen from the GPU
//	         count, tensor parallel first; 2: all data parallel, with
//	         ZeRO-3: sizing.Input.DataParallelLayout)},
//	 trainFLOPs, trainSeconds, rolloutSeconds, prefillFLOPs, ttft, decode, computeBound,
//	 largest (the breakdown's largest part, sizing.Breakdown.Largest),
//	 throughput, perGPU, kvBytesPerToken, adapterParams,
//	 expected: {decode, ttft, throughput, perGPU, prefill}, concurrency,
//	 minGPUs: {id: {n, tp, pp, total, decode, ttft, perGPU, expDecode,
//	               expTTFT, totalText, decodeText, ttftText, expDecodeText,
//	               expTTFTText} | null},
//	 text: {totalPerGPU, usableBytes, pagedOut, breakdown: {weights, …},
//	        trainFLOPs, trainSeconds, rolloutSeconds, ttft, decode, throughput, perGPU,
//	        prefillFLOPs, expDecode, expTTFT, expThroughput, expPerGPU},
//	 plan: {stale, unsupported, chosen, cheapest,
//	        perToken} (sizing.Job.Plan on the input's offers; each row
//	        [offer index, GPUs needed, instances, per hour, per month,
//	        input and output cost per million tokens, job cost]),
//	 serving (inference on a gpu; else null): sizing.ServingFit on the
//	        input's GPUs, rows [format, tp, pp, weights per GPU (text),
//	        maxContext, its text, context, its text, concurrency, its text,
//	        bytes over per GPU (text), decode (text)],
//	 servePlan (inference with a load rate; else null): {ok, context (the
//	        model's limit as text), maxNodeTP (sizing.MaxNodeTP), plans: rows
//	        [gpu (index in catalog), format, tp, batch, replicas, GPUs,
//	        ttft (text), tpot (text), load in percent, offer, instances,
//	        per hour, input and output cost per million tokens], misses:
//	        [gpu, reason (sizing.MissFit, ...), best, best as a latency
//	        (text)]} (sizing.PlanServing on the catalog and offers)}
//
// Every text entry is a quantity {n, u}: a formatted number and the key of
// its unit message (sizing.Quantity), which the page translates; an error
// is a message key and its five arguments (sizing.Message).
//
// Byte counts are JS numbers, exact up to 2^53 bytes (8 PiB).
//
// The binding reads its input with package jsonpos and writes with package
// wasmio; it avoids fmt, encoding/json and syscall/js (which alone adds
// about 120 kB to the module) and is table-driven, to keep the module
// small: in Go's WebAssembly port every call site costs code.
package main

import (
	"math"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/jsonpos"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/wasmio"
)

// handoff is the module's one piece of package-level state (see
// wasmio.Handoff).
var handoff wasmio.Handoff

func main() { select {} }

//go:wasmexport gpuAtlasBuffer
func buffer(n int32) int32 { return handoff.Buffer(n) }

//go:wasmexport gpuAtlasData
func data() int32 { return handoff.Data() }

//go:wasmexport gpuAtlasSize
func size(n int32) int32 { return handoff.Reply(run(handoff.Input(n))) }

// run sizes one input; it turns panics into {ok: false}.
//
//go:noinline
func run(src []byte) (res []byte) {
	defer func() {
		if recover() != nil {
			res = wasmio.Failure(nil, wasmio.KeyInternal, "", "")
		}
	}()
	v, err := jsonpos.Parse(src)
	if err != nil {
		return wasmio.Failure(nil, wasmio.KeyModel, "", "")
	}
	in, gpu, hasGPU, auto, fail := read(v)
	if fail != nil {
		return fail
	}
	req, fail := readRequest(v)
	if fail != nil {
		return fail
	}
	return result(v, in, gpu, hasGPU, auto, req)
}

// request is what an input asks besides the estimate: the serving
// concurrency costs are figured at, whether stale prices count, the
// model's context limit (0: none) and the load to plan for (no rate: no
// plan; targets in ms, as the form and the CLI take them).
type request struct {
	_            sizing.NoCompare
	concurrency  int
	includeStale bool
	maxContext   int
	load         sizing.Load
}

//go:noinline
func readRequest(v *jsonpos.Value) (request, []byte) {
	r := request{concurrency: sizing.ServingConcurrency}
	fail := wasmio.ReadFields(v, []wasmio.Spec{{Key: "concurrency", P: &r.concurrency}, {Key: "includeStale", P: &r.includeStale},
		{Key: "maxContext", P: &r.maxContext}})
	if r.concurrency < 1 || r.concurrency > sizing.MaxBatch {
		r.concurrency = sizing.ServingConcurrency
	}
	if fail == nil {
		r.load, fail = wasmio.ReadLoad(v)
	}
	return r, fail
}

//go:noinline
func read(v *jsonpos.Value) (in sizing.Input, gpu sizing.GPU, hasGPU, auto bool, fail []byte) {
	mv := v.Get("model")
	if mv.Kind() != jsonpos.Object {
		fail = wasmio.Failure(nil, wasmio.KeyModel, "", "")
		return
	}
	var m sizing.Model
	if fail = wasmio.ReadFields(mv, wasmio.ModelSpecs(&m)); fail != nil {
		return
	}
	in = sizing.DefaultInput(m)
	in.TP = 0
	if fail = wasmio.ReadFields(v, []wasmio.Spec{{Key: "workload", P: (*string)(&in.Workload)}}); fail != nil {
		return
	}
	// The workload's recipe (QLoRA's NF4 base and paged optimizer,
	// checkpointing for training), then what the input sets.
	in = sizing.RecipeFor(in.Workload).Apply(in)
	if fail = wasmio.ReadFields(v, []wasmio.Spec{
		{Key: "dtype", P: (*string)(&in.DType)}, {Key: "kvDtype", P: (*string)(&in.KVDType)}, {Key: "quant", P: (*string)(&in.Quant)},
		{Key: "offload", P: (*string)(&in.Offload)}, {Key: "checkpointing", P: (*string)(&in.Checkpointing)},
		{Key: "optimizer", P: (*string)(&in.Optimizer)}, {Key: "loss", P: (*string)(&in.Loss)}, {Key: "groupSize", P: &in.GroupSize}, {Key: "quantEmbeddings", P: &in.QuantEmbeddings},
		{Key: "seq", P: &in.SeqLen}, {Key: "prompt", P: &in.PromptLen}, {Key: "batch", P: &in.Batch}, {Key: "gpus", P: &in.GPUs},
		{Key: "tp", P: &in.TP}, {Key: "pp", P: &in.PP}, {Key: "cp", P: &in.CP}, {Key: "sequenceParallel", P: &in.SequenceParallel}, {Key: "zero", P: &in.ZeRO},
		{Key: "loraRank", P: &in.LoRARank}, {Key: "tokens", P: &in.Tokens}, {Key: "mfu", P: &in.MFU}, {Key: "bpw", P: &in.BitsPerWeight},
		{Key: "flash", P: &in.Flash}, {Key: "noMaster", P: &in.NoMaster}, {Key: "optimizerInBackward", P: &in.OptimizerInBackward}, {Key: "offloadActivations", P: &in.OffloadActivations},
		{Key: "specTokens", P: &in.SpecTokens}, {Key: "specAccept", P: &in.SpecAccept}, {Key: "method", P: (*string)(&in.Method)}, {Key: "output", P: &in.OutputLen}, {Key: "images", P: &in.Images},
		{Key: "trainVision", P: &in.TrainVision},
	}); fail != nil {
		return
	}
	if t := v.Get("loraTargets"); t.Present() {
		// An array of strings (a number that is not finite, as it
		// crosses, is not one).
		if t.Len() < 0 {
			fail = wasmio.Failure(nil, wasmio.KeyArray, "loraTargets", "")
			return
		}
		in.LoRATargets = make([]string, t.Len())
		for i := range in.LoRATargets {
			s, ok := t.Index(i).Text()
			if !ok || s == "\x00NaN" || s == "\x00Infinity" || s == "\x00-Infinity" {
				fail = wasmio.Failure(nil, wasmio.KeyArray, "loraTargets", "")
				return
			}
			in.LoRATargets[i] = s
		}
	}
	if g := v.Get("gpu"); g.Present() {
		if gpu, fail = wasmio.ReadGPU(g); fail != nil {
			return
		}
		hasGPU = true
	}
	if in.TP == 0 {
		// The layout the GPU count implies, as the `size` command's -tp 0.
		if err := in.Model.Validate(); err != nil {
			fail = wasmio.Failure(err, "", "", "")
			return
		}
		var gp *sizing.GPU
		if hasGPU && gpu.Validate() == nil {
			gp = &gpu
		}
		in = sizing.AutoLayout(in, gp)
		auto = true
	}
	return
}

// The parts of a result's shape (see fill). Without a GPU, fits and
// usableBytes are null and the text has no usableBytes.
const (
	shapeBreakdown = `{"ok":true,"error":null,"breakdown":{"weights":#,"kvCache":#,"activations":#,"gradients":#,` +
		`"optimizer":#,"adapters":#,"gathered":#,"reference":#,"critic":#,"rollout":#,"overhead":#},`
	shapeGPU   = `"fits":?,"runs":?,"usableBytes":#,`
	shapeNoGPU = `"fits":null,"runs":null,"usableBytes":null,`
	// The figures from totalPerGPU to expected.perGPU are, in this order,
	// those of the text after its breakdown (see result).
	shapeFigures = `"totalPerGPU":#,"pagedOut":#,"trainFLOPs":#,"trainSeconds":#,"rolloutSeconds":#,"prefillFLOPs":#,"ttft":#,"decode":#,` +
		`"throughput":#,"perGPU":#,"expected":{"decode":#,"ttft":#,"throughput":#,"perGPU":#,"prefill":#},` +
		`"kvBytesPerToken":#,"adapterParams":#,"computeBound":?,"largest":$,"concurrency":#,"speedGPUs":#,` +
		`"layout":{"tp":#,"pp":#,"cp":#,"dp":#,"auto":#},"text":{`
	shapeTextGPU = `"usableBytes":%g,`
	shapeText    = `"breakdown":{"weights":%g,"kvCache":%g,"activations":%g,"gradients":%g,"optimizer":%g,` +
		`"adapters":%g,"gathered":%g,"reference":%g,"critic":%g,"rollout":%g,"overhead":%g},"totalPerGPU":%g,"pagedOut":%g,"trainFLOPs":%f,` +
		`"trainSeconds":%d,"rolloutSeconds":%d,"prefillFLOPs":%f,"ttft":%l,"decode":%r,"throughput":%r,"perGPU":%r,` +
		`"expDecode":%r,"expTTFT":%l,"expThroughput":%r,"expPerGPU":%r},"minGPUs":{`
	shapeFit = `$:{"n":#,"tp":#,"pp":#,"total":#,"decode":#,"ttft":#,"perGPU":#,"expDecode":#,"expTTFT":#,` +
		`"totalText":%g,"decodeText":%r,"ttftText":%l,"expDecodeText":%r,"expTTFTText":%l}`
	// A plan row: [offer, n, instances, hourly, monthly, inputPerM,
	// outputPerM, job].
	shapeCost = `[#,#,#,#,#,#,#,#]`
)

// result is gpuAtlasSize's answer to an input read as in (on GPU g when
// hasGPU): the estimate and its display texts, the fewest GPUs of each
// catalog GPU, and the plan on the input's offers. It is kept whole
// because in Go's WebAssembly port every function and call site adds to
// the module (see the package comment), and its parts fill one buffer and
// one job in order.
//
//go:noinline
func result(v *jsonpos.Value, in sizing.Input, g sizing.GPU, hasGPU, auto bool, req request) []byte {
	var gpu *sizing.GPU
	if hasGPU {
		gpu = &g
	}
	res, err := sizing.Estimate(in, gpu)
	if err != nil {
		return wasmio.Failure(err, "", "", "")
	}
	bd := res.Breakdown
	parts := []float64{float64(bd.Weights), float64(bd.KVCache), float64(bd.Activations), float64(bd.Gradients),
		float64(bd.Optimizer), float64(bd.Adapters), float64(bd.GatheredLayer), float64(bd.Reference), float64(bd.Critic),
		float64(bd.Rollout), float64(bd.Overhead)}
	nums := append([]float64(nil), parts...)
	shape, usable := shapeBreakdown+shapeNoGPU+shapeFigures, []float64(nil)
	if gpu != nil {
		fits := 0.0
		if sizing.Fits(res, *gpu) {
			fits = 1
		}
		runs := 0.0
		if gpu.Runs(in.DType) {
			runs = 1
		}
		usable = []float64{float64(sizing.UsableBytes(*gpu))}
		shape = shapeBreakdown + shapeGPU + shapeFigures + shapeTextGPU
		nums = append(nums, fits, runs, usable[0])
	}
	// Speeds and training time are those of the layout that holds the
	// job when in.GPUs do not (pages.SpeedAt's rule).
	sp, speedGPUs := res, in.GPUs
	if gpu != nil && !sizing.Fits(res, *gpu) {
		if f, ok := sizing.MinFit(in, *gpu); ok {
			sp, speedGPUs = f.Result, f.N
		}
	}
	compute, automatic := 0.0, 0.0
	if sp.DecodeComputeBound {
		compute = 1
	}
	if auto {
		automatic = 1
		if in.DataParallelLayout() {
			automatic = 2
		}
	}
	k := len(nums)
	nums = append(nums, float64(res.TotalPerGPU), float64(res.PagedOutBytes), res.TrainFLOPs, sp.TrainSeconds,
		sp.RolloutSeconds, res.PrefillFLOPs, sp.TTFTSeconds, sp.DecodeTokensPerSec, sp.ThroughputTokensPerSec, sp.TokensPerSecPerGPU,
		sp.ExpectedDecode, sp.ExpectedTTFT, sp.ExpectedThroughput, sp.ExpectedPerGPU, sp.PrefillTokensPerSec,
		float64(res.KVBytesPerToken), float64(res.AdapterParams), compute,
		float64(req.concurrency), float64(speedGPUs),
		float64(res.TP), float64(res.PP), float64(res.CP), float64(res.DataParallel), automatic)
	// Every figure also as display text (the "text" object), formatted by
	// the functions the pages use, so both print identical strings: the
	// 14 figures from totalPerGPU on are in the text's order.
	nums = append(append(append(nums, usable...), parts...), nums[k:k+14]...)
	largest, _ := bd.Largest()
	b := wasmio.Fill(nil, shape+shapeText, nums, []string{largest})

	// The fewest GPUs of each catalog GPU that fit, read one GPU at a time,
	// and for inference the layout that serves req.concurrency sequences.
	job := sizing.Job{Chosen: -1, DType: in.DType, Inference: in.Workload == sizing.Inference,
		TrainFLOPs: res.TrainFLOPs, MFU: in.MFU, Pipeline: in.PipelineFactor(), IncludeStale: req.includeStale,
		Rollout: in.Method.Generates()}
	serve := in
	serve.Batch = req.concurrency
	if c := v.Get("catalog"); c.Present() {
		if c.Len() < 0 {
			return wasmio.Failure(nil, wasmio.KeyArray, "catalog", "")
		}
		for i, n := 0, c.Len(); i < n; i++ {
			cg, fail := wasmio.ReadGPU(c.Index(i))
			if fail != nil {
				return fail
			}
			if gpu != nil && cg.ID == gpu.ID {
				job.Chosen = i
			}
			if i > 0 {
				b = append(b, ',')
			}
			job.GPUs = append(job.GPUs, cg)
			var fp, sp *sizing.Fit
			if job.Inference {
				if s, ok := sizing.MinFit(serve, cg); ok {
					sp = &s
				}
			}
			job.Serve = append(job.Serve, sp)
			f, ok := sizing.MinFit(in, cg)
			if ok {
				fp = &f
			}
			job.Fits = append(job.Fits, fp)
			if !ok {
				b = wasmio.Fill(b, `$:null`, nil, []string{cg.ID}) // where none fits
				continue
			}
			r := f.Result
			b = wasmio.Fill(b, shapeFit, []float64{float64(f.N), float64(f.TP), float64(f.PP), float64(r.TotalPerGPU),
				r.DecodeTokensPerSec, r.TTFTSeconds, r.TokensPerSecPerGPU, r.ExpectedDecode, r.ExpectedTTFT,
				float64(r.TotalPerGPU), r.DecodeTokensPerSec, r.TTFTSeconds, r.ExpectedDecode, r.ExpectedTTFT}, []string{cg.ID})
		}
	}
	b = append(b, '}')
	if c := job.Chosen; c >= 0 && !job.Inference && sizing.Fits(res, *gpu) {
		// Training is priced as the reader runs it (sizing.Job.Fits).
		job.Fits[c] = &sizing.Fit{N: in.GPUs, TP: res.TP, PP: res.PP, Result: res}
	}
	offers, fail := wasmio.ReadOffers(v)
	if fail != nil {
		return fail
	}
	b = appendPlan(b, job.Plan(offers))
	if !job.Inference {
		return append(b, `,"serving":null,"servePlan":null}`...)
	}
	// Serving: every format on the reader's GPUs (sizing.ServingFit), and
	// the cheapest plan per catalog GPU for the load (sizing.PlanServing).
	b = append(b, `,"serving":`...)
	if gpu == nil {
		b = append(b, `null`...)
	} else {
		b = append(b, '[')
		for i, o := range sizing.ServingFit(in.Model, req.maxContext, g, in.GPUs) {
			if i > 0 {
				b = append(b, ',')
			}
			b = wasmio.Fill(b, `[$,#,#,%g,#,$,#,$,#,$,%g,%r]`, []float64{float64(o.TP), float64(o.PP), float64(o.WeightsPerGPU),
				float64(o.MaxContext), float64(o.Context), float64(o.Concurrency), float64(o.OverBytes), o.Decode},
				[]string{sizing.FormatLabel(o.DType, o.Quant, o.KVDType), sizing.Group(o.MaxContext), sizing.Group(o.Context), sizing.Group(o.Concurrency)})
		}
		b = append(b, ']')
	}
	b = append(b, `,"servePlan":`...)
	if req.load.Rate == 0 {
		return append(b, `null}`...)
	}
	plans, misses, ok := sizing.PlanServing(in.Model, req.maxContext, req.load, job.GPUs, offers, nil)
	limit := req.maxContext
	if limit <= 0 {
		limit = sizing.MaxSeqLen
	}
	b = wasmio.Fill(b, `{"ok":?,"context":$,"maxNodeTP":#,"plans":[`, []float64{boolNum(ok), sizing.MaxNodeTP}, []string{sizing.Group(limit)})
	for i, p := range plans {
		if i > 0 {
			b = append(b, ',')
		}
		b = wasmio.Fill(b, `[#,$,#,#,#,#,%l,%l,#,#,#,#,#,#]`, []float64{float64(p.GPU), float64(p.TP), float64(p.Batch), float64(p.Replicas),
			float64(p.GPUs), p.TTFT, p.TPOT, math.Round(p.Utilization * 100), float64(p.Offer), float64(p.Instances), p.Hourly,
			p.InputPerM, p.OutputPerM}, []string{sizing.FormatLabel(p.DType, p.Quant, p.KVDType)})
	}
	b = append(b, `],"misses":[`...)
	for i, m := range misses {
		if i > 0 {
			b = append(b, ',')
		}
		b = wasmio.Fill(b, `[#,$,#,%l]`, []float64{float64(m.GPU), m.Best, m.Best}, []string{m.Reason})
	}
	return append(b, `]}}`...)
}

// boolNum is b as fill's '?' takes it.
func boolNum(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// appendPlan writes the plan object.
//
//go:noinline
func appendPlan(b []byte, p sizing.Plan) []byte {
	b = wasmio.Fill(b, `,"plan":{"stale":#,"unsupported":#`, []float64{float64(p.Stale), float64(p.Unsupported)}, nil)
	for k, rows := range [...][]sizing.OfferCost{p.Chosen, p.Cheapest, p.PerToken} {
		b = wasmio.Fill(b, `,$:[`, nil, []string{[...]string{"chosen", "cheapest", "perToken"}[k]})
		for i, c := range rows {
			if i > 0 {
				b = append(b, ',')
			}
			b = wasmio.Fill(b, shapeCost, []float64{float64(c.Offer), float64(c.N), float64(c.Instances), c.Hourly, c.Monthly,
				c.InputPerM, c.OutputPerM, c.Job}, nil)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}
