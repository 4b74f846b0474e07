//go:build js && wasm

// Command wasmconfig is the calculator's config.json reader: package
// hfconfig in WebAssembly. A thin binding that exports, with the
// directive go:wasmexport,
//
//	gpuAtlasBuffer(n) -> address       the n-byte buffer the host writes into
//	gpuAtlasParseConfig(n) -> length   reads config.json text (n < 0: the
//	                                   argument was not a string), writes a config
//	gpuAtlasData() -> address          where the last result was written
//
// as generator/wasm does for the sizing engine (static/js/calculator.js
// wraps the export as gpuAtlasParseConfig(text) -> config). It is a module
// of its own, without the sizing engine's estimates, so that the engine's
// (which every reader of the calculator loads) and the one of what a
// reader asks for (generator/wasmextra) stay under their size budget
// (2,050,000 bytes raw, issue 34); the page loads it when a reader
// pastes, drops or chooses a config, or opens the config box. The config
// object is
//
//	{ok, error: {key, args, line, col} | null, modelType, generic,
//	 maxContext, mtpLayers, model: {…the model's figures under their JS
//	 keys, sizing.ModelFields}, paramsText}
//
// The site build (assets.buildWASM) compiles it with generator/wasm.
package main

import (
	"strconv"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/hfconfig"
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
	return handoff.Reply(run(handoff.Input(n)))
}

// run parses one config; it turns panics into {ok: false}.
func run(in []byte) (res []byte) {
	defer func() {
		if recover() != nil {
			res = wasmio.Failure(nil, wasmio.KeyInternal, "", "")
		}
	}()
	return parseConfig(in)
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
