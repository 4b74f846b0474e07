package browsertest

import (
	"slices"
	"strings"
	"testing"
)

// TestMatrixSorts, in both editions: a price column's header sorts every
// table of the matrix by that column, current prices first in the order
// asked and the stale and empty cells after them; a second click reverses
// it; the URL keeps the sort and a reload shows the same order.
func TestMatrixSorts(t *testing.T) {
	t.Parallel()
	base := Site(t)
	b := New(t, base)
	type table struct {
		Keys  [][2]float64 // per row: rank (0 current, 1 stale, 2 empty) and price
		Names []string
		Sort  string
	}
	read := func() []table {
		var out []table
		b.Eval(`[...document.querySelectorAll("table.matrix")].map((t) => ({
			Keys: [...t.tBodies[0].rows].map((tr) => { const td = tr.cells[1];
				return td.dataset.v === undefined ? [2, 0] : [td.dataset.stale ? 1 : 0, +td.dataset.v]; }),
			Names: [...t.tBodies[0].rows].map((tr) => tr.cells[0].textContent.trim()),
			Sort: (t.tHead.rows[0].cells[1].getAttribute("aria-sort") || "")}))`, &out)
		return out
	}
	ordered := func(ts []table, dir float64, aria string) {
		t.Helper()
		for i, tb := range ts {
			if tb.Sort != aria {
				t.Errorf("table %d: aria-sort %q, want %q", i, tb.Sort, aria)
			}
			for k := 1; k < len(tb.Keys); k++ {
				a, c := tb.Keys[k-1], tb.Keys[k]
				if a[0] > c[0] || a[0] == c[0] && a[0] < 2 && dir*(c[1]-a[1]) < 0 {
					t.Errorf("table %d rows %d, %d out of order: %v then %v (%v)", i, k-1, k, a, c, tb.Names)
				}
			}
		}
	}
	for _, page := range []string{"matrix/", "zh/matrix/"} {
		b.Navigate(page)
		before := read()
		if len(before) == 0 || !slices.ContainsFunc(before, func(x table) bool { return len(x.Keys) > 1 }) {
			t.Fatalf("/%s: no table with two rows in the fixture", page)
		}
		b.Click(`table.matrix th[data-sort="0"] button.sort`)
		ordered(read(), 1, "ascending")
		if !strings.Contains(b.Location(), "sort=0") {
			t.Errorf("/%s: the URL %s does not keep the sort", page, b.Location())
		}
		b.Reload()
		ordered(read(), 1, "ascending")
		b.Click(`table.matrix th[data-sort="0"] button.sort`)
		ordered(read(), -1, "descending")
		if !strings.Contains(b.Location(), "dir=desc") {
			t.Errorf("/%s: the URL %s does not keep the direction", page, b.Location())
		}
	}
}
