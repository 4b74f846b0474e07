package site

import (
	"hash/maphash"
	"html/template"
	"sync"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/content"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/output"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
)

// Memo holds the pages one build rendered, each with the fingerprint of
// its data (see fingerprinter), for the next build of the same site in the
// same process: the dev server passes the previous build's memo, and a
// page whose data did not change is taken from it instead of being
// rendered and minified again. It is valid only while the templates, UI
// strings, static assets and build options stay the same; the caller
// starts from NewMemo when one of those changes.
type Memo struct {
	seed  maphash.Seed
	files *catalog.Cache // the decoded data files, shared by the memos that follow
	fits  *derive.Fits   // the sizing engine's answers, likewise
	// guideSrc keeps the parsed guides, each valid while its file and its
	// shortcodes' answers are the same (see content.Cache), likewise.
	guideSrc *content.Cache
	mu       sync.Mutex
	pages    map[string]memoPage // by output file
	// renderers are the build's, by edition; kept its UI strings and
	// static files; the next build reuses both.
	renderers map[string]*render.Renderer
	kept      staticFiles
	// guides maps a guide's HTML, with its edition's base path and
	// prefix, to the finished HTML (see finishGuide).
	guides map[string]template.HTML
}

// guideCache returns the memo's parsed guides; nil (none) for a nil memo.
func (m *Memo) guideCache() *content.Cache {
	if m == nil {
		return nil
	}
	return m.guideSrc
}

func (m *Memo) guide(key string) (template.HTML, bool) {
	if m == nil {
		return "", false
	}
	h, ok := m.guides[key]
	return h, ok
}

func (m *Memo) keepGuide(key string, h template.HTML) {
	if m == nil {
		return
	}
	if m.guides == nil {
		m.guides = map[string]template.HTML{}
	}
	m.guides[key] = h
}

// staticFiles are a build's UI strings, and the files made from static/
// (bundles, copies, the calculator's WebAssembly) with their manifest.
type staticFiles struct {
	strings *render.Strings
	assets  map[string]string
	files   *output.Tree
}

// static returns what the memo kept of static files; nothing for a nil
// memo.
func (m *Memo) static() staticFiles {
	if m == nil {
		return staticFiles{}
	}
	return m.kept
}

// renderer returns the memo's renderer of an edition; nil when there is
// none (or no memo).
func (m *Memo) renderer(lang string) *render.Renderer {
	if m == nil {
		return nil
	}
	return m.renderers[lang]
}

// keepRenderer records a build's renderer of an edition; a nil memo keeps
// nothing.
func (m *Memo) keepRenderer(lang string, r *render.Renderer) {
	if m == nil {
		return
	}
	if m.renderers == nil {
		m.renderers = map[string]*render.Renderer{}
	}
	m.renderers[lang] = r
}

type memoPage struct {
	fp    uint64
	out   []byte // minified
	links []string
	ids   []string // the page's id attributes (linkcheck.IDs)
}

// NewMemo returns an empty memo: a build given it renders every page and
// returns a memo of them in Result.Memo.
func NewMemo() *Memo {
	return &Memo{seed: maphash.MakeSeed(), files: catalog.NewCache(), fits: derive.NewFits(), guideSrc: content.NewCache(), pages: map[string]memoPage{}}
}

// next returns an empty memo with m's seed and data files, for the build
// that reads m.
func (m *Memo) next() *Memo {
	return &Memo{seed: m.seed, files: m.files, fits: m.fits, guideSrc: m.guideSrc, pages: map[string]memoPage{}}
}

// WithoutPages returns a memo that keeps m's decoded data files, sizing
// answers and parsed guides (see catalog.Cache, derive.Fits and
// content.Cache: they stay valid whatever changed, each being checked
// against, or keyed by, all of its inputs) but none of its pages: for the
// build after a change of templates, UI strings, static files or options,
// which renders every page.
func (m *Memo) WithoutPages() *Memo {
	return &Memo{seed: maphash.MakeSeed(), files: m.files, fits: m.fits, guideSrc: m.guideSrc, pages: map[string]memoPage{}}
}

func (m *Memo) get(file string, fp uint64) (memoPage, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.pages[file]
	return e, ok && e.fp == fp
}

func (m *Memo) put(file string, e memoPage) {
	m.mu.Lock()
	m.pages[file] = e
	m.mu.Unlock()
}
