// Package site runs the whole pipeline for one site: load and validate
// the catalog and guides, derive, render every page, check internal links
// and write the output atomically.
package site

import (
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"maps"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/assets"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/capture"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/content"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/linkcheck"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/output"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/pages"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/precompress"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
)

// Options configure a build.
type Options struct {
	Root    string    // site root: data/, content/, templates/, static/
	Out     string    // output directory
	BaseURL string    // overrides site.toml's base_url when set
	Now     time.Time // "today": price ages, future-date checks, generation date
	// Precompress adds .br and .gz siblings to text assets.
	Precompress bool
	// NoMinify leaves HTML, SVG, JSON and XML as rendered (for reading
	// and for the golden tests).
	NoMinify bool
	// Workers is how many pages render at once (default: GOMAXPROCS); the
	// output is the same whatever it is.
	Workers int
	// Stream writes each file to the output's temporary tree as soon as
	// it is finished, so a build holds one page at a time instead of the
	// whole site (the CLI's build does); Result.Tree is then nil. The
	// output is the same either way.
	Stream bool
	// CacheDir holds the precompression cache (default: the user cache
	// directory's gpu-atlas/precompress); NoCache compresses everything
	// afresh. Neither changes the output.
	CacheDir string
	NoCache  bool
	// Force lets the build replace an output target that exists and was
	// not written by the generator (see output.CheckTarget). The site root
	// and its source folders are refused whatever Force says.
	Force bool
	// Overlay is a team's overlay directory merged on top of the public
	// catalog (see catalog.Layer); "" for the public site.
	Overlay string
	// Dev holds what only the dev server's rebuilds set; nil for a build
	// from scratch.
	Dev *Dev
}

// Dev is what the dev server gives a rebuild of the site it serves. The
// output is the same as a build from scratch's; only the work differs.
type Dev struct {
	// Reuse, when set, is a previous build's tree whose calculator
	// WebAssembly and wasm_exec.js are copied instead of compiled again
	// (see assets.WASM). Only for a caller that knows the generator's Go
	// sources did not change since that build.
	Reuse *output.Tree
	// Memo, when set, is the previous build's memo of rendered pages (or
	// NewMemo for a first build): pages whose data did not change are
	// taken from it, and Result.Memo holds this build's. Only for a caller
	// that rebuilds the same site with the same templates, UI strings,
	// static files and options.
	Memo *Memo
	// Priority names output files ("gpus/h100/index.html") to render as
	// soon as their data is ready, ahead of the other pages; each one that
	// changed since the previous build (Memo) is handed to OnPriority,
	// finished, while the build goes on: the pages open in a browser, so a
	// reader sees an edit before the whole site is rebuilt.
	Priority   map[string]bool
	OnPriority func(file string, page []byte)
}

// memo, reuse and priority read o.Dev, nil-safe.
func (o Options) memo() *Memo {
	if o.Dev == nil {
		return nil
	}
	return o.Dev.Memo
}

func (o Options) reuse() *output.Tree {
	if o.Dev == nil {
		return nil
	}
	return o.Dev.Reuse
}

func (o Options) priority() map[string]bool {
	if o.Dev == nil {
		return nil
	}
	return o.Dev.Priority
}

// SourceDirs are the site root's folders a build reads and never writes.
func SourceDirs() []string { return []string{"data", "content", "templates", "static", "generator"} }

// OutputOptions are the rules for replacing o.Out: never the site root or
// a source folder, and a foreign target only with Force.
func (o Options) OutputOptions() output.Options {
	root := o.Root
	if root == "" {
		root = "."
	}
	oo := output.Options{Force: o.Force, Root: root}
	if o.Precompress {
		oo.Tag = "precompress:" + precompress.Settings()
	}
	for _, d := range SourceDirs() {
		oo.Sources = append(oo.Sources, filepath.Join(root, d))
	}
	if o.Overlay != "" {
		oo.Sources = append(oo.Sources, o.Overlay)
	}
	return oo
}

// Result summarises a build.
type Result struct {
	Pages int
	Files int
	Bytes int64
	Tree  *output.Tree // every file; nil for a streaming build
	// Memo is this build's memo of rendered pages when Options.Dev.Memo
	// was set; Reused counts the pages taken from Options.Dev.Memo.
	Memo   *Memo
	Reused int
	// BasePath is the path the site is served under: "/", or the path of
	// base_url ("/gpu/" for https://intranet.example/gpu/).
	BasePath string
	// Origin is base_url's "https://host", or "" when it names none: then
	// what needs absolute URLs (sitemap.xml, robots.txt's Sitemap line,
	// canonical, hreflang and og:url links, absolute feed links) is left
	// out, and Unanchored says so.
	Origin string
}

// Unanchored is what a build without an origin leaves out, for the build
// command to say once.
const Unanchored = "base_url names no host, so sitemap.xml, the robots.txt Sitemap line, canonical, hreflang and og:url links and absolute feed links are left out: set base_url in data/site.toml or pass -base-url https://host/"

// Today returns the build date: SOURCE_DATE_EPOCH when set (reproducible
// builds), else the current UTC date. Only the date is kept, so two builds
// of the same input on the same day are byte-identical.
func Today() (time.Time, error) { return catalog.Today() }

// Check loads and validates everything a build would, writing nothing.
func Check(o Options) *diag.List {
	_, d := build(o, newSink(o, false, true), nil)
	return d
}

// Render builds the site in memory, into Result.Tree, and writes nothing
// (o.Out and o.Stream are not used): for a caller that writes the tree
// itself, such as the dev server, which patches its output with only the
// files that changed (output.Patch).
func Render(o Options) (*Result, *diag.List) {
	k := newSink(o, false, false)
	b, d := build(o, k, nil)
	if d.HasErrors() {
		return nil, d
	}
	return &Result{Pages: k.pages, Files: len(k.paths), Bytes: k.bytes, Tree: k.keep, BasePath: b.basePath, Origin: b.origin, Memo: b.memo, Reused: b.reused}, d
}

// Run builds the site into o.Out. On any error the output directory is
// left exactly as it was.
func Run(o Options) (*Result, *diag.List) {
	// Refuse a target we may not replace before doing any work.
	if err := output.CheckTarget(o.Out, o.OutputOptions()); err != nil {
		d := &diag.List{}
		d.Errorf(o.Out, 0, 0, "%v", err)
		return nil, d
	}
	k := newSink(o, o.Stream, false)
	create := func() error {
		w, err := output.Create(o.Out, o.OutputOptions())
		k.w = w
		return err
	}
	// A streaming build makes its temporary tree once the sources are
	// valid, just before the first page is finished; one kept in memory
	// writes it at the end.
	var start func() error
	if o.Stream {
		start = create
	}
	b, d := build(o, k, start)
	if !d.HasErrors() && !o.Stream {
		if err := create(); err != nil {
			d.Errorf(o.Out, 0, 0, "writing output: %v", err)
		}
		for _, p := range k.keep.Paths() {
			if d.HasErrors() {
				break
			}
			b, _ := k.keep.Get(p)
			if err := k.w.Add(p, b); err != nil {
				d.Errorf(o.Out, 0, 0, "writing output: %v", err)
			}
		}
	}
	if d.HasErrors() {
		if k.w != nil {
			k.w.Abort()
		}
		return nil, d
	}
	if err := k.w.Commit(); err != nil {
		d.Errorf(o.Out, 0, 0, "writing output: %v", err)
		return nil, d
	}
	return &Result{Pages: k.pages, Files: len(k.paths), Bytes: k.bytes, Tree: k.keep, BasePath: b.basePath, Origin: b.origin, Memo: b.memo, Reused: b.reused}, d
}

// build builds the site into k, and returns the path it is served under
// ("/", "/gpu/") and, with a memo (Options.Dev), this build's memo. Pages
// go to k as they are rendered, the other files (assets, exports, feeds,
// the sitemap) once the link check has passed. start, when not nil, is
// called once the sources are valid and before anything is put: a
// streaming build makes its temporary tree there.
func build(o Options, k *sink, start func() error) (built, *diag.List) {
	s, d := load(o, k)
	if s == nil || !s.staticFiles() {
		return built{}, d
	}
	if k.check {
		untranslated(s.cat, s.editions, d)
	}
	// Without pages asked for first, each edition is made (its core and
	// rest) while the one before is rendered, so at most two editions'
	// pages are held and the cores do not wait on the making, which is
	// one core's work. With them (Options.Dev.Priority), the compare,
	// calculator, TCO and data pages of each edition, and the rendering of
	// its queue, come after the core pages of every edition: a page asked
	// for is usually one of those, and a Chinese one then does not wait
	// for the English edition's thousands of compare pages. The editions
	// are reported in the site's order, so the diagnostics are too.
	priority := o.priority() != nil
	runs := make([]*editionRun, len(s.editions))
	var rendering func() // waits for the edition being rendered, reports it
	finished := func() bool {
		if rendering != nil {
			rendering()
			rendering = nil
		}
		return !d.HasErrors()
	}
	for n, i := range priorityOrder(s.editions, o.priority()) {
		e := s.newEdition(i)
		if e == nil {
			finished()
			return built{}, d
		}
		if n == 0 && start != nil {
			if err := start(); err != nil {
				d.Errorf(o.Out, 0, 0, "writing output: %v", err)
				return built{}, d
			}
		}
		runs[i] = e
		e.pages.Core()
		if !priority {
			e.pages.Rest()
			if !finished() {
				return built{}, d
			}
			rendering = s.renderingQueued(e)
		}
	}
	if !finished() {
		return built{}, d
	}
	for _, e := range runs {
		if priority && !s.finishEdition(e) {
			return built{}, d
		}
	}
	s.siteFiles()
	s.links.Finish(d)
	if d.HasErrors() {
		return built{}, d
	}
	k.putTree(s.tree, func(p string, err error) { d.Errorf("public/"+p, 0, 0, "%v", err) })
	k.done()
	return built{basePath: s.base, origin: s.origin, memo: s.memo, reused: s.reused}, d
}

// siteBuild is one build's state: its inputs once loaded, the files other
// than pages, and what the pages' rendering and link check keep.
type siteBuild struct {
	o   Options
	out *sink // where finished files go
	d   *diag.List

	cat      *catalog.Catalog
	base     string // the path the site is served under
	origin   string // the scheme and host of base_url, or ""
	editions []catalog.Language
	strs     *render.Strings
	derived  map[string]*derive.Data // by edition code
	guides   []*content.Page         // every edition's

	tree   *output.Tree      // the files other than pages, put in out at the end
	assets map[string]string // logical asset name -> output path
	kept   staticFiles       // for the memo
	html   []string          // pages for the sitemap, with their edition's prefix
	links  *linkcheck.Checker
	// queued are the files of the pages queued so far (every edition),
	// read by the render workers (exists) while the next edition is made:
	// qmu guards it.
	qmu    sync.Mutex
	queued map[string]bool
	// memo receives this build's pages when Options.Dev.Memo is set;
	// prevMemo is Options.Dev.Memo; reused counts the pages taken from it.
	memo, prevMemo *Memo
	reused         int
	captures       map[string]pages.CaptureTarget // data/captures/queries.toml, by provider
}

// editionRun is one edition while its pages are made and rendered: its
// pages' maker and the pages it queued that are not rendered yet.
type editionRun struct {
	s      *siteBuild
	lang   catalog.Language
	prefix string // "" for the default edition, else its code and "/"
	r      *render.Renderer
	guides []*content.Page // this edition's
	pages  *pages.Edition
	queue  []renderJob
}

// load loads and validates the catalog and guides and derives each
// edition's data; nil when the sources have errors.
func load(o Options, k *sink) (*siteBuild, *diag.List) {
	loadCat := catalog.LoadLayered
	if m := o.memo(); m != nil {
		loadCat = m.files.Load
	}
	cat, d := loadCat(o.Root, catalog.Layer{Dir: o.Overlay}, o.Now)
	if cat == nil {
		return nil, d
	}
	base := cat.Site.BaseURL
	if o.BaseURL != "" {
		base = o.BaseURL
	}
	origin, basePath, err := splitBase(base)
	if err != nil {
		d.Errorf("data/site.toml", 0, 0, "base_url: %v", err)
		return nil, d
	}
	s := &siteBuild{o: o, out: k, d: d, cat: cat, base: basePath, origin: origin, editions: cat.Site.Langs(), queued: map[string]bool{}}
	s.links = linkcheck.New(basePath, s.exists)
	if m := o.memo(); m != nil {
		s.prevMemo, s.memo = m, m.next()
	}
	langs := cat.Site.LangCodes()
	// A memo is only given while templates, UI strings and static files
	// stay the same: the strings it kept are what loading them again
	// would give.
	s.kept = s.prevMemo.static()
	s.strs = s.kept.strings
	if s.strs == nil {
		s.strs = render.LoadStrings(o.Root, langs, d)
	}
	s.derived = deriveEditions(cat, o.Now, s.editions, s.prevMemo)
	s.captures = loadCaptures(o.Root, d)
	titles, top := content.TitlesLayered(o.Root, content.Overlay{Dir: o.Overlay}, langs)
	parens := map[string]string{}
	for _, l := range langs {
		if p, ok := s.strs.For(l)["punct.paren"]; ok {
			parens[l] = p
		}
	}
	s.guides = content.Load(o.Root, content.Options{Now: o.Now, Languages: langs, Overlay: content.Overlay{Dir: o.Overlay}, Cache: s.prevMemo.guideCache(), Parens: parens,
		Resolver: pages.Shortcodes(s.derived, titles, top, s.strs, s.editions)}, d)
	if d.HasErrors() {
		return nil, d
	}
	return s, d
}

// deriveEditions derives each edition's data (in its display currency) on
// its own core: derive only reads the catalog. The editions share one memo
// of sizing answers (currency-free), kept in the dev server's memo for the
// builds that follow.
func deriveEditions(cat *catalog.Catalog, now time.Time, editions []catalog.Language, m *Memo) map[string]*derive.Data {
	fits := derive.NewFits()
	if m != nil {
		fits = m.fits
	}
	dd := make([]*derive.Data, len(editions))
	var wg sync.WaitGroup
	for i, l := range editions {
		wg.Go(func() { dd[i] = deriveIn(cat, now, l.DisplayCurrency, fits) })
	}
	wg.Wait()
	out := map[string]*derive.Data{}
	for i, l := range editions {
		out[l.Code] = dd[i]
	}
	return out
}

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

// staticFiles adds the files made from static/ to the build's tree: the
// bundles and the calculator's WebAssembly (reused from the dev server's
// memo, or from its previous output, when they cannot have changed), and,
// for a check, which writes nothing, only their names; false on an error.
func (s *siteBuild) staticFiles() bool {
	s.tree = output.NewTree()
	if s.out.check {
		s.assets = assets.Names(s.o.Root, s.tree, s.d)
		return !s.d.HasErrors()
	}
	if s.kept.files == nil {
		files := output.NewTree()
		manifest := assets.Bundle(s.o.Root, files, s.d)
		assets.WASM(s.o.Root, s.o.reuse(), files, manifest, s.d)
		s.kept = staticFiles{strings: s.strs, assets: maps.Clone(manifest), files: files}
	}
	s.assets = maps.Clone(s.kept.assets)
	for _, p := range s.kept.files.Paths() {
		b, _ := s.kept.files.Get(p)
		s.tree.Add(p, b)
	}
	if s.memo != nil {
		s.memo.kept = s.kept
	}
	return !s.d.HasErrors()
}

// newEdition returns the run of edition i with its renderer (from the
// memo when it has one: a memo is only given while templates, strings,
// static files and options stay the same, so its renderers are the ones
// render.New would make again); nil on a template error.
func (s *siteBuild) newEdition(i int) *editionRun {
	l := s.editions[i]
	e := &editionRun{s: s, lang: l}
	if i > 0 {
		e.prefix = l.Code + "/"
	}
	e.r = s.prevMemo.renderer(l.Code)
	if e.r != nil {
		e.r.ForgetCached() // kept from the previous build, whose data may differ
	}
	if e.r == nil {
		e.r = render.New(render.Options{Root: s.o.Root, BasePath: s.base, EditionPath: s.base + e.prefix, Neutral: pages.Neutral,
			Lang: l.Code, Tag: l.Tag, Strings: s.strs.For(l.Code), DateStyle: l.DateStyle, Assets: s.assets, Funcs: pages.Funcs()}, s.d)
		if s.d.HasErrors() {
			return nil
		}
	}
	s.memo.keepRenderer(l.Code, e.r)
	for _, p := range s.guides {
		if p.Lang == l.Code {
			e.guides = append(e.guides, p)
		}
	}
	cfg := pages.Config{Catalog: s.cat, Lang: l, Editions: s.editions, Renderer: e.r, Derived: s.derived[l.Code], Guides: e.guides,
		BasePath: s.base, Origin: s.origin, Now: s.o.Now, Files: s.tree, Diag: s.d, Queue: e, Captures: s.captures}
	if s.memo != nil {
		cfg.Finish = s.finishGuide
	}
	e.pages = pages.New(cfg)
	return e
}

// finishGuide takes a guide's finished HTML from the previous build's memo,
// or makes it, and keeps it for the next build (pages.Config.Finish).
func (s *siteBuild) finishGuide(key string, make func() template.HTML) template.HTML {
	out, ok := s.prevMemo.guide(key)
	if !ok {
		out = make()
	}
	s.memo.keepGuide(key, out)
	return out
}

// finishEdition makes an edition's compare, calculator, TCO and data
// pages and renders its queue; false when that failed.
func (s *siteBuild) finishEdition(e *editionRun) bool {
	e.pages.Rest()
	s.renderQueued(e)
	return !s.d.HasErrors()
}

// exists reports whether an output file is made or queued.
func (s *siteBuild) exists(target string) bool {
	if _, ok := s.tree.Get(target); ok {
		return true
	}
	s.qmu.Lock()
	q := s.queued[target]
	s.qmu.Unlock()
	return q || s.out.has(target)
}

// sourceOf names the file a page of edition e came from, for link errors.
func (e *editionRun) sourceOf(out string) string {
	for _, g := range e.guides {
		if strings.Contains(out, "/"+g.Slug+"/") || (g.Slug == "faq" && strings.HasPrefix(out, "faq/")) {
			return g.File
		}
	}
	return "templates (page /" + out + ")"
}

// priorityOrder returns the order in which the editions' pages are made:
// the editions holding a page of priority first (the default edition's
// files have no prefix, another's start with its code and "/"), then the
// others, each group in the site's order. Only when the output is made
// changes with it, not the output.
func priorityOrder(editions []catalog.Language, priority map[string]bool) []int {
	holds := make([]bool, len(editions))
	for f := range priority {
		e := 0
		for i, l := range editions {
			if i > 0 && strings.HasPrefix(f, l.Code+"/") {
				e = i
			}
		}
		holds[e] = true
	}
	var first, rest []int
	for i := range editions {
		if holds[i] {
			first = append(first, i)
		} else {
			rest = append(rest, i)
		}
	}
	return append(first, rest...)
}

// built is what build returns besides its diagnostics.
// untranslated warns, per data file, of the texts an edition other than
// the first shows that have no version in its language: the page shows
// the original, marked with its language, until one is written.
func untranslated(cat *catalog.Catalog, editions []catalog.Language, d *diag.List) {
	for _, l := range editions[min(1, len(editions)):] {
		for _, u := range cat.Untranslated(l.Code) {
			d.Warnf(u.File, u.Line, u.Col, "%d text(s) shown on %s pages have no %s version (pages show the original, marked with its language): %s; add them under i18n.%s (see CONTRIBUTING.md, Texts in other languages)",
				len(u.Keys), l.Code, l.Code, strings.Join(u.Keys, ", "), l.Code)
		}
	}
}

type built struct {
	basePath, origin string
	memo             *Memo
	reused           int
}

// splitBase splits "https://host/sub/" into origin and "/sub/".
func splitBase(base string) (origin, p string, err error) {
	u, err := url.Parse(base)
	if err != nil {
		return "", "", err
	}
	if u.Scheme != "" && u.Host == "" {
		return "", "", fmt.Errorf("%q has a scheme but no host", base)
	}
	if u.Scheme != "" {
		origin = u.Scheme + "://" + u.Host
	}
	p = u.Path
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return origin, p, nil
}

var templateErrRE = regexp.MustCompile(`^template: ([^:\s]+):(\d+):(\d+): (.*)$`)

// templateError turns an html/template execution error ("template:
// gpu.html:4:11: executing ...") into the template file's path, line,
// column and the rest of the message; errors without a position are
// reported at the page kind's template.
func templateError(err error, fallback string) (file string, line, col int, msg string) {
	m := templateErrRE.FindStringSubmatch(strings.SplitN(err.Error(), "\n", 2)[0])
	if m == nil {
		return fallback, 1, 1, err.Error()
	}
	line, _ = strconv.Atoi(m[2])
	col, _ = strconv.Atoi(m[3])
	return "templates/" + m[1], line, col, m[4]
}

// loadCaptures reads what `generator capture` asks each provider
// (capture.QueriesFile); a site without that file has none.
func loadCaptures(root string, d *diag.List) map[string]pages.CaptureTarget {
	q, err := capture.LoadQueries(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		d.Errorf(capture.QueriesFile, 0, 0, "%v", err)
		return nil
	}
	out := make(map[string]pages.CaptureTarget, len(q))
	for id, pq := range q {
		out[id] = pages.CaptureTarget{API: len(pq.Pages) == 0, Pages: pq.Pages}
	}
	return out
}
