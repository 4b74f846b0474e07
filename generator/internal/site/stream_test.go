package site

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/fixture"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/output"
)

// TestStreamByteIdentical builds the fixture kept in memory and streamed,
// each with and without precompression and on one and eight workers: the
// trees written are byte-identical, and the streaming build's counts
// match the files on disk.
func TestStreamByteIdentical(t *testing.T) {
	root := fixture.Site(t)
	for _, pre := range []bool{false, true} {
		cache := filepath.Join(t.TempDir(), "cache")
		ref := filepath.Join(t.TempDir(), "kept")
		kept := buildOpts(t, Options{Root: root, Out: ref, Now: fixture.Now, Precompress: pre, CacheDir: cache, Workers: 1})
		want := snapshot(t, ref)
		for _, workers := range []int{1, 8} {
			out := filepath.Join(t.TempDir(), "streamed")
			res := buildOpts(t, Options{Root: root, Out: out, Now: fixture.Now, Precompress: pre, CacheDir: cache, Workers: workers, Stream: true})
			if res.Tree != nil {
				t.Error("a streaming build kept its tree")
			}
			if res.Files != kept.Files || res.Pages != kept.Pages || res.Bytes != kept.Bytes {
				t.Errorf("precompress %v, %d workers: streamed %d files, %d pages, %d bytes; kept %d, %d, %d",
					pre, workers, res.Files, res.Pages, res.Bytes, kept.Files, kept.Pages, kept.Bytes)
			}
			got := snapshot(t, out)
			if len(got) != len(want) {
				t.Errorf("precompress %v, %d workers: %d files on disk, kept build wrote %d", pre, workers, len(got), len(want))
			}
			for p, b := range want {
				if !bytes.Equal(got[p], b) {
					t.Errorf("precompress %v, %d workers: %s differs from the kept build's", pre, workers, p)
				}
			}
		}
	}
}

// TestStreamFailureLeavesOutputUntouched: a streaming build that fails
// after pages were written (a broken internal link is found once every
// page is rendered) leaves the previous output as it was and no temporary
// tree beside it.
func TestStreamFailureLeavesOutputUntouched(t *testing.T) {
	root := fixture.Site(t)
	out := filepath.Join(t.TempDir(), "public")
	buildOpts(t, Options{Root: root, Out: out, Now: fixture.Now, Stream: true})
	before := snapshot(t, out)
	f := filepath.Join(root, "content", "guides", "first-guide.md")
	src, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, append(src, []byte("\n\nSee [nowhere](/no/such/page/).\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	res, d := Run(Options{Root: root, Out: out, Now: fixture.Now, Stream: true})
	if res != nil || !d.HasErrors() {
		t.Fatal("a broken link built successfully")
	}
	want := `content/guides/first-guide.md: broken internal link "/no/such/page/" on /guides/first-guide/index.html`
	if errs := d.Errors(); len(errs) != 1 || !strings.HasSuffix(errs[0].String(), want) {
		t.Errorf("errors %v, want one ending %q", errs, want)
	}
	after := snapshot(t, out)
	if len(after) != len(before) {
		t.Fatalf("output has %d files after a failed build, had %d", len(after), len(before))
	}
	for p, b := range before {
		if !bytes.Equal(after[p], b) {
			t.Errorf("%s changed after a failed build", p)
		}
	}
	ents, _ := os.ReadDir(filepath.Dir(out))
	for _, e := range ents {
		if e.Name() != "public" {
			t.Errorf("stray %s left beside the output", e.Name())
		}
	}
}

// TestRebuildIntoOutputEqualsFresh rebuilds the fixture into its own
// output after a price edit, streamed, with and without precompression,
// with the compression cache warm, cold or corrupted (the unchanged pages
// and their .br and .gz are then linked from the output being replaced,
// see output.Writer): every file, the manifest included, equals a build
// of the same sources into a new directory, and the replaced output's
// files are not changed while the new one is made.
func TestRebuildIntoOutputEqualsFresh(t *testing.T) {
	// One cache, warmed once with both versions of the fixture, is copied
	// for each case (compressing the WebAssembly at brotli 11 takes
	// seconds); the builds into new directories use it as it is.
	warm := filepath.Join(t.TempDir(), "warm")
	{
		root := fixture.Site(t)
		o := Options{Root: root, Now: fixture.Now, Precompress: true, CacheDir: warm, Stream: true}
		o.Out = filepath.Join(t.TempDir(), "a")
		buildOpts(t, o)
		edit(t, root, "data/offers/acme.toml", "price = 0.75", "price = 0.79")
		o.Out = filepath.Join(t.TempDir(), "b")
		buildOpts(t, o)
	}
	for _, c := range []struct {
		pre   bool
		cache string
	}{{false, "warm"}, {true, "warm"}, {true, "cold"}, {true, "corrupted"}} {
		pre, cache := c.pre, c.cache
		{
			root := fixture.Site(t)
			dir := filepath.Join(t.TempDir(), "cache")
			if err := os.CopyFS(dir, os.DirFS(warm)); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "public")
			o := Options{Root: root, Out: out, Now: fixture.Now, Precompress: pre, CacheDir: dir, Stream: true}
			buildOpts(t, o)
			first := snapshot(t, out)
			// The later builds take the first one's WebAssembly instead
			// of compiling it again (a compile gives the same bytes).
			o.Dev = &Dev{Reuse: output.NewTree()}
			for rel, b := range first {
				o.Dev.Reuse.Add(filepath.ToSlash(rel), b)
			}
			edit(t, root, "data/offers/acme.toml", "price = 0.75", "price = 0.79")
			switch cache {
			case "cold":
				os.RemoveAll(dir)
			case "corrupted":
				filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
					if err == nil && !e.IsDir() {
						os.WriteFile(p, []byte("garbage"), 0o644)
					}
					return nil
				})
			}
			// Keep a name for every file of the first output: its
			// content must survive the rebuild unchanged.
			keep := filepath.Join(t.TempDir(), "keep")
			for rel := range first {
				os.MkdirAll(filepath.Dir(filepath.Join(keep, rel)), 0o755)
				if err := os.Link(filepath.Join(out, rel), filepath.Join(keep, rel)); err != nil {
					t.Fatal(err)
				}
			}
			buildOpts(t, o)
			fresh := filepath.Join(t.TempDir(), "fresh")
			o.Out, o.CacheDir = fresh, warm
			buildOpts(t, o)
			got, want := snapshot(t, out), snapshot(t, fresh)
			if len(got) != len(want) {
				t.Errorf("precompress %v, %s cache: %d files rebuilt, %d fresh", pre, cache, len(got), len(want))
			}
			changed := 0
			for p, b := range want {
				if !bytes.Equal(got[p], b) {
					t.Errorf("precompress %v, %s cache: %s differs from a fresh build's", pre, cache, p)
				}
				if !bytes.Equal(first[p], b) {
					changed++
				}
			}
			if changed == 0 || changed == len(want) {
				t.Errorf("precompress %v, %s cache: %d of %d files changed; want some", pre, cache, changed, len(want))
			}
			for rel, b := range first {
				if now, _ := os.ReadFile(filepath.Join(keep, rel)); !bytes.Equal(now, b) {
					t.Errorf("precompress %v, %s cache: the replaced output's %s was changed", pre, cache, rel)
				}
			}
		}
	}
}
