package site

import (
	"bytes"
	"encoding/xml"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/pages"
)

// siteFiles adds the files of the whole site, made once every page is
// queued: the sitemap, _headers and robots.txt.
func (s *siteBuild) siteFiles() {
	if s.origin != "" { // the sitemap protocol wants absolute URLs
		s.tree.Add("sitemap.xml", s.sitemap())
	}
	// The sitemap protocol wants absolute URLs: the Sitemap line is only
	// written when base_url (or -base-url) names a host.
	robots := "User-agent: *\nAllow: /\n"
	if s.origin != "" {
		robots += "Sitemap: " + s.origin + s.base + "sitemap.xml\n"
	}
	s.tree.Add("robots.txt", []byte(robots))
	s.captureFiles()
	s.tree.Add("_headers", []byte(Headers(s.base, s.topLevel())))
}

// topLevel lists the names at the root of the output (the pages' and
// every other file's first path segment), a directory's with a trailing
// "/", sorted.
func (s *siteBuild) topLevel() []string {
	seen := map[string]bool{}
	add := func(p string) {
		if first, _, dir := strings.Cut(p, "/"); dir {
			seen[first+"/"] = true
		} else {
			seen[p] = true
		}
	}
	for p := range s.queued {
		add(p)
	}
	for _, p := range s.tree.Paths() {
		add(p)
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// captureFiles adds every capture under the site root's
// catalog.CaptureDir (its .json files; queries.toml is not one) at
// catalog.CapturePath, as it is.
func (s *siteBuild) captureFiles() {
	dir := filepath.Join(s.o.Root, catalog.CaptureDir)
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return nil
		}
		if b, err := os.ReadFile(p); err == nil {
			s.tree.Add(catalog.CapturePath+filepath.ToSlash(rel), b)
		}
		return nil
	})
}

// sitemap lists every page (the 404 pages aside) with, where the site
// has more than one edition, each edition's URL as an hreflang alternate
// and the default edition's as x-default (Google's sitemap form of
// <link rel="alternate" hreflang>); a guide's lastmod is its updated
// date (the other pages' dates are their data's, not one date).
func (s *siteBuild) sitemap() []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">` + "\n")
	paths := append([]string(nil), s.html...)
	sort.Strings(paths)
	updated := map[string]time.Time{}
	for _, g := range s.guides {
		if g.Updated.IsZero() {
			continue
		}
		prefix := ""
		if g.Lang != s.editions[0].Code {
			prefix = g.Lang + "/"
		}
		updated[prefix+pages.GuidePath(g)] = g.Updated
	}
	for _, p := range paths {
		b.WriteString("<url><loc>")
		xml.EscapeText(&b, []byte(s.origin+s.base+p))
		b.WriteString("</loc>")
		if t, ok := updated[p]; ok {
			b.WriteString("<lastmod>" + t.Format(time.DateOnly) + "</lastmod>")
		}
		if len(s.editions) > 1 {
			page := s.pagePath(p)
			alt := func(tag, code string) {
				b.WriteString(`<xhtml:link rel="alternate" hreflang="`)
				xml.EscapeText(&b, []byte(tag))
				b.WriteString(`" href="`)
				xml.EscapeText(&b, []byte(s.origin+pages.URL(s.editions, s.base, code, page)))
				b.WriteString(`"/>`)
			}
			for _, l := range s.editions {
				alt(l.Tag, l.Code)
			}
			alt("x-default", s.editions[0].Code)
		}
		b.WriteString("</url>\n")
	}
	b.WriteString("</urlset>\n")
	return b.Bytes()
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

// CSP is the site's Content Security Policy: everything from the site
// itself, no inline scripts or styles; WebAssembly compilation is allowed
// for the calculator.
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// Headers returns a _headers file (Netlify / Cloudflare Pages format):
// the CSP on every page, immutable caching for content-hashed assets and
// short caching for everything else. top lists the names at the root of
// the output (a directory's ending in "/"). Hosts apply every rule that
// matches a path and join a header two rules set, so each path gets its
// Cache-Control from exactly one rule: the assets' from theirs, every
// other path's from the rule of its top-level name (or the root's).
func Headers(base string, top []string) string {
	var b strings.Builder
	b.WriteString(base + "*\n" +
		"  Content-Security-Policy: " + CSP + "\n" +
		"  X-Content-Type-Options: nosniff\n" +
		"  Referrer-Policy: strict-origin-when-cross-origin\n" +
		base + "assets/*\n" +
		"  Cache-Control: public, max-age=31536000, immutable\n")
	const short = "  Cache-Control: public, max-age=300, must-revalidate\n"
	b.WriteString(base + "\n" + short)
	for _, name := range top {
		switch {
		case name == "assets/" || name == "_headers":
		case strings.HasSuffix(name, "/"):
			// The directory without its slash too: the host's redirect.
			b.WriteString(base + strings.TrimSuffix(name, "/") + "\n" + short + base + name + "*\n" + short)
		default:
			b.WriteString(base + name + "\n" + short)
		}
	}
	return b.String()
}
