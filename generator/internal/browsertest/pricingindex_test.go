package browsertest

import (
	"fmt"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/pages"
)

// TestPricingIndexRows: the rows the pricing script makes from the
// list's index (pages.PricingIndex) are the rows the full list's pages
// render, element for element once parsed, in both editions: sorted by
// price descending, the page shows rows the server did not render on
// /pricing/, and each is compared with the same row (data-key) of
// /pricing/all/ and its numbered pages.
func TestPricingIndexRows(t *testing.T) {
	t.Parallel()
	base := Site(t)
	browser := New(t, base)
	for _, ed := range []string{"", "zh/"} {
		t.Run("edition="+ed, func(t *testing.T) {
			b := browser.For(t)
			b.Navigate(ed + "pricing/?sort=pergpu&dir=desc")
			b.Poll(`document.querySelector("#prices tbody tr") && document.querySelector("#prices thead th[aria-sort=descending]") !== null`)
			var got struct {
				Rows, Compared, Missing int
				Diffs                   []string
			}
			b.Eval(fmt.Sprintf(`(async () => {
  const rows = [...document.querySelectorAll("#prices tbody tr")];
  const want = new Map();
  const pages = %d;
  for (let i = 1; i <= pages; i++) {
    const html = await (await fetch(%q + (i > 1 ? i + "/" : ""))).text();
    const doc = new DOMParser().parseFromString(html, "text/html");
    for (const r of doc.querySelectorAll("#prices tbody tr")) want.set(r.dataset.key, r.outerHTML);
  }
  const out = {rows: rows.length, compared: 0, missing: 0, diffs: []};
  for (const r of rows) {
    const w = want.get(r.dataset.key);
    if (w === undefined) { out.missing++; continue; }
    out.compared++;
    if (w !== r.outerHTML && out.diffs.length < 3) out.diffs.push("page:   " + w + "\nscript: " + r.outerHTML);
  }
  return out;
})()`, (len(loadPricing(t).rows)+pages.PricingPageRows-1)/pages.PricingPageRows, "/"+ed+"pricing/all/"), &got)
			if got.Rows != pages.PricingLimit || got.Compared != got.Rows || got.Missing != 0 {
				t.Errorf("%d rows shown, %d compared, %d not on the list's pages; want %d compared", got.Rows, got.Compared, got.Missing, pages.PricingLimit)
			}
			for _, d := range got.Diffs {
				t.Errorf("a row differs:\n%s", d)
			}
		})
	}
}

// TestPricingIndexLoading: when the list's index takes longer than 100 ms
// to arrive (here held back 1.5 s), the row count says it is loading all
// the prices, in the edition's language, and then gives way to the
// filter's answer.
func TestPricingIndexLoading(t *testing.T) {
	t.Parallel()
	base := Site(t)
	g := loadPricing(t)
	b := New(t, base)
	b.AddInitScript(`(() => {
  const fetch0 = window.fetch;
  window.fetch = (url, ...rest) => String(url).endsWith("/pricing/rows.json")
    ? new Promise((resolve) => setTimeout(() => resolve(fetch0(url, ...rest)), 1500))
    : fetch0(url, ...rest);
})()`)
	for _, c := range []struct{ ed, loading string }{
		{"", fmt.Sprintf("Loading all %d prices…", len(g.rows))},
		{"zh/", fmt.Sprintf("正在载入全部 %d 条价格…", len(g.rows))},
	} {
		b.Navigate(c.ed + "pricing/")
		set := map[string]string{"gpu": most(g.rows, func(r *derive.Row) string { return r.Offer.GPU.ID })}
		setPricing(b, set)
		b.Poll(`document.getElementById("shown").textContent === `+jsStr(c.loading), `document.getElementById("shown").textContent`)
		b.Poll(`document.getElementById("shown").textContent !== `+jsStr(c.loading)+` && new URLSearchParams(location.search).get("gpu") === `+jsStr(set["gpu"]),
			`document.getElementById("shown").textContent`)
		if c.ed == "" {
			want := g.filter(t, set)
			if got := b.Text("#shown"); got != g.shownText(min(len(want), pages.PricingLimit), true, len(want)) {
				t.Errorf("after loading: #shown = %q", got)
			}
		}
	}
}

// TestPricingIndexCellsFiles: a filter fetches the list's index and the
// cells files (pages.PricingCellsPath) of the rows it shows that the
// server did not render, and no other file of cells.
func TestPricingIndexCellsFiles(t *testing.T) {
	t.Parallel()
	base := Site(t)
	g := loadPricing(t)
	b := New(t, base)
	b.Navigate("pricing/")
	set := map[string]string{"gpu": most(g.rows, func(r *derive.Row) string { return r.Offer.GPU.ID })}
	want := g.filter(t, set)
	setPricing(b, set)
	b.Poll(`document.getElementById("shown").textContent === `+jsStr(g.shownText(min(len(want), pages.PricingLimit), true, len(want))), `document.getElementById("shown").textContent`)
	place := map[*derive.Row]int{}
	for i, r := range g.rows {
		place[r] = i
	}
	files := map[string]bool{}
	for _, r := range want[:min(len(want), pages.PricingLimit)] {
		if n := place[r]; n >= pages.PricingLimit {
			files["/"+pages.PricingCellsPath(n/pages.PricingCellsRows+1)] = true
		}
	}
	if len(files) == 0 {
		t.Fatalf("the filter %v shows only rows the server rendered: the test would test nothing", set)
	}
	var got []string
	b.Eval(`performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname).filter((p) => p.startsWith("/pricing/"))`, &got)
	var cells []string
	index := 0
	for _, p := range got {
		switch {
		case p == "/"+pages.PricingIndexPath:
			index++
		case !files[p]:
			t.Errorf("fetched %s, which holds none of the rows shown", p)
		default:
			cells = append(cells, p)
		}
	}
	if index != 1 || len(cells) != len(files) {
		t.Errorf("fetched the index %d times and %d cells files %q; want once and the %d files of the rows shown %v", index, len(cells), cells, len(files), files)
	}
}
