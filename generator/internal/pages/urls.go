package pages

import (
	"regexp"
	"strings"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/export"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/search"
)

// The site is built once per language edition (data/site.toml's
// [[languages]]): the default at the root, each other one under /<code>/,
// with the same page set and URL shape. These are the pieces that differ
// per edition.

// Neutral reports the files served once for every edition: the data
// exports, JSON data files the scripts fetch (all but the search index,
// which holds the edition's text) and the content-hashed assets
// (stylesheet, scripts, the calculator's WebAssembly).
func Neutral(p string) bool {
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	switch {
	case strings.HasPrefix(p, "api/v1/"), p == export.CSVPath, strings.HasPrefix(p, "assets/"), p == "favicon.svg":
		return true
	case strings.HasSuffix(p, ".json"):
		// The search index, the instance comparison's data, the price
		// list's index and cells and the calculator's data are written per
		// edition (their text is in the edition's language).
		return p != search.IndexPath && p != InstancesDataPath && p != CalcDataPath && !strings.HasPrefix(p, "pricing/")
	}
	return false
}

// site returns the site configuration as the current edition shows it:
// its own title and description.
func (s *Edition) site() catalog.Site {
	site := s.cat.Site
	if s.lang.Title != "" {
		site.Title = s.lang.Title
	}
	if s.lang.Description != "" {
		site.Description = s.lang.Description
	}
	return site
}

// editionURL is the URL of a page path in the edition of language code.
func (s *Edition) editionURL(code, p string) string { return URL(s.editions, s.base, code, p) }

// URL is the URL of page path p ("gpus/a10/") in the edition of language
// code, on a site served under base ("/", "/gpu/") with editions, the
// default first: the default edition at base, another under base + code.
func URL(editions []catalog.Language, base, code, p string) string {
	if code == editions[0].Code {
		return base + p
	}
	return base + code + "/" + p
}

// alternatesOf lists every edition's URL of a page, the default first.
// Every edition has every page (a missing guide text falls back), so the
// list is the site's languages.
func (s *Edition) alternatesOf(p string) []render.Alternate {
	var out []render.Alternate
	for _, l := range s.editions {
		u := s.editionURL(l.Code, p)
		out = append(out, render.Alternate{Code: l.Code, Tag: l.Tag, Name: l.Name, URL: u, Abs: s.origin + u, Current: l.Code == s.lang.Code})
	}
	return out
}

// editionInfo is what the layout needs to mark the page's language and
// link its other editions.
func (s *Edition) editionInfo(p string) render.Edition {
	e := render.Edition{Code: s.lang.Code, Tag: s.lang.Tag, Name: s.lang.Name, Default: s.prefix == "",
		DefaultURL: s.origin + s.editionURL(s.editions[0].Code, p), Alternates: s.alternatesOf(p)}
	if s.origin != "" {
		e.Canonical = s.origin + s.editionURL(s.lang.Code, p)
	}
	return e
}

// rebase turns the root-relative links of a guide ("/calculator/", and
// the ones shortcodes write) into links of the page's edition under the
// site's base path: "/gpu/zh/calculator/" for the Chinese edition of a
// site served at /gpu/. Language-neutral files keep one URL.
func (s *Edition) rebase(h any) (out templateHTML) {
	str := rootLinkRE.ReplaceAllStringFunc(toString(h), func(m string) string {
		sub := rootLinkRE.FindStringSubmatch(m)
		p := sub[2]
		if Neutral(p) {
			return sub[1] + `="` + s.base + p + `"`
		}
		return sub[1] + `="` + s.base + s.prefix + p + `"`
	})
	return templateHTML(str)
}

var rootLinkRE = regexp.MustCompile(`\b(href|src)="/([^/"][^"]*|)"`)
