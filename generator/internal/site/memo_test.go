package site

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/fixture"
)

// TestMemoRebuildsLikeFullBuild edits the fixture the way a contributor
// using the dev server would, rebuilding after each edit with the previous
// build's memo, and compares every file of each incremental build with a
// full build of the same sources: a price change, a guide edit, an edit
// that breaks a data file (the build fails, the memo of the last good
// build is kept) and the one that fixes it, a new GPU spec figure, a price
// a guide quotes, and a GPU edit that breaks its offers' checks and its
// undoing (the site is then the last good build's: every page reused). A page
// the edit changes is asked for first (Options.Priority): it must be
// handed on alone, as the full build has it. Each
// incremental build must reuse some pages and render others, so the test
// fails both when the memo is ignored and when it hides a change.
func TestMemoRebuildsLikeFullBuild(t *testing.T) {
	root := fixture.Site(t)
	memo := NewMemo()
	res := buildOpts(t, Options{Root: root, Out: filepath.Join(t.TempDir(), "first"), Now: fixture.Now, Dev: &Dev{Memo: memo}})
	if res.Reused != 0 || res.Memo == nil {
		t.Fatalf("first build: %d pages reused, memo %v", res.Reused, res.Memo)
	}
	memo = res.Memo
	steps := []struct {
		name      string
		file      string
		old, new  string
		fails     bool
		unchanged string // a page the edit cannot touch: must be reused
		changed   string // a page the edit changes: rendered first (Options.Priority)
	}{
		{name: "price", file: "data/offers/acme.toml", old: "price = 0.75", new: "price = 0.79", unchanged: "methodology/index.html", changed: "providers/acme/index.html"},
		{name: "guide", file: "content/guides/first-guide.md", old: "## Memory\n", new: "## Memory\n\nAn added sentence.\n", unchanged: "compare/alpha-80gb-vs-beta-24gb/index.html", changed: "guides/first-guide/index.html"},
		{name: "broken", file: "data/offers/acme.toml", old: "price = 0.79", new: "price = -1", fails: true},
		{name: "fixed", file: "data/offers/acme.toml", old: "price = -1", new: "price = 0.81", unchanged: "zh/methodology/index.html", changed: "zh/providers/acme/index.html"},
		{name: "spec", file: "data/gpus/beta-24gb.toml", old: "memory_bandwidth_gbs = 300", new: "memory_bandwidth_gbs = 320", unchanged: "guides/first-guide/index.html", changed: "gpus/beta-24gb/index.html"},
		// The guide quotes alpha-80gb's cheapest price (a shortcode): its
		// parse is kept only while the shortcode answers the same.
		{name: "quoted price", file: "data/offers/drachen.toml", old: "price = 28.0", new: "price = 27.0", unchanged: "methodology/index.html", changed: "guides/first-guide/index.html"},
		// An offers file's checks read its GPU's file: they are kept only
		// while it is unchanged. Restored, the site is the last good
		// build's: every page is reused.
		{name: "memory unlike the offers'", file: "data/gpus/beta-24gb.toml", old: "memory_gb = 24", new: "memory_gb = 32", fails: true},
		{name: "memory restored", file: "data/gpus/beta-24gb.toml", old: "memory_gb = 32", new: "memory_gb = 24", unchanged: "gpus/beta-24gb/index.html"},
	}
	for _, st := range steps {
		edit(t, root, st.file, st.old, st.new)
		out := filepath.Join(t.TempDir(), st.name)
		first := map[string][]byte{}
		priority := map[string]bool{st.unchanged: true}
		if st.changed != "" {
			priority[st.changed] = true
		}
		inc, d := Run(Options{Root: root, Out: out, Now: fixture.Now, Dev: &Dev{Memo: memo,
			Priority:   priority,
			OnPriority: func(file string, b []byte) { first[file] = b }}})
		if st.fails {
			if inc != nil || !d.HasErrors() {
				t.Fatalf("%s: the broken edit built", st.name)
			}
			continue
		}
		if inc == nil {
			t.Fatalf("%s: %v", st.name, d.Errors())
		}
		fullOut := filepath.Join(t.TempDir(), st.name+"-full")
		if full := buildOpts(t, Options{Root: root, Out: fullOut, Now: fixture.Now}); full.Files != inc.Files {
			t.Errorf("%s: incremental build made %d files, full build %d", st.name, inc.Files, full.Files)
		}
		got, want := snapshot(t, out), snapshot(t, fullOut)
		if len(got) != len(want) {
			t.Errorf("%s: incremental build wrote %d files, full build %d", st.name, len(got), len(want))
		}
		for p, b := range want {
			if !bytes.Equal(got[p], b) {
				t.Errorf("%s: %s differs from the full build's", st.name, p)
			}
		}
		switch {
		case st.changed == "":
			if len(first) != 0 || inc.Reused != inc.Pages {
				t.Errorf("%s: %d pages handed on first, %d of %d reused; want none handed on and all reused", st.name, len(first), inc.Reused, inc.Pages)
			}
		case len(first) != 1 || !bytes.Equal(first[st.changed], want[st.changed]):
			t.Errorf("%s: pages handed on first: %d; want only %s, as the full build has it", st.name, len(first), st.changed)
		case inc.Reused == 0 || inc.Reused >= inc.Pages:
			t.Errorf("%s: %d of %d pages reused; want some reused and some rendered", st.name, inc.Reused, inc.Pages)
		}
		if _, ok := memo.get(st.unchanged, inc.Memo.pages[st.unchanged].fp); !ok {
			t.Errorf("%s: %s was rendered again though the edit cannot change it", st.name, st.unchanged)
		}
		t.Logf("%s: %d of %d pages reused", st.name, inc.Reused, inc.Pages)
		memo = inc.Memo
	}
}

// TestFingerprintSeesEveryField: a change of any exported value reachable
// from a page changes its fingerprint; equal values (maps in any order,
// through other pointers, with a cycle) hash equal; a func makes the page
// opaque.
func TestFingerprintSeesEveryField(t *testing.T) {
	type inner struct {
		N     int
		Tags  map[string]float64
		cache int // unexported: a memo, not hashed
	}
	type page struct {
		Name  string
		In    *inner
		List  []any
		Cycle *page
	}
	f := newFingerprinter(NewMemo().seed)
	base := func() *page {
		p := &page{Name: "a", In: &inner{N: 1, Tags: map[string]float64{"x": 1, "y": 2}}, List: []any{1, "two", 3.0}}
		p.Cycle = p
		return p
	}
	sum := func(p *page) uint64 {
		f.memo = map[ptrKey]uint64{} // values reached through fresh pointers
		s, ok := f.sum(p)
		if !ok {
			t.Fatal("an ordinary value was opaque")
		}
		return s
	}
	ref := sum(base())
	if sum(base()) != ref {
		t.Fatal("equal values hash differently (map order?)")
	}
	for name, change := range map[string]func(*page){
		"string":        func(p *page) { p.Name = "b" },
		"int":           func(p *page) { p.In.N = 2 },
		"map value":     func(p *page) { p.In.Tags["y"] = 3 },
		"map key":       func(p *page) { delete(p.In.Tags, "y"); p.In.Tags["z"] = 2 },
		"slice element": func(p *page) { p.List[1] = "deux" },
		"slice length":  func(p *page) { p.List = p.List[:2] },
		"nil pointer":   func(p *page) { p.In = nil },
	} {
		p := base()
		change(p)
		if sum(p) == ref {
			t.Errorf("%s: the change does not change the fingerprint", name)
		}
	}
	p := base()
	p.In.cache = 7
	if sum(p) != ref {
		t.Error("an unexported memo field changes the fingerprint")
	}
	if _, ok := f.sum(struct{ F func() }{func() {}}); ok {
		t.Error("a func was hashed by value")
	}
}
