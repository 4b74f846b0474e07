// Package wasmio is what the calculator's WebAssembly modules share
// (generator/wasm, the sizing engine; generator/wasmextra, the ways to pay
// and the models that fit; generator/wasmconfig, the config.json parser):
// JSON text written from a shape, input fields read
// from jsonpos values with their types checked, and the failure results.
// It avoids fmt, encoding/json and reflection-heavy code, and is
// table-driven: in Go's WebAssembly port every call site costs code.
package wasmio

import (
	"math"
	"strconv"
	"unsafe"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/hfconfig"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/jsonpos"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

// Handoff is the buffer the host writes an input into and reads the
// output from. A module keeps one in its one package-level variable: a
// wasmexport call has no other way to hand Go memory to the host, and the
// buffer must stay referenced between the calls.
type Handoff struct{ b []byte }

// Buffer makes the buffer n bytes long (at least 0) and returns its
// address, for the host to write n bytes of input at.
func (h *Handoff) Buffer(n int32) int32 {
	if n < 0 {
		n = 0
	}
	if int(n) >= cap(h.b) {
		h.b = make([]byte, n+1)
	}
	h.b = h.b[:n]
	return h.Data()
}

// Input is the first n bytes the host wrote.
func (h *Handoff) Input(n int32) []byte { return h.b[:n] }

// Data is the buffer's address: where the host reads the last reply.
func (h *Handoff) Data() int32 {
	return int32(uintptr(unsafe.Pointer(unsafe.SliceData(h.b[:cap(h.b)]))))
}

// Reply keeps a result in the buffer and returns its length.
//
//go:noinline
func (h *Handoff) Reply(b []byte) int32 {
	h.b = append(b, 0)[:len(b)] // capacity >= 1, so Data has an address
	return int32(len(b))
}

// The binding's own errors: input of the wrong type.
const (
	KeyInternal = "calc.err.internal"
	KeyType     = "calc.err.type" // {0} must be {1}
	KeyArray    = "calc.err.array"
	KeyModel    = "calc.err.model"
)

// Failure is the result {ok: false, error: {key, args[, line, col]}} of
// err (a message of the engine or the parser; another error is internal),
// or of key and the arguments s, n when err is nil.
//
//go:noinline
func Failure(err error, key, s, n string) []byte {
	args := [5]string{s, n}
	shape := `{"ok":false,"error":{"key":$,"args":[$,$,$,$,$]}}`
	var pos []float64
	if err != nil {
		key, args = KeyInternal, [5]string{}
		if k, a, ok := sizing.Message(err); ok {
			key, args = k, a
		} else if e, ok := err.(*hfconfig.Error); ok {
			key, args, pos = e.Key, e.Args, []float64{float64(e.Line), float64(e.Col)}
			shape = `{"ok":false,"error":{"key":$,"args":[$,$,$,$,$],"line":#,"col":#}}`
		}
	}
	return Fill(nil, shape, pos, append([]string{key}, args[:]...))
}

// Fill appends shape to b, a JSON text in which '#' stands for the next of
// nums, '?' for the next of nums as a boolean (0 is false), '$' for the
// next of strs as a string and '%' and a letter for the next of nums as a
// quantity {n, u} (g GiB, f FLOPs, d a duration, l a latency, r a rate).
// Numbers are written in their shortest form, or as the tagged string
// when they are not finite. One writer for every output, instead of a
// call per field: every call site costs code in the WebAssembly build.
//
//go:noinline
func Fill(b []byte, shape string, nums []float64, strs []string) []byte {
	for i := 0; i < len(shape); i++ {
		switch c := shape[i]; c {
		case '#':
			x := nums[0]
			nums = nums[1:]
			switch {
			case x-x == 0:
				b = strconv.AppendFloat(b, x, 'g', -1, 64)
			case x > 0:
				b = AppendString(b, "\x00Infinity")
			case x < 0:
				b = AppendString(b, "\x00-Infinity")
			default:
				b = AppendString(b, "\x00NaN")
			}
		case '?':
			b = strconv.AppendBool(b, nums[0] != 0)
			nums = nums[1:]
		case '$':
			b = AppendString(b, strs[0])
			strs = strs[1:]
		case '%':
			i++
			x := nums[0]
			nums = nums[1:]
			var q sizing.Quantity
			switch shape[i] {
			case 'g':
				q = sizing.GiBQuantity(int64(x))
			case 'f':
				q = sizing.FLOPsQuantity(x)
			case 'd':
				q = sizing.DurationQuantity(x)
			case 'l':
				q = sizing.LatencyQuantity(x)
			default:
				q = sizing.RateQuantity(x)
			}
			b = AppendString(append(AppendString(append(b, `{"n":`...), q.Num), `,"u":`...), q.Unit)
			b = append(b, '}')
		default:
			b = append(b, c)
		}
	}
	return b
}

// AppendString appends s as a JSON string.
//
//go:noinline
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			const hex = "0123456789abcdef"
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// Spec says where one input field goes: the value under Key into P, an
// *int, *int64, *float64, *string or *bool.
type Spec struct {
	_   sizing.NoCompare
	Key string
	P   any
}

// ReadFields copies the set fields of v into their destinations, checking
// their types; it returns the failure result or nil.
//
//go:noinline
func ReadFields(v *jsonpos.Value, specs []Spec) []byte {
	for _, s := range specs {
		f := v.Get(s.Key)
		if !f.Present() {
			continue
		}
		x, num := f.Number()
		text, isText := f.Text()
		switch text { // a number that is not finite, as it crosses
		case "\x00NaN":
			x, num, isText = math.NaN(), true, false
		case "\x00Infinity":
			x, num, isText = math.Inf(1), true, false
		case "\x00-Infinity":
			x, num, isText = math.Inf(-1), true, false
		}
		if !num {
			x = 0.5 // not whole, not read unless num
		}
		whole := x == math.Trunc(x)
		want := "number"
		switch p := s.P.(type) {
		case *string:
			if want = "string"; isText {
				*p = text
				continue
			}
		case *bool:
			want = "bool"
			if b, ok := f.Bool(); ok {
				*p = b
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
		return Failure(nil, KeyType, s.Key, want)
	}
	return nil
}

// ModelSpecs are the model fields, in the order of the input and the
// config object (sizing.ModelFields, under their JS keys).
//
//go:noinline
func ModelSpecs(m *sizing.Model) []Spec {
	fs := sizing.ModelFields()
	out := make([]Spec, len(fs))
	for i, f := range fs {
		out[i] = Spec{Key: f.JS, P: f.Ref(m)}
	}
	return out
}

// ReadGPU reads a GPU object {id, name, memoryBytes, bandwidth, bf16Flops,
// fp8Flops, fp32Flops, link, precisions}.
//
//go:noinline
func ReadGPU(v *jsonpos.Value) (sizing.GPU, []byte) {
	var g sizing.GPU
	fail := ReadFields(v, []Spec{
		{Key: "id", P: &g.ID}, {Key: "name", P: &g.Name}, {Key: "memoryBytes", P: &g.MemoryBytes},
		{Key: "bandwidth", P: &g.BandwidthBytesPerSec}, {Key: "bf16Flops", P: &g.DenseBF16FLOPS}, {Key: "fp8Flops", P: &g.DenseFP8FLOPS}, {Key: "fp32Flops", P: &g.FP32FLOPS},
		{Key: "link", P: &g.LinkBytesPerSec}, {Key: "precisions", P: &g.Precisions},
	})
	return g, fail
}

// ReadLoad reads the load object under "load" of v {rate (requests/s),
// prompt, answer (tokens), ttft, tpot (targets in ms, as the form and the
// CLI take them; 0: none)} into a sizing.Load (targets in seconds); no
// load object is the zero Load.
//
//go:noinline
func ReadLoad(v *jsonpos.Value) (sizing.Load, []byte) {
	var l sizing.Load
	fail := ReadFields(v.Get("load"), []Spec{{Key: "rate", P: &l.Rate}, {Key: "prompt", P: &l.Prompt},
		{Key: "answer", P: &l.Answer}, {Key: "ttft", P: &l.TTFT}, {Key: "tpot", P: &l.TPOT}})
	l.TTFT /= 1000
	l.TPOT /= 1000
	return l, fail
}

// ReadRows reads the array under key of v, each item an array of exactly
// n numbers, as rows of n numbers (none when the key is absent).
//
//go:noinline
func ReadRows(v *jsonpos.Value, key string, n int) ([][]float64, []byte) {
	o := v.Get(key)
	if !o.Present() {
		return nil, nil
	}
	if o.Len() < 0 {
		return nil, Failure(nil, KeyArray, key, "")
	}
	out := make([][]float64, o.Len())
	for i := range out {
		row := o.Index(i)
		if row.Len() != n {
			return nil, Failure(nil, KeyArray, key, "")
		}
		out[i] = make([]float64, n)
		for k := range out[i] {
			f, ok := row.Index(k).Number()
			if !ok {
				return nil, Failure(nil, KeyArray, key, "")
			}
			out[i][k] = f
		}
	}
	return out, nil
}

// ReadOffers reads the offers under "offers", each [gpu index, GPUs per
// instance, billing mode index, price per instance-hour, stale (0 or 1)].
//
//go:noinline
func ReadOffers(v *jsonpos.Value) ([]sizing.Offer, []byte) {
	o := v.Get("offers")
	if !o.Present() {
		return nil, nil
	}
	if o.Len() < 0 {
		return nil, Failure(nil, KeyArray, "offers", "")
	}
	out := make([]sizing.Offer, o.Len())
	for i := range out {
		row := o.Index(i)
		var x [5]float64
		for k := range x {
			f, ok := 0.0, row.Len() == len(x) // a row of another length has no item k
			if ok {
				f, ok = row.Index(k).Number()
			}
			if !ok {
				return nil, Failure(nil, KeyArray, "offers", "")
			}
			x[k] = f
		}
		out[i] = sizing.Offer{GPU: int(x[0]), GPUs: int(x[1]), Mode: int(x[2]), Price: x[3], Stale: x[4] != 0}
	}
	return out, nil
}
