package browsertest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/devserver"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/site"
)

// lockedBuffer collects a server's output for the server and the test at
// once.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// editFile rewrites a file of a site root with each old string replaced by
// its new one, in one write (as an editor saves).
func editFile(t *testing.T, root, file string, oldNew ...string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(file))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for i := 0; i < len(oldNew); i += 2 {
		if !strings.Contains(s, oldNew[i]) {
			t.Fatalf("%s does not contain %q", file, oldNew[i])
		}
		s = strings.Replace(s, oldNew[i], oldNew[i+1], 1)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDevServerOverlay runs the dev server over a copy of the fixture with
// a page open in Chromium: breaking a data file shows the build-error
// overlay with the positioned error over the last good page; fixing it
// removes the overlay and reloads the page with the change.
//
// The browser's problem list stays strict (no allow-list): the reload
// script closes its event stream before it reloads, so no request fails,
// and the dev server answers every request of the page with 200.
func TestDevServerOverlay(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the fixture, WebAssembly included")
	}
	Chromium(t)
	root := FixtureRoot(t)
	out := filepath.Join(t.TempDir(), "public")
	var stdout, stderr lockedBuffer
	s, err := devserver.New(devserver.Config{Build: site.Options{Root: root, Out: out, Now: testcat.FixtureNow}, Addr: "127.0.0.1:0", Stdout: &stdout, Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	// Registered before New's cleanup, so it runs after it: the browser
	// closes (and reports) before the server stops.
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Error("Run did not return after cancel")
		}
	})
	base := "http://" + s.Addr().String() + "/"
	start := time.Now()
	for !strings.Contains(stdout.String(), "serving ") {
		if time.Since(start) > 5*time.Minute {
			t.Fatalf("no first build within 5 minutes; output:\n%s%s", stdout.String(), stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("the dev server built the fixture in %v", time.Since(start).Round(time.Millisecond))

	b := New(t, base)
	b.Navigate("gpus/alpha-80gb/")
	if h1 := b.Text("h1"); h1 != "Alpha 80GB" {
		t.Fatalf("h1 %q", h1)
	}
	var injected bool
	b.Eval(`!!document.querySelector('script[src="/_atlas/reload.js"]')`, &injected)
	if !injected {
		t.Fatal("the dev server did not inject its reload script")
	}

	// Break the file: the overlay lists the positioned error over the last
	// good page.
	broke := time.Now()
	editFile(t, root, "data/gpus/alpha-80gb.toml", "memory_gb = 80", "memory_gbs = 80")
	const want = `data/gpus/alpha-80gb.toml:7:1: unknown key "memory_gbs" (did you mean "memory_gb"?)`
	b.Poll(`(document.getElementById("atlas-overlay") || {}).textContent?.includes("data/gpus/alpha-80gb.toml:7:1")`,
		`(document.getElementById("atlas-overlay") || {}).textContent`)
	t.Logf("the overlay showed %v after the breaking write", time.Since(broke).Round(time.Millisecond))
	var overlay struct {
		Role   string   `json:"role"`
		Errors []string `json:"errors"`
		Head   string   `json:"head"`
	}
	b.Eval(`(() => { const o = document.getElementById("atlas-overlay"); return {
		role: o.getAttribute("role"),
		errors: [...o.querySelectorAll(".atlas-overlay-errors li")].map((li) => li.textContent),
		head: o.querySelector("h2").textContent,
	}; })()`, &overlay)
	if !b.Visible("#atlas-overlay") || overlay.Role != "alertdialog" {
		t.Errorf("the overlay is visible=%v with role %q", b.Visible("#atlas-overlay"), overlay.Role)
	}
	found := false
	for _, e := range overlay.Errors {
		found = found || e == want
	}
	if !found || !strings.HasPrefix(overlay.Head, "Build failed: ") {
		t.Errorf("the overlay reads %q with the errors %q; want %q among them", overlay.Head, overlay.Errors, want)
	}
	if h1 := b.Text("h1"); h1 != "Alpha 80GB" {
		t.Errorf("under the overlay the page shows h1 %q, want the last good page", h1)
	}

	// Fix it with a visible change: the page reloads by itself.
	fixed := time.Now()
	b.Follow(2*time.Minute, func() {
		editFile(t, root, "data/gpus/alpha-80gb.toml", "memory_gbs = 80", "memory_gb = 80", `name = "Alpha 80GB"`, `name = "Alpha 80GB Mk II"`)
	})
	t.Logf("the page reloaded %v after the fixing write", time.Since(fixed).Round(time.Millisecond))
	if h1 := b.Text("h1"); h1 != "Alpha 80GB Mk II" {
		t.Errorf("after the fix the page shows h1 %q, want the change", h1)
	}
	if b.Visible("#atlas-overlay") {
		t.Error("the overlay is still shown after the fix")
	}
	if u := b.Location(); u != base+"gpus/alpha-80gb/" {
		t.Errorf("the reload went to %s", u)
	}
}
