package browsertest

import "testing"

// TestCalculatorLinksWhatFits: the calculator links the chosen GPU's list
// of the presets that fit one of it (its page's #one-gpu section, which
// Go computes), and the link follows the GPU the reader picks (once the
// engine, loaded on the first change, has answered), in the
// edition's words.
func TestCalculatorLinksWhatFits(t *testing.T) {
	t.Parallel()
	base := Site(t)
	b := New(t, base)
	b.Navigate("zh/calculator/")
	b.WaitReady("#gpu-fits")
	b.SetValue("#f-gpu", "rtx-4090")
	b.Poll(`document.getElementById("gpu-fits").getAttribute("href") === "/zh/gpus/rtx-4090/#one-gpu"`, `document.getElementById("gpu-fits").outerHTML`)
	if got, want := b.Text("#gpu-fits"), "单块 GeForce RTX 4090 能运行的模型"; got != want {
		t.Errorf("link text %q, want %q", got, want)
	}
	b.Follow(0, func() { b.Click("#gpu-fits") })
	b.WaitReady("#one-gpu table")
}
