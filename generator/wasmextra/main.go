//go:build js && wasm

// Command wasmextra is what the calculator computes only when a reader
// asks for it: the four ways to pay for a load (sizing.PayWays) and the
// models that fit the reader's GPUs (sizing.RankFits). A thin binding that
// exports, with go:wasmexport,
//
//	gpuAtlasBuffer(n) -> address   the n-byte buffer the host writes into
//	gpuAtlasPay(n) -> length       reads a pay input, writes the ways
//	gpuAtlasRank(n) -> length      reads a rank input, writes the models
//	gpuAtlasData() -> address      where the last result was written
//
// as generator/wasm does for the sizing engine (static/js/calculator.js
// wraps the exports as gpuAtlasPay(input) -> ways and gpuAtlasRank(input)
// -> ranked). It is a module of its own so that the engine's, which every
// reader of the calculator loads, stays under its size budget (2,050,000
// bytes raw, issue 34; this one is held to the same limit); the page loads
// it when a reader opens the ways to pay or the list of models that fit.
// The config.json reader is a third module, generator/wasmconfig.
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
// The rank input is {gpu (as the engine's), gpus (how many), models:
// [{…a model object as the engine's, maxContext}, …]}, and its result
// {ok, error: null, ranked: rows [model index, format, maxContext text,
// concurrency text, context text, decode (text)]}: the models that fit,
// best first (sizing.RankFits).
//
// The site build (assets.buildWASM) compiles it with generator/wasm.
package main

import (
	"strconv"

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

//go:wasmexport gpuAtlasPay
func pay(n int32) int32 { return handoff.Reply(run(handoff.Input(n), payWays)) }

//go:wasmexport gpuAtlasRank
func rank(n int32) int32 { return handoff.Reply(run(handoff.Input(n), rankFits)) }

// run runs f on one input; it turns panics into {ok: false}.
func run(in []byte, f func([]byte) []byte) (res []byte) {
	defer func() {
		if recover() != nil {
			res = wasmio.Failure(nil, wasmio.KeyInternal, "", "")
		}
	}()
	return f(in)
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

// rankFits is gpuAtlasRank: the input's models (each model object with
// its maxContext) that fit gpus of its gpu, best first (sizing.RankFits).
//
//go:noinline
func rankFits(src []byte) []byte {
	v, perr := jsonpos.Parse(src)
	if perr != nil {
		return wasmio.Failure(nil, wasmio.KeyModel, "", "")
	}
	gpu, fail := wasmio.ReadGPU(v.Get("gpu"))
	if fail != nil {
		return fail
	}
	n := 1
	if fail := wasmio.ReadFields(v, []wasmio.Spec{{Key: "gpus", P: &n}}); fail != nil {
		return fail
	}
	ms := v.Get("models")
	if ms.Len() < 0 {
		return wasmio.Failure(nil, wasmio.KeyArray, "models", "")
	}
	models, ctxs := make([]sizing.Model, ms.Len()), make([]int, ms.Len())
	for i := range models {
		if fail := wasmio.ReadFields(ms.Index(i), append(wasmio.ModelSpecs(&models[i]), wasmio.Spec{Key: "maxContext", P: &ctxs[i]})); fail != nil {
			return fail
		}
	}
	b := append([]byte(nil), `{"ok":true,"error":null,"ranked":[`...)
	for i, r := range sizing.RankFits(models, ctxs, gpu, n) {
		if i > 0 {
			b = append(b, ',')
		}
		o := r.Option
		b = wasmio.Fill(b, `[#,$,$,$,$,%r]`, []float64{float64(r.Index), o.Decode},
			[]string{sizing.FormatLabel(o.DType, o.Quant, o.KVDType), sizing.Group(o.MaxContext), sizing.Group(o.Concurrency), sizing.Group(o.Context)})
	}
	return append(b, `]}`...)
}
