package devserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/fixture"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/output"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/site"
)

// Generous limits: the first build compiles the calculator's WebAssembly,
// which takes a while on a cold build cache or a busy machine.
const (
	firstBuildTimeout = 5 * time.Minute
	rebuildTimeout    = 2 * time.Minute
)

// replace rewrites a file of the site with each old string replaced by its
// new one, in one write.
func replace(t *testing.T, root, file string, oldNew ...string) {
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

// syncBuffer is a bytes.Buffer safe for the server and the test at once.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// sseEvent is one parsed server-sent event.
type sseEvent struct{ name, id, data string }

// stream connects to an event stream with net/http and parses it; the
// channel closes when the stream ends.
func stream(t testing.TB, ctx context.Context, url string) <-chan sseEvent {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The response waits for the first build: the server serves after it.
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.ResponseHeaderTimeout = firstBuildTimeout
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("GET %s: %s %q", url, resp.Status, resp.Header.Get("Content-Type"))
	}
	ch := make(chan sseEvent, 64)
	go func() {
		defer close(ch)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			field, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch field {
			case "event":
				ev.name = value
			case "id":
				ev.id = value
			case "data":
				ev.data += value
			case "":
				if line == "" && ev.name != "" {
					select {
					case ch <- ev:
					case <-ctx.Done():
						return
					}
				}
				if line == "" {
					ev = sseEvent{}
				}
			}
		}
	}()
	return ch
}

// await returns the first event named name for which ok holds, skipping
// others (a "building" event, or the error of a build that caught a file
// half written).
func await(t testing.TB, ch <-chan sseEvent, name string, timeout time.Duration, ok func(sseEvent) bool) sseEvent {
	t.Helper()
	deadline := time.After(timeout)
	var seen []string
	for {
		select {
		case ev, open := <-ch:
			if !open {
				t.Fatalf("event stream ended waiting for %q; saw %v", name, seen)
			}
			if ev.name == name && (ok == nil || ok(ev)) {
				return ev
			}
			seen = append(seen, ev.name+" "+ev.data)
		case <-deadline:
			t.Fatalf("no %q event within %v; saw %v", name, timeout, seen)
		}
	}
}

func get(t *testing.T, url string) (int, http.Header, string) {
	t.Helper()
	c := &http.Client{Timeout: rebuildTimeout}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, string(b)
}

// waitOutput waits for s to appear in a log.
func waitOutput(t *testing.T, log *syncBuffer, s string) {
	t.Helper()
	deadline := time.Now().Add(rebuildTimeout)
	for !strings.Contains(log.String(), s) {
		if time.Now().After(deadline) {
			t.Fatalf("%q never printed; output:\n%s", s, log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestBreakAndFix runs the server over a fixture, breaks a data file,
// expects the positioned error on the event stream, in the terminal and the
// old page still served, then fixes the file and expects a reload and the
// change served.
func TestBreakAndFix(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the site, WebAssembly included")
	}
	root := fixture.Site(t)
	out := filepath.Join(t.TempDir(), "public")
	var stdout, stderr syncBuffer
	s, err := New(Config{Build: site.Options{Root: root, Out: out, Now: fixture.Now}, Addr: "127.0.0.1:0", Stdout: &stdout, Stderr: &stderr})
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
	hello, ok := <-events
	if !ok || hello.name != "hello" {
		t.Fatalf("first event %q %s, want hello; stderr:\n%s", hello.name, hello.data, stderr.String())
	}
	waitOutput(t, &stdout, "serving "+out+" on "+base+"/ (watching content, data, templates, static)\n")
	if !strings.HasPrefix(stdout.String(), "built ") {
		t.Errorf("no build line:\n%s", stdout.String())
	}

	page := base + "/gpus/alpha-80gb/"
	code, hdr, body := get(t, page)
	if code != http.StatusOK || !strings.Contains(body, "Alpha 80GB") || !strings.Contains(body, `<script src="/_atlas/reload.js" data-build="`+hello.id+`" defer></script>`) {
		t.Fatalf("GET %s: %d\n%s", page, code, body)
	}
	if hdr.Get("Content-Security-Policy") != site.CSP {
		t.Errorf("page served without the site's CSP: %q", hdr.Get("Content-Security-Policy"))
	}
	onDisk, err := os.ReadFile(filepath.Join(out, "gpus", "alpha-80gb", "index.html"))
	if err != nil || strings.Contains(string(onDisk), "reload.js") {
		t.Errorf("the built file must not carry the reload script (err %v)", err)
	}

	// Break it.
	replace(t, root, "data/gpus/alpha-80gb.toml", "memory_gb = 80", "memory_gbs = 80")
	const want = `data/gpus/alpha-80gb.toml:7:1: unknown key "memory_gbs" (did you mean "memory_gb"?)`
	var payload struct {
		Count  int `json:"count"`
		Errors []struct {
			Path      string `json:"path"`
			Line, Col int
			Text      string `json:"text"`
		} `json:"errors"`
	}
	await(t, events, "build-error", rebuildTimeout, func(ev sseEvent) bool {
		if err := json.Unmarshal([]byte(ev.data), &payload); err != nil {
			t.Fatalf("build-error data %q: %v", ev.data, err)
		}
		for _, e := range payload.Errors {
			if e.Text == want {
				return e.Path == "data/gpus/alpha-80gb.toml" && e.Line == 7 && e.Col == 1
			}
		}
		return false
	})
	if payload.Count != len(payload.Errors) {
		t.Errorf("count %d for %d errors", payload.Count, len(payload.Errors))
	}
	waitOutput(t, &stdout, "build failed: 2 error(s)")
	waitOutput(t, &stderr, want+"\n")

	// The previous output is still served, and a page opened now gets the
	// errors as the first event of its stream.
	if code, _, body := get(t, page); code != http.StatusOK || !strings.Contains(body, "Alpha 80GB") {
		t.Fatalf("previous output not served while broken: %d\n%s", code, body)
	}
	late := stream(t, ctx, base+eventsPath+"?build="+hello.id)
	if ev := await(t, late, "build-error", rebuildTimeout, nil); !strings.Contains(ev.data, "memory_gbs") {
		t.Errorf("a new stream's first event: %s %s", ev.name, ev.data)
	}

	// Fix it, with a visible change.
	replace(t, root, "data/gpus/alpha-80gb.toml", "memory_gbs = 80", "memory_gb = 80", `name = "Alpha 80GB"`, `name = "Alpha 80GB Mk II"`)
	reload := await(t, events, "reload", rebuildTimeout, nil)
	if reload.id == "" || reload.id == hello.id {
		t.Errorf("reload names build %q, the page came from %q", reload.id, hello.id)
	}
	code, _, body = get(t, page)
	if code != http.StatusOK || !strings.Contains(body, "Alpha 80GB Mk II") || !strings.Contains(body, `data-build="`+reload.id+`"`) {
		t.Fatalf("GET %s after the fix: %d\n%s", page, code, body)
	}
	waitOutput(t, &stdout, "WebAssembly reused)")
	if !strings.Contains(stdout.String(), "rebuilt in ") {
		t.Errorf("no rebuild line:\n%s", stdout.String())
	}
	sameAsFullBuild(t, root, out)

	// A page still on the first build reconnects (EventSource sends
	// Last-Event-ID) and is told to reload.
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+eventsPath, nil)
	req.Header.Set("Last-Event-ID", hello.id)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(resp.Body)
	var first []string
	for len(first) < 2 && sc.Scan() {
		if l := sc.Text(); strings.HasPrefix(l, "event:") || strings.HasPrefix(l, "id:") {
			first = append(first, l)
		}
	}
	resp.Body.Close()
	if strings.Join(first, "\n") != "event: reload\nid: "+reload.id {
		t.Errorf("reconnect from the old build: got %q", first)
	}
}

// sameAsFullBuild checks that the output the server patched file by file
// (output.Patch) holds exactly what a full build of the same sources
// writes, manifest included. The full build reuses the served
// WebAssembly, which a compile would reproduce byte for byte.
func sameAsFullBuild(t *testing.T, root, out string) {
	t.Helper()
	served := output.NewTree()
	err := filepath.WalkDir(out, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(out, p)
		served.Add(filepath.ToSlash(rel), b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	full := filepath.Join(t.TempDir(), "full")
	if res, d := site.Run(site.Options{Root: root, Out: full, Now: fixture.Now, Dev: &site.Dev{Reuse: served}}); res == nil {
		t.Fatalf("full build: %v", d.Errors())
	}
	n := 0
	err = filepath.WalkDir(full, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		n++
		want, err := os.ReadFile(p)
		rel, _ := filepath.Rel(full, p)
		if got, ok := served.Get(filepath.ToSlash(rel)); !ok || string(got) != string(want) {
			t.Errorf("%s: the served output differs from a full build's", rel)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != served.Len() {
		t.Errorf("served output has %d files, a full build %d", served.Len(), n)
	}
}

// TestRebuildReusesWebAssembly: given a previous tree, a build copies the
// calculator's two WebAssembly modules and wasm_exec.js from it instead of compiling
// (the fake bytes prove no compile ran).
func TestRebuildReusesWebAssembly(t *testing.T) {
	root := fixture.Site(t)
	prev := output.NewTree()
	prev.Add("assets/size.0123456789.wasm", []byte("fake wasm"))
	prev.Add("assets/extra.0123456789.wasm", []byte("fake extra wasm"))
	prev.Add("assets/config.0123456789.wasm", []byte("fake config wasm"))
	prev.Add("assets/wasm_exec.0123456789.js", []byte("/* fake wasm_exec */"))
	res, d := site.Run(site.Options{Root: root, Out: filepath.Join(t.TempDir(), "public"), Now: fixture.Now, Dev: &site.Dev{Reuse: prev}})
	if res == nil {
		var b strings.Builder
		d.Print(&b)
		t.Fatalf("build failed:\n%s", b.String())
	}
	for p, want := range map[string]string{"assets/size.0123456789.wasm": "fake wasm", "assets/extra.0123456789.wasm": "fake extra wasm",
		"assets/config.0123456789.wasm": "fake config wasm", "assets/wasm_exec.0123456789.js": "/* fake wasm_exec */"} {
		if got, ok := res.Tree.Get(p); !ok || string(got) != want {
			t.Errorf("%s: %q, %v; want the previous build's bytes", p, got, ok)
		}
	}
	calc, _ := res.Tree.Get("calculator/index.html")
	for _, name := range []string{"wasm_exec.0123456789.js", "size.0123456789.wasm", "extra.0123456789.wasm", "config.0123456789.wasm"} {
		if !strings.Contains(string(calc), name) {
			t.Errorf("the calculator page does not name the reused %s", name)
		}
	}
}

// TestOpenPageFirst: after an edit, a page open in a browser (its event
// stream names it) is rendered ahead of the rest of the site, told to
// reload at once and served the new version from memory; a page the edit
// does not change, and a stream that names no page, get the reload when
// the build is done; the early page's stream is not told twice, and a
// page reconnecting on the new build is current.
func TestOpenPageFirst(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the site, WebAssembly included")
	}
	root := fixture.Site(t)
	out := filepath.Join(t.TempDir(), "public")
	var stdout syncBuffer
	s, err := New(Config{Build: site.Options{Root: root, Out: out, Now: fixture.Now}, Addr: "127.0.0.1:0", Stdout: &stdout})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Run(ctx)
	base := "http://" + s.Addr().String()
	open := stream(t, ctx, base+eventsPath+"?page=/providers/acme/")
	hello := await(t, open, "hello", firstBuildTimeout, nil)
	other := stream(t, ctx, base+eventsPath+"?build="+hello.id+"&page=/methodology/")
	await(t, other, "hello", rebuildTimeout, nil)
	plain := stream(t, ctx, base+eventsPath+"?build="+hello.id)
	await(t, plain, "hello", rebuildTimeout, nil)

	replace(t, root, "data/offers/acme.toml", "price = 0.75", "price = 0.79")
	early := await(t, open, "reload", rebuildTimeout, nil)
	if !strings.Contains(early.data, `"page":"providers/acme/index.html"`) || early.id == hello.id {
		t.Errorf("early reload %s %s", early.id, early.data)
	}
	if _, _, body := get(t, base+"/providers/acme/"); !strings.Contains(body, "0.79") || !strings.Contains(body, `data-build="`+early.id+`"`) {
		t.Errorf("the open page after its reload does not show the new price of build %s", early.id)
	}
	for name, ch := range map[string]<-chan sseEvent{"an unchanged page": other, "a stream naming no page": plain} {
		if done := await(t, ch, "reload", rebuildTimeout, nil); done.id != early.id || strings.Contains(done.data, `"page"`) {
			t.Errorf("%s: reload %s %s, want the finished build %s", name, done.id, done.data, early.id)
		}
	}
	waitOutput(t, &stdout, "rebuilt in ")
	select {
	case ev := <-open:
		t.Errorf("the early page got %s %s after its reload", ev.name, ev.data)
	case <-time.After(200 * time.Millisecond):
	}
	again := stream(t, ctx, base+eventsPath+"?build="+early.id+"&page=/providers/acme/")
	if ev := <-again; ev.name != "hello" || ev.id != early.id {
		t.Errorf("reconnecting on the new build: %s %s", ev.name, ev.id)
	}
	sameAsFullBuild(t, root, out)
}
