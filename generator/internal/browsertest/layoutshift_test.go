package browsertest

import (
	"context"
	"fmt"
	"sort"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// layoutShiftPages are the pages TestNoLayoutShift loads: the ones
// Lighthouse scores, those whose scripts show controls or content
// (pricing, TCO, compare), and long pages of tables.
var layoutShiftPages = []string{"", "pricing/", "gpus/h100-sxm5-80gb/", "models/llama-3-1-8b/", "calculator/", "tco/",
	"guides/scenario-llm-fine-tuning/", "providers/aws/", "matrix/", "compare/"}

// screenBoxes is the page script that lists the blocks of main on the
// first screen, each keyed by its tag, id and first words, with its top.
const screenBoxes = `(() => {
  const out = {};
  for (const el of document.querySelectorAll("main h1, main h2, main h3, main p, main table, main form, main ul, main details, main section, main .table-wrap")) {
    const r = el.getBoundingClientRect();
    if (r.top >= innerHeight || r.bottom <= 0 || !r.height) continue;
    const key = el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + " " + JSON.stringify(el.textContent.trim().replace(/\s+/g, " ").slice(0, 50));
    if (!(key in out)) out[key] = Math.round(r.top);
  }
  return out;
})()`

// lateBoxes is the page script that lists the boxes on the first screen
// (shown: a folded row has no box) whose content-visibility is auto: Chromium paints such a box a frame
// after the rest when it is on screen at load, which moves what follows
// it.
const lateBoxes = `[...document.querySelectorAll("main, main *")]
  .filter((el) => getComputedStyle(el).contentVisibility === "auto" && el.getClientRects().length > 0 && el.getBoundingClientRect().top < innerHeight)
  .map((el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.className ? "." + String(el.className).split(" ").join(".") : ""))`

// TestNoLayoutShift: the pages' scripts move nothing a reader sees on
// the first screen, and no box there is painted late, on a phone and on
// a tall desktop window, in both editions. A script that shows a control
// or a line once it runs would push down what the reader started
// reading: each block of main on the first screen is where it is when
// the page's scripts are not loaded (JavaScript on, so <noscript> stays
// out). (A layout-shift observer would say so too, but it also counts a
// long table's columns widening while it is parsed, which varies from
// run to run.)
func TestNoLayoutShift(t *testing.T) {
	t.Parallel()
	base := Site(t)
	// A blocked request fails with no error text; a script that is
	// missing still answers 404, which is not allowed.
	b := New(t, base, `^request failed:\s+GET \S+/assets/js/`)
	scripts := func(b *Browser, on bool) {
		b.t.Helper()
		var ps []*network.BlockPattern
		if !on {
			ps = []*network.BlockPattern{{URLPattern: base + "assets/js/*", Block: true}}
		}
		run(b, "block scripts", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: ps})
			return err
		}))
	}
	for _, vp := range [][2]int64{{390, 844}, {1280, 2000}} {
		setViewport(b, vp[0], vp[1], vp[0] < 500)
		for _, ed := range []string{"", "zh/"} {
			for _, p := range layoutShiftPages {
				t.Run(fmt.Sprintf("%dx%d/%s%s", vp[0], vp[1], ed, p), func(t *testing.T) {
					tb := b.For(t)
					scripts(tb, false)
					tb.Navigate(ed + p)
					var before, after map[string]int
					tb.Eval(screenBoxes, &before)
					scripts(tb, true)
					tb.Navigate(ed + p)
					var late []string
					tb.Eval(`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(`+lateBoxes+`))))`, &late)
					tb.Eval(screenBoxes, &after)
					if len(late) > 0 {
						t.Errorf("boxes on the first screen are painted late (content-visibility: auto): %v", late)
					}
					if len(before) == 0 {
						t.Fatal("no block of main on the first screen: the test tests nothing")
					}
					var moved []string
					for k, top := range before {
						if a, ok := after[k]; ok && a != top {
							moved = append(moved, fmt.Sprintf("%s: %d px -> %d px", k, top, a))
						}
					}
					sort.Strings(moved)
					for _, m := range moved {
						t.Errorf("the page's script moves %s", m)
					}
				})
			}
		}
	}
}
