package browsertest

import (
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
)

// TestRankingsHideStalePrices, in both editions: the home table and the
// GPU index by price leave out GPUs whose only prices are stale, and the
// checkbox above the table brings them back, ranked after the current
// ones.
func TestRankingsHideStalePrices(t *testing.T) {
	t.Parallel()
	base := Site(t)
	b := New(t, base)
	type rows struct {
		Shown, All, Stale int
		LastStale         bool // the stale rows come last
		Toggle            bool
	}
	read := func() rows {
		var r rows
		b.Eval(`(() => {
			const trs = [...document.querySelectorAll("table.gpus tbody tr")];
			const shown = trs.filter((tr) => getComputedStyle(tr).display !== "none");
			const stale = trs.filter((tr) => tr.classList.contains("stale-only"));
			const firstStale = trs.findIndex((tr) => tr.classList.contains("stale-only"));
			return {Shown: shown.length, All: trs.length, Stale: stale.length,
				LastStale: firstStale < 0 || trs.slice(firstStale).every((tr) => tr.classList.contains("stale-only") || tr.querySelector("td.price").textContent.trim() === "–"),
				Toggle: !!document.querySelector("#show-stale")};
		})()`, &r)
		return r
	}
	for _, page := range []string{"", "zh/", "gpus/by-price/", "zh/gpus/by-price/"} {
		b.Navigate(page)
		r := read()
		if r.Stale == 0 {
			t.Fatalf("/%s: no GPU with only stale prices in the fixture (the test needs one)", page)
		}
		if !r.Toggle || r.Shown != r.All-r.Stale || !r.LastStale {
			t.Errorf("/%s before the checkbox: %+v, want the %d stale-only rows hidden, last, and a checkbox", page, r, r.Stale)
		}
		b.Eval(`document.querySelector("#show-stale").click(), true`, nil)
		if r2 := read(); r2.Shown != r2.All {
			t.Errorf("/%s after the checkbox: %d of %d rows shown, want all", page, r2.Shown, r2.All)
		}
	}
}

// TestPhoneFoldsLongOfferTables: at 390 px a GPU or provider page shows
// its first render.PhoneRows offers and a checkbox that shows the rest; at
// 1280 px every row shows and the checkbox does not.
func TestPhoneFoldsLongOfferTables(t *testing.T) {
	t.Parallel()
	base := Site(t)
	b := New(t, base)
	count := func() (shown, all int, toggle bool) {
		var r struct {
			Shown, All int
			Toggle     bool
		}
		b.Eval(`(() => { const trs = [...document.querySelectorAll("table.offers tbody tr")];
			const l = document.querySelector("label.all-offers");
			return {Shown: trs.filter((tr) => getComputedStyle(tr).display !== "none").length, All: trs.length,
				Toggle: !!l && getComputedStyle(l).display !== "none"}; })()`, &r)
		return r.Shown, r.All, r.Toggle
	}
	for _, page := range []string{"gpus/h100-sxm5-80gb/", "zh/providers/aws/"} {
		setViewport(b, 390, 844, true)
		b.Navigate(page)
		shown, all, toggle := count()
		if all <= render.PhoneRows || shown != render.PhoneRows || !toggle {
			t.Errorf("/%s at 390 px: %d of %d rows shown, checkbox %v; want %d and a checkbox", page, shown, all, toggle, render.PhoneRows)
		}
		b.Eval(`document.querySelector("#all-offers").click(), true`, nil)
		if shown, all, _ := count(); shown != all {
			t.Errorf("/%s at 390 px after the checkbox: %d of %d rows shown", page, shown, all)
		}
		setViewport(b, 1280, 900, false)
		b.Navigate(page)
		if shown, all, toggle := count(); shown != all || toggle {
			t.Errorf("/%s at 1280 px: %d of %d rows shown, checkbox %v; want all, no checkbox", page, shown, all, toggle)
		}
	}
}
