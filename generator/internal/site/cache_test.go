package site

import (
	"bytes"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/fixture"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/linkcheck"
)

// TestPrecompressCacheByteIdentical builds the fixture with precompression
// through a cold and then a warm cache: the outputs are byte-identical
// (package precompress checks a cache against none and a corrupted one).
func TestPrecompressCacheByteIdentical(t *testing.T) {
	root := fixture.Site(t)
	cache := filepath.Join(t.TempDir(), "cache")
	ref := buildOpts(t, Options{Root: root, Out: filepath.Join(t.TempDir(), "cold"), Now: fixture.Now, Precompress: true, CacheDir: cache})
	for _, name := range []string{"warm"} {
		got := buildOpts(t, Options{Root: root, Out: filepath.Join(t.TempDir(), name), Now: fixture.Now, Precompress: true, CacheDir: cache})
		if got.Files != ref.Files {
			t.Fatalf("%s cache: %d files, uncached %d", name, got.Files, ref.Files)
		}
		for _, p := range ref.Tree.Paths() {
			a, _ := ref.Tree.Get(p)
			b, ok := got.Tree.Get(p)
			if !ok || !bytes.Equal(a, b) {
				t.Errorf("%s cache: %s differs", name, p)
			}
		}
	}
}

// TestWorkersByteIdentical renders the fixture serially and on eight
// workers: the trees are byte-identical.
func TestWorkersByteIdentical(t *testing.T) {
	root := fixture.Site(t)
	one := buildOpts(t, Options{Root: root, Out: filepath.Join(t.TempDir(), "one"), Now: fixture.Now, Workers: 1})
	many := buildOpts(t, Options{Root: root, Out: filepath.Join(t.TempDir(), "many"), Now: fixture.Now, Workers: 8})
	if one.Files != many.Files {
		t.Fatalf("%d files serially, %d on 8 workers", one.Files, many.Files)
	}
	for _, p := range one.Tree.Paths() {
		a, _ := one.Tree.Get(p)
		b, ok := many.Tree.Get(p)
		if !ok || !bytes.Equal(a, b) {
			t.Errorf("%s differs between 1 and 8 workers", p)
		}
	}
}

// TestPageLinks: the byte scan finds the same href and src values as the
// regular expression it replaced, on every page of the fixture.
func TestPageLinks(t *testing.T) {
	re := regexp.MustCompile(`(?:href|src)="([^"]*)"`)
	res := buildOpts(t, Options{Root: fixture.Site(t), Out: filepath.Join(t.TempDir(), "p"), Now: fixture.Now})
	n := 0
	for _, p := range res.Tree.Paths() {
		if !strings.HasSuffix(p, ".html") {
			continue
		}
		b, _ := res.Tree.Get(p)
		var want []string
		for _, m := range re.FindAllSubmatch(b, -1) {
			want = append(want, string(m[1]))
		}
		got := linkcheck.Links(b)
		if !slices.Equal(got, want) {
			t.Errorf("%s: scan %q, regexp %q", p, got, want)
		}
		n += len(got)
	}
	if n < 100 {
		t.Errorf("only %d links", n)
	}
}
