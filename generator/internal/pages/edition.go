// Package pages makes the pages of one language edition of the site: the
// kind, path, title and data (view model) of every page its templates
// render, and the edition's data files (exports, feeds, the search index),
// from the catalog, the edition's derived data and its guides. It decides
// what each page shows; package site decides when pages are rendered,
// reused and written.
package pages

import (
	"html/template"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/content"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/output"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
)

// Queue receives the pages an edition makes, to render them.
type Queue interface {
	// Page queues p for rendering with r into the output file file
	// ("gpus/a10/index.html", "zh/404.html"). data, when not nil, makes
	// p.Data when the page is rendered, possibly on another goroutine and
	// at the same time as other pages' data: it only reads.
	Page(file string, p *render.Page, r *render.Renderer, data func() any)
}

// Config is what an edition's pages are made from.
type Config struct {
	Catalog  *catalog.Catalog
	Lang     catalog.Language   // this edition
	Editions []catalog.Language // every edition, the default first
	Renderer *render.Renderer   // this edition's templates and strings
	Derived  *derive.Data       // derived in this edition's display currency
	Guides   []*content.Page    // this edition's guides
	BasePath string             // the path the site is served under: "/", "/gpu/"
	Origin   string             // "https://host" of base_url, or ""
	Now      time.Time
	// Files receives the data files (exports, feeds, search index, the
	// instance comparison's data); Diag the problems found.
	Files *output.Tree
	Diag  *diag.List
	Queue Queue
	// Captures are what `generator capture` reads for each provider id
	// (data/captures/queries.toml): a provider page without a current
	// price says its capture is ready.
	Captures map[string]CaptureTarget
	// Finish, when set, finishes a guide's HTML through a cache: it
	// returns what make returns for key, or what it returned for the same
	// key before (the dev server keeps the answers between builds).
	Finish func(key string, make func() template.HTML) template.HTML
}

// CaptureTarget is what `generator capture` reads for a provider: its
// price API, or public pages it keeps as evidence.
type CaptureTarget struct {
	API   bool
	Pages []string
}

// Edition makes one edition's pages (Core, then Rest).
type Edition struct {
	cat      *catalog.Catalog
	lang     catalog.Language
	editions []catalog.Language
	prefix   string // "" for the default edition, else its code and "/"
	r        *render.Renderer
	dd       *derive.Data
	guides   []*content.Page
	base     string
	origin   string
	now      time.Time
	tree     *output.Tree
	d        *diag.List
	queue    Queue
	finish   func(key string, make func() template.HTML) template.HTML
	// compareCols memoises compareGPU.
	compareCols map[*catalog.GPU]CompareGPU
	captures    map[string]CaptureTarget
}

// New returns the maker of c's edition.
func New(c Config) *Edition {
	prefix := ""
	if len(c.Editions) > 0 && c.Lang.Code != c.Editions[0].Code {
		prefix = c.Lang.Code + "/"
	}
	return &Edition{cat: c.Catalog, lang: c.Lang, editions: c.Editions, prefix: prefix, r: c.Renderer, dd: c.Derived,
		guides: c.Guides, base: c.BasePath, origin: c.Origin, now: c.Now, tree: c.Files, d: c.Diag, queue: c.Queue, finish: c.Finish, captures: c.Captures}
}

// Core queues the home, index, GPU, provider, pricing, guide, model and
// 404 pages.
func (s *Edition) Core() { s.pages() }

// Rest queues the calculator, compare, TCO and data pages and adds the
// data files: the pages a page asked for first rarely is, made after the
// core pages of every edition.
func (s *Edition) Rest() {
	s.compareCols = nil
	s.calculator()
	s.comparePages()
	s.tcoPage()
	s.matrixPages()
	s.dataPages()
}

// page queues one page for rendering to p.Path (a directory path ending
// in "/" or a file) in this edition.
func (s *Edition) page(p *render.Page) { s.pageData(p, nil) }

// pageData is page for a page whose Data takes work to make: data makes
// it when the page is rendered, on a render worker, so the pages' data is
// made on every core, a page asked for first waits for its own data only,
// and a page's data is dropped once it is rendered. data is given the
// edition, which it must only read; it may run at the same time as other
// pages' data.
func (s *Edition) pageData(p *render.Page, data func(v *Edition) any) {
	p.Site = s.site()
	p.Built = s.now
	p.Edition = s.editionInfo(p.Path)
	file := s.prefix + p.Path
	if file == "" || strings.HasSuffix(file, "/") {
		file += "index.html"
	}
	var mk func() any
	if data != nil {
		mk = func() any { return data(s) }
	}
	s.queue.Page(file, p, s.r, mk)
}

// Funcs are the template functions the pages' templates use besides
// render's own.
func Funcs() template.FuncMap {
	return template.FuncMap{"specs": specRows, "specnames": specRowNames, "pct": func(f float64) float64 { return f * 100 }, "billkey": BillingKey,
		"hassuffix": strings.HasSuffix, "list": func(v ...any) []any { return v }, "section": Section, "rowattrs": rowAttrs, "reporturl": reportURL}
}

// Section is the part of the site a page of kind at path belongs to, as
// the layout's navigation and footer mark it current: "gpus", "pricing",
// "providers", "calculator", "guides", "compare", "faq", "search",
// "methodology", "models", "matrix", "charts", "tco", "api", or "" (the
// home page, 404). The layout caches its navigation by it.
func Section(kind, path string) string {
	switch kind {
	case "gpus", "gpu":
		return "gpus"
	case "providers", "provider":
		return "providers"
	case "guides":
		return "guides"
	case "guide":
		switch path {
		case "faq/":
			return "faq"
		case "methodology/":
			return "methodology"
		}
		return "guides"
	case "compare", "compareindex", "compareinstances":
		return "compare"
	case "models", "model":
		return "models"
	case "pricing", "calculator", "search", "matrix", "charts", "tco", "api":
		return kind
	}
	return ""
}

// BillingKey is the UI-string key that names a price's billing mode: a
// prepaid day or week (a committed price per day or week with no term:
// 包日, 包周) by that name, not as a subscription; otherwise the mode.
func BillingKey(billing, unit string, termMonths int) string {
	if billing == "committed" && termMonths == 0 && (unit == "day" || unit == "week") {
		return "billing.prepaid." + unit
	}
	return "billing." + billing
}
