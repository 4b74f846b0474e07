package build

import (
	"bytes"
	"path/filepath"
	"testing"
)

// TestPrecompressCacheByteIdentical builds the fixture with precompression
// through a cold and then a warm cache: the outputs are byte-identical
// (package precompress checks a cache against none and a corrupted one).
func TestPrecompressCacheByteIdentical(t *testing.T) {
	root := fixture(t)
	cache := filepath.Join(t.TempDir(), "cache")
	ref := buildOpts(t, Options{Root: root, Out: filepath.Join(t.TempDir(), "cold"), Now: fixtureNow, Precompress: true, CacheDir: cache})
	for _, name := range []string{"warm"} {
		got := buildOpts(t, Options{Root: root, Out: filepath.Join(t.TempDir(), name), Now: fixtureNow, Precompress: true, CacheDir: cache})
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
