//go:build js && wasm

// Command wasmextra is what the calculator computes only when a reader
// asks for it: the config.json parser (package hfconfig) and the four ways
// to pay for a load (sizing.PayWays). A thin binding that exports, with
// go:wasmexport,
//
//	gpuAtlasBuffer(n) -> address       the n-byte buffer the host writes into
//	gpuAtlasParseConfig(n) -> length   reads config.json text (n < 0: the
//	                                   argument was not a string), writes a config
//	gpuAtlasPay(n) -> length           reads a pay input, writes the ways
//	gpuAtlasData() -> address          where the last result was written
//
// as generator/wasm does for the sizing engine (static/js/calculator.js
// wraps the exports as gpuAtlasParseConfig(text) -> config and
// gpuAtlasPay(input) -> ways). It is a module of its own so that the
// engine's, which every reader of the calculator loads, stays under its
// size budget (2,050,000 bytes raw, issue 34; this one is held to the same
// limit); the page loads this one when a reader pastes, drops or chooses a
// config, or opens the ways to pay. The config object is
//
//	{ok, error: {key, args, line, col} | null, modelType, generic,
//	 maxContext, mtpLayers, model: {…the model's figures under their JS
//	 keys, sizing.ModelFields}, paramsText}
//
// The pay input is
//
//	{model: {…as the engine's input}, maxContext (0: none), load: {rate,
//	 prompt, answer, ttft, tpot (ms)}, catalog: [gpu, …], offers: [[gpu,
//	 GPUs per instance, billing mode index, price per instance-hour, stale],
//	 …] (as the engine's), usage: [[gpu (index in catalog, −1 for a hosted
//	 API of the model), per GPU-second, billed idle seconds, input and
//	 output price per million tokens, stale (0/1)], …] (sizing.Usage)}
//
// and its result {ok, error: null, context (the model's limit as text),
// ways: rows [way (sizing.PayOnDemand, …), gpu, index (the offer for a
// dedicated way, else the usage row), per month, per request, billed idle
// GPU-seconds a request, break-even (sizing.PayWay.BreakEven), instances,
// replicas, tp, GPUs, format, the break-even's sentence and figure
// (sizing.BreakEven), the idle GPU-seconds as text]}, cheapest first; ok
// is false, with no ways,
// for a load that cannot be planned (sizing.PayWays), and an invalid input
// is {ok: false, error}.
//
// The site build (assets.buildWASM) compiles it with generator/wasm.
package main

import (
	"strconv"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/hfconfig"
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

//go:wasmexport gpuAtlasParseConfig
func parse(n int32) int32 {
	if n < 0 {
		return handoff.Reply(wasmio.Failure(nil, wasmio.KeyType, "config", "string"))
	}
	return handoff.Reply(run(handoff.Input(n), parseConfig))
}

//go:wasmexport gpuAtlasPay
func pay(n int32) int32 { return handoff.Reply(run(handoff.Input(n), payWays)) }

// run runs f on one input; it turns panics into {ok: false}.
func run(in []byte, f func([]byte) []byte) (res []byte) {
	defer func() {
		if recover() != nil {
			res = wasmio.Failure(nil, wasmio.KeyInternal, "", "")
		}
	}()
	return f(in)
}

// configShape is a config object's shape (see wasmio.Fill): the model's keys are
// wasmio.ModelSpecs' in its order.
//
//go:noinline
func configShape() string {
	b := []byte(`{"ok":true,"error":null,"modelType":$,"generic":?,"maxContext":#,"mtpLayers":#,"model":{`)
	for i, f := range sizing.ModelFields() {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(append(append(b, '"'), f.JS...), '"', ':')
		if f.Bool {
			b = append(b, '?')
		} else {
			b = append(b, '#')
		}
	}
	return string(append(b, `},"paramsText":$}`...))
}

// parseConfig is gpuAtlasParseConfig.
//
//go:noinline
func parseConfig(text []byte) []byte {
	c, err := hfconfig.Parse(text)
	if err != nil {
		return wasmio.Failure(err, "", "", "")
	}
	generic := 0.0
	if c.Generic {
		generic = 1
	}
	nums := []float64{generic, float64(c.MaxContext), float64(c.MTPLayers)}
	m := c.Model
	for _, s := range wasmio.ModelSpecs(&m) {
		x := 0.0
		switch p := s.P.(type) {
		case *int:
			x = float64(*p)
		case *int64:
			x = float64(*p)
		case *bool:
			if *p {
				x = 1
			}
		}
		nums = append(nums, x)
	}
	return wasmio.Fill(nil, configShape(), nums, []string{c.ModelType, strconv.FormatFloat(float64(m.Params)/1e9, 'f', 2, 64)})
}

// payWays is gpuAtlasPay.
//
//go:noinline
func payWays(src []byte) []byte {
	v, perr := jsonpos.Parse(src)
	if perr != nil || v.Get("model").Kind() != jsonpos.Object {
		return wasmio.Failure(nil, wasmio.KeyModel, "", "")
	}
	var m sizing.Model
	maxContext := 0
	if fail := wasmio.ReadFields(v.Get("model"), wasmio.ModelSpecs(&m)); fail != nil {
		return fail
	}
	if err := m.Validate(); err != nil {
		return wasmio.Failure(err, "", "", "")
	}
	if fail := wasmio.ReadFields(v, []wasmio.Spec{{Key: "maxContext", P: &maxContext}}); fail != nil {
		return fail
	}
	load, fail := wasmio.ReadLoad(v)
	if fail != nil {
		return fail
	}
	var gpus []sizing.GPU
	c := v.Get("catalog")
	if c.Len() < 0 {
		return wasmio.Failure(nil, wasmio.KeyArray, "catalog", "")
	}
	for i := range c.Len() {
		g, fail := wasmio.ReadGPU(c.Index(i))
		if fail != nil {
			return fail
		}
		gpus = append(gpus, g)
	}
	offers, fail := wasmio.ReadOffers(v)
	if fail != nil {
		return fail
	}
	rows, fail := wasmio.ReadRows(v, "usage", 6)
	if fail != nil {
		return fail
	}
	usage := make([]sizing.Usage, len(rows))
	for i, x := range rows {
		usage[i] = sizing.Usage{GPU: int(x[0]), PerSecond: x[1], IdleSeconds: x[2], InputPerM: x[3], OutputPerM: x[4], Stale: x[5] != 0}
		if usage[i].GPU < -1 || usage[i].GPU >= len(gpus) {
			return wasmio.Failure(nil, wasmio.KeyArray, "usage", "")
		}
	}
	for _, o := range offers {
		if o.GPU < 0 || o.GPU >= len(gpus) {
			return wasmio.Failure(nil, wasmio.KeyArray, "offers", "")
		}
	}
	ways, ok := sizing.PayWays(m, maxContext, load, gpus, offers, usage, nil)
	limit := maxContext
	if limit <= 0 {
		limit = sizing.MaxSeqLen
	}
	okNum := 0.0
	if ok {
		okNum = 1
	}
	b := wasmio.Fill(nil, `{"ok":?,"error":null,"context":$,"ways":[`, []float64{okNum}, []string{sizing.Group(limit)})
	for i, w := range ways {
		if i > 0 {
			b = append(b, ',')
		}
		p := w.Plan
		key, figure := sizing.BreakEven(w, ways)
		b = wasmio.Fill(b, `[$,#,#,#,#,#,#,#,#,#,#,$,$,$,$]`, []float64{float64(w.GPU), float64(w.Index), w.Monthly, w.PerRequest,
			w.IdleSeconds, w.BreakEven, float64(p.Instances), float64(p.Replicas), float64(p.TP), float64(p.GPUs)},
			[]string{w.Way, sizing.FormatLabel(p.DType, p.Quant, p.KVDType), key, figure, strconv.FormatFloat(w.IdleSeconds, 'f', 2, 64)})
	}
	return append(b, `]}`...)
}
