package pages

import (
	"path/filepath"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/output"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

// queued is a Queue that keeps the pages.
type queued []queuedPage

type queuedPage struct {
	p    *render.Page
	data func() any
}

func (q *queued) Page(_ string, p *render.Page, _ *render.Renderer, data func() any) {
	*q = append(*q, queuedPage{p, data})
}

// BenchmarkComparePages renders the real catalog's pair pages (English),
// a page's data made and rendered as a render worker does: the pair pages
// are most of a large site's pages (97% of the catalog copied 4 times),
// so their cost per page is what a large build's speed turns on.
func BenchmarkComparePages(b *testing.B) {
	e, r, q := benchEdition(b)
	e.comparePages()
	var pairs []queuedPage
	for _, p := range *q {
		if p.p.Kind == "compare" {
			pairs = append(pairs, p)
		}
	}
	if len(pairs) == 0 || e.d.HasErrors() {
		b.Fatalf("%d pair pages; %v", len(pairs), e.d.Errors())
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.ForgetCached() // as a new build starts
		for _, p := range pairs {
			page := *p.p
			if p.data != nil {
				page.Data = p.data()
			}
			if _, err := r.Render(&page); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(pairs)), "ns/page")
}

// BenchmarkPricingRows renders the real catalog's price list (English),
// every row once, as the pricing pages do: a large catalog's price list
// is its longest table, and its rows were a sixth of the 4x build's CPU.
func BenchmarkPricingRows(b *testing.B) {
	e, _, _ := benchEdition(b)
	rows := e.dd.Rows
	pp := &PricingPage{Currency: e.dd.Currency, FX: e.cat.FX, RepoURL: e.site().RepoURL, Datasets: e.site().Datasets}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if p := e.renderPricingRows(pp, rows, e.r.URL); p.err != nil {
			b.Fatal(p.err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(rows)), "ns/row")
}

// benchEdition is the real catalog's English edition, its renderer, and
// the queue its pages go to.
func benchEdition(b *testing.B) (*Edition, *render.Renderer, *queued) {
	b.Helper()
	root := filepath.Join("..", "..", "..")
	now := testcat.Today(b)
	cat, d := catalog.Load(root, now)
	if cat == nil {
		b.Fatal(d.Errors())
	}
	langs := cat.Site.Langs()
	strs := render.LoadStrings(root, cat.Site.LangCodes(), d)
	assets := map[string]string{}
	for _, a := range []string{"favicon.svg", "css/site.css", "js/search.js", "js/age.js", "js/lang.js"} {
		assets[a] = a
	}
	r := render.New(render.Options{Root: root, BasePath: "/", Neutral: Neutral, Lang: langs[0].Code, Tag: langs[0].Tag,
		Strings: strs.For(langs[0].Code), DateStyle: langs[0].DateStyle, Assets: assets, Funcs: Funcs()}, d)
	if d.HasErrors() {
		b.Fatal(d.Errors())
	}
	var q queued
	e := New(Config{Catalog: cat, Lang: langs[0], Editions: langs, Renderer: r, Derived: derive.New(cat, now), BasePath: "/", Now: now,
		Files: output.NewTree(), Diag: d, Queue: &q})
	return e, r, &q
}
