package browsertest

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// firstFilter is the page script that times a reader's first filter on
// /pricing/: it sets one control (selector %[1]q to %[2]q), fires its
// input event and resolves with the milliseconds from the event to the
// first frame, painted, where the table's first row is one the filter
// selects (it matches %[3]q): the first answer on screen; and to the
// painted frame where the row count (#shown) says the rows are in. When
// %[4]v, the control takes the focus first, as a reader's click or Tab
// gives it, and the change comes %[5]d ms later.
const firstFilter = `new Promise((resolve) => {
  const shown = document.getElementById("shown");
  const tbody = document.querySelector("#prices tbody");
  const el = document.querySelector(%[1]q);
  const painted = (f) => requestAnimationFrame(() => setTimeout(f, 0));
  const go = () => {
    const before = shown.textContent;
    el.value = %[2]q;
    const t0 = performance.now();
    let first = 0;
    const check = () => {
      if (!first && tbody.rows.length && tbody.rows[0].matches(%[3]q)) {
        first = -1;
        painted(() => { first = performance.now() - t0; });
      }
      if (shown.textContent !== before && !/…|\.\.\./.test(shown.textContent)) {
        obs.disconnect();
        painted(() => resolve({first: first > 0 ? first : performance.now() - t0, all: performance.now() - t0, rows: tbody.rows.length}));
      }
    };
    const obs = new MutationObserver(check);
    obs.observe(shown, {childList: true, characterData: true, subtree: true});
    obs.observe(tbody, {childList: true});
    el.dispatchEvent(new Event("input", {bubbles: true}));
  };
  if (%[4]v) {
    // A reader's click: the pointer goes down on the control, which
    // takes the focus.
    el.dispatchEvent(new PointerEvent("pointerdown", {bubbles: true}));
    el.focus();
    setTimeout(go, %[5]d);
  } else {
    go();
  }
})`

// focusedChoice is the time, in ms, between a reader focusing a filter
// and choosing its value in the "focused" cases: about what opening a
// select and picking an option takes.
const focusedChoice = 1500

// BenchmarkFirstFilter measures the time from a reader's first filter on
// /pricing/ (a fresh load, the HTTP cache off) to the frame that shows
// its rows, with the CPU throttled 4x as Lighthouse's mobile profile
// does, on the repository's site. It reports the mean time to the first
// matching rows on screen (ms/first-rows: the script puts a first screen
// of rows in before the rest) and to every row and the count
// (ms/all-rows), and the rows shown; ns/op counts the page loads too and
// is not the figure.
func BenchmarkFirstFilter(b *testing.B) {
	site := BuildRepo(b)
	for _, c := range []struct {
		name, sel, value, row string
		focus                 bool
	}{
		{"cold/gpu=h100-sxm5-80gb", "#f-gpu", "h100-sxm5-80gb", `[data-gpu="h100-sxm5-80gb"]`, false},
		{"cold/country=CN", "#f-country", "CN", `[data-countries~="CN"]`, false},
		{"focused/gpu=h100-sxm5-80gb", "#f-gpu", "h100-sxm5-80gb", `[data-gpu="h100-sxm5-80gb"]`, true},
		{"focused/country=CN", "#f-country", "CN", `[data-countries~="CN"]`, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			br := New(b, site)
			run(br, "cache off", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
				_, err := cdp.Call(ctx, t, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true})
				return err
			}))
			var first, all float64
			var rows int
			for range b.N {
				br.Navigate("pricing/")
				throttle(br, 4)
				var got struct {
					First, All float64
					Rows       int
				}
				br.Eval(fmt.Sprintf(firstFilter, c.sel, c.value, c.row, c.focus, focusedChoice), &got)
				throttle(br, 1)
				first += got.First
				all += got.All
				rows = got.Rows
			}
			b.ReportMetric(first/float64(b.N), "ms/first-rows")
			b.ReportMetric(all/float64(b.N), "ms/all-rows")
			b.ReportMetric(float64(rows), "rows")
		})
	}
}

// throttle slows the tab's CPU by rate (1: full speed).
func throttle(b *Browser, rate float64) {
	b.t.Helper()
	run(b, "CPU throttling", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate})
		return err
	}))
}
