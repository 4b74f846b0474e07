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
// sizing.DefaultInput; with workload "qlora" dtype defaults to int4):
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
//	 dataParallel}
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
		if r := recover(); r != nil {
			msg := "internal error"
			if e, ok := r.(error); ok {
				msg += ": " + e.Error()
			}
			out = failure(msg)
		}
	}()
	if len(args) < 1 {
		return failure("gpuAtlasSize needs an input object")
	}
	in, gpu, catalog, err := read(args[0])
	if err != nil {
		return failure(err.Error())
	}
	return result(in, gpu, catalog)
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

// Field kinds for the reading tables.
const (
	kInt = iota
	kInt64
	kFloat
	kString
	kBool
)

// spec says where one JS field goes.
type spec struct {
	key  string
	kind int
	p    any // *int, *int64, *float64, *string or *bool
}

// readFields copies the set fields of v into their destinations, checking
// their types.
func readFields(v js.Value, specs []spec) error {
	for _, s := range specs {
		f, ok := field(v, s.key)
		if !ok {
			continue
		}
		t := f.Type()
		switch p := s.p.(type) {
		case *string:
			if t != js.TypeString {
				return errors.New(s.key + " must be a string")
			}
			*p = f.String()
		case *bool:
			if t != js.TypeBoolean {
				return errors.New(s.key + " must be true or false")
			}
			*p = f.Bool()
		default:
			if t != js.TypeNumber {
				return errors.New(s.key + " must be a number")
			}
			x := f.Float()
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return errors.New(s.key + " must be a finite number")
			}
			if fp, ok := p.(*float64); ok {
				*fp = x
				continue
			}
			if x != math.Trunc(x) || math.Abs(x) > 1<<53 {
				return errors.New(s.key + " must be a whole number")
			}
			if ip, ok := p.(*int64); ok {
				*ip = int64(x)
				continue
			}
			if math.Abs(x) > math.MaxInt32 {
				return errors.New(s.key + " is out of range")
			}
			*p.(*int) = int(x)
		}
	}
	return nil
}

func readGPU(v js.Value) (sizing.GPU, error) {
	var g sizing.GPU
	err := readFields(v, []spec{
		{"id", kString, &g.ID}, {"name", kString, &g.Name}, {"memoryBytes", kInt64, &g.MemoryBytes},
		{"bandwidth", kFloat, &g.BandwidthBytesPerSec}, {"bf16Flops", kFloat, &g.DenseBF16FLOPS},
	})
	return g, err
}

// strings reads an array of strings.
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

func read(v js.Value) (in sizing.Input, gpu *sizing.GPU, catalog []sizing.GPU, err error) {
	mv, ok := field(v, "model")
	if !ok || mv.Type() != js.TypeObject {
		return in, nil, nil, errors.New("input.model is required")
	}
	var m sizing.Model
	if err = readFields(mv, []spec{
		{"params", kInt64, &m.Params}, {"activeParams", kInt64, &m.ActiveParams},
		{"layers", kInt, &m.Layers}, {"hidden", kInt, &m.Hidden}, {"heads", kInt, &m.Heads},
		{"kvHeads", kInt, &m.KVHeads}, {"ffn", kInt, &m.FFN}, {"vocab", kInt, &m.Vocab},
		{"experts", kInt, &m.Experts}, {"expertsPerToken", kInt, &m.ExpertsPerToken}, {"headDim", kInt, &m.HeadDim},
	}); err != nil {
		return
	}
	in = sizing.DefaultInput(m)
	if err = readFields(v, []spec{{"workload", kString, (*string)(&in.Workload)}}); err != nil {
		return
	}
	if in = in.Normalize(); in.Workload == sizing.QLoRA {
		in.DType = sizing.INT4
	}
	if err = readFields(v, []spec{
		{"dtype", kString, (*string)(&in.DType)}, {"kvDtype", kString, (*string)(&in.KVDType)},
		{"offload", kString, (*string)(&in.Offload)}, {"checkpointing", kString, (*string)(&in.Checkpointing)},
		{"optimizer", kString, (*string)(&in.Optimizer)},
		{"seq", kInt, &in.SeqLen}, {"batch", kInt, &in.Batch}, {"gpus", kInt, &in.GPUs},
		{"tp", kInt, &in.TP}, {"pp", kInt, &in.PP}, {"zero", kInt, &in.ZeRO},
		{"loraRank", kInt, &in.LoRARank}, {"tokens", kFloat, &in.Tokens}, {"mfu", kFloat, &in.MFU},
		{"flash", kBool, &in.Flash},
	}); err != nil {
		return
	}
	in = in.Normalize()
	if t, ok := field(v, "loraTargets"); ok {
		if in.LoRATargets, err = stringsOf(t, "loraTargets"); err != nil {
			return
		}
	}
	if g, ok := field(v, "gpu"); ok {
		var one sizing.GPU
		if one, err = readGPU(g); err != nil {
			return
		}
		gpu = &one
	}
	if c, ok := field(v, "catalog"); ok {
		if c.Type() != js.TypeObject || c.Get("length").Type() != js.TypeNumber {
			return in, nil, nil, errors.New("catalog must be an array of GPUs")
		}
		catalog = make([]sizing.GPU, c.Length())
		for i := range catalog {
			if catalog[i], err = readGPU(c.Index(i)); err != nil {
				return
			}
		}
	}
	return in, gpu, catalog, nil
}

func result(in sizing.Input, gpu *sizing.GPU, catalog []sizing.GPU) any {
	res, err := sizing.Estimate(in, gpu)
	if err != nil {
		return failure(err.Error())
	}
	out := newObject()
	out.Set("ok", true)
	out.Set("error", "")

	b := res.Breakdown
	bd := newObject()
	for i, x := range [...]int64{b.Weights, b.KVCache, b.Activations, b.Gradients, b.Optimizer, b.Adapters, b.Overhead} {
		bd.Set([...]string{"weights", "kvCache", "activations", "gradients", "optimizer", "adapters", "overhead"}[i], float64(x))
	}
	out.Set("breakdown", bd)

	var fits, usable any // null without a GPU
	if gpu != nil {
		fits, usable = sizing.Fits(res, *gpu), float64(sizing.UsableBytes(*gpu))
	}
	out.Set("fits", fits)
	out.Set("usableBytes", usable)
	nums := [...]float64{float64(res.TotalPerGPU), res.TrainFLOPs, res.DecodeTokensPerSec, res.TrainSeconds,
		float64(res.KVBytesPerToken), float64(res.AdapterParams), float64(res.DataParallel)}
	for i, k := range [...]string{"totalPerGPU", "trainFLOPs", "decodeTokensPerSec", "trainSeconds",
		"kvBytesPerToken", "adapterParams", "dataParallel"} {
		out.Set(k, nums[i])
	}

	mins := newObject()
	for _, g := range catalog {
		var n any // null where none fits
		if c, ok := sizing.MinGPUs(in, g); ok {
			n = c
		}
		mins.Set(g.ID, n)
	}
	out.Set("minGPUs", mins)
	return out
}
