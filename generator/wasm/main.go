//go:build js && wasm

// Command wasm is the in-browser sizing calculator: a thin syscall/js binding
// around packages sizing and hfconfig. It registers two global functions,
//
//	gpuAtlasSize(input) -> result
//	gpuAtlasParseConfig(text) -> config
//
// then calls globalThis.gpuAtlasReady() if it is defined, and blocks
// forever. Build it with
//
//	GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o size.wasm ./generator/wasm
//
// The input object (every field but model is optional and defaults to
// sizing.DefaultInput; with workload "qlora" dtype defaults to int4; enum
// values must be the canonical lower-case names, e.g. "int4" not "nf4"):
//
//	{model: {params, activeParams, layers, hidden, heads, kvHeads, ffn, vocab,
//	         tied, experts, expertsPerToken, sharedExperts, denseLayers, denseFFN,
//	         headDim, kvLoraRank, qLoraRank, ropeHeadDim, vHeadDim,
//	         slidingWindow, localLayers},
//	 workload, dtype, kvDtype, quant, groupSize, quantEmbeddings, seq, prompt,
//	 batch, gpus, tp (0 or absent: chosen from gpus, sizing.AutoLayout), pp, cp,
//	 sequenceParallel, zero, offload, checkpointing, flash, optimizer,
//	 noMaster, loraRank, loraTargets: [...], tokens, mfu,
//	 gpu: {id, name, memoryBytes, bandwidth, bf16Flops, fp8Flops} | null,
//	 catalog: [gpu, ...]}
//
// The result object:
//
//	{ok, error: {key, args} | null,
//	 breakdown: {weights, kvCache, activations, gradients, optimizer, adapters,
//	             gathered, overhead},
//	 totalPerGPU, pagedOut, fits (null without gpu), usableBytes (null
//	 without gpu), layout: {tp, pp, cp, dp, auto},
//	 trainFLOPs, trainSeconds, prefillFLOPs, ttft, decode, computeBound,
//	 throughput, perGPU, kvBytesPerToken, adapterParams,
//	 minGPUs: {id: {n, tp, pp, decode, ttft, perGPU} | null},
//	 text: {totalPerGPU, usableBytes, pagedOut, breakdown: {weights, …},
//	        trainFLOPs, trainSeconds, ttft, decode, throughput, perGPU}}
//
// Every text entry is a quantity {n, u}: a formatted number and the key of
// its unit message (sizing.Quantity), which the page translates; an error
// is a message key and its five arguments (sizing.Message). The config
// object of gpuAtlasParseConfig is
//
//	{ok, error: {key, args, line, col} | null, modelType, generic,
//	 maxContext, mtpLayers, model: {…as input.model}}
//
// Byte counts are JS numbers, exact up to 2^53 bytes (8 PiB).
//
// The binding avoids fmt and encoding/json, and is table-driven, to keep the
// module small: in Go's WebAssembly port every call site costs code.
package main

import (
	"math"
	"strconv"
	"syscall/js"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/hfconfig"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

func main() {
	js.Global().Set("gpuAtlasSize", js.FuncOf(call))
	js.Global().Set("gpuAtlasParseConfig", js.FuncOf(parseConfig))
	if ready := js.Global().Get("gpuAtlasReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}

// message is an error as a key and its arguments.
func message(key string, args [5]string) js.Value {
	o := newObject()
	o.Set("key", key)
	a := js.Global().Get("Array").New()
	for i, s := range args {
		a.SetIndex(i, s)
	}
	o.Set("args", a)
	return o
}

// binding errors: input of the wrong type.
const (
	keyInternal = "calc.err.internal"
	keyType     = "calc.err.type" // {s} must be {0}
	keyArray    = "calc.err.array"
	keyModel    = "calc.err.model"
)

func failure(m js.Value) any {
	o := newObject()
	o.Set("ok", false)
	o.Set("error", m)
	return o
}

func failKey(key, s, n string) any { return failure(message(key, [5]string{s, n})) }

func errMessage(err error) js.Value {
	if key, args, ok := sizing.Message(err); ok {
		return message(key, args)
	}
	if e, ok := err.(*hfconfig.Error); ok {
		m := message(e.Key, e.Args)
		m.Set("line", e.Line)
		m.Set("col", e.Col)
		return m
	}
	return message(keyInternal, [5]string{})
}

// call is the JS entry point of gpuAtlasSize; it turns panics into
// {ok: false}.
func call(this js.Value, args []js.Value) (out any) {
	defer func() {
		if recover() != nil {
			out = failKey(keyInternal, "", "")
		}
	}()
	if len(args) < 1 {
		return failKey(keyModel, "", "")
	}
	in, gpu, hasGPU, auto, fail := read(args[0])
	if fail != nil {
		return fail
	}
	return result(args[0], in, gpu, hasGPU, auto)
}

func newObject() js.Value { return js.Global().Get("Object").New() }

// field returns v[key] and whether it is set (not undefined or null).
func field(v js.Value, key string) (js.Value, bool) {
	if v.Type() != js.TypeObject {
		return js.Undefined(), false
	}
	f := v.Get(key)
	return f, !f.IsUndefined() && !f.IsNull()
}

// spec says where one JS field goes.
type spec struct {
	key string
	p   any // *int, *int64, *float64, *string or *bool
}

// readFields copies the set fields of v into their destinations, checking
// their types; it returns the failure result or nil.
func readFields(v js.Value, specs []spec) any {
	for _, s := range specs {
		f, ok := field(v, s.key)
		if !ok {
			continue
		}
		num := f.Type() == js.TypeNumber
		x := 0.5 // not whole, not read unless num
		if num {
			x = f.Float()
		}
		whole := x == math.Trunc(x)
		want := "number"
		switch p := s.p.(type) {
		case *string:
			if want = "string"; f.Type() == js.TypeString {
				*p = f.String()
				continue
			}
		case *bool:
			if want = "bool"; f.Type() == js.TypeBoolean {
				*p = f.Bool()
				continue
			}
		case *float64:
			if num && x-x == 0 { // finite
				*p = x
				continue
			}
		case *int64:
			if want = "whole"; num && whole && math.Abs(x) <= 1<<53 {
				*p = int64(x)
				continue
			}
		case *int:
			if want = "whole"; num && whole && math.Abs(x) <= math.MaxInt32 {
				*p = int(x)
				continue
			}
		}
		return failKey(keyType, s.key, want)
	}
	return nil
}

func readGPU(v js.Value) (sizing.GPU, any) {
	var g sizing.GPU
	fail := readFields(v, []spec{
		{"id", &g.ID}, {"name", &g.Name}, {"memoryBytes", &g.MemoryBytes},
		{"bandwidth", &g.BandwidthBytesPerSec}, {"bf16Flops", &g.DenseBF16FLOPS}, {"fp8Flops", &g.DenseFP8FLOPS},
	})
	return g, fail
}

// modelSpecs are the model fields, in the order of modelFields.
func modelSpecs(m *sizing.Model) []spec {
	return []spec{
		{"params", &m.Params}, {"activeParams", &m.ActiveParams},
		{"layers", &m.Layers}, {"hidden", &m.Hidden}, {"heads", &m.Heads},
		{"kvHeads", &m.KVHeads}, {"ffn", &m.FFN}, {"vocab", &m.Vocab}, {"tied", &m.TiedEmbeddings},
		{"experts", &m.Experts}, {"expertsPerToken", &m.ExpertsPerToken}, {"sharedExperts", &m.SharedExperts},
		{"denseLayers", &m.DenseLayers}, {"denseFFN", &m.DenseFFN}, {"headDim", &m.HeadDim},
		{"kvLoraRank", &m.KVLoRARank}, {"qLoraRank", &m.QLoRARank}, {"ropeHeadDim", &m.QKRopeHeadDim},
		{"vHeadDim", &m.VHeadDim}, {"slidingWindow", &m.SlidingWindow}, {"localLayers", &m.LocalLayers},
	}
}

// stringsOf reads an array of strings.
func stringsOf(v js.Value, what string) ([]string, any) {
	if v.Type() != js.TypeObject || v.Get("length").Type() != js.TypeNumber {
		return nil, failKey(keyArray, what, "")
	}
	out := make([]string, v.Length())
	for i := range out {
		e := v.Index(i)
		if e.Type() != js.TypeString {
			return nil, failKey(keyArray, what, "")
		}
		out[i] = e.String()
	}
	return out, nil
}

func read(v js.Value) (in sizing.Input, gpu sizing.GPU, hasGPU, auto bool, fail any) {
	mv, ok := field(v, "model")
	if !ok || mv.Type() != js.TypeObject {
		fail = failKey(keyModel, "", "")
		return
	}
	var m sizing.Model
	if fail = readFields(mv, modelSpecs(&m)); fail != nil {
		return
	}
	in = sizing.DefaultInput(m)
	in.TP = 0
	if fail = readFields(v, []spec{{"workload", (*string)(&in.Workload)}}); fail != nil {
		return
	}
	if in.Workload == sizing.QLoRA {
		in.DType = sizing.INT4
	}
	if fail = readFields(v, []spec{
		{"dtype", (*string)(&in.DType)}, {"kvDtype", (*string)(&in.KVDType)}, {"quant", (*string)(&in.Quant)},
		{"offload", (*string)(&in.Offload)}, {"checkpointing", (*string)(&in.Checkpointing)},
		{"optimizer", (*string)(&in.Optimizer)}, {"groupSize", &in.GroupSize}, {"quantEmbeddings", &in.QuantEmbeddings},
		{"seq", &in.SeqLen}, {"prompt", &in.PromptLen}, {"batch", &in.Batch}, {"gpus", &in.GPUs},
		{"tp", &in.TP}, {"pp", &in.PP}, {"cp", &in.CP}, {"sequenceParallel", &in.SequenceParallel}, {"zero", &in.ZeRO},
		{"loraRank", &in.LoRARank}, {"tokens", &in.Tokens}, {"mfu", &in.MFU},
		{"flash", &in.Flash}, {"noMaster", &in.NoMaster},
	}); fail != nil {
		return
	}
	if t, ok := field(v, "loraTargets"); ok {
		if in.LoRATargets, fail = stringsOf(t, "loraTargets"); fail != nil {
			return
		}
	}
	if g, ok := field(v, "gpu"); ok {
		if gpu, fail = readGPU(g); fail != nil {
			return
		}
		hasGPU = true
	}
	if in.TP == 0 {
		// The layout the GPU count implies, as the `size` command's -tp 0.
		if err := in.Model.Validate(); err != nil {
			fail = failure(errMessage(err))
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

// quantity is a sizing.Quantity as {n, u}.
func quantity(q sizing.Quantity) js.Value {
	o := newObject()
	o.Set("n", q.Num)
	o.Set("u", q.Unit)
	return o
}

// setNumbers sets keys[i] = nums[i] on o.
func setNumbers(o js.Value, keys []string, nums []float64) {
	for i, k := range keys {
		o.Set(k, nums[i])
	}
}

func result(v js.Value, in sizing.Input, g sizing.GPU, hasGPU, auto bool) any {
	var gpu *sizing.GPU
	if hasGPU {
		gpu = &g
	}
	res, err := sizing.Estimate(in, gpu)
	if err != nil {
		return failure(errMessage(err))
	}
	out := newObject()
	out.Set("ok", true)
	out.Set("error", js.Null())

	// Every figure also as display text (the "text" object), formatted by
	// the functions the pages use, so both print identical strings.
	b := res.Breakdown
	bd, tb := newObject(), newObject()
	for i, x := range [...]int64{b.Weights, b.KVCache, b.Activations, b.Gradients, b.Optimizer, b.Adapters, b.GatheredLayer, b.Overhead} {
		k := [...]string{"weights", "kvCache", "activations", "gradients", "optimizer", "adapters", "gathered", "overhead"}[i]
		bd.Set(k, float64(x))
		tb.Set(k, quantity(sizing.GiBQuantity(x)))
	}
	out.Set("breakdown", bd)

	txt := newObject()
	var fits, usable any = js.Null(), js.Null() // null without a GPU
	if gpu != nil {
		u := sizing.UsableBytes(*gpu)
		fits, usable = sizing.Fits(res, *gpu), float64(u)
		txt.Set("usableBytes", quantity(sizing.GiBQuantity(u)))
	}
	out.Set("fits", fits)
	out.Set("usableBytes", usable)
	setNumbers(out, []string{"totalPerGPU", "pagedOut", "trainFLOPs", "trainSeconds", "prefillFLOPs", "ttft", "decode",
		"throughput", "perGPU", "kvBytesPerToken", "adapterParams"},
		[]float64{float64(res.TotalPerGPU), float64(res.PagedOutBytes), res.TrainFLOPs, res.TrainSeconds, res.PrefillFLOPs,
			res.TTFTSeconds, res.DecodeTokensPerSec, res.ThroughputTokensPerSec, res.TokensPerSecPerGPU,
			float64(res.KVBytesPerToken), float64(res.AdapterParams)})
	out.Set("computeBound", res.DecodeComputeBound)
	lay := newObject()
	setNumbers(lay, []string{"tp", "pp", "cp", "dp"}, []float64{float64(res.TP), float64(res.PP), float64(res.CP), float64(res.DataParallel)})
	lay.Set("auto", auto)
	out.Set("layout", lay)

	txt.Set("breakdown", tb)
	for i, q := range [...]sizing.Quantity{sizing.GiBQuantity(res.TotalPerGPU), sizing.GiBQuantity(res.PagedOutBytes),
		sizing.FLOPsQuantity(res.TrainFLOPs), sizing.DurationQuantity(res.TrainSeconds), sizing.LatencyQuantity(res.TTFTSeconds),
		sizing.RateQuantity(res.DecodeTokensPerSec), sizing.RateQuantity(res.ThroughputTokensPerSec), sizing.RateQuantity(res.TokensPerSecPerGPU)} {
		txt.Set([...]string{"totalPerGPU", "pagedOut", "trainFLOPs", "trainSeconds", "ttft", "decode", "throughput", "perGPU"}[i], quantity(q))
	}
	out.Set("text", txt)

	// The catalog is read one GPU at a time (no slice: it keeps the
	// WebAssembly build smaller).
	mins := newObject()
	if c, ok := field(v, "catalog"); ok {
		if c.Type() != js.TypeObject || c.Get("length").Type() != js.TypeNumber {
			return failKey(keyArray, "catalog", "")
		}
		for i, n := 0, c.Length(); i < n; i++ {
			cg, fail := readGPU(c.Index(i))
			if fail != nil {
				return fail
			}
			var entry any = js.Null() // where none fits
			if f, ok := sizing.MinFit(in, cg); ok {
				e := newObject()
				setNumbers(e, []string{"n", "tp", "pp", "decode", "ttft", "perGPU"}, []float64{float64(f.N), float64(f.TP), float64(f.PP),
					f.Result.DecodeTokensPerSec, f.Result.TTFTSeconds, f.Result.TokensPerSecPerGPU})
				e.Set("decodeText", quantity(sizing.RateQuantity(f.Result.DecodeTokensPerSec)))
				e.Set("ttftText", quantity(sizing.LatencyQuantity(f.Result.TTFTSeconds)))
				entry = e
			}
			mins.Set(cg.ID, entry)
		}
	}
	out.Set("minGPUs", mins)
	return out
}

// parseConfig is the JS entry point of gpuAtlasParseConfig.
func parseConfig(this js.Value, args []js.Value) (out any) {
	defer func() {
		if recover() != nil {
			out = failKey(keyInternal, "", "")
		}
	}()
	if len(args) < 1 || args[0].Type() != js.TypeString {
		return failKey(keyType, "config", "string")
	}
	c, err := hfconfig.Parse([]byte(args[0].String()))
	if err != nil {
		return failure(errMessage(err))
	}
	o := newObject()
	o.Set("ok", true)
	o.Set("error", js.Null())
	o.Set("modelType", c.ModelType)
	o.Set("generic", c.Generic)
	o.Set("maxContext", c.MaxContext)
	o.Set("mtpLayers", c.MTPLayers)
	mo := newObject()
	m := c.Model
	for _, s := range modelSpecs(&m) {
		switch p := s.p.(type) {
		case *int:
			mo.Set(s.key, *p)
		case *int64:
			mo.Set(s.key, float64(*p))
		case *bool:
			mo.Set(s.key, *p)
		}
	}
	o.Set("model", mo)
	o.Set("paramsText", strconv.FormatFloat(float64(m.Params)/1e9, 'f', 2, 64))
	return o
}
