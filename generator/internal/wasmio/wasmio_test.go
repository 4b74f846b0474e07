package wasmio

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/jsonpos"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

func TestFill(t *testing.T) {
	for _, c := range []struct {
		shape string
		nums  []float64
		strs  []string
		want  string
	}{
		{`{"a":#,"b":?,"c":$}`, []float64{0.1, 1}, []string{`q"\` + "\n"}, `{"a":0.1,"b":true,"c":"q\"\\\u000a"}`},
		{`[#,#,#]`, []float64{math.Inf(1), math.Inf(-1), math.NaN()}, nil, `["\u0000Infinity","\u0000-Infinity","\u0000NaN"]`},
		{`%g`, []float64{1 << 30}, nil, `{"n":"1.00","u":"sizing.unit.gib"}`},
		{`%l`, []float64{0.0125}, nil, `{"n":"12.5","u":"sizing.unit.ms"}`},
		{`%r`, []float64{0}, nil, `{"n":"","u":"sizing.unit.none"}`},
	} {
		got := string(Fill(nil, c.shape, c.nums, c.strs))
		if got != c.want {
			t.Errorf("Fill(%q) = %s, want %s", c.shape, got, c.want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("Fill(%q) = %s: not JSON", c.shape, got)
		}
	}
}

func TestReadFields(t *testing.T) {
	var (
		n    int
		x    float64
		s    string
		b    bool
		bits int64
	)
	specs := []Spec{{Key: "n", P: &n}, {Key: "x", P: &x}, {Key: "s", P: &s}, {Key: "b", P: &b}, {Key: "bits", P: &bits}}
	v, err := jsonpos.Parse([]byte(`{"n": 3, "x": 0.5, "s": "hi", "b": true, "bits": 9007199254740992}`))
	if err != nil {
		t.Fatal(err)
	}
	if fail := ReadFields(v, specs); fail != nil || n != 3 || x != 0.5 || s != "hi" || !b || bits != 1<<53 {
		t.Fatalf("ReadFields: %s; n %d x %v s %q b %v bits %d", fail, n, x, s, b, bits)
	}
	for _, c := range []struct{ in, want string }{
		{`{"n": 1.5}`, `{"ok":false,"error":{"key":"calc.err.type","args":["n","whole","","",""]}}`},
		{`{"s": 1}`, `{"ok":false,"error":{"key":"calc.err.type","args":["s","string","","",""]}}`},
		{`{"x": "\u0000NaN"}`, `{"ok":false,"error":{"key":"calc.err.type","args":["x","number","","",""]}}`},
		{`{"b": 0}`, `{"ok":false,"error":{"key":"calc.err.type","args":["b","bool","","",""]}}`},
	} {
		v, err := jsonpos.Parse([]byte(c.in))
		if err != nil {
			t.Fatal(err)
		}
		if got := string(ReadFields(v, specs)); got != c.want {
			t.Errorf("ReadFields(%s) = %s, want %s", c.in, got, c.want)
		}
	}
	if got := len(ModelSpecs(&sizing.Model{})); got != len(sizing.ModelFields()) {
		t.Errorf("ModelSpecs has %d specs, sizing.ModelFields %d", got, len(sizing.ModelFields()))
	}
}

func TestHandoff(t *testing.T) {
	var h Handoff
	for _, n := range []int32{-1, 0, 5, 3, 64} {
		h.Buffer(n)
		if got := len(h.Input(max(n, 0))); got != int(max(n, 0)) {
			t.Errorf("Buffer(%d): input of %d bytes", n, got)
		}
		if h.Data() == 0 {
			t.Errorf("Buffer(%d): no address", n)
		}
	}
	out := []byte(`{"ok":true}`)
	if n := h.Reply(out); n != int32(len(out)) || string(h.Input(n)) != string(out) {
		t.Errorf("Reply: %d, buffer %q", n, h.Input(n))
	}
	if n := h.Reply(nil); n != 0 || h.Data() == 0 {
		t.Errorf("Reply(nil): %d, address %d", n, h.Data())
	}
}

// TestReaders: the shared readers of a GPU, a load and rows of numbers
// (offers, usage prices), and the failure each gives on bad input.
func TestReaders(t *testing.T) {
	parse := func(s string) *jsonpos.Value {
		t.Helper()
		v, err := jsonpos.Parse([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	g, fail := ReadGPU(parse(`{"id": "h100", "name": "H100", "memoryBytes": 85899345920, "bandwidth": 3.35e12, "bf16Flops": 9.89e14, "precisions": "fp8 bf16"}`))
	if fail != nil || g.ID != "h100" || g.MemoryBytes != 80<<30 || g.BandwidthBytesPerSec != 3.35e12 || g.DenseBF16FLOPS != 9.89e14 || g.Precisions != "fp8 bf16" {
		t.Errorf("ReadGPU = %+v, %s", g, fail)
	}
	l, fail := ReadLoad(parse(`{"load": {"rate": 20, "prompt": 2000, "answer": 300, "ttft": 1000, "tpot": 30}}`))
	if fail != nil || l.Rate != 20 || l.Prompt != 2000 || l.Answer != 300 || l.TTFT != 1 || l.TPOT != 0.03 {
		t.Errorf("ReadLoad = %+v, %s", l, fail)
	}
	if l, fail := ReadLoad(parse(`{}`)); fail != nil || l.Rate != 0 || l.Prompt != 0 || l.TTFT != 0 {
		t.Errorf("ReadLoad without a load = %+v, %s; want the zero load", l, fail)
	}
	o, fail := ReadOffers(parse(`{"offers": [[0, 8, 1, 24.5, 0], [2, 1, 0, 1.2, 1]]}`))
	if fail != nil || len(o) != 2 || o[0].GPUs != 8 || o[0].Mode != 1 || o[0].Price != 24.5 || o[0].Stale || o[1].GPU != 2 || !o[1].Stale {
		t.Errorf("ReadOffers = %+v, %s", o, fail)
	}
	rows, fail := ReadRows(parse(`{"usage": [[-1, 0, 0, 0.2, 0.4, 0]]}`), "usage", 6)
	if fail != nil || len(rows) != 1 || rows[0][0] != -1 || rows[0][4] != 0.4 {
		t.Errorf("ReadRows = %v, %s", rows, fail)
	}
	for _, c := range []struct{ name, in, want string }{
		{"gpu memory not a number", `{"memoryBytes": "80"}`, `"args":["memoryBytes","whole"`},
		{"load rate not a number", `{"load": {"rate": "x"}}`, `"args":["rate","number"`},
		{"offers not an array", `{"offers": 3}`, `"args":["offers"`},
		{"an offer row too short", `{"offers": [[0, 8, 1, 24.5]]}`, `"args":["offers"`},
		{"an offer row not an array", `{"offers": [7]}`, `"args":["offers"`},
		{"a usage figure not a number", `{"usage": [[-1, 0, 0, "a", 0.4, 0]]}`, `"args":["usage"`},
	} {
		v := parse(c.in)
		var fail []byte
		switch {
		case c.name[:3] == "gpu":
			_, fail = ReadGPU(v)
		case c.name[:4] == "load":
			_, fail = ReadLoad(v)
		case c.name[:5] == "usage" || c.name[:7] == "a usage":
			_, fail = ReadRows(v, "usage", 6)
		default:
			_, fail = ReadOffers(v)
		}
		if !json.Valid(fail) || !strings.Contains(string(fail), c.want) {
			t.Errorf("%s: %s, want a failure with %s", c.name, fail, c.want)
		}
	}
}
