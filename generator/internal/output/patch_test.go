package output

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// listing returns every file under dir (the manifest included) with its
// content, and every directory, by slash-separated path.
func listing(t *testing.T, dir string) (files map[string]string, dirs map[string]bool) {
	t.Helper()
	files, dirs = map[string]string{}, map[string]bool{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if e.IsDir() {
			dirs[rel] = true
			return nil
		}
		b, err := os.ReadFile(p)
		files[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files, dirs
}

// TestPatchEqualsWrite patches a written tree into another (files changed,
// added in new directories, removed with the directories they leave
// empty, kept) and compares the result, manifest included, with the same
// tree written whole.
func TestPatchEqualsWrite(t *testing.T) {
	root, o := site(t)
	prev := tree("v1", 4)
	prev.Add("old/deep/gone.txt", []byte("x"))
	prev.Add("api/kept.json", []byte("{}"))
	next := tree("v1", 4)
	next.Add("gpus/g1/index.html", []byte("v2"))     // changed
	next.Add("models/new/index.html", []byte("new")) // added, in a new directory
	next.Add("api/kept.json", []byte("{}"))          // kept
	next.Add("gpus/g3/index.html", []byte("v1"))     // unchanged
	// old/deep/gone.txt is removed, and with it old/deep and old.

	out := filepath.Join(root, "public")
	if err := prev.Write(out, o); err != nil {
		t.Fatal(err)
	}
	kept, err := os.Stat(filepath.Join(out, "gpus/g3/index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if err := Patch(out, prev, next, o); err != nil {
		t.Fatal(err)
	}
	whole := filepath.Join(root, "whole")
	if err := next.Write(whole, o); err != nil {
		t.Fatal(err)
	}
	gotF, gotD := listing(t, out)
	wantF, wantD := listing(t, whole)
	for p, b := range wantF {
		if gotF[p] != b {
			t.Errorf("%s: patched %q, written whole %q", p, gotF[p], b)
		}
	}
	for p := range gotF {
		if _, ok := wantF[p]; !ok {
			t.Errorf("%s left by the patch", p)
		}
	}
	for d := range gotD {
		if !wantD[d] {
			t.Errorf("directory %s left by the patch", d)
		}
	}
	now, err := os.Stat(filepath.Join(out, "gpus/g3/index.html"))
	if err != nil || !os.SameFile(kept, now) {
		t.Errorf("an unchanged file was rewritten")
	}
	assertNoTemps(t, out)
}

// TestPatchRefuses: a patch needs the output to be the complete tree it
// is told it holds; otherwise it changes nothing and says so.
func TestPatchRefuses(t *testing.T) {
	root, o := site(t)
	out := filepath.Join(root, "public")
	v1, v2 := tree("v1", 2), tree("v2", 2)
	if err := v1.Write(out, o); err != nil {
		t.Fatal(err)
	}
	before, _ := listing(t, out)
	cases := []struct {
		name  string
		prev  *Tree
		setup func()
	}{
		{name: "another tree", prev: tree("v1", 3)},
		{name: "left half-written", prev: v1, setup: func() {
			if err := writeMarker(out, writingManifest()); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, c := range cases {
		if c.setup != nil {
			c.setup()
			before, _ = listing(t, out)
		}
		if err := Patch(out, c.prev, v2, o); !errors.Is(err, ErrNotPatchable) {
			t.Errorf("%s: Patch returned %v, want ErrNotPatchable", c.name, err)
		}
		after, _ := listing(t, out)
		for p, b := range before {
			if after[p] != b {
				t.Errorf("%s: %s changed by a refused patch", c.name, p)
			}
		}
	}
	if err := Patch(filepath.Join(root, "data"), v1, v2, o); err == nil {
		t.Error("Patch wrote into a source folder")
	}
}
