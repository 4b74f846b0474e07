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
// holds one page at a time instead of the whole site. The output it
// replaces stays beside it until the next Create, which removes it while
// that build writes (see Commit).
//
// Add may be called from several goroutines at once.
type Writer struct {
	dir, tmp string
	o        Options

	// prev are the records of the tree being replaced (see record), when
	// its manifest has them; prevTag its tag.
	prev    map[string]record
	prevTag string

	mu    sync.Mutex
	files map[string]record // path -> record (its size, and its sum for the manifest)
	dirs  map[string]bool   // directories made
	done  bool
	// cleared is closed once the trees earlier builds left beside dir
	// are removed (see Create).
	cleared chan struct{}
	linked  int
}

// Create checks that dir may be replaced (see CheckTarget), starts a new
// temporary tree beside it, and starts removing the trees earlier builds
// left there (the output the last build replaced, and the trees of
// interrupted ones): that is file-system work, done while the build
// renders, and Commit and Abort wait for it.
func Create(dir string, o Options) (*Writer, error) {
	if err := CheckTarget(dir, o); err != nil {
		return nil, err
	}
	dir = filepath.Clean(dir)
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	left := leftovers(dir) // listed before our own tree exists
	tmp, err := os.MkdirTemp(parent, tempPrefix(dir))
	if err != nil {
		// Perhaps a full disk: free what earlier builds left, and try
		// once more.
		for _, p := range left {
			removeTree(p)
		}
		left = nil
		if tmp, err = os.MkdirTemp(parent, tempPrefix(dir)); err != nil {
			return nil, err
		}
	}
	// The marker comes first, so a tree abandoned half-written is
	// recognisable as the generator's own by the next build.
	if err := writeMarker(tmp, writingManifest()); err != nil {
		removeTree(tmp)
		return nil, err
	}
	w := &Writer{dir: dir, tmp: tmp, o: o, files: map[string]record{}, dirs: map[string]bool{tmp: true}, cleared: make(chan struct{})}
	go func() {
		defer close(w.cleared)
		for _, p := range left {
			removeTree(p)
		}
	}()
	if l, ok := readListing(dir); ok {
		w.prev, w.prevTag = l.recs, l.tag
	}
	return w, nil
}

// Add writes one file (a slash-separated path under the site root); a
// second Add of the same path replaces the first. A file the tree being
// replaced holds with the same content, untouched since (see record), is
// hard-linked from it instead of written: a rebuild after a one-price edit
// writes the few files that changed and links the thousands that did not.
// The swap then removes the old tree's names; the linked files live on in
// the new one.
func (w *Writer) Add(p string, data []byte) error {
	p = path.Clean(strings.TrimPrefix(p, "/"))
	dst, err := w.mkdir(p)
	if err != nil {
		return err
	}
	r := recordOf(data)
	w.mu.Lock()
	old, ok := w.prev[p]
	w.mu.Unlock()
	if ok && old == r && w.link(p, dst, r) {
		return nil
	}
	w.mu.Lock()
	_, again := w.files[p]
	w.mu.Unlock()
	if again {
		// The first may be a link to the old tree's file: writing
		// through it would change that tree, which must stay as it
		// is until the swap.
		os.Remove(dst)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		return err
	}
	w.mu.Lock()
	w.files[p] = r
	delete(w.prev, p) // read once: the map shrinks as the tree is made
	w.mu.Unlock()
	return nil
}

// mkdir makes the directory of p in the temporary tree and returns p's
// place there.
func (w *Writer) mkdir(p string) (string, error) {
	dst := filepath.Join(w.tmp, filepath.FromSlash(p))
	return dst, w.makeDir(filepath.Dir(dst))
}

// makeDir makes d, a directory of the temporary tree, and its parents,
// once each: a page has a directory of its own, so os.MkdirAll's look at
// each parent, which Writer knows it made, was half the cost of a page's
// directory.
func (w *Writer) makeDir(d string) error {
	w.mu.Lock()
	made := w.dirs[d]
	w.mu.Unlock()
	if made {
		return nil
	}
	if up := filepath.Dir(d); up != d {
		if err := w.makeDir(up); err != nil {
			return err
		}
	}
	if err := os.Mkdir(d, 0o755); err != nil && !os.IsExist(err) {
		return err
	}
	w.mu.Lock()
	w.dirs[d] = true
	w.mu.Unlock()
	return nil
}

// link hard-links p from the tree being replaced when the file there is
// still as r recorded it.
func (w *Writer) link(p, dst string, r record) bool {
	old := filepath.Join(w.dir, filepath.FromSlash(p))
	if !stillSame(old, r) {
		return false
	}
	os.Remove(dst) // a second Add of p
	if os.Link(old, dst) != nil {
		return false
	}
	w.mu.Lock()
	w.files[p] = r
	delete(w.prev, p)
	w.linked++
	w.mu.Unlock()
	return true
}

// Unchanged reports whether the tree being replaced holds p with exactly
// data, and was made under the same Options.Tag: the build then takes p's
// precompressed siblings from it (Reuse) instead of compressing p again.
// Ask before adding p: each record of the old tree is dropped once its
// path is added, so the records shrink as the new tree grows.
func (w *Writer) Unchanged(p string, data []byte) bool {
	if w.prevTag != w.o.Tag {
		return false
	}
	w.mu.Lock()
	r, ok := w.prev[path.Clean(strings.TrimPrefix(p, "/"))]
	w.mu.Unlock()
	return ok && r == recordOf(data)
}

// Reuse links p from the tree being replaced, as Add would for the same
// content, and returns its size; ok is false, with nothing done, when the
// old tree does not hold p as its manifest recorded (the caller then makes
// the file and Adds it).
func (w *Writer) Reuse(p string) (size int64, ok bool, err error) {
	p = path.Clean(strings.TrimPrefix(p, "/"))
	w.mu.Lock()
	r, found := w.prev[p]
	w.mu.Unlock()
	if !found {
		return 0, false, nil
	}
	dst, err := w.mkdir(p)
	if err != nil {
		return 0, false, err
	}
	if !w.link(p, dst, r) {
		return 0, false, nil
	}
	return r.size, true, nil
}

// Linked returns how many files were linked from the tree being replaced
// instead of written.
func (w *Writer) Linked() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.linked
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
	for _, r := range w.files {
		n += r.size
	}
	return n
}

// Paths returns every path added, sorted.
func (w *Writer) Paths() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.pathsLocked()
}

func (w *Writer) pathsLocked() []string {
	out := make([]string, 0, len(w.files))
	for p := range w.files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Commit completes the manifest and swaps the new tree in for the target.
// The tree it replaces stays beside the target, hidden (under the
// temporary tree's name) and complete, until the next build's Create
// removes it while that build renders: removing a large site's tens of
// thousands of names is seconds of file-system work, which a build
// overlaps with its rendering instead of waiting for at the end. On error
// the target is as it was and the temporary tree is removed.
func (w *Writer) Commit() (err error) {
	defer func() {
		if err != nil {
			w.Abort()
		}
	}()
	w.mu.Lock()
	manifest := completeManifest(w.pathsLocked(), w.files, w.o.Tag)
	w.mu.Unlock()
	if err := writeMarker(w.tmp, manifest); err != nil {
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
	if err := swap(w.tmp, w.dir); err != nil {
		return err
	}
	w.mu.Lock()
	w.done = true
	w.mu.Unlock()
	<-w.cleared
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
	<-w.cleared
}
