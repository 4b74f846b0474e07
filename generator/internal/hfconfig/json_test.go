package hfconfig

import (
	"math"
	"math/rand"
	"strconv"
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

// TestReadJSON checks the accessors the WebAssembly binding reads its
// input with.
func TestReadJSON(t *testing.T) {
	j, err := ReadJSON([]byte(`{"n": 0.35, "s": "a\"b", "t": true, "z": null, "a": [1, "x"], "o": {"k": 2}, "nan": NaN, "n": 7}`))
	if err != nil {
		t.Fatal(err)
	}
	if !j.IsObject() || j.Len() != -1 {
		t.Errorf("document: object %v, len %d", j.IsObject(), j.Len())
	}
	if n, ok := j.Get("n").Number(); !ok || n != 7 { // the last of a repeated key
		t.Errorf("n = %v %v", n, ok)
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
	if _, ok := j.Get("nan").Number(); ok {
		t.Error("NaN read as a finite number")
	}
	if j.Get("z").Present() || j.Get("missing").Present() || !j.Get("t").Present() {
		t.Error("Present: null and missing keys are absent, others present")
	}
	a := j.Get("a")
	if a.Len() != 2 {
		t.Fatalf("a has %d items", a.Len())
	}
	if s, ok := a.Index(1).Text(); !ok || s != "x" {
		t.Errorf("a[1] = %q", s)
	}
	if n, _ := j.Get("o").Get("k").Number(); n != 2 || j.Get("a").Get("k").Present() {
		t.Errorf("o.k = %v; a.k present %v", n, j.Get("a").Get("k").Present())
	}
	var absent JSON
	if absent.Present() || absent.IsObject() || absent.Len() != -1 || absent.Get("x").Present() {
		t.Error("the zero JSON is not absent")
	}
	if _, err := ReadJSON([]byte(`{"a": }`)); err == nil || err.(*Error).Key != KeyPrefix+"char" || err.(*Error).Col != 7 {
		t.Errorf("bad document: %v", err)
	}
}
