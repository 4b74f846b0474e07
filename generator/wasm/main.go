//go:build js && wasm

// Command wasm is the in-browser sizing calculator: a thin syscall/js binding
// around package sizing. It registers a global function
//
//	gpuAtlasSize(input) -> result
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
//	         experts, expertsPerToken, headDim},
//	 workload, dtype, kvDtype, seq, batch, gpus, tp, pp, zero, offload,
//	 checkpointing, flash, optimizer, loraRank, loraTargets: [...], tokens, mfu,
//	 gpu: {id, name, memoryBytes, bandwidth, bf16Flops} | null,
//	 catalog: [gpu, ...]}
//
// The result object:
//
//	{ok, error, breakdown: {weights, kvCache, activations, gradients, optimizer,
//	 adapters, overhead}, totalPerGPU, fits (null without gpu), usableBytes
//	 (null without gpu), minGPUs: {id: n | null}, trainFLOPs,
//	 decodeTokensPerSec, trainSeconds, kvBytesPerToken, adapterParams,
//	 dataParallel, text: {totalPerGPU, usableBytes ("" without gpu), breakdown:
//	 {weights, …}, trainFLOPs, decodeTokensPerSec, trainSeconds}}
//
// The text object holds the figures as the pages print them
// (sizing.FormatGiB, FormatFLOPs, FormatRate, FormatDuration).
//
// Byte counts are JS numbers, exact up to 2^53 bytes (8 PiB). On bad input
// ok is false and error holds a one-line message.
//
// The binding avoids fmt and encoding/json, and is table-driven, to keep the
// module small: in Go's WebAssembly port every call site costs code.
package main

import (
	"errors"
	"math"
	"syscall/js"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

func main() {
	js.Global().Set("gpuAtlasSize", js.FuncOf(call))
	if ready := js.Global().Get("gpuAtlasReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}

// call is the JS entry point; it turns panics into {ok: false}.
func call(this js.Value, args []js.Value) (out any) {
	defer func() {
		if recover() != nil {
			out = failure("internal error")
		}
	}()
	if len(args) < 1 {
		return failure("gpuAtlasSize needs an input object")
	}
	in, gpu, hasGPU, err := read(args[0])
	if err != nil {
		return failure(err.Error())
	}
	return result(args[0], in, gpu, hasGPU)
}

func failure(msg string) any {
	o := newObject()
	o.Set("ok", false)
	o.Set("error", msg)
	return o
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
// their types.
func readFields(v js.Value, specs []spec) error {
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
		want := "a finite number"
		switch p := s.p.(type) {
		case *string:
			if want = "a string"; f.Type() == js.TypeString {
				*p = f.String()
				continue
			}
		case *bool:
			if want = "true or false"; f.Type() == js.TypeBoolean {
				*p = f.Bool()
				continue
			}
		case *float64:
			if num && x-x == 0 { // finite
				*p = x
				continue
			}
		case *int64:
			if want = "a whole number"; num && whole && math.Abs(x) <= 1<<53 {
				*p = int64(x)
				continue
			}
		case *int:
			if want = "a whole number below 2^31"; num && whole && math.Abs(x) <= math.MaxInt32 {
				*p = int(x)
				continue
			}
		}
		return errors.New(s.key + " must be " + want)
	}
	return nil
}

func readGPU(v js.Value) (sizing.GPU, error) {
	var g sizing.GPU
	err := readFields(v, []spec{
		{"id", &g.ID}, {"name", &g.Name}, {"memoryBytes", &g.MemoryBytes},
		{"bandwidth", &g.BandwidthBytesPerSec}, {"bf16Flops", &g.DenseBF16FLOPS},
	})
	return g, err
}

// stringsOf reads an array of strings.
func stringsOf(v js.Value, what string) ([]string, error) {
	if v.Type() != js.TypeObject || v.Get("length").Type() != js.TypeNumber {
		return nil, errors.New(what + " must be an array")
	}
	out := make([]string, v.Length())
	for i := range out {
		e := v.Index(i)
		if e.Type() != js.TypeString {
			return nil, errors.New(what + " must be an array of strings")
		}
		out[i] = e.String()
	}
	return out, nil
}

func read(v js.Value) (in sizing.Input, gpu sizing.GPU, hasGPU bool, err error) {
	mv, ok := field(v, "model")
	if !ok || mv.Type() != js.TypeObject {
		err = errors.New("input.model is required")
		return
	}
	var m sizing.Model
	if err = readFields(mv, []spec{
		{"params", &m.Params}, {"activeParams", &m.ActiveParams},
		{"layers", &m.Layers}, {"hidden", &m.Hidden}, {"heads", &m.Heads},
		{"kvHeads", &m.KVHeads}, {"ffn", &m.FFN}, {"vocab", &m.Vocab},
		{"experts", &m.Experts}, {"expertsPerToken", &m.ExpertsPerToken}, {"headDim", &m.HeadDim},
	}); err != nil {
		return
	}
	in = sizing.DefaultInput(m)
	if err = readFields(v, []spec{{"workload", (*string)(&in.Workload)}}); err != nil {
		return
	}
	if in.Workload == sizing.QLoRA {
		in.DType = sizing.INT4
	}
	if err = readFields(v, []spec{
		{"dtype", (*string)(&in.DType)}, {"kvDtype", (*string)(&in.KVDType)},
		{"offload", (*string)(&in.Offload)}, {"checkpointing", (*string)(&in.Checkpointing)},
		{"optimizer", (*string)(&in.Optimizer)},
		{"seq", &in.SeqLen}, {"batch", &in.Batch}, {"gpus", &in.GPUs},
		{"tp", &in.TP}, {"pp", &in.PP}, {"zero", &in.ZeRO},
		{"loraRank", &in.LoRARank}, {"tokens", &in.Tokens}, {"mfu", &in.MFU},
		{"flash", &in.Flash},
	}); err != nil {
		return
	}
	if t, ok := field(v, "loraTargets"); ok {
		if in.LoRATargets, err = stringsOf(t, "loraTargets"); err != nil {
			return
		}
	}
	if g, ok := field(v, "gpu"); ok {
		gpu, err = readGPU(g)
		hasGPU = err == nil
	}
	return
}

func result(v js.Value, in sizing.Input, g sizing.GPU, hasGPU bool) any {
	var gpu *sizing.GPU
	if hasGPU {
		gpu = &g
	}
	res, err := sizing.Estimate(in, gpu)
	if err != nil {
		return failure(err.Error())
	}
	out := newObject()
	out.Set("ok", true)
	out.Set("error", "")

	// Every figure also as display text (the "text" object), formatted by
	// the functions the pages use, so both print identical strings.
	b := res.Breakdown
	bd, tb := newObject(), newObject()
	for i, x := range [...]int64{b.Weights, b.KVCache, b.Activations, b.Gradients, b.Optimizer, b.Adapters, b.Overhead} {
		k := [...]string{"weights", "kvCache", "activations", "gradients", "optimizer", "adapters", "overhead"}[i]
		bd.Set(k, float64(x))
		tb.Set(k, sizing.FormatGiB(x))
	}
	out.Set("breakdown", bd)

	var fits, usable any // null without a GPU
	usableText := ""
	if gpu != nil {
		u := sizing.UsableBytes(*gpu)
		fits, usable, usableText = sizing.Fits(res, *gpu), float64(u), sizing.FormatGiB(u)
	}
	out.Set("fits", fits)
	out.Set("usableBytes", usable)
	nums := [...]float64{float64(res.TotalPerGPU), res.TrainFLOPs, res.DecodeTokensPerSec, res.TrainSeconds,
		float64(res.KVBytesPerToken), float64(res.AdapterParams), float64(res.DataParallel)}
	for i, k := range [...]string{"totalPerGPU", "trainFLOPs", "decodeTokensPerSec", "trainSeconds",
		"kvBytesPerToken", "adapterParams", "dataParallel"} {
		out.Set(k, nums[i])
	}
	txt := newObject()
	txt.Set("breakdown", tb)
	for i, x := range [...]string{sizing.FormatGiB(res.TotalPerGPU), usableText, sizing.FormatFLOPs(res.TrainFLOPs),
		sizing.FormatRate(res.DecodeTokensPerSec), sizing.FormatDuration(res.TrainSeconds)} {
		txt.Set([...]string{"totalPerGPU", "usableBytes", "trainFLOPs", "decodeTokensPerSec", "trainSeconds"}[i], x)
	}
	out.Set("text", txt)

	// The catalog is read one GPU at a time (no slice: it keeps the
	// WebAssembly build smaller).
	mins := newObject()
	if c, ok := field(v, "catalog"); ok {
		if c.Type() != js.TypeObject || c.Get("length").Type() != js.TypeNumber {
			return failure("catalog must be an array of GPUs")
		}
		for i, n := 0, c.Length(); i < n; i++ {
			cg, err := readGPU(c.Index(i))
			if err != nil {
				return failure("catalog: " + err.Error())
			}
			var count any // null where none fits
			if k, ok := sizing.MinGPUs(in, cg); ok {
				count = k
			}
			mins.Set(cg.ID, count)
		}
	}
	out.Set("minGPUs", mins)
	return out
}
