// Package build runs the whole pipeline for one site: load and validate
// the catalog and guides, derive, render every page, check internal links
// and write the output atomically.
package build

import (
	"fmt"
	"html/template"
	"maps"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/content"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/output"
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
	// Reuse, when set, is a previous build's tree whose calculator
	// WebAssembly and wasm_exec.js are copied instead of compiled again
	// (see reuse.go). Only for callers that know the generator's Go
	// sources did not change since that build: the dev server sets it.
	Reuse *output.Tree
	// Workers is how many pages render at once (default: GOMAXPROCS); the
	// output is the same whatever it is.
	Workers int
	// Stream writes each file to the output's temporary tree as soon as
	// it is finished, so a build holds one page at a time instead of the
	// whole site (the CLI's build does); Result.Tree is then nil. The
	// output is the same either way.
	Stream bool
	// Memo, when set, is the previous build's memo of rendered pages (or
	// NewMemo for a first build): pages whose data did not change are
	// taken from it, and Result.Memo holds this build's. Only for a caller
	// that rebuilds the same site with the same templates, UI strings,
	// static files and options (the dev server).
	Memo *Memo
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
	// Priority names output files ("gpus/h100/index.html") to render as
	// soon as their data is ready, ahead of the other pages; each one that
	// changed since the previous build (Memo) is handed to OnPriority,
	// finished, while the build goes on. The dev server prioritises the
	// pages open in a browser, so a reader sees an edit before the whole
	// site is rebuilt. The output is the same either way.
	Priority   map[string]bool
	OnPriority func(file string, page []byte)
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
	// Memo is this build's memo of rendered pages when Options.Memo was
	// set; Reused counts the pages taken from Options.Memo.
	Memo   *Memo
	Reused int
	// BasePath is the path the site is served under: "/", or the path of
	// base_url ("/gpu/" for https://intranet.example/gpu/).
	BasePath string
}

// Today returns the build date: SOURCE_DATE_EPOCH when set (reproducible
// builds), else the current UTC date. Only the date is kept, so two builds
// of the same input on the same day are byte-identical.
func Today() (time.Time, error) {
	now := time.Now().UTC()
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		sec, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH %q is not a Unix time", s)
		}
		now = time.Unix(sec, 0).UTC()
	}
	return time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC), nil
}

// Check loads and validates everything a build would, writing nothing.
func Check(o Options) *diag.List {
	_, d := site(o, newSink(o, false, true), nil)
	return d
}

// Render builds the site in memory, into Result.Tree, and writes nothing
// (o.Out and o.Stream are not used): for a caller that writes the tree
// itself, such as the dev server, which patches its output with only the
// files that changed (output.Patch).
func Render(o Options) (*Result, *diag.List) {
	k := newSink(o, false, false)
	b, d := site(o, k, nil)
	if d.HasErrors() {
		return nil, d
	}
	return &Result{Pages: k.pages, Files: len(k.paths), Bytes: k.bytes, Tree: k.keep, BasePath: b.basePath, Memo: b.memo, Reused: b.reused}, d
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
	b, d := site(o, k, start)
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
	return &Result{Pages: k.pages, Files: len(k.paths), Bytes: k.bytes, Tree: k.keep, BasePath: b.basePath, Memo: b.memo, Reused: b.reused}, d
}

// site builds the site into k, and returns the path it is served under
// ("/", "/gpu/") and, with Options.Memo, this build's memo. Pages go to k
// as they are rendered, the other files
// (assets, exports, feeds, the sitemap) once the link check has passed.
// start, when not nil, is called once the sources are valid and before
// anything is put: a streaming build makes its temporary tree there.
func site(o Options, k *sink, start func() error) (built, *diag.List) {
	load := catalog.LoadLayered
	if o.Memo != nil {
		load = o.Memo.files.Load
	}
	cat, d := load(o.Root, catalog.Layer{Dir: o.Overlay}, o.Now)
	if cat == nil {
		return built{}, d
	}
	base := cat.Site.BaseURL
	if o.BaseURL != "" {
		base = o.BaseURL
	}
	origin, basePath, err := splitBase(base)
	if err != nil {
		d.Errorf("data/site.toml", 0, 0, "base_url: %v", err)
		return built{}, d
	}
	editions := cat.Site.Langs()
	langs := cat.Site.LangCodes()
	// A memo is only given while templates, UI strings and static files
	// stay the same: the strings and assets it kept are what loading and
	// bundling them again would give.
	kept := o.Memo.static()
	strs := kept.strings
	if strs == nil {
		strs = render.LoadStrings(o.Root, langs, d)
	}
	// Each edition's derived data (its display currency) is computed on
	// its own core: derive only reads the catalog.
	// The editions share one memo of sizing answers (currency-free), kept
	// in the memo for the builds that follow.
	derived := map[string]*derive.Data{}
	dd := make([]*derive.Data, len(editions))
	fits := derive.NewFits()
	if o.Memo != nil {
		fits = o.Memo.fits
	}
	var wg sync.WaitGroup
	for i, l := range editions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dd[i] = deriveIn(cat, o.Now, l.DisplayCurrency, fits)
		}()
	}
	wg.Wait()
	for i, l := range editions {
		derived[l.Code] = dd[i]
	}
	titles, top := content.TitlesLayered(o.Root, content.Overlay{Dir: o.Overlay}, langs)
	all := content.Load(o.Root, content.Options{Now: o.Now, Languages: langs, Overlay: content.Overlay{Dir: o.Overlay}, Cache: o.Memo.guideCache(),
		Resolver: &resolver{derived: derived, guides: titles, top: top, strings: strs, dateStyles: dateStyles(editions)}}, d)
	if d.HasErrors() {
		return built{}, d
	}
	tree := output.NewTree()
	assets := maps.Clone(kept.assets)
	if kept.files != nil {
		for _, p := range kept.files.Paths() {
			b, _ := kept.files.Get(p)
			tree.Add(p, b)
		}
	} else {
		files := output.NewTree()
		assets = Assets(o.Root, files, d)
		wasmAssets(o, files, assets, d)
		kept = staticFiles{strings: strs, assets: maps.Clone(assets), files: files}
		for _, p := range files.Paths() {
			b, _ := files.Get(p)
			tree.Add(p, b)
		}
	}
	if d.HasErrors() {
		return built{}, d
	}
	s := &siteBuild{o: o, cat: cat, tree: tree, out: k, d: d, base: basePath, origin: origin, editions: editions, alternates: map[string][]string{}}
	if o.Memo != nil {
		s.prevMemo, s.memo = o.Memo, o.Memo.next()
		s.memo.kept = kept
	}
	eds := make([]edition, len(editions))
	for n, i := range priorityOrder(editions, o.Priority) {
		l := editions[i]
		prefix := ""
		if i > 0 {
			prefix = l.Code + "/"
		}
		// A memo is only given while templates, strings, static files and
		// options stay the same, so its renderers (parsed templates) are
		// the ones render.New would make again.
		r := s.prevMemo.renderer(l.Code)
		if r == nil {
			r = render.New(render.Options{Root: o.Root, BasePath: basePath, EditionPath: basePath + prefix, Neutral: neutralPath,
				Lang: l.Code, Tag: l.Tag, Strings: strs.For(l.Code), DateStyle: l.DateStyle, Assets: assets,
				Funcs: template.FuncMap{"specs": specRows, "specnames": specRowNames, "pct": func(f float64) float64 { return f * 100 },
					"hassuffix": strings.HasSuffix, "list": func(v ...any) []any { return v }}}, d)
			if d.HasErrors() {
				return built{}, d
			}
		}
		s.memo.keepRenderer(l.Code, r)
		if n == 0 && start != nil {
			if err := start(); err != nil {
				d.Errorf(o.Out, 0, 0, "writing output: %v", err)
				return built{}, d
			}
		}
		var pages []*content.Page
		for _, p := range all {
			if p.Lang == l.Code {
				pages = append(pages, p)
			}
		}
		s.lang, s.prefix, s.r, s.dd, s.guides, s.view = l, prefix, r, derived[l.Code], pages, nil
		s.pages()
		if o.Priority == nil {
			// Nothing asked for first: each edition is finished before
			// the next is made, so only one edition's pages are held.
			if !s.finishEdition() {
				return built{}, d
			}
			continue
		}
		eds[i] = s.edition
		s.queue = nil
	}
	// With pages asked for first (Options.Priority), the compare,
	// calculator, TCO and data pages of each edition, and the rendering of
	// its queue, come after the other pages of every edition are made: a
	// page asked for is usually one of those, and a Chinese one then does
	// not wait for the English edition's thousands of compare pages. Each
	// edition is rendered in the site's order, so the diagnostics are too.
	for _, e := range eds {
		if o.Priority == nil {
			break
		}
		s.edition = e
		if !s.finishEdition() {
			return built{}, d
		}
	}
	s.sitemap()
	s.checkLinks()
	if d.HasErrors() {
		return built{}, d
	}
	k.putTree(tree, func(p string, err error) { d.Errorf("public/"+p, 0, 0, "%v", err) })
	k.done()
	return built{basePath: basePath, memo: s.memo, reused: s.reused}, d
}

// finishEdition makes the current edition's compare, calculator, TCO and
// data pages and renders its queue; false when that failed.
func (s *siteBuild) finishEdition() bool {
	s.compareCols = nil
	s.extraPages()
	s.renderQueued()
	return !s.d.HasErrors()
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

// built is what site returns besides its diagnostics.
type built struct {
	basePath string
	memo     *Memo
	reused   int
}

func langOr(l string) string {
	if l == "" {
		return "en"
	}
	return l
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

// edition is the state of one edition's pages while they are built: its
// language, its path prefix ("" for the default language, "zh/"),
// renderer, derived data (in its display currency) and guides, and the
// pages page() was given and renderQueued has not rendered yet.
type edition struct {
	lang   catalog.Language
	prefix string
	r      *render.Renderer
	dd     *derive.Data
	guides []*content.Page
	queue  []renderJob
	// view is a copy of the build as this edition's pages() found it,
	// for the pages whose data is made when they are rendered (pageData).
	view *siteBuild
}

type siteBuild struct {
	o      Options
	cat    *catalog.Catalog
	tree   *output.Tree // the files other than pages, put in out at the end
	out    *sink        // where finished files go
	d      *diag.List
	base   string
	origin string
	html   []string // pages for the sitemap, with their edition's prefix

	edition  // the one being rendered
	editions []catalog.Language
	// alternates maps a page's path within an edition ("gpus/a10/") to
	// the codes of the editions that have it.
	alternates map[string][]string
	// queued are the files of the pages queued so far (every edition);
	// pending the links collectLinks could not settle yet.
	queued  map[string]bool
	pending []pendingLink
	// memo receives this build's pages when Options.Memo is set; prevMemo
	// is Options.Memo; reused counts the pages taken from it.
	memo, prevMemo *Memo
	reused         int
	// compareCols memoises compareGPU for the current edition.
	compareCols map[*catalog.GPU]CompareGPU
}

// page queues one page for rendering to p.Path (a directory path ending
// in "/" or a file) in the current edition; renderQueued renders the
// queue on every core.
func (s *siteBuild) page(p *render.Page) { s.pageData(p, nil) }

// pageData is page for a page whose Data takes work to make: data makes
// it when the page is rendered, on a render worker, so the pages' data is
// made on every core, a page asked for first (Options.Priority) waits for
// its own data only, and a page's data is dropped once it is rendered.
// data is given a view of the build as it is now (this edition's), which
// it must only read; it may run at the same time as other pages' data.
func (s *siteBuild) pageData(p *render.Page, data func(v *siteBuild) any) {
	p.Site = s.site()
	p.Edition = s.editionInfo(p.Path)
	file := s.prefix + p.Path
	if file == "" || strings.HasSuffix(file, "/") {
		file += "index.html"
	}
	j := renderJob{page: p, r: s.r, file: file, data: data}
	if data != nil {
		j.at = s.editionView()
	}
	s.queue = append(s.queue, j)
	if s.queued == nil {
		s.queued = map[string]bool{}
	}
	s.queued[file] = true
	if p.Kind != "404" {
		s.html = append(s.html, s.prefix+p.Path)
		s.alternates[p.Path] = append(s.alternates[p.Path], s.lang.Code)
	}
	if s.o.Priority[file] {
		s.renderFirst()
	}
}

// editionView returns a copy of the build as it is now, in the current
// edition, for page data made later (pageData); one per edition.
func (s *siteBuild) editionView() *siteBuild {
	if s.view == nil {
		v := *s
		v.queue, v.view = nil, nil
		s.view = &v
	}
	return s.view
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

// collectLinks checks the links of one rendered page (pageLinks) as far
// as it can now: a link to a file already made or a page already queued
// is fine and forgotten at once, a link outside the base path is an error,
// and the rest (pages of a later edition, files made after the pages) wait
// in s.pending for checkLinks. Keeping every link of every page until the
// end was the largest part of a big build's memory.
func (s *siteBuild) collectLinks(file string, links []string) {
	for _, raw := range links {
		target, ok := s.linkTarget(file, raw)
		if !ok || s.exists(target) {
			continue
		}
		// The source is named now: s.guides are this edition's.
		s.pending = append(s.pending, pendingLink{file: file, raw: raw, target: target, source: s.sourceOf(file)})
	}
}

// unsettled returns the links of a page collectLinks would keep or report:
// those not to an existing file. It only reads (the queue and the tree do
// not change while pages render), so render workers call it, and a page
// holds only these few links until its errors are reported in order.
func (s *siteBuild) unsettled(links []string) []string {
	var out []string
	for _, raw := range links {
		if target, kind := s.resolveLink(raw); kind == linkExternal || kind == linkInternal && s.exists(target) {
			continue
		}
		out = append(out, raw)
	}
	return out
}

// pendingLink is a link whose target did not exist yet when its page was
// rendered.
type pendingLink struct{ file, raw, target, source string }

// linkTarget returns the output file an internal link points at; ok is
// false for a link to another site, a fragment, mailto: or data:, and for
// a link outside the base path, which it reports.
func (s *siteBuild) linkTarget(file, raw string) (target string, ok bool) {
	target, kind := s.resolveLink(raw)
	if kind == linkOutside {
		s.d.Errorf("public/"+file, 0, 0, "link %q is outside the site's base path %s", strings.ReplaceAll(raw, "&amp;", "&"), s.base)
	}
	return target, kind == linkInternal
}

// The kinds of link resolveLink tells apart.
const (
	linkExternal = iota // another site, a fragment, mailto:, data:
	linkOutside         // a path outside the site's base path
	linkInternal        // a file of the site
)

// resolveLink returns a link's kind and, for an internal one, the output
// file it points at.
func (s *siteBuild) resolveLink(raw string) (target string, kind int) {
	link := strings.ReplaceAll(raw, "&amp;", "&")
	if strings.HasPrefix(link, "#") || strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") || strings.HasPrefix(link, "data:") {
		return "", linkExternal
	}
	if !strings.HasPrefix(link, s.base) {
		return "", linkOutside
	}
	target = strings.TrimPrefix(link, s.base)
	if i := strings.IndexAny(target, "?#"); i >= 0 {
		target = target[:i]
	}
	if target == "" || strings.HasSuffix(target, "/") {
		target += "index.html"
	}
	target, _ = url.PathUnescape(target)
	return path.Clean(target), linkInternal
}

// exists reports whether an output file is made or queued.
func (s *siteBuild) exists(target string) bool {
	if _, ok := s.tree.Get(target); ok {
		return true
	}
	return s.queued[target] || s.out.has(target)
}

// checkLinks fails the build on an internal link that resolves to no file:
// the links collectLinks could not settle while the pages rendered.
func (s *siteBuild) checkLinks() {
	slices.SortStableFunc(s.pending, func(a, b pendingLink) int { return strings.Compare(a.file, b.file) })
	for _, l := range s.pending {
		if !s.exists(l.target) {
			s.d.Errorf(l.source, 0, 0, "broken internal link %q on /%s", strings.ReplaceAll(l.raw, "&amp;", "&"), l.file)
		}
	}
}

// sourceOf names the file a page came from, for link errors.
func (s *siteBuild) sourceOf(out string) string {
	for _, g := range s.guides {
		if strings.Contains(out, "/"+g.Slug+"/") || (g.Slug == "faq" && strings.HasPrefix(out, "faq/")) {
			return g.File
		}
	}
	return "templates (page /" + out + ")"
}
