package site

import (
	"html"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

// TestMatrixPages: the price matrix, by GPU and by provider, in both
// editions, shows each cell of derive's matrix (the cheapest price of its
// kind per GPU-hour, in the edition's display currency) linked to its rows
// in the price table, under a section per GPU (or provider).
func TestMatrixPages(t *testing.T) {
	files, _ := repoSite(t)
	c := testcat.Repo(t)
	now := time.Now().UTC()
	for _, ed := range []struct{ prefix, currency string }{{"", "USD"}, {"zh/", "CNY"}} {
		dd := deriveIn(c, time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC), ed.currency, derive.NewFits())
		rows := dd.Matrix()
		if len(rows) < 50 {
			t.Fatalf("%d matrix rows: the catalog has more GPUs priced at more providers", len(rows))
		}
		for _, page := range []string{"matrix/index.html", "matrix/providers/index.html"} {
			body, ok := files[ed.prefix+page]
			if !ok {
				t.Fatalf("no %s%s", ed.prefix, page)
			}
			body = html.UnescapeString(body)
			cells := 0
			for _, m := range rows {
				sec := "g-" + m.GPU
				if strings.Contains(page, "providers") {
					sec = "p-" + m.Provider
				}
				if !strings.Contains(body, `id="`+sec+`"`) {
					t.Errorf("%s%s has no section %s", ed.prefix, page, sec)
				}
				for _, cell := range m.Cells {
					if cell == nil {
						continue
					}
					cells++
					r := cell.Row
					q := url.Values{"gpu": {m.GPU}, "provider": {m.Provider}, "billing": {r.Price.Billing}}
					want := `href="/` + ed.prefix + `pricing/?` + q.Encode() + `">` + strings.TrimSuffix(render.Money(r.PerGPUDC, ""), " ") + `</a>`
					if !strings.Contains(body, want) {
						t.Errorf("%s%s lacks %s", ed.prefix, page, want)
					}
				}
			}
			if cells == 0 {
				t.Errorf("%s%s: no cells", ed.prefix, page)
			}
		}
	}
}
