package pages

import (
	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/chartdata"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/export"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/feed"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/search"
)

// APIPage documents the data exports.
type APIPage struct {
	Files    []string
	CSV      string
	Datasets any
	RepoURL  string
}

// dataPages writes the JSON/CSV exports and their documentation page, the
// Atom feeds, the charts page and the search index with its fallback page.
func (s *Edition) dataPages() {
	files, err := export.JSON(s.cat, export.Meta{Generated: s.now})
	if err != nil {
		s.d.Errorf("data", 0, 0, "JSON export: %v", err)
		return
	}
	api := &APIPage{CSV: export.CSVPath, Datasets: s.cat.Site.Datasets, RepoURL: s.cat.Site.RepoURL}
	for _, f := range files {
		api.Files = append(api.Files, f.Path)
	}
	// The data exports are language-neutral: one set at the root, which
	// every edition's API page documents.
	if s.prefix == "" {
		for _, f := range files {
			s.tree.Add(f.Path, f.Data)
		}
		csv, err := export.CSV(s.cat, s.now)
		if err != nil {
			s.d.Errorf("data", 0, 0, "CSV export: %v", err)
			return
		}
		s.tree.Add(export.CSVPath, csv)
	}
	s.page(&render.Page{Kind: "api", Path: "api/", Title: s.r.T("api.title"), Description: s.r.T("api.description"), Data: api})

	fo := feed.Options{BaseURL: s.origin + s.base + s.prefix, Title: s.site().Title, Lang: s.lang.Tag, GuidePath: GuidePath, Now: s.now}
	if b, err := feed.Guides(s.guides, fo); err != nil {
		s.d.Errorf("content", 0, 0, "guides feed: %v", err)
	} else {
		s.tree.Add(s.prefix+feed.GuidesPath, b)
	}
	if b, err := feed.Changes(s.cat, fo); err != nil {
		s.d.Errorf("data", 0, 0, "changes feed: %v", err)
	} else {
		s.tree.Add(s.prefix+feed.ChangesPath, b)
	}

	set, err := chartdata.Charts(s.dd, s.r.T, s.lang.Code)
	if err != nil {
		s.d.Errorf("data", 0, 0, "charts: %v", err)
	} else {
		s.page(&render.Page{Kind: "charts", Path: "charts/", Title: s.r.T("charts.title"), Description: s.r.T("charts.description"), Data: set})
	}

	idx, err := search.Index(search.Input{Catalog: s.cat, Pages: s.guides, GuidePath: GuidePath, Lang: s.lang.Code, Glossary: s.cat.Glossary,
		KindKeywords: map[string]string{search.KindGPU: s.r.T("search.kw.gpu"), search.KindProvider: s.r.T("search.kw.provider"),
			search.UnpricedProvider: s.r.T("search.kw.provider.unpriced"), search.KindModel: s.r.T("search.kw.model")}, Now: s.now,
		Phrasing: search.Phrasing{Billing: s.billingLabels(), Price: s.r.T("search.sum.price"), Params: s.r.T("search.sum.params"),
			Active: s.r.T("search.sum.active"), Context: s.r.T("search.sum.context"), Date: s.r.Date},
		Extra: []search.Entry{
			{Title: s.r.T("calc.title"), URL: "calculator/", Kind: "page", Summary: s.r.T("calc.description")},
			{Title: s.r.T("compare.title"), URL: "compare/", Kind: "page", Summary: s.r.T("compare.description")},
			{Title: s.r.T("pricing.title"), URL: "pricing/", Kind: "page", Summary: s.r.T("pricing.description")},
			{Title: s.r.T("tco.title"), URL: "tco/", Kind: "page", Summary: s.r.T("tco.description")},
			{Title: s.r.T("charts.title"), URL: "charts/", Kind: "page", Summary: s.r.T("charts.description")},
			{Title: s.r.T("api.title"), URL: "api/", Kind: "page", Summary: s.r.T("api.description")},
		}})
	if err != nil {
		s.d.Errorf("data", 0, 0, "search index: %v", err)
		return
	}
	s.tree.Add(s.prefix+search.IndexPath, idx)
	s.page(&render.Page{Kind: "search", Path: "search/", Title: s.r.T("search.title"), Description: s.r.T("search.description")})
}

// billingLabels are the billing modes' labels in the edition's language.
func (s *Edition) billingLabels() map[string]string {
	out := map[string]string{}
	for _, m := range catalog.BillingModes() {
		out[m] = s.r.T("billing." + m)
	}
	return out
}
