package output

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// Writer streams a site into its output directory atomically: files are
// written, as they are produced, into a marked temporary directory beside
// the target, which takes the target's place in one step on Commit
// (see swap). Until then the target is untouched, and Abort (or a crash,
// which leaves a tree the next build removes) leaves it so. A build then
// holds one page at a time instead of the whole site.
//
// Add may be called from several goroutines at once.
type Writer struct {
	dir, tmp string
	o        Options

	mu    sync.Mutex
	files map[string]int64 // path -> size
	dirs  map[string]bool  // directories made
	done  bool
}

// Create checks that dir may be replaced (see CheckTarget), removes the
// temporary trees earlier interrupted builds left beside it and starts a
// new one.
func Create(dir string, o Options) (*Writer, error) {
	if err := CheckTarget(dir, o); err != nil {
		return nil, err
	}
	dir = filepath.Clean(dir)
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	RemoveLeftovers(dir)
	tmp, err := os.MkdirTemp(parent, tempPrefix(dir))
	if err != nil {
		return nil, err
	}
	// The marker comes first, so a tree abandoned half-written is
	// recognisable as the generator's own by the next build.
	if err := writeMarker(tmp, writingManifest()); err != nil {
		removeTree(tmp)
		return nil, err
	}
	return &Writer{dir: dir, tmp: tmp, o: o, files: map[string]int64{}, dirs: map[string]bool{tmp: true}}, nil
}

// Add writes one file (a slash-separated path under the site root); a
// second Add of the same path replaces the first.
func (w *Writer) Add(p string, data []byte) error {
	p = path.Clean(strings.TrimPrefix(p, "/"))
	dst := filepath.Join(w.tmp, filepath.FromSlash(p))
	d := filepath.Dir(dst)
	w.mu.Lock()
	made := w.dirs[d]
	w.mu.Unlock()
	if !made {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		return err
	}
	w.mu.Lock()
	w.dirs[d] = true
	w.files[p] = int64(len(data))
	w.mu.Unlock()
	return nil
}

// Has reports whether p was added.
func (w *Writer) Has(p string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	_, ok := w.files[path.Clean(strings.TrimPrefix(p, "/"))]
	return ok
}

// Len returns the number of files added; Bytes their total size.
func (w *Writer) Len() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.files)
}

// Bytes returns the total size of the files added.
func (w *Writer) Bytes() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	var n int64
	for _, s := range w.files {
		n += s
	}
	return n
}

// Paths returns every path added, sorted.
func (w *Writer) Paths() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]string, 0, len(w.files))
	for p := range w.files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Commit completes the manifest and swaps the new tree in for the target;
// the previous tree is removed. On error the target is as it was and the
// temporary tree is removed.
func (w *Writer) Commit() (err error) {
	defer func() {
		if err != nil {
			w.Abort()
		}
	}()
	if err := writeMarker(w.tmp, completeManifest(w.Paths())); err != nil {
		return err
	}
	if err := os.Chmod(w.tmp, 0o755); err != nil {
		return err
	}
	// Re-check just before the swap: the target may have changed while
	// the tree was written.
	if err := CheckTarget(w.dir, w.o); err != nil {
		return err
	}
	old, err := swap(w.tmp, w.dir)
	if err != nil {
		return err
	}
	w.mu.Lock()
	w.done = true
	w.mu.Unlock()
	if old != "" {
		removeTree(old)
	}
	return nil
}

// Abort removes the temporary tree, leaving the target as it was. It does
// nothing after a successful Commit, so it can be deferred.
func (w *Writer) Abort() {
	w.mu.Lock()
	done := w.done
	w.done = true
	w.mu.Unlock()
	if !done {
		removeTree(w.tmp)
	}
}
