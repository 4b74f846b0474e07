package browsertest

import (
	"math"
	"math/big"
	"strings"
	"testing"
)

// jsToFixed formats x as JavaScript's Number.prototype.toFixed(digits)
// does, so that the tests can compute in Go the text a page script writes.
// It rounds the exact binary value, and a tie away from zero, where Go's
// strconv.FormatFloat rounds a tie to even: (2.125).toFixed(2) is "2.13",
// strconv.FormatFloat(2.125, 'f', 2, 64) is "2.12".
func jsToFixed(x float64, digits int) string {
	if math.IsNaN(x) {
		return "NaN"
	}
	neg := x < 0
	if neg {
		x = -x
	}
	r := new(big.Rat).SetFloat64(x) // exact
	r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(digits)), nil)))
	r.Add(r, big.NewRat(1, 2))
	n := new(big.Int).Quo(r.Num(), r.Denom()) // floor, r > 0
	s := n.String()
	if digits > 0 {
		if len(s) <= digits {
			s = strings.Repeat("0", digits-len(s)+1) + s
		}
		s = s[:len(s)-digits] + "." + s[len(s)-digits:]
	}
	if neg { // (-0.0001).toFixed(2) is "-0.00"
		s = "-" + s
	}
	return s
}

// jsMoney is the money() of the page scripts (pricing.js, tco.js): three
// decimals below 1, else two, then the currency code.
func jsMoney(v float64, cur string) string {
	if v < 1 {
		return jsToFixed(v, 3) + " " + cur
	}
	return jsToFixed(v, 2) + " " + cur
}

func TestJSToFixed(t *testing.T) {
	for _, c := range []struct {
		x      float64
		digits int
		want   string
	}{
		{2.125, 2, "2.13"}, {0.5, 0, "1"}, {1.005, 2, "1.00"}, {0.0005, 3, "0.001"}, {0, 3, "0.000"},
		{12.3456, 4, "12.3456"}, {730, 1, "730.0"}, {0.061, 3, "0.061"}, {-1.5, 0, "-2"}, {-0.0001, 2, "-0.00"},
		{1234.5678, 2, "1234.57"},
	} {
		if got := jsToFixed(c.x, c.digits); got != c.want {
			t.Errorf("jsToFixed(%v, %d) = %q, want %q", c.x, c.digits, got, c.want)
		}
	}
}
