package build

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStreamByteIdentical builds the fixture kept in memory and streamed,
// each with and without precompression and on one and eight workers: the
// trees written are byte-identical, and the streaming build's counts
// match the files on disk.
func TestStreamByteIdentical(t *testing.T) {
	root := fixture(t)
	for _, pre := range []bool{false, true} {
		cache := filepath.Join(t.TempDir(), "cache")
		ref := filepath.Join(t.TempDir(), "kept")
		kept := buildOpts(t, Options{Root: root, Out: ref, Now: fixtureNow, Precompress: pre, CacheDir: cache, Workers: 1})
		want := snapshot(t, ref)
		for _, workers := range []int{1, 8} {
			out := filepath.Join(t.TempDir(), "streamed")
			res := buildOpts(t, Options{Root: root, Out: out, Now: fixtureNow, Precompress: pre, CacheDir: cache, Workers: workers, Stream: true})
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
	root := fixture(t)
	out := filepath.Join(t.TempDir(), "public")
	buildOpts(t, Options{Root: root, Out: out, Now: fixtureNow, Stream: true})
	before := snapshot(t, out)
	f := filepath.Join(root, "content", "guides", "first-guide.md")
	src, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, append(src, []byte("\n\nSee [nowhere](/no/such/page/).\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	res, d := Run(Options{Root: root, Out: out, Now: fixtureNow, Stream: true})
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
