// Package output writes a built site atomically: everything goes into a
// temporary directory beside the target, which replaces the target only
// when every file is written. On failure the previous output is untouched.
package output

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Tree is the set of files of a site, keyed by slash-separated path.
type Tree struct {
	files map[string][]byte
}

// NewTree returns an empty tree.
func NewTree() *Tree { return &Tree{files: map[string][]byte{}} }

// Add stores a file; it replaces any earlier file at the same path.
func (t *Tree) Add(p string, data []byte) { t.files[path.Clean(strings.TrimPrefix(p, "/"))] = data }

// Get returns a file's content.
func (t *Tree) Get(p string) ([]byte, bool) {
	b, ok := t.files[path.Clean(strings.TrimPrefix(p, "/"))]
	return b, ok
}

// Paths returns every path, sorted.
func (t *Tree) Paths() []string {
	out := make([]string, 0, len(t.files))
	for p := range t.files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Len returns the number of files.
func (t *Tree) Len() int { return len(t.files) }

// Bytes returns the total size.
func (t *Tree) Bytes() int64 {
	var n int64
	for _, b := range t.files {
		n += int64(len(b))
	}
	return n
}

// Write writes the tree to dir atomically: into dir's sibling temporary
// directory first, then swapped in with renames.
func (t *Tree) Write(dir string) error {
	dir = filepath.Clean(dir)
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".new-")
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(tmp)
		}
	}()
	for _, p := range t.Paths() {
		dst := filepath.Join(tmp, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, t.files[p], 0o644); err != nil {
			return err
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	old := ""
	if _, err := os.Stat(dir); err == nil {
		old = filepath.Join(parent, "."+filepath.Base(dir)+".old")
		os.RemoveAll(old)
		if err := os.Rename(dir, old); err != nil {
			return fmt.Errorf("moving the previous output aside: %w", err)
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		if old != "" {
			os.Rename(old, dir) // put the previous output back
		}
		return err
	}
	ok = true
	if old != "" {
		os.RemoveAll(old)
	}
	return nil
}
