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
