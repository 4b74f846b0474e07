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
// /pricing/: it sets one control, fires its input event and resolves, on
// the first animation frame after the row count (#shown) changes, with
// the milliseconds from the event to that frame and the number of rows
// shown.
const firstFilter = `new Promise((resolve) => {
  const shown = document.getElementById("shown");
  const before = shown.textContent;
  const el = document.querySelector(%q);
  el.value = %q;
  const t0 = performance.now();
  new MutationObserver((_, obs) => {
    if (shown.textContent === before || /…|\.\.\./.test(shown.textContent)) return;
    obs.disconnect();
    requestAnimationFrame(() => resolve({ms: performance.now() - t0,
      rows: [...document.querySelectorAll("#prices tbody tr")].filter((r) => !r.hidden).length}));
  }).observe(shown, {childList: true, characterData: true, subtree: true});
  el.dispatchEvent(new Event("input", {bubbles: true}));
})`

// BenchmarkFirstFilter measures the time from a reader's first filter on
// /pricing/ (a fresh load, the HTTP cache off) to the frame that shows
// its rows, with the CPU throttled 4x as Lighthouse's mobile profile
// does, on the repository's site. It reports ms/filter (the mean) and
// the rows shown; ns/op counts the page loads too and is not the figure.
func BenchmarkFirstFilter(b *testing.B) {
	site := BuildRepo(b)
	for _, c := range []struct{ name, sel, value string }{
		{"gpu=h100-sxm5-80gb", "#f-gpu", "h100-sxm5-80gb"},
		{"country=CN", "#f-country", "CN"},
	} {
		b.Run(c.name, func(b *testing.B) {
			br := New(b, site)
			cdpDo(br, "cache off", func(ctx context.Context, t *chromedp.Target) error {
				_, err := cdp.Call(ctx, t, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true})
				return err
			})
			var total float64
			var rows int
			for range b.N {
				br.Navigate("pricing/")
				throttle(br, 4)
				var got struct {
					MS   float64
					Rows int
				}
				br.Eval(fmt.Sprintf(firstFilter, c.sel, c.value), &got)
				throttle(br, 1)
				total += got.MS
				rows = got.Rows
			}
			b.ReportMetric(total/float64(b.N), "ms/filter")
			b.ReportMetric(float64(rows), "rows")
		})
	}
}

// throttle slows the tab's CPU by rate (1: full speed).
func throttle(b *Browser, rate float64) {
	cdpDo(b, "CPU throttling", func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate})
		return err
	})
}

// cdpDo runs one DevTools call with the step timeout.
func cdpDo(b *Browser, what string, f func(context.Context, *chromedp.Target) error) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, Timeout)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Func(f)); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}
