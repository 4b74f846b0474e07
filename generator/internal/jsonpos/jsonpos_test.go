package jsonpos

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

// TestDecimal checks the number reader against strconv.ParseFloat: on
// literals people write, and on the shortest form of random float64s in
// both Go's and JavaScript's spelling (JSON.stringify writes 1e21 and up,
// and below 1e-6, with an exponent; other values in plain decimals), which
// is how the calculator's WebAssembly binding receives its numbers.
func TestDecimal(t *testing.T) {
	for _, s := range []string{"0", "-0", "1", "4096", "0.35", "0.1", "0.3", "0.30000000000000004", "1e-06", "1E+3",
		"9007199254740993", "123456789012345678901234", "989.4e12", "3.35e12", "1.7976931348623157e308", "5e-324",
		"0.000001234", "2.5e-7", "12345678901234567890", "1e300", "-2.2250738585072014e-308", "0.0", "00.5"} {
		want, err := strconv.ParseFloat(s, 64)
		if err != nil || want > 1e300 {
			want = math.Min(want, 1e300)
		}
		if got := decimal(s); got != want && s != "123456789012345678901234" && s != "12345678901234567890" {
			t.Errorf("decimal(%q) = %v, want %v", s, got, want)
		}
	}
	// Past 19 significant digits the reader approximates (within a few
	// units in the last place); JSON writers never need that many.
	for _, s := range []string{"123456789012345678901234", "12345678901234567890"} {
		want, _ := strconv.ParseFloat(s, 64)
		if got := decimal(s); math.Abs(got-want) > 8*(math.Nextafter(want, math.Inf(1))-want) {
			t.Errorf("decimal(%q) = %v, want about %v", s, got, want)
		}
	}
	r := rand.New(rand.NewSource(12))
	for n := 0; n < 200000; n++ {
		var x float64
		switch n % 3 {
		case 0:
			x = math.Float64frombits(r.Uint64() &^ (1 << 63))
		case 1:
			x = r.Float64() * math.Pow(10, float64(r.Intn(40)-20))
		default:
			x = float64(r.Intn(1000000)) / 100
		}
		if math.IsNaN(x) || math.IsInf(x, 0) || x > 1e300 {
			continue
		}
		for _, s := range []string{strconv.FormatFloat(x, 'g', -1, 64), jsNumber(x)} {
			if got := decimal(s); got != x {
				t.Fatalf("decimal(%q) = %v (%x), want %v (%x)", s, got, math.Float64bits(got), x, math.Float64bits(x))
			}
		}
	}
}

// jsNumber spells x as JavaScript's Number.prototype.toString does
// (ECMA-262 Number::toString): the shortest digits, in plain decimals for
// 1e-7 <= x < 1e21, else d.ddde+n or d.ddde-n.
func jsNumber(x float64) string {
	if x == 0 {
		return "0"
	}
	e := strconv.FormatFloat(x, 'e', -1, 64)
	mant, exp := e[:len(e)-4], e[len(e)-3:]
	if e[len(e)-4] != 'e' { // three-digit exponent
		mant, exp = e[:len(e)-5], e[len(e)-4:]
	}
	n, _ := strconv.Atoi(exp)
	if n >= 21 {
		return mant + "e+" + strconv.Itoa(n)
	}
	if n < -6 {
		return mant + "e" + strconv.Itoa(n)
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// TestAccessors checks the accessors hfconfig and the WebAssembly binding
// read values with.
func TestAccessors(t *testing.T) {
	j, err := Parse([]byte(`{"n": 0.35, "s": "a\"b", "t": true, "z": null, "a": [1, "x"], "o": {"k": 2}, "nan": NaN, "n": 7}`))
	if err != nil {
		t.Fatal(err)
	}
	if j.Kind() != Object || j.Len() != -1 {
		t.Errorf("document: kind %v, len %d", j.Kind(), j.Len())
	}
	if n, ok := j.Get("n").Number(); !ok || n != 7 || j.Get("n").Literal() != "7" { // the last of a repeated key
		t.Errorf("n = %v %v %q", n, ok, j.Get("n").Literal())
	}
	if s, ok := j.Get("s").Text(); !ok || s != `a"b` {
		t.Errorf("s = %q %v", s, ok)
	}
	if b, ok := j.Get("t").Bool(); !ok || !b {
		t.Errorf("t = %v %v", b, ok)
	}
	if _, ok := j.Get("t").Number(); ok {
		t.Error("a boolean read as a number")
	}
	if _, ok := j.Get("nan").Number(); ok || j.Get("nan").Kind() != Number || j.Get("nan").Literal() != "NaN" {
		t.Error("NaN read as a finite number, or not as a number")
	}
	if j.Get("z").Present() || j.Get("missing").Present() || !j.Get("t").Present() {
		t.Error("Present: null and missing keys are absent, others present")
	}
	a := j.Get("a")
	if a.Len() != 2 || a.Kind() != Array {
		t.Fatalf("a has %d items", a.Len())
	}
	if s, ok := a.Index(1).Text(); !ok || s != "x" {
		t.Errorf("a[1] = %q", s)
	}
	if n, _ := j.Get("o").Get("k").Number(); n != 2 || j.Get("a").Get("k").Present() {
		t.Errorf("o.k = %v; a.k present %v", n, j.Get("a").Get("k").Present())
	}
	if o := j.Get("o"); o.Line != 1 || o.Col != 68 {
		t.Errorf("o at %d:%d, want 1:68", o.Line, o.Col)
	}
	var absent *Value
	if absent.Present() || absent.Kind() != Absent || absent.Len() != -1 || absent.Get("x").Present() || absent.Literal() != "" {
		t.Error("a nil *Value is not absent")
	}
}

// TestErrors checks each syntax error's code, character and position
// (lines and columns count characters, not bytes).
func TestErrors(t *testing.T) {
	for _, c := range []struct {
		src, code, arg string
		line, col      int
	}{
		{`{"a": }`, "char", `"}"`, 1, 7},
		{"{\n  \"a\": 1,\n  \"b\"\n}", "char", `"}"`, 4, 1},
		{`{"名前": x}`, "char", `"x"`, 1, 8},
		{`{"a": 1`, "eof", "", 1, 8},
		{``, "eof", "", 1, 1},
		{`[1, 2] 3`, "trailing", "", 1, 8},
		{`{"a": "abc`, "unterminated", "", 1, 7},
		{`"\q"`, "escape", "", 1, 3},
		{`"\u12g4"`, "escape", "", 1, 3},
		{"\"a\tb\"", "char", "0x09", 1, 3},
		{`01`, "trailing", "", 1, 2},
		{`-`, "eof", "", 1, 2},
		{`1.`, "eof", "", 1, 3},
		{`tru`, "char", `"t"`, 1, 1},
		{strings.Repeat("[", 65) + strings.Repeat("]", 65), "depth", "", 1, 65},
	} {
		v, err := Parse([]byte(c.src))
		if err == nil {
			t.Errorf("%q: no error (kind %v)", c.src, v.Kind())
			continue
		}
		if err.Code != c.code || err.Arg != c.arg || err.Line != c.line || err.Col != c.col {
			t.Errorf("%q: %s %s at %d:%d, want %s %s at %d:%d", c.src, err.Code, err.Arg, err.Line, err.Col, c.code, c.arg, c.line, c.col)
		}
	}
	// Nesting up to the limit, and a byte order mark, are fine.
	if _, err := Parse([]byte("\xEF\xBB\xBF" + strings.Repeat("[", 64) + strings.Repeat("]", 64))); err != nil {
		t.Errorf("64 levels after a BOM: %v", err.Code)
	}
}

// FuzzParse checks that Parse accepts exactly what encoding/json accepts
// (but for its documented extensions: NaN, Infinity, a byte order mark,
// and its depth limit), and reads the same strings and numbers.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a": [1, 2.5e3, "x\u00e9"], "b": {"c": null, "d": true}}`, `[]`, `"\ud83d\ude00"`, `-0.0e-0`, `{"a":1,"a":2}`, `[1,]`, `{"a" 1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		v, err := Parse(src)
		if bytes.Contains(src, []byte("NaN")) || bytes.Contains(src, []byte("Infinity")) || bytes.HasPrefix(src, []byte("\xEF\xBB\xBF")) || (err != nil && err.Code == "depth") {
			return
		}
		if valid := json.Valid(src); valid != (err == nil) {
			t.Fatalf("%q: encoding/json valid %v, Parse error %v", src, valid, err)
		}
		if err != nil {
			if err.Line < 1 || err.Col < 1 {
				t.Fatalf("%q: error at %d:%d", src, err.Line, err.Col)
			}
			return
		}
		var want any
		d := json.NewDecoder(bytes.NewReader(src))
		d.UseNumber()
		if d.Decode(&want) != nil {
			t.Fatalf("%q: encoding/json cannot decode what it called valid", src)
		}
		same(t, string(src), v, want)
	})
}

// same compares a Value with encoding/json's reading of it (keys: the last
// of a repeated key, as both keep).
func same(t *testing.T, src string, v *Value, want any) {
	t.Helper()
	switch w := want.(type) {
	case nil:
		if v.Kind() != Null {
			t.Fatalf("%q: got kind %v, want null", src, v.Kind())
		}
	case bool:
		if b, ok := v.Bool(); !ok || b != w {
			t.Fatalf("%q: got %v %v, want %v", src, b, ok, w)
		}
	case string:
		if s, ok := v.Text(); !ok || replaceInvalid(s) != w {
			t.Fatalf("%q: got %q %v, want %q", src, s, ok, w)
		}
	case json.Number:
		x, ok := v.Number()
		y, _ := strconv.ParseFloat(string(w), 64)
		if !ok || v.Literal() != string(w) || (x != math.Min(y, 1e300) && x != math.Max(y, -1e300) && math.Abs(x-y) > 1e-15*math.Abs(y)) {
			t.Fatalf("%q: got %v (%q), want %v", src, x, v.Literal(), y)
		}
	case []any:
		if v.Len() != len(w) {
			t.Fatalf("%q: got %d items, want %d", src, v.Len(), len(w))
		}
		for i := range w {
			same(t, src, v.Index(i), w[i])
		}
	case map[string]any:
		if v.Kind() != Object {
			t.Fatalf("%q: got kind %v, want an object", src, v.Kind())
		}
		got := map[string]*Value{} // by key as encoding/json spells it
		for _, m := range v.members {
			got[replaceInvalid(m.key)] = m.val
		}
		if len(got) != len(w) {
			t.Fatalf("%q: got %d keys, want %d", src, len(got), len(w))
		}
		for k, x := range w {
			same(t, src, got[k], x)
		}
	}
}

// replaceInvalid replaces each byte of s that is not part of valid UTF-8
// with U+FFFD, as encoding/json does (Parse keeps the bytes as read).
func replaceInvalid(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r) // ranging over a string yields U+FFFD for each bad byte
	}
	return b.String()
}
