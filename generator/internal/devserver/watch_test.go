package devserver

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/fsnotify/fsnotify"
)

// received returns the batch debounce has ready, or nil. Inside a synctest
// bubble, synctest.Wait first lets every goroutine run until it blocks.
func received(out <-chan []string) []string {
	synctest.Wait()
	select {
	case b := <-out:
		return b
	default:
		return nil
	}
}

// TestDebounce runs on synctest's fake clock, so the timings are exact and
// the test cannot flake on a slow machine.
func TestDebounce(t *testing.T) {
	const quiet, maxWait = 100 * time.Millisecond, time.Second

	t.Run("a burst is one sorted batch without duplicates", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			in, out := make(chan string), make(chan []string)
			go debounce(t.Context(), in, out, quiet, maxWait)
			for _, p := range []string{"data/b.toml", "data/a.toml", "data/b.toml", "data/.b.toml.swp"} {
				in <- p
				time.Sleep(30 * time.Millisecond)
			}
			// 30 ms after the last path: still within the quiet period.
			if b := received(out); b != nil {
				t.Fatalf("batch %v before the quiet period ended", b)
			}
			time.Sleep(quiet - 30*time.Millisecond)
			want := []string{"data/.b.toml.swp", "data/a.toml", "data/b.toml"}
			if b := received(out); !slices.Equal(b, want) {
				t.Fatalf("got %v, want %v", b, want)
			}
			if b := received(out); b != nil {
				t.Fatalf("extra batch %v", b)
			}
		})
	})

	t.Run("bursts apart are separate batches", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			in, out := make(chan string), make(chan []string)
			go debounce(t.Context(), in, out, quiet, maxWait)
			in <- "a"
			time.Sleep(quiet)
			if b := received(out); !slices.Equal(b, []string{"a"}) {
				t.Fatalf("first batch %v", b)
			}
			in <- "b"
			time.Sleep(quiet)
			if b := received(out); !slices.Equal(b, []string{"b"}) {
				t.Fatalf("second batch %v", b)
			}
		})
	})

	t.Run("a file rewritten without pause is built every maxWait", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			in, out := make(chan string), make(chan []string)
			go debounce(t.Context(), in, out, quiet, maxWait)
			start := time.Now()
			var at []time.Duration
			for time.Since(start) < 3500*time.Millisecond {
				in <- "data/log.toml"
				time.Sleep(quiet / 2)
				if b := received(out); b != nil {
					at = append(at, time.Since(start))
				}
			}
			if len(at) != 3 {
				t.Fatalf("batches at %v, want one per second", at)
			}
			prev := time.Duration(0)
			for i, d := range at {
				if gap := d - prev; gap < maxWait || gap > maxWait+quiet {
					t.Errorf("batch %d came %v after the previous one, want about %v", i, gap, maxWait)
				}
				prev = d
			}
		})
	})

	t.Run("changes during a build join the next batch", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			in, out := make(chan string), make(chan []string)
			go debounce(t.Context(), in, out, quiet, maxWait)
			in <- "a"
			time.Sleep(2 * quiet) // batch [a] is ready, but nobody takes it: a build is running
			in <- "b"
			time.Sleep(2 * quiet)
			in <- "c" // not yet quiet when the build ends
			if b := received(out); !slices.Equal(b, []string{"a", "b"}) {
				t.Fatalf("got %v, want [a b]", b)
			}
			time.Sleep(quiet)
			if b := received(out); !slices.Equal(b, []string{"c"}) {
				t.Fatalf("got %v, want [c]", b)
			}
		})
	})

	t.Run("closing the input flushes", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			in, out := make(chan string), make(chan []string)
			done := make(chan struct{})
			go func() { debounce(context.Background(), in, out, quiet, maxWait); close(done) }()
			in <- "a"
			close(in)
			if b := <-out; !slices.Equal(b, []string{"a"}) {
				t.Fatalf("got %v", b)
			}
			<-done
		})
	})

	t.Run("cancelling stops", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			in, out := make(chan string), make(chan []string)
			done := make(chan struct{})
			go func() { debounce(ctx, in, out, quiet, maxWait); close(done) }()
			in <- "a"
			cancel()
			<-done
		})
	})
}

func TestIgnoredName(t *testing.T) {
	for name, want := range map[string]bool{
		"alpha.toml": false, "site.css": false, "first-guide.md": false, ".well-known": false,
		"alpha.toml~": true, ".alpha.toml.swp": true, "4913": true, ".#first-guide.md": true,
		"#first-guide.md#": true, "gpu.html___jb_tmp___": true, ".DS_Store": true,
	} {
		if got := ignoredName(name); got != want {
			t.Errorf("ignoredName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestRelevant(t *testing.T) {
	root := filepath.FromSlash("/site")
	w := &watcher{root: root, out: filepath.Join(root, "public")}
	for _, c := range []struct {
		name string
		op   fsnotify.Op
		want string
	}{
		{"data/gpus/a.toml", fsnotify.Write, "data/gpus/a.toml"},
		{"content/guides/new", fsnotify.Create, "content/guides/new"},
		{"templates/gpu.html", fsnotify.Rename, "templates/gpu.html"},
		{"static/css/site.css", fsnotify.Remove, "static/css/site.css"},
		{"data/gpus/a.toml", fsnotify.Chmod, ""},
		{"data/gpus/a.toml", fsnotify.Write | fsnotify.Chmod, "data/gpus/a.toml"},
		{"data/gpus/.a.toml.swp", fsnotify.Write, ""},
		{"public/index.html", fsnotify.Create, ""},
		{".public.new-123", fsnotify.Create, ""},
		{"README.md", fsnotify.Write, ""},
		{"data", fsnotify.Create, "data"},
	} {
		got, ok := w.relevant(fsnotify.Event{Name: filepath.Join(root, filepath.FromSlash(c.name)), Op: c.op})
		if got != c.want || ok != (c.want != "") {
			t.Errorf("relevant(%s %s) = %q, %v; want %q", c.op, c.name, got, ok, c.want)
		}
	}
}

// TestWatcherFollowsNewDirectories creates nested directories after the
// watch started and expects a change inside the deepest one.
func TestWatcherFollowsNewDirectories(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "content"), 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := newWatcher(root, filepath.Join(root, "public"), overlayDir{}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	paths := make(chan string, 100)
	go w.run(t.Context(), paths)
	waitFor := func(want string) {
		t.Helper()
		deadline := time.After(20 * time.Second)
		for {
			select {
			case p := <-paths:
				if p == want {
					return
				}
			case <-deadline:
				t.Fatalf("no change reported for %s", want)
			}
		}
	}
	// data/ does not exist at start: the root's own watch sees it appear.
	for _, dir := range []string{"content/guides", "content/guides/deep", "data", "data/gpus"} {
		if err := os.Mkdir(filepath.Join(root, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		waitFor(dir)
	}
	for _, f := range []string{"content/guides/deep/x.md", "data/gpus/a.toml"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		waitFor(f)
	}
}
