// Package output writes a built site atomically: everything goes into a
// temporary directory beside the target, which then takes the target's
// place in one step. On failure the previous output is untouched.
//
// The generator only ever replaces a directory it made itself: every tree
// it writes carries a manifest (Marker) at its root, and Write refuses a
// target that is neither absent, empty, nor marked (see CheckTarget).
package output

import (
	"path"
	"sort"
	"strings"
	"sync"
)

// Tree is the set of files of a site, keyed by slash-separated path. It
// is safe for concurrent use: one edition's pages look files up while the
// next edition's are made.
type Tree struct {
	mu    sync.RWMutex
	files map[string][]byte
}

// NewTree returns an empty tree.
func NewTree() *Tree { return &Tree{files: map[string][]byte{}} }

// Add stores a file; it replaces any earlier file at the same path.
func (t *Tree) Add(p string, data []byte) {
	p = path.Clean(strings.TrimPrefix(p, "/"))
	t.mu.Lock()
	t.files[p] = data
	t.mu.Unlock()
}

// Get returns a file's content.
func (t *Tree) Get(p string) ([]byte, bool) {
	p = path.Clean(strings.TrimPrefix(p, "/"))
	t.mu.RLock()
	b, ok := t.files[p]
	t.mu.RUnlock()
	return b, ok
}

// Paths returns every path, sorted.
func (t *Tree) Paths() []string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	out := make([]string, 0, len(t.files))
	for p := range t.files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Len returns the number of files.
func (t *Tree) Len() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return len(t.files)
}

// Bytes returns the total size.
func (t *Tree) Bytes() int64 {
	t.mu.RLock()
	defer t.mu.RUnlock()
	var n int64
	for _, b := range t.files {
		n += int64(len(b))
	}
	return n
}
