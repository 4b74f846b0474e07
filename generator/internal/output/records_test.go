package output

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriterLinksUnchanged: a tree written over a previous one links the
// files whose content is unchanged (the same inode, not a copy), writes
// the others, and writes a file afresh when the old one was edited by
// hand to another size; a second Add of a linked path, then Abort, leave
// the previous tree exactly as it was.
func TestWriterLinksUnchanged(t *testing.T) {
	root, o := site(t)
	out := filepath.Join(root, "public")
	if err := tree("v1", 4).Write(out, o); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "gpus/g3/index.html"), []byte("edited by hand"), 0o644); err != nil {
		t.Fatal(err)
	}
	before, _ := listing(t, out)
	old, _ := os.Stat(filepath.Join(out, "gpus/g0/index.html"))

	next := tree("v1", 4)
	next.Add("index.html", []byte("home v2")) // changed
	w, err := Create(out, o)
	if err != nil {
		t.Fatal(err)
	}
	if !w.Unchanged("gpus/g1/index.html", []byte("v1")) || w.Unchanged("index.html", []byte("home v2")) {
		t.Error("Unchanged does not tell the old tree's content")
	}
	for _, p := range next.Paths() {
		b, _ := next.Get(p)
		if err := w.Add(p, b); err != nil {
			t.Fatal(err)
		}
	}
	// g0, g1, g2 linked; index.html changed; g3 edited on disk since.
	if w.Linked() != 3 {
		t.Errorf("%d files linked, want 3", w.Linked())
	}
	if _, ok, _ := w.Reuse("no/such/file"); ok {
		t.Error("Reuse linked a file the old tree does not list")
	}
	if err := w.Add("gpus/g0/index.html", []byte("replaced")); err != nil {
		t.Fatal(err)
	}
	w.Abort()
	after, _ := listing(t, out)
	for p, b := range before {
		if after[p] != b {
			t.Errorf("%s: %q after an aborted write over it, was %q", p, after[p], b)
		}
	}

	w, err = Create(out, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range next.Paths() {
		b, _ := next.Get(p)
		if err := w.Add(p, b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	got, _ := listing(t, out)
	for _, p := range next.Paths() {
		b, _ := next.Get(p)
		if got[p] != string(b) {
			t.Errorf("%s: %q, want %q", p, got[p], b)
		}
	}
	now, _ := os.Stat(filepath.Join(out, "gpus/g0/index.html"))
	if !os.SameFile(old, now) {
		t.Error("an unchanged file was written again, not linked")
	}
	if m := got[Marker]; !strings.Contains(m, "\ngpus/g3/index.html\t") || strings.Count(m, "\t") != 2*next.Len() {
		t.Errorf("manifest without a record per file:\n%s", m)
	}
}
