package output

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestWriterStreams: files added from many goroutines at once are all in
// the tree Commit swaps in, with a complete manifest listing them; until
// Commit the target holds the previous tree.
func TestWriterStreams(t *testing.T) {
	root, o := site(t)
	out := filepath.Join(root, "public")
	if err := tree("old", 3).Write(out, o); err != nil {
		t.Fatal(err)
	}
	w, err := Create(out, o)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				if err := w.Add(fmt.Sprintf("p/%d/%d/index.html", g, i%7), []byte(fmt.Sprint(g, i))); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if b, _ := os.ReadFile(filepath.Join(out, "index.html")); string(b) != "home old" {
		t.Fatalf("target changed before Commit: %q", b)
	}
	if w.Len() != 8*7 || !w.Has("p/3/4/index.html") || w.Has("p/3/7/index.html") {
		t.Fatalf("writer holds %d files", w.Len())
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	m, ok := readManifest(out)
	mb, _ := os.ReadFile(filepath.Join(out, Marker))
	if !ok || m.state != "complete" || !strings.Contains(string(mb), "\nfiles 56\n") || !strings.Contains(string(mb), "\np/7/6/index.html\t") {
		t.Fatalf("manifest after Commit: %+v\n%s", m, mb)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "p", "5", "6", "index.html")); string(b) != "5 48" {
		t.Errorf("p/5/6: %q, want the last write, \"5 48\"", b)
	}
	if _, err := os.Stat(filepath.Join(out, "gpus")); !os.IsNotExist(err) {
		t.Error("a file of the previous tree survived the swap")
	}
	assertPrevious(t, out, "home old")
}

// TestWriterAbort: Abort removes the temporary tree and leaves the target
// as it was; a later Abort after Commit does nothing.
func TestWriterAbort(t *testing.T) {
	root, o := site(t)
	out := filepath.Join(root, "public")
	if err := tree("old", 2).Write(out, o); err != nil {
		t.Fatal(err)
	}
	w, err := Create(out, o)
	if err != nil {
		t.Fatal(err)
	}
	w.Add("index.html", []byte("new"))
	w.Abort()
	if b, _ := os.ReadFile(filepath.Join(out, "index.html")); string(b) != "home old" {
		t.Fatalf("target after Abort: %q", b)
	}
	assertNoTemps(t, out)
	w, _ = Create(out, o)
	w.Add("index.html", []byte("new"))
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	w.Abort()
	if b, _ := os.ReadFile(filepath.Join(out, "index.html")); string(b) != "new" {
		t.Fatalf("Abort after Commit changed the output: %q", b)
	}
}

// TestCreateRefuses: Create applies CheckTarget before making anything.
func TestCreateRefuses(t *testing.T) {
	root, o := site(t)
	if _, err := Create(filepath.Join(root, "data"), o); err == nil {
		t.Fatal("Create accepted the data folder")
	}
	assertNoTemps(t, filepath.Join(root, "data"))
}

// assertPrevious checks that the one tree beside out is the output the
// last write replaced, complete, its index.html holding home; the next
// write removes it.
func assertPrevious(t *testing.T, out, home string) {
	t.Helper()
	left := beside(out)
	if len(left) != 1 {
		t.Fatalf("trees beside %s: %v, want the previous output", out, left)
	}
	p := filepath.Join(filepath.Dir(out), left[0])
	if m, ok := readManifest(p); !ok || m.state != "complete" {
		t.Errorf("previous output %s: manifest %+v %v", left[0], m, ok)
	}
	if b, _ := os.ReadFile(filepath.Join(p, "index.html")); string(b) != home {
		t.Errorf("previous output's index.html = %q, want %q", b, home)
	}
}

// beside is the names of the temporary trees beside out.
func beside(out string) []string {
	var names []string
	ents, _ := os.ReadDir(filepath.Dir(out))
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), tempPrefix(out)) {
			names = append(names, e.Name())
		}
	}
	return names
}

func assertNoTemps(t *testing.T, out string) {
	t.Helper()
	ents, _ := os.ReadDir(filepath.Dir(out))
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), tempPrefix(out)) {
			t.Errorf("temporary tree %s left beside %s", e.Name(), out)
		}
	}
}
