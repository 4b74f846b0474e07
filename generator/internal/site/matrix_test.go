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
	now := testcat.Today(t)
	for _, ed := range []struct{ prefix, currency string }{{"", "USD"}, {"zh/", "CNY"}} {
		dd := deriveIn(c, now, ed.currency, derive.NewFits())
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

// TestPopularPairs: the compare index lists data/site.toml's popular pairs
// first, in both editions: a pair page where one is made, else the picker
// with both GPUs.
func TestPopularPairs(t *testing.T) {
	files, _ := repoSite(t)
	c := testcat.Repo(t)
	if len(c.Site.Compare.Popular) == 0 {
		t.Fatal("data/site.toml has no [compare] popular pairs")
	}
	for _, pre := range []string{"", "zh/"} {
		body := files[pre+"compare/index.html"]
		i := strings.Index(body, `class="pairs popular"`)
		if i < 0 {
			t.Fatalf("%scompare/ has no popular pairs", pre)
		}
		list := body[i : i+strings.Index(body[i:], "</ul>")]
		for _, p := range c.Site.Compare.Popular {
			a, b := min(p[0], p[1]), max(p[0], p[1])
			page := "/" + pre + "compare/" + a + "-vs-" + b + "/"
			picker := "/" + pre + "compare/?gpu=" + p[0] + "&amp;gpu=" + p[1]
			if !strings.Contains(list, `href="`+page+`"`) && !strings.Contains(list, `href="`+picker+`"`) {
				t.Errorf("%scompare/: pair %v links neither %s nor %s", pre, p, page, picker)
			}
			if strings.Contains(list, `href="`+page+`"`) {
				if _, ok := files[strings.TrimPrefix(page, "/")+"index.html"]; !ok {
					t.Errorf("%s is linked but not built", page)
				}
			}
		}
	}
}

// TestStaleProviderBanner: a provider page says at its top, in both
// editions, when the provider's newest current price is stale (over a
// year old) or missing, and links the provider's own site; a provider
// with a newer price has no banner.
func TestStaleProviderBanner(t *testing.T) {
	files, _ := repoSite(t)
	c := testcat.Repo(t)
	dd := derive.New(c, testcat.Today(t))
	stale := 0
	for _, p := range c.Providers {
		newest, band := dd.Newest(p)
		want := newest.IsZero() || band == "stale"
		for _, pre := range []string{"", "zh/"} {
			body := files[pre+"providers/"+p.ID+"/index.html"]
			i := strings.Index(body, `<p class="banner stale"`)
			if (i >= 0) != want {
				t.Errorf("%sproviders/%s: banner %v, want %v (newest price %s, %s)", pre, p.ID, i >= 0, want, newest.Format(time.DateOnly), band)
				continue
			}
			if !want {
				continue
			}
			banner := body[i : i+strings.Index(body[i:], "</p>")]
			link := p.PricePage
			if link == "" {
				link = p.Homepage
			}
			if !strings.Contains(banner, `href="`+link+`"`) || (!newest.IsZero() && !strings.Contains(banner, newest.Format("2006"))) {
				t.Errorf("%sproviders/%s: banner %q lacks the link %s or the date", pre, p.ID, banner, link)
			}
		}
		if want {
			stale++
		}
	}
	t.Logf("%d of %d providers have a stale or missing newest price", stale, len(c.Providers))
}
