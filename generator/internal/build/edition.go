package build

import (
	"regexp"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/export"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/search"
)

// The site is built once per language edition (data/site.toml's
// [[languages]]): the default at the root, each other one under /<code>/,
// with the same page set and URL shape. These are the pieces that differ
// per edition.

// deriveIn derives the catalog with prices shown in currency (the
// catalog's display currency when empty).
func deriveIn(cat *catalog.Catalog, now time.Time, currency string, fits *derive.Fits) *derive.Data {
	if currency == "" || currency == cat.Site.DisplayCurrency {
		return derive.NewWith(cat, now, fits)
	}
	c := *cat // a shallow copy differing only in the display currency
	c.Site.DisplayCurrency = currency
	return derive.NewWith(&c, now, fits)
}

func dateStyles(ls []catalog.Language) map[string]string {
	m := map[string]string{}
	for _, l := range ls {
		m[l.Code] = l.DateStyle
	}
	return m
}

// neutralPath reports the files served once for every edition: the data
// exports, JSON data files the scripts fetch (all but the search index,
// which holds the edition's text) and the content-hashed assets
// (stylesheet, scripts, the calculator's WebAssembly).
func neutralPath(p string) bool {
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	switch {
	case strings.HasPrefix(p, "api/v1/"), p == export.CSVPath, strings.HasPrefix(p, "assets/"), p == "favicon.svg":
		return true
	case strings.HasSuffix(p, ".json"):
		// The search index and the instance comparison's data are written
		// per edition (their text is in the edition's language).
		return p != search.IndexPath && p != InstancesDataPath
	}
	return false
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
		u := s.editionURL(l.Code, p)
		out = append(out, render.Alternate{Code: l.Code, Tag: l.Tag, Name: l.Name, URL: u, Abs: s.origin + u, Current: l.Code == s.lang.Code})
	}
	return out
}

// editionInfo is what the layout needs to mark the page's language and
// link its other editions.
func (s *siteBuild) editionInfo(p string) render.Edition {
	return render.Edition{Code: s.lang.Code, Tag: s.lang.Tag, Name: s.lang.Name, Default: s.prefix == "",
		DefaultURL: s.origin + s.editionURL(s.editions[0].Code, p), Alternates: s.alternatesOf(p)}
}

// rebase turns the root-relative links of a guide ("/calculator/", and
// the ones shortcodes write) into links of the page's edition under the
// site's base path: "/gpu/zh/calculator/" for the Chinese edition of a
// site served at /gpu/. Language-neutral files keep one URL.
func (s *siteBuild) rebase(h any) (out templateHTML) {
	str := rootLinkRE.ReplaceAllStringFunc(toString(h), func(m string) string {
		sub := rootLinkRE.FindStringSubmatch(m)
		p := sub[2]
		if neutralPath(p) {
			return sub[1] + `="` + s.base + p + `"`
		}
		return sub[1] + `="` + s.base + s.prefix + p + `"`
	})
	return templateHTML(str)
}

var rootLinkRE = regexp.MustCompile(`\b(href|src)="/([^/"][^"]*|)"`)
