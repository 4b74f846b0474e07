package output

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func tree(version string, n int) *Tree {
	t := NewTree()
	t.Add("index.html", []byte("home "+version))
	for i := range n {
		t.Add(fmt.Sprintf("gpus/g%d/index.html", i), []byte(version))
	}
	return t
}

// site makes a site root with source folders holding one file each.
func site(t *testing.T) (root string, o Options) {
	t.Helper()
	root = t.TempDir()
	o.Root = root
	for _, d := range []string{"data", "content", "templates", "static", "generator"} {
		p := filepath.Join(root, d)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, "keep.txt"), []byte(d), 0o644); err != nil {
			t.Fatal(err)
		}
		o.Sources = append(o.Sources, p)
	}
	return root, o
}

func TestWriteRefuses(t *testing.T) {
	root, o := site(t)
	foreign := filepath.Join(root, "docs")
	os.MkdirAll(foreign, 0o755)
	os.WriteFile(filepath.Join(foreign, "thesis.txt"), []byte("years of work"), 0o644)
	file := filepath.Join(root, "notes.txt")
	os.WriteFile(file, []byte("notes"), 0o644)
	cases := []struct {
		name, dir string
		force     bool
		want      string
	}{
		{"data folder", filepath.Join(root, "data"), false, "it is the site's source folder data/"},
		{"data folder with force", filepath.Join(root, "data"), true, "it is the site's source folder data/"},
		{"content folder", filepath.Join(root, "content"), true, "source folder content/"},
		{"inside templates", filepath.Join(root, "templates", "out"), true, "it is inside the site's source folder templates/"},
		{"generator", filepath.Join(root, "generator"), false, "source folder generator/"},
		{"the root", root, true, "it is the site root"},
		{"the root spelt with ..", filepath.Join(root, "data", ".."), true, "it is the site root"},
		{"a parent of the root", filepath.Dir(root), true, "it contains the site root"},
		{"a foreign directory", foreign, false, "non-empty directory the generator did not write"},
		{"a file", file, false, "exists and is not a directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			oo := o
			oo.Force = c.force
			err := tree("new", 3).Write(c.dir, oo)
			var te *TargetError
			if !errors.As(err, &te) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Write(%s) = %v, want a refusal containing %q", c.dir, err, c.want)
			}
		})
	}
	// Nothing was touched.
	for _, d := range o.Sources {
		if b, err := os.ReadFile(filepath.Join(d, "keep.txt")); err != nil || string(b) != filepath.Base(d) {
			t.Errorf("%s was changed: %v %q", d, err, b)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(foreign, "thesis.txt")); string(b) != "years of work" {
		t.Error("the foreign directory was changed")
	}
	if b, _ := os.ReadFile(file); string(b) != "notes" {
		t.Error("the file was changed")
	}
	leftovers, _ := filepath.Glob(filepath.Join(root, ".*.new-*"))
	if len(leftovers) > 0 {
		t.Errorf("refused writes left %v", leftovers)
	}
}

func TestWriteForceReplacesForeign(t *testing.T) {
	root, o := site(t)
	foreign := filepath.Join(root, "site")
	os.MkdirAll(foreign, 0o755)
	os.WriteFile(filepath.Join(foreign, "old.txt"), []byte("x"), 0o644)
	file := filepath.Join(root, "out.txt")
	os.WriteFile(file, []byte("x"), 0o644)
	o.Force = true
	for _, dir := range []string{foreign, file} {
		if err := tree("new", 2).Write(dir, o); err != nil {
			t.Fatalf("Write(%s) with force: %v", dir, err)
		}
		if b, err := os.ReadFile(filepath.Join(dir, "index.html")); err != nil || string(b) != "home new" {
			t.Errorf("%s: index.html = %q, %v", dir, b, err)
		}
	}
}

func TestWriteReplacesOwnAndEmpty(t *testing.T) {
	root, o := site(t)
	out := filepath.Join(root, "public")
	os.MkdirAll(out, 0o755) // empty: accepted
	if err := tree("v1", 5).Write(out, o); err != nil {
		t.Fatal(err)
	}
	m, ok := readManifest(out)
	if !ok || m.state != "complete" {
		t.Fatalf("manifest after write: %+v %v", m, ok)
	}
	b, _ := os.ReadFile(filepath.Join(out, Marker))
	if !strings.Contains(string(b), "\nfiles 6\n") || !strings.Contains(string(b), "\ngpus/g4/index.html\t") {
		t.Errorf("manifest does not list the files:\n%s", b)
	}
	if err := tree("v2", 2).Write(out, o); err != nil {
		t.Fatalf("replacing our own output: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "gpus/g4/index.html")); !os.IsNotExist(err) {
		t.Error("a file of the previous build survived the replace")
	}
	if b, _ := os.ReadFile(filepath.Join(out, "index.html")); string(b) != "home v2" {
		t.Errorf("index.html = %q", b)
	}
	// The replaced output stays beside it until the next write, and
	// nothing else does.
	assertPrevious(t, out, "home v1")
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") && !strings.HasPrefix(e.Name(), tempPrefix(out)) {
			t.Errorf("debris beside the output: %s", e.Name())
		}
	}
	if err := tree("v3", 2).Write(out, o); err != nil {
		t.Fatal(err)
	}
	assertPrevious(t, out, "home v2")
}

// deadPID returns the id of a process that has exited.
func deadPID(t *testing.T) int {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func TestWriteRemovesLeftovers(t *testing.T) {
	root, o := site(t)
	out := filepath.Join(root, "public")
	mk := func(name, marker string) string {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Join(p, "gpus"), 0o755)
		os.WriteFile(filepath.Join(p, "gpus", "x.html"), []byte("half"), 0o644)
		if marker != "" {
			os.WriteFile(filepath.Join(p, Marker), []byte(marker), 0o644)
		}
		return p
	}
	dead := mk(".public.new-111", fmt.Sprintf("%s\nstate writing\npid %d\n", MarkerMagic, deadPID(t)))
	complete := mk(".public.new-222", MarkerMagic+"\nstate complete\nfiles 0\n")
	oldAside := mk(".public.new-333.old", MarkerMagic+"\nstate complete\nfiles 0\n")
	alive := mk(".public.new-444", fmt.Sprintf("%s\nstate writing\npid %d\n", MarkerMagic, os.Getppid()))
	unmarked := mk(".public.new-555", "")
	forged := mk(".public.new-666", "not our magic\nstate complete\n")
	other := mk(".other.new-777", MarkerMagic+"\nstate complete\nfiles 0\n")
	if err := tree("v1", 1).Write(out, o); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{dead: false, complete: false, oldAside: false, alive: true, unmarked: true, forged: true, other: true} {
		_, err := os.Stat(p)
		if got := err == nil; got != want {
			t.Errorf("%s: exists = %v, want %v", filepath.Base(p), got, want)
		}
	}
}

// TestSwapHasNoGap reads the output while it is replaced again and again:
// with an atomic exchange, a reader never finds it missing or partial.
func TestSwapHasNoGap(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the exchange is atomic on Linux only; elsewhere the documented fallback has a gap")
	}
	root, o := site(t)
	out := filepath.Join(root, "public")
	if err := tree("v0", 20).Write(out, o); err != nil {
		t.Fatal(err)
	}
	var stop, misses, reads atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for stop.Load() == 0 {
			b, err := os.ReadFile(filepath.Join(out, "index.html"))
			reads.Add(1)
			if err != nil || !strings.HasPrefix(string(b), "home v") {
				misses.Add(1)
			}
		}
	}()
	for i := range 100 {
		if err := tree(fmt.Sprintf("v%d", i+1), 20).Write(out, o); err != nil {
			t.Fatal(err)
		}
	}
	stop.Store(1)
	<-done
	if misses.Load() > 0 {
		t.Fatalf("%d of %d reads found no complete output during 100 swaps", misses.Load(), reads.Load())
	}
	t.Logf("%d reads during 100 swaps, none missed", reads.Load())
}

// TestKilledWriter kills a writing process at random moments: the output is
// always a complete tree (the old or the new one), and the next write
// removes what the killed one left.
func TestKilledWriter(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs the atomic exchange")
	}
	if os.Getenv("OUTPUT_TEST_WRITER") != "" {
		return
	}
	root, o := site(t)
	out := filepath.Join(root, "public")
	if err := tree("v0", 300).Write(out, o); err != nil {
		t.Fatal(err)
	}
	for trial := range 20 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestWriterChild$")
		cmd.Env = append(os.Environ(), "OUTPUT_TEST_WRITER="+out, "OUTPUT_TEST_ROOT="+root)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rand.IntN(60)) * time.Millisecond)
		cmd.Process.Kill()
		cmd.Wait()
		b, err := os.ReadFile(filepath.Join(out, "index.html"))
		if err != nil || !strings.HasPrefix(string(b), "home ") {
			t.Fatalf("trial %d: output missing or partial after kill: %v %q", trial, err, b)
		}
		if m, ok := readManifest(out); !ok || m.state != "complete" {
			t.Fatalf("trial %d: output manifest %+v %v", trial, m, ok)
		}
	}
	last, _ := os.ReadFile(filepath.Join(out, "index.html")) // v0's, or a child's that committed
	if err := tree("final", 1).Write(out, o); err != nil {
		t.Fatal(err)
	}
	// What the killed writers left is gone; the output the last write
	// replaced stays until the next one.
	assertPrevious(t, out, string(last))
}

// TestWriterChild is the killed process of TestKilledWriter.
func TestWriterChild(t *testing.T) {
	out := os.Getenv("OUTPUT_TEST_WRITER")
	if out == "" {
		t.Skip("helper process")
	}
	o := Options{Root: os.Getenv("OUTPUT_TEST_ROOT")}
	for i := 0; ; i++ {
		if err := tree(fmt.Sprintf("child%d", i), 300).Write(out, o); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
