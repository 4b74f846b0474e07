package wasmio

import (
	"encoding/json"
	"math"
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
