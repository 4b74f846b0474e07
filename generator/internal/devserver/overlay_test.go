package devserver

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/fixture"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/site"
)

// TestServesUnderBasePath: a site built for base_url .../gpu/ is served
// under /gpu/, as its links expect.
func TestServesUnderBasePath(t *testing.T) {
	s, _ := outputFixture(t)
	s.basePath = "/gpu/"
	for _, c := range []struct {
		target   string
		code     int
		location string // of a redirect
		body     string // in the body otherwise
	}{
		{"/", http.StatusFound, "/gpu/", ""},
		{"/?x=1", http.StatusFound, "/gpu/?x=1", ""},
		{"/gpu", http.StatusFound, "/gpu/", ""},
		{"/gpu/", http.StatusOK, "", "<p>home</p>"},
		{"/gpu/gpus", http.StatusMovedPermanently, "/gpu/gpus/", ""},
		{"/gpu/gpus/", http.StatusOK, "", "gpus"},
		{"/gpu/assets/site.css", http.StatusOK, "", "body{color:red}"},
		{"/gpus/", http.StatusNotFound, "", "no such page"},        // outside the base path
		{"/gpu/no/such/", http.StatusNotFound, "", "no such page"}, // the site's 404 page
		{"/gpu/../secret.txt", http.StatusNotFound, "", "no such page"},
		{reloadPath, http.StatusOK, "", "EventSource"}, // the server's own URLs stay at the root
	} {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, c.target, nil))
		if rec.Code != c.code || rec.Header().Get("Location") != c.location || !strings.Contains(rec.Body.String(), c.body) {
			t.Errorf("GET %s: %d to %q %q; want %d to %q with %q", c.target, rec.Code, rec.Header().Get("Location"), rec.Body.String(), c.code, c.location, c.body)
		}
		if strings.Contains(rec.Body.String(), secret) {
			t.Errorf("GET %s served the secret", c.target)
		}
	}
}

func TestRelevantOverlay(t *testing.T) {
	root, ov := filepath.FromSlash("/site"), filepath.FromSlash("/team/overlay")
	w := &watcher{root: root, out: filepath.FromSlash("/team/public"), ov: overlayDir{abs: ov, label: "../overlay/"}}
	for _, c := range []struct {
		name string
		op   fsnotify.Op
		want string
	}{
		{"/team/overlay/data/overrides.toml", fsnotify.Write, "../overlay/data/overrides.toml"},
		{"/team/overlay/data/offers/team-pool.toml", fsnotify.Create, "../overlay/data/offers/team-pool.toml"},
		{"/team/overlay/content/guides/request-quota.zh.md", fsnotify.Rename, "../overlay/content/guides/request-quota.zh.md"},
		{"/team/overlay/site.toml", fsnotify.Write, "../overlay/site.toml"},
		{"/team/overlay/content", fsnotify.Create, "../overlay/content"},
		{"/team/overlay/data/.overrides.toml.swp", fsnotify.Write, ""},
		{"/team/overlay/README.md", fsnotify.Write, ""},
		{"/team/overlay/.git/index", fsnotify.Write, ""},
		{"/team/overlay/site.toml", fsnotify.Chmod, ""},
		{"/team/public/index.html", fsnotify.Write, ""},
		{"/site/data/gpus/a.toml", fsnotify.Write, "data/gpus/a.toml"},
	} {
		got, ok := w.relevant(fsnotify.Event{Name: filepath.FromSlash(c.name), Op: c.op})
		if got != c.want || ok != (c.want != "") {
			t.Errorf("relevant(%s %s) = %q, %v; want %q", c.op, c.name, got, ok, c.want)
		}
	}
}

// TestWatcherOverlay: changes in the overlay's site.toml, data/ and
// content/ are reported, including directories made after the start.
func TestWatcherOverlay(t *testing.T) {
	root, ov := t.TempDir(), t.TempDir()
	w, err := newWatcher(root, filepath.Join(root, "public"), overlayDir{abs: ov, label: "team/"}, io.Discard)
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
	if err := os.WriteFile(filepath.Join(ov, "site.toml"), []byte("title = \"T\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor("team/site.toml")
	for _, dir := range []string{"data", "data/offers", "content", "content/guides"} {
		if err := os.Mkdir(filepath.Join(ov, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		waitFor("team/" + dir)
	}
	for _, f := range []string{"data/offers/team-pool.toml", "data/overrides.toml", "content/guides/q.md"} {
		if err := os.WriteFile(filepath.Join(ov, filepath.FromSlash(f)), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		waitFor("team/" + f)
	}
}

// TestOverlayBreakAndFix runs the server with the example overlay, breaks
// its overrides.toml, expects the error positioned in the overlay's file,
// then fixes it with a new contract price and expects a reload serving
// that price, under the overlay's base path /gpu/.
func TestOverlayBreakAndFix(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the site, WebAssembly included")
	}
	root := fixture.Site(t)
	ov := filepath.Join(t.TempDir(), "overlay")
	if err := os.CopyFS(ov, os.DirFS(filepath.Join("..", "..", "..", "testdata", "overlay-example"))); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	var stdout, stderr syncBuffer
	s, err := New(Config{Build: site.Options{Root: root, Out: out, Now: fixture.Now, Overlay: ov}, Addr: "127.0.0.1:0", Stdout: &stdout, Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	defer func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Error("Run did not return after cancel")
		}
	}()
	base := "http://" + s.Addr().String()
	events := stream(t, ctx, base+eventsPath)
	if hello, ok := <-events; !ok || hello.name != "hello" {
		t.Fatalf("first event %q %s, want hello; stderr:\n%s", hello.name, hello.data, stderr.String())
	}
	label := filepath.ToSlash(ov)
	waitOutput(t, &stdout, "serving "+out+" on "+base+"/gpu/ (watching content, data, templates, static and the overlay "+label+")\n")

	page := base + "/gpu/pricing/"
	if code, _, body := get(t, page); code != http.StatusOK || !strings.Contains(body, "public price 5.00 USD") || !strings.Contains(body, `href="/gpu/gpus/`) {
		t.Fatalf("GET %s: %d\n%s", page, code, body)
	}
	if code, _, _ := get(t, base+"/pricing/"); code != http.StatusNotFound {
		t.Errorf("GET /pricing/ outside the base path: %d", code)
	}

	replace(t, ov, "data/overrides.toml", "price = 32.0", "prise = 32.0")
	want := label + `/data/overrides.toml:8:1: unknown key "prise" (did you mean "price"?)`
	await(t, events, "build-error", rebuildTimeout, func(ev sseEvent) bool {
		var payload struct {
			Errors []struct {
				Text string `json:"text"`
			} `json:"errors"`
		}
		if err := json.Unmarshal([]byte(ev.data), &payload); err != nil {
			t.Fatalf("build-error data %q: %v", ev.data, err)
		}
		for _, e := range payload.Errors {
			if e.Text == want {
				return true
			}
		}
		return false
	})
	waitOutput(t, &stderr, want+"\n")
	waitOutput(t, &stdout, "after "+label+"/data/overrides.toml; serving the previous output")
	if code, _, body := get(t, page); code != http.StatusOK || !strings.Contains(body, "public price 5.00 USD") {
		t.Fatalf("previous output not served while broken: %d", code)
	}

	// 8 GPUs at 28.00 per instance-hour: 3.50 per GPU-hour.
	replace(t, ov, "data/overrides.toml", "prise = 32.0", "price = 28.0")
	await(t, events, "reload", rebuildTimeout, nil)
	if code, _, body := get(t, page); code != http.StatusOK || !strings.Contains(body, "3.50 USD") {
		t.Fatalf("GET %s after the fix: %d; the new contract price is not shown", page, code)
	}
	waitOutput(t, &stdout, label+"/data/overrides.toml; WebAssembly reused)")
}
