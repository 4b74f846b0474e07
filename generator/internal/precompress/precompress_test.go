package precompress

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/output"
)

func site() *output.Tree {
	t := output.NewTree()
	for i := range 40 {
		t.Add(fmt.Sprintf("gpus/g%d/index.html", i), []byte(strings.Repeat(fmt.Sprintf("<p>GPU %d, 80 GB HBM3, 3.35 TB/s</p>\n", i), 40)))
	}
	t.Add("assets/calc.wasm", bytes.Repeat([]byte{0, 97, 115, 109, 1, 0, 0, 0}, 200))
	t.Add("small.txt", []byte("too small"))
	t.Add("logo.png", bytes.Repeat([]byte{1}, 1000))
	return t
}

func files(t *output.Tree) map[string]string {
	m := map[string]string{}
	for _, p := range t.Paths() {
		b, _ := t.Get(p)
		m[p] = string(b)
	}
	return m
}

// TestCacheNeverChangesOutput: no cache, a cold one, a warm one and a
// corrupted one give byte-identical trees; the warm run compresses nothing.
func TestCacheNeverChangesOutput(t *testing.T) {
	ref := site()
	Tree(ref, nil)
	want := files(ref)
	if _, ok := want["gpus/g1/index.html.br"]; !ok {
		t.Fatal("no .br sibling")
	}
	for _, p := range []string{"small.txt.br", "logo.png.gz"} {
		if _, ok := want[p]; ok {
			t.Errorf("%s should not exist", p)
		}
	}
	dir := filepath.Join(t.TempDir(), "cache")
	check := func(name string, c *Cache, wantCached bool) Stats {
		t.Helper()
		tr := site()
		st := Tree(tr, c)
		got := files(tr)
		if len(got) != len(want) {
			t.Errorf("%s: %d files, want %d", name, len(got), len(want))
		}
		for p, b := range want {
			if got[p] != b {
				t.Errorf("%s: %s differs from an uncached build", name, p)
			}
		}
		if wantCached && st.Compressed != 0 {
			t.Errorf("%s: %d compressions, want all %d from the cache", name, st.Compressed, st.Cached)
		}
		return st
	}
	cold := check("cold cache", OpenCache(dir, 0), false)
	if cold.Cached != 0 || cold.Compressed != 2*cold.Files {
		t.Errorf("cold cache: %+v", cold)
	}
	check("warm cache", OpenCache(dir, 0), true)
	// Corrupt every entry a different way: truncate, flip a byte, replace.
	i := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := os.ReadFile(p)
		switch i % 3 {
		case 0:
			b = b[:len(b)/2]
		case 1:
			b[len(b)-1] ^= 0xff
		default:
			b = []byte("garbage")
		}
		i++
		return os.WriteFile(p, b, 0o644)
	})
	bad := check("corrupted cache", OpenCache(dir, 0), false)
	if bad.Compressed != 2*bad.Files {
		t.Errorf("corrupted cache: %+v: every damaged entry must be recomputed", bad)
	}
	check("repaired cache", OpenCache(dir, 0), true)
}

// TestCacheBounded: a cache over its limit is pruned to 80 % of it.
func TestCacheBounded(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	const limit = 4000
	Tree(site(), OpenCache(dir, limit))
	var total int64
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if info, err := d.Info(); err == nil && !d.IsDir() {
			total += info.Size()
		}
		return nil
	})
	if total > limit {
		t.Errorf("cache holds %d bytes, limit %d", total, limit)
	}
}

func TestNoDirNoCache(t *testing.T) {
	if OpenCache("", 0) != nil {
		t.Error("an empty directory name must mean no cache")
	}
	var c *Cache
	if _, ok := c.Get("m", []byte("x")); ok {
		t.Error("a nil cache returned something")
	}
	c.Put("m", []byte("x"), []byte("y"))
	c.Prune()
}

// TestCacheBoundedAcrossRuns: runs that each add new entries keep the
// cache within its limit, though Prune walks the directory only when its
// size record says the limit may be passed, and the record stays true.
func TestCacheBoundedAcrossRuns(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	const limit = 6000
	for run := range 8 {
		tr := output.NewTree()
		tr.Add("index.html", []byte(strings.Repeat(fmt.Sprintf("<p>run %d</p>", run), 200)))
		tr.Add("api/all.json", []byte(strings.Repeat(fmt.Sprintf(`{"run":%d}`, run), 200)))
		Tree(tr, OpenCache(dir, limit))
		var total int64
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if info, err := d.Info(); err == nil && !d.IsDir() && d.Name() != sizeFile {
				total += info.Size()
			}
			return nil
		})
		if total > limit {
			t.Errorf("run %d: cache holds %d bytes, limit %d", run, total, limit)
		}
		rec, err := os.ReadFile(filepath.Join(dir, sizeFile))
		if err != nil {
			t.Fatalf("run %d: no size record: %v", run, err)
		}
		if got := strings.TrimSpace(string(rec)); got != fmt.Sprint(total) {
			t.Errorf("run %d: size record %s, cache holds %d", run, got, total)
		}
	}
}

// TestModuleVersion: the cache key's brotli version is the module's in
// the binary's build info, a replacement's where replaced.
func TestModuleVersion(t *testing.T) {
	const path = "github.com/andybalholm/brotli"
	for _, c := range []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"required", &debug.BuildInfo{Deps: []*debug.Module{{Path: "x/y", Version: "v9"}, {Path: path, Version: "v1.2.0"}}}, "v1.2.0"},
		{"replaced", &debug.BuildInfo{Deps: []*debug.Module{{Path: path, Version: "v1.2.0", Replace: &debug.Module{Path: "../brotli", Version: "v1.2.1-fork"}}}}, "v1.2.1-fork"},
		{"absent", &debug.BuildInfo{}, "unknown"},
		{"no build info", nil, "unknown"},
	} {
		if got := moduleVersion(c.bi, path); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
