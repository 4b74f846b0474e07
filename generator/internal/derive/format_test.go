package derive

import (
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
)

func TestCompact(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{0, "0"}, {999, "999"}, {1000, "1K"}, {8192, "8.2K"}, {124439808, "124M"}, {335141888, "335M"},
		{1_500_000_000, "1.5B"}, {7615616512, "7.6B"}, {8030261248, "8B"}, {70553706496, "70.6B"}, {99_960_000_000, "100B"},
		{405_000_000_000, "405B"}, {999_600_000, "1B"}, {999_499_999, "999M"}, {-2500, "-2.5K"}, {1_230_000_000_000, "1.2T"},
	} {
		if got := Compact(c.n); got != c.want {
			t.Errorf("Compact(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestGroup(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0"}, {12, "12"}, {999, "999"}, {1000, "1,000"}, {131072, "131,072"}, {1234567, "1,234,567"}, {-4096, "-4,096"}} {
		if got := Group(c.n); got != c.want {
			t.Errorf("Group(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestPerGBDC(t *testing.T) {
	r := &Row{Offer: &catalog.Offer{VRAMPerGPUGB: 80}, PerGPUDC: 2}
	if got := r.PerGBDC(); got != 0.025 {
		t.Errorf("PerGBDC = %v, want 0.025", got)
	}
	r.Offer.VRAMPerGPUGB = 0
	if got := r.PerGBDC(); got != 0 {
		t.Errorf("PerGBDC without VRAM = %v, want 0", got)
	}
}

func TestBreakable(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"gpu_8x_h100_sxm5", "gpu_<wbr>8x_<wbr>h100_<wbr>sxm5"},
		{"ecs.gn6e-c12g1.24xlarge", "ecs.<wbr>gn6e-<wbr>c12g1.<wbr>24xlarge"},
		{"a, b", "a, b"},
		{"x_", "x_"},
		{"<b>&_x", "&lt;b&gt;&amp;_<wbr>x"},
		{"", ""},
	} {
		if got := string(Breakable(c.in)); got != c.want {
			t.Errorf("Breakable(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
