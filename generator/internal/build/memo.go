package build

import (
	"hash/maphash"
	"sync"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
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
	mu    sync.Mutex
	pages map[string]memoPage // by output file
	// renderers are the build's, by edition; the next build reuses them.
	renderers map[string]*render.Renderer
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
}

// NewMemo returns an empty memo: a build given it renders every page and
// returns a memo of them in Result.Memo.
func NewMemo() *Memo {
	return &Memo{seed: maphash.MakeSeed(), files: catalog.NewCache(), pages: map[string]memoPage{}}
}

// next returns an empty memo with m's seed and data files, for the build
// that reads m.
func (m *Memo) next() *Memo { return &Memo{seed: m.seed, files: m.files, pages: map[string]memoPage{}} }

// WithoutPages returns a memo that keeps m's decoded data files (see
// catalog.Cache: they stay valid whatever changed, being checked against
// the files' bytes) but none of its pages: for the build after a change of
// templates, UI strings, static files or options, which renders every page.
func (m *Memo) WithoutPages() *Memo {
	return &Memo{seed: maphash.MakeSeed(), files: m.files, pages: map[string]memoPage{}}
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
