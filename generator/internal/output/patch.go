package output

import (
	"bytes"
	"errors"
	"os"
	"path"
	"path/filepath"
	"slices"
)

// ErrNotPatchable is returned by Patch when dir does not hold exactly the
// tree it was told it holds; the caller writes the whole tree instead.
var ErrNotPatchable = errors.New("the output is not the tree it is said to hold")

// Patch turns dir, which holds prev as written by Write (its manifest
// lists exactly prev's paths), into next by writing only what differs:
// each changed or added file is written beside its place and renamed over
// it, each file gone from next is removed (with the directories it
// leaves empty), and the manifest is completed last. It is for a process
// that keeps the previous build in memory, such as the dev server, where
// rewriting a site of thousands of files after a one-price edit costs far
// more than rendering the pages that changed.
//
// Unlike Write, a Patch is atomic per file, not for the whole tree: a
// reader in between may see some files of next beside others of prev.
// While it runs the manifest says "state writing", so a process stopped
// half-way leaves a tree the next build recognises as its own and
// replaces whole. It returns ErrNotPatchable, having changed nothing, when
// dir is not complete or its manifest does not list prev's paths.
func Patch(dir string, prev, next *Tree, o Options) error {
	if err := CheckTarget(dir, o); err != nil {
		return err
	}
	l, ok := readListing(dir)
	if !ok || !slices.Equal(l.paths, prev.Paths()) {
		return ErrNotPatchable
	}
	// The records of the files left as they are carry over, unless the
	// old tree was made under another tag.
	recs := l.recs
	if l.tag != o.Tag {
		recs = map[string]record{}
	}
	var write, remove []string
	for p, b := range next.files {
		if old, ok := prev.files[p]; !ok || !bytes.Equal(old, b) {
			write = append(write, p)
		}
	}
	for p := range prev.files {
		if _, ok := next.files[p]; !ok {
			remove = append(remove, p)
		}
	}
	if len(write) == 0 && len(remove) == 0 {
		return nil
	}
	if err := writeMarker(dir, writingManifest()); err != nil {
		return err
	}
	for _, p := range write {
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		tmp := filepath.Join(filepath.Dir(dst), "."+filepath.Base(dst)+".patch")
		if err := os.WriteFile(tmp, next.files[p], 0o644); err != nil {
			os.Remove(tmp)
			return err
		}
		if err := os.Rename(tmp, dst); err != nil {
			os.Remove(tmp)
			return err
		}
		recs[p] = recordOf(next.files[p])
	}
	for _, p := range remove {
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(p))); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		// Remove the directories the file leaves empty, up to the root;
		// os.Remove refuses a directory that still holds something.
		for d := path.Dir(p); d != "." && os.Remove(filepath.Join(dir, filepath.FromSlash(d))) == nil; d = path.Dir(d) {
		}
	}
	return writeMarker(dir, completeManifest(next.Paths(), recs, o.Tag))
}
