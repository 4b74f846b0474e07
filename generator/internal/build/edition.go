package build

import (
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/export"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
)

// The site is built once per language edition (data/site.toml's
// [[languages]]): the default at the root, each other one under /<code>/,
// with the same page set and URL shape. These are the pieces that differ
// per edition.

// deriveIn derives the catalog with prices shown in currency (the
// catalog's display currency when empty).
func deriveIn(cat *catalog.Catalog, now time.Time, currency string) *derive.Data {
	if currency == "" || currency == cat.Site.DisplayCurrency {
		return derive.New(cat, now)
	}
	c := *cat // a shallow copy differing only in the display currency
	c.Site.DisplayCurrency = currency
	return derive.New(&c, now)
}

func dateStyles(ls []catalog.Language) map[string]string {
	m := map[string]string{}
	for _, l := range ls {
		m[l.Code] = l.DateStyle
	}
	return m
}

// neutralPath reports the files served once for every edition: the data
// exports and the content-hashed assets (stylesheet, scripts, the
// calculator's WebAssembly).
func neutralPath(p string) bool {
	return strings.HasPrefix(p, "api/v1/") || p == export.CSVPath || strings.HasPrefix(p, "assets/")
}

// site returns the site configuration as the current edition shows it:
// its own title and description.
func (s *siteBuild) site() catalog.Site {
	site := s.cat.Site
	if s.lang.Title != "" {
		site.Title = s.lang.Title
	}
	if s.lang.Description != "" {
		site.Description = s.lang.Description
	}
	return site
}

// pagePath strips an edition prefix from an output path ("zh/gpus/" ->
// "gpus/").
func (s *siteBuild) pagePath(p string) string {
	for _, l := range s.editions[1:] {
		if rest, ok := strings.CutPrefix(p, l.Code+"/"); ok {
			return rest
		}
	}
	return p
}

// editionURL is the URL of a page path in the edition of language code.
func (s *siteBuild) editionURL(code, p string) string {
	if code == s.editions[0].Code {
		return s.base + p
	}
	return s.base + code + "/" + p
}

// alternatesOf lists every edition's URL of a page, the default first.
// Every edition has every page (a missing guide text falls back), so the
// list is the site's languages.
func (s *siteBuild) alternatesOf(p string) []render.Alternate {
	var out []render.Alternate
	for _, l := range s.editions {
		out = append(out, render.Alternate{Code: l.Code, Tag: l.Tag, Name: l.Name, URL: s.editionURL(l.Code, p), Current: l.Code == s.lang.Code})
	}
	return out
}

// editionInfo is what the layout needs to mark the page's language and
// link its other editions.
func (s *siteBuild) editionInfo(p string) render.Edition {
	return render.Edition{Code: s.lang.Code, Tag: s.lang.Tag, Name: s.lang.Name, Default: s.prefix == "",
		DefaultURL: s.editionURL(s.editions[0].Code, p), Alternates: s.alternatesOf(p)}
}
