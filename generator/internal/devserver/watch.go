package devserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// sourceDirs are the site's source directories, relative to its root:
// everything a build reads besides the generator itself.
func sourceDirs() []string { return []string{"content", "data", "templates", "static"} }

// watcher reports changes below the site's source directories.
//
// Why github.com/fsnotify/fsnotify and not a polling loop over modification
// times: the sources are a tree several levels deep (data/offers/...,
// templates/i18n/...), and polling it often enough to feel instant (every
// ~100 ms) would stat every file ten times a second and still merge or miss
// an editor's write-then-rename saves; the operating system's notifications
// (inotify, kqueue, ReadDirectoryChangesW) arrive within milliseconds at no
// cost while idle. fsnotify watches single directories, not trees, so the
// watcher adds every subdirectory itself, including those created while it
// runs; and one save is a burst of events (write a temporary file, rename
// it, chmod), which debounce gathers into one build.
type watcher struct {
	fw     *fsnotify.Watcher
	root   string // absolute site root
	out    string // absolute output directory: never reported
	ov     overlayDir
	stderr io.Writer
}

// overlayDirs are the parts of a team's overlay directory a build reads,
// besides its site.toml.
func overlayDirs() []string { return []string{"content", "data"} }

// overlayDir is a team's overlay directory (site.Options.Overlay).
type overlayDir struct {
	abs   string // absolute; "" for none
	label string // how its changes are named: the directory as given, slash-separated, with a trailing slash
}

// newWatcher watches the source directories under root recursively, and
// root itself (not recursively) to notice a source directory that appears
// later or is replaced by a rename; with an overlay, its content/ and
// data/ recursively and the overlay directory itself (its site.toml, and
// a content/ or data/ that appears later).
func newWatcher(root, out string, ov overlayDir, stderr io.Writer) (*watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watching %s: %w", root, err)
	}
	w := &watcher{fw: fw, root: root, out: out, ov: ov, stderr: stderr}
	if err := fw.Add(root); err != nil {
		fw.Close()
		return nil, fmt.Errorf("watching %s: %w", root, err)
	}
	for _, d := range sourceDirs() {
		w.addTree(filepath.Join(root, d))
	}
	if ov.abs != "" {
		if err := fw.Add(ov.abs); err != nil {
			fw.Close()
			return nil, fmt.Errorf("watching the overlay %s: %w", ov.abs, err)
		}
		for _, d := range overlayDirs() {
			w.addTree(filepath.Join(ov.abs, d))
		}
	}
	return w, nil
}

// addTree watches dir and every directory below it. A missing dir is not an
// error (the build reports what it needs).
func (w *watcher) addTree(dir string) {
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				fmt.Fprintf(w.stderr, "serve: watching %s: %v\n", p, err)
			}
			return nil
		}
		if !e.IsDir() {
			return nil
		}
		if within(p, w.out) {
			return filepath.SkipDir
		}
		if err := w.fw.Add(p); err != nil {
			fmt.Fprintf(w.stderr, "serve: watching %s: %v\n", p, err)
		}
		return nil
	})
}

// close stops watching.
func (w *watcher) close() { w.fw.Close() }

// run sends the slash-separated path (relative to the root) of every
// relevant change to paths until ctx is done. A new directory is watched
// before its change is sent, so files written into it are seen too.
func (w *watcher) run(ctx context.Context, paths chan<- string) {
	for {
		var rel string
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.fw.Events:
			if !ok {
				return
			}
			r, relevant := w.relevant(ev)
			if !relevant {
				continue
			}
			if ev.Has(fsnotify.Create) || ev.Has(fsnotify.Rename) {
				if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() {
					w.addTree(ev.Name)
				}
			}
			rel = r
		case err, ok := <-w.fw.Errors:
			if !ok {
				return
			}
			fmt.Fprintf(w.stderr, "serve: watch: %v\n", err)
			if !errors.Is(err, fsnotify.ErrEventOverflow) {
				continue
			}
			rel = "." // events were lost: rebuild everything to be safe
		}
		select {
		case paths <- rel:
		case <-ctx.Done():
			return
		}
	}
}

// relevant reports whether an event concerns a source file, and its path
// relative to the root (an overlay file's: the overlay's label and its
// path in the overlay).
func (w *watcher) relevant(ev fsnotify.Event) (string, bool) {
	if ev.Op == fsnotify.Chmod { // permissions and touch: the content is the same
		return "", false
	}
	if within(ev.Name, w.out) {
		return "", false
	}
	if w.ov.abs != "" && within(ev.Name, w.ov.abs) {
		rel, err := filepath.Rel(w.ov.abs, ev.Name)
		if err != nil {
			return "", false
		}
		rel = filepath.ToSlash(rel)
		top, _, _ := strings.Cut(rel, "/")
		if (rel != "site.toml" && !slices.Contains(overlayDirs(), top)) || ignoredName(filepath.Base(ev.Name)) {
			return "", false
		}
		return w.ov.label + rel, true
	}
	rel, err := filepath.Rel(w.root, ev.Name)
	if err != nil {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	top, _, _ := strings.Cut(rel, "/")
	if !slices.Contains(sourceDirs(), top) || ignoredName(filepath.Base(ev.Name)) {
		return "", false
	}
	return rel, true
}

// ignoredName reports editors' temporary and backup files, which come and
// go around every save and are no part of the site.
func ignoredName(name string) bool {
	switch {
	case name == "4913", name == ".DS_Store": // vim's write probe; macOS Finder
		return true
	case strings.HasSuffix(name, "~"), strings.HasPrefix(name, ".#"), // backups; Emacs locks
		strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#"),                                      // Emacs auto-save
		strings.HasSuffix(name, ".swp"), strings.HasSuffix(name, ".swo"), strings.HasSuffix(name, ".swx"), // vim
		strings.HasSuffix(name, "___jb_tmp___"), strings.HasSuffix(name, "___jb_old___"): // JetBrains safe write
		return true
	}
	return false
}

// debounce gathers the paths arriving on in into batches: it sends one
// sorted, de-duplicated batch to out once no new path has arrived for
// quiet, or once maxWait has passed since the batch's first path (so that a
// file rewritten without pause still gets built). While out is not ready
// (a build is running) the batch keeps growing, so the next build covers
// every change made during the previous one. debounce returns when ctx is
// done, or when in is closed and what it held has been sent.
func debounce(ctx context.Context, in <-chan string, out chan<- []string, quiet, maxWait time.Duration) {
	pending := map[string]bool{}
	var first time.Time // when the first pending path arrived
	timer := time.NewTimer(quiet)
	timer.Stop()
	defer timer.Stop()
	var fire <-chan time.Time // timer.C while paths are pending
	var ready []string        // the batch waiting for out
	var send chan<- []string  // out while ready holds a batch
	flush := func() {
		ready = slices.Sorted(maps.Keys(merge(pending, ready)))
		clear(pending)
		fire, send = nil, out
	}
	for {
		select {
		case <-ctx.Done():
			return
		case p, ok := <-in:
			if !ok {
				if len(pending) > 0 {
					flush()
				}
				if send == nil {
					return
				}
				in = nil
				continue
			}
			if len(pending) == 0 {
				first = time.Now()
			}
			pending[p] = true
			timer.Reset(max(0, min(quiet, maxWait-time.Since(first))))
			fire = timer.C
		case <-fire:
			flush()
		case send <- ready:
			ready, send = nil, nil
			if in == nil {
				return
			}
		}
	}
}

// merge adds the paths of batch to set and returns it.
func merge(set map[string]bool, batch []string) map[string]bool {
	for _, p := range batch {
		set[p] = true
	}
	return set
}
