package sizing

import (
	"math"
	"testing"
)

func TestDisplay(t *testing.T) {
	tests := []struct{ got, want string }{
		{FormatGiB(0), "0.00 GiB"},
		{FormatGiB(1 << 30), "1.00 GiB"},
		{FormatGiB(16_060_522_496), "14.96 GiB"}, // 8.03e9 params x 2 bytes (Llama 3 8B at bf16)
		{FormatGiB(40 << 20), "0.04 GiB"},
		{FormatFLOPs(0), "–"},
		{FormatFLOPs(5.88e23), "5.88e+23 FLOPs"},
		{FormatRate(41.25), "41.2 tokens/s"},
		{FormatRate(0), "–"},
		{FormatDuration(3600 * 12.5), "12.5 h"},
		{FormatDuration(3600 * 72), "3.0 days"},
		{FormatDuration(0), "–"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

// TestQuantityName checks the unit names templates print with the
// edition's unit strings (serve.u.<name>).
func TestQuantityName(t *testing.T) {
	tests := []struct {
		q         Quantity
		num, name string
		english   string
	}{
		{LatencyQuantity(0.0423), "42.3", "ms", "42.3 ms"},
		{LatencyQuantity(2.5), "2.50", "s", "2.50 s"},
		{RateQuantity(41.25), "41.2", "rate", "41.2 tokens/s"},
		{RateQuantity(0), "", "none", "–"},
		{GiBQuantity(1 << 30), "1.00", "gib", "1.00 GiB"},
		{Quantity{}, "", "none", ""},
	}
	for _, tt := range tests {
		if tt.q.Num != tt.num || tt.q.Name() != tt.name || (tt.q.Unit != "" && tt.q.English() != tt.english) {
			t.Errorf("%+v: num %q name %q english %q, want %q %q %q", tt.q, tt.q.Num, tt.q.Name(), tt.q.English(), tt.num, tt.name, tt.english)
		}
	}
}

func TestRound3(t *testing.T) {
	for _, c := range []struct{ in, want float64 }{{166026, 166000}, {1200251, 1200000}, {52.965, 53}, {0.031149, 0.0311}, {0, 0}, {-4567, -4570}} {
		if got := Round3(c.in); math.Abs(got-c.want) > 1e-9*math.Abs(c.want) {
			t.Errorf("Round3(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestGroup(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0"}, {7, "7"}, {999, "999"}, {1000, "1,000"}, {8192, "8,192"}, {131072, "131,072"}, {1234567, "1,234,567"},
		{-1000, "-1,000"}, {-100, "-100"}, {-123456, "-123,456"}} {
		if got := Group(c.n); got != c.want {
			t.Errorf("Group(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestFormatLabel(t *testing.T) {
	for _, c := range []struct {
		d, kv DType
		q     Quant
		want  string
	}{{BF16, BF16, "", "bf16 / bf16"}, {INT4, FP8, AWQ, "int4 (awq) / fp8"}, {FP8, BF16, "", "fp8 / bf16"}} {
		if got := FormatLabel(c.d, c.q, c.kv); got != c.want {
			t.Errorf("FormatLabel(%s, %q, %s) = %q, want %q", c.d, c.q, c.kv, got, c.want)
		}
	}
}
