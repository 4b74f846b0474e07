package devserver

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/output"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/site"
)

const secret = "TOP SECRET: outside the output directory"

// outputFixture makes an output directory beside a secret file, with
// symbolic links that point out of it and one that stays inside, and a
// server (neither listening nor watching) serving it.
func outputFixture(t *testing.T) (*Server, string) {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "public")
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "secret.txt"), secret)
	write(filepath.Join(dir, "private", "secret.txt"), secret)
	write(filepath.Join(out, "index.html"), "<!doctype html><html><head><title>Home</title></head><body><p>home</p></body></html>")
	write(filepath.Join(out, "404.html"), "<!doctype html><html><head><title>Missing</title></head><body><p>no such page</p></body></html>")
	write(filepath.Join(out, "gpus", "index.html"), "<!doctype html><html><head></head><body>gpus</body></html>")
	write(filepath.Join(out, "assets", "site.css"), "body{color:red}")
	write(filepath.Join(out, output.Marker), output.MarkerMagic+"\nstate complete\nfiles 0\n") // a previous build's
	for link, target := range map[string]string{
		"rel-secret.txt": filepath.Join("..", "secret.txt"),
		"abs-secret.txt": filepath.Join(dir, "secret.txt"),
		"private":        filepath.Join("..", "private"),
		"inside.css":     filepath.Join("assets", "site.css"),
	} {
		if err := os.Symlink(target, filepath.Join(out, link)); err != nil {
			t.Skipf("cannot make symbolic links here: %v", err)
		}
	}
	s, err := newServer(Config{Build: site.Options{Root: filepath.Join(dir, "site"), Out: out}})
	if err != nil {
		t.Fatal(err)
	}
	return s, dir
}

func TestCleanName(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"/", ".", true},
		{"/index.html", "index.html", true},
		{"/gpus/", "gpus", true},
		{"/../secret.txt", "secret.txt", true},
		{"/a/../../../etc/passwd", "etc/passwd", true},
		{"/..", ".", true},
		{"//gpus//x", "gpus/x", true},
		{"/a\\..\\..\\secret.txt", "", false},
		{"/a\x00b", "", false},
	} {
		got, ok := cleanName(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("cleanName(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestNeverServesOutside asks for files outside the output directory by
// every route: "..", encoded "..", and symbolic links (relative, absolute,
// to a directory). Each must be answered without the secret.
func TestNeverServesOutside(t *testing.T) {
	s, _ := outputFixture(t)
	for _, target := range []string{
		"/../secret.txt",
		"/%2e%2e/secret.txt",
		"/gpus/../../secret.txt",
		"/..%2fsecret.txt",
		"/rel-secret.txt",
		"/abs-secret.txt",
		"/private/secret.txt",
		"/private/",
	} {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
		if strings.Contains(rec.Body.String(), secret) {
			t.Errorf("GET %s served the secret (status %d)", target, rec.Code)
		}
		if rec.Code != http.StatusNotFound {
			t.Errorf("GET %s: status %d, want 404", target, rec.Code)
		}
	}
	// A link that stays inside the output is followed.
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/inside.css", nil))
	if rec.Code != http.StatusOK || rec.Body.String() != "body{color:red}" {
		t.Errorf("GET /inside.css: %d %q", rec.Code, rec.Body.String())
	}
}

// TestNeverServesOutsideOverTCP sends a raw request line with "..", which an
// HTTP client would clean before sending, to a real listener.
func TestNeverServesOutsideOverTCP(t *testing.T) {
	s, _ := outputFixture(t)
	ts := httptest.NewServer(s)
	defer ts.Close()
	for _, target := range []string{"/../secret.txt", "/../../../../../../etc/passwd", "/rel-secret.txt"} {
		conn, err := net.Dial("tcp", ts.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		conn.SetDeadline(time.Now().Add(10 * time.Second))
		fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", target)
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		conn.Close()
		if resp.StatusCode != http.StatusNotFound || strings.Contains(string(body), secret) || strings.Contains(string(body), "root:") {
			t.Errorf("GET %s: status %d, body %.80q", target, resp.StatusCode, body)
		}
	}
}

func TestServesPagesWithReloadScript(t *testing.T) {
	s, _ := outputFixture(t)
	get := func(target string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
		return rec
	}
	tag := `<script src="/_atlas/reload.js" data-build="` + s.buildID + `" defer></script></head>`

	rec := get("/")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), tag) || !strings.Contains(rec.Body.String(), "<p>home</p>") {
		t.Errorf("GET /: %d %s", rec.Code, rec.Body.String())
	}
	if got := rec.Header().Get("Content-Security-Policy"); got != site.CSP {
		t.Errorf("GET /: CSP %q, want the site's", got)
	}
	if got := rec.Header().Get("Content-Type"); got != "text/html; charset=utf-8" {
		t.Errorf("GET /: Content-Type %q", got)
	}

	rec = get("/gpus")
	if rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != "/gpus/" {
		t.Errorf("GET /gpus: %d to %q, want a redirect to /gpus/", rec.Code, rec.Header().Get("Location"))
	}
	if rec = get("/gpus/"); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "gpus") || !strings.Contains(rec.Body.String(), "reload.js") {
		t.Errorf("GET /gpus/: %d %s", rec.Code, rec.Body.String())
	}

	rec = get("/no/such/page/")
	if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "no such page") || !strings.Contains(rec.Body.String(), "reload.js") {
		t.Errorf("GET a missing page: %d %s", rec.Code, rec.Body.String())
	}

	rec = get("/assets/site.css")
	if rec.Code != http.StatusOK || rec.Body.String() != "body{color:red}" || strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
		t.Errorf("GET a stylesheet: %d %q %q", rec.Code, rec.Header().Get("Content-Type"), rec.Body.String())
	}

	rec = get(reloadPath)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "EventSource") || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/javascript") {
		t.Errorf("GET %s: %d %q", reloadPath, rec.Code, rec.Header().Get("Content-Type"))
	}
	if rec = get(overlayPath); rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/css") {
		t.Errorf("GET %s: %d %q", overlayPath, rec.Code, rec.Header().Get("Content-Type"))
	}

	rec = httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST /: %d", rec.Code)
	}
}

func TestInject(t *testing.T) {
	tag := `<script src="/_atlas/reload.js" data-build="b&lt;1" defer></script>`
	for in, want := range map[string]string{
		"<html><head><title>x</title></head><body></body></html>": "<html><head><title>x</title>" + tag + "</head><body></body></html>",
		"<HTML><BODY>x</BODY></HTML>":                             "<HTML><BODY>x" + tag + "</BODY></HTML>",
		"just text":                                               "just text" + tag,
	} {
		if got := string(inject([]byte(in), "b<1")); got != want {
			t.Errorf("inject(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPlaceholderEscapesErrors: with no output yet, every page is a
// placeholder listing the errors as text.
func TestPlaceholderEscapesErrors(t *testing.T) {
	s, err := newServer(Config{Build: site.Options{Root: t.TempDir(), Out: filepath.Join(t.TempDir(), "public")}})
	if err != nil {
		t.Fatal(err)
	}
	s.failed = []diag.Diagnostic{{Path: "content/x.md", Line: 3, Col: 7, Msg: `bad <script>alert("x")</script> & more`}}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	body := rec.Body.String()
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("status %d, want 503", rec.Code)
	}
	if strings.Contains(body, "<script>alert") || !strings.Contains(body, "content/x.md:3:7: bad &lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; more") {
		t.Errorf("errors not escaped:\n%s", body)
	}
	if !strings.Contains(body, reloadPath) {
		t.Errorf("placeholder lacks the reload script:\n%s", body)
	}
}

func TestSubscribeState(t *testing.T) {
	s, err := newServer(Config{Build: site.Options{Root: t.TempDir(), Out: filepath.Join(t.TempDir(), "public")}})
	if err != nil {
		t.Fatal(err)
	}
	cur := s.buildID
	for _, c := range []struct{ since, want string }{{"", "hello"}, {cur, "hello"}, {"older", "reload"}} {
		ch, ev := s.subscribe(c.since, "")
		s.unsubscribe(ch)
		if ev.name != c.want || ev.id != cur {
			t.Errorf("subscribe(%q) = %s %s, want %s %s", c.since, ev.name, ev.id, c.want, cur)
		}
	}
	s.failed = []diag.Diagnostic{{Path: "data/a.toml", Line: 1, Col: 2, Msg: "boom"}}
	ch, ev := s.subscribe(cur, "")
	if ev.name != "build-error" || !strings.Contains(ev.data, `"text":"data/a.toml:1:2: boom"`) {
		t.Errorf("while failing: %s %s", ev.name, ev.data)
	}
	// A page the build in progress served early (it fixes the failure)
	// is current: neither the old errors nor a second reload.
	s.earlyID = "next"
	early, ev := s.subscribe("next", "gpus/a/index.html")
	s.unsubscribe(early)
	if ev.name != "hello" || ev.id != "next" {
		t.Errorf("a page served early, while the last build failed: %s %s, want hello next", ev.name, ev.id)
	}
	s.earlyID = ""
	// A stream that does not keep up is dropped, not waited for.
	for range cap(ch) + 1 {
		s.broadcast(event{name: "building", data: "{}"})
	}
	n := 0
	for range ch {
		n++
	}
	if n != cap(ch) {
		t.Errorf("got %d events before the drop, want %d", n, cap(ch))
	}
	s.unsubscribe(ch) // already dropped: must not panic
}

func TestLoopbackDefault(t *testing.T) {
	for in, want := range map[string]string{
		":8080":          "127.0.0.1:8080",
		"127.0.0.1:0":    "127.0.0.1:0",
		"0.0.0.0:8080":   "0.0.0.0:8080",
		"[::1]:9":        "[::1]:9",
		"localhost:8080": "localhost:8080",
	} {
		if got := loopbackDefault(in); got != want {
			t.Errorf("loopbackDefault(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestOutputMustNotOverlapSources(t *testing.T) {
	root := t.TempDir()
	for _, out := range []string{root, filepath.Join(root, "static", "public"), filepath.Join(root, "data"), filepath.Dir(root)} {
		if _, err := newServer(Config{Build: site.Options{Root: root, Out: out}}); err == nil {
			t.Errorf("out %s accepted", out)
		}
	}
	if _, err := newServer(Config{Build: site.Options{Root: root, Out: filepath.Join(root, "public")}}); err != nil {
		t.Error(err)
	}
}

// TestSwapped: a Root opened before a build swapped the output directory
// is recognised as stale, so the request is retried on the new one.
func TestSwapped(t *testing.T) {
	s, dir := outputFixture(t)
	root, err := os.OpenRoot(s.out)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if s.swapped(root) {
		t.Fatal("fresh root reported as swapped")
	}
	if err := os.Rename(s.out, filepath.Join(dir, ".public.old")); err != nil {
		t.Fatal(err)
	}
	if !s.swapped(root) {
		t.Error("root of a moved directory not reported as swapped")
	}
	if err := os.Mkdir(s.out, 0o755); err != nil {
		t.Fatal(err)
	}
	if !s.swapped(root) {
		t.Error("root of a replaced directory not reported as swapped")
	}
}
