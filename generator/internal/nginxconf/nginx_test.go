package nginxconf

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
)

// The image's layout and nginx command line (the repository's Dockerfile),
// which the test runs with a temporary directory as the prefix.
const (
	imagePrefix = "/srv/gpu-atlas"
	testBaseURL = "https://intranet.example/gpu/"
	// testcat.FixtureNow (2025-11-01), the date the fixture site is built on.
	fixtureEpoch = "1761955200"
)

func nginxArgs(prefix string) []string {
	return []string{"-p", prefix + "/", "-c", prefix + "/nginx.conf", "-e", "stderr"}
}

// nginxConfArgs is the generator's command line that writes nginx.conf.
func nginxConfArgs(prefix, baseURL, listen string) []string {
	return []string{"nginx-conf", "-prefix", prefix, "-base-url", baseURL, "-listen", listen}
}

// repoRoot is the repository's directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	repo, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	return repo
}

// TestDockerfile checks that the repository's Dockerfile builds and serves
// the site the way TestNginx does: the same output directory, the same
// nginx-conf and nginx command lines, the same Debian packages.
func TestDockerfile(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	df := string(b)
	var quoted []string
	for _, a := range nginxArgs(imagePrefix) {
		quoted = append(quoted, fmt.Sprintf("%q", a))
	}
	for _, want := range []string{
		"-out " + imagePrefix + "/site",
		"go run ./generator " + strings.Join(nginxConfArgs(imagePrefix, `"$BASE_URL"`, "80"), " "),
		"chmod -R a+rX " + imagePrefix + "/site",
		"nginx libnginx-mod-http-brotli-static",
		`CMD ["nginx", ` + strings.Join(quoted, ", ") + "]",
	} {
		if !strings.Contains(df, want) {
			t.Errorf("Dockerfile lacks %s", want)
		}
	}
}

// TestNginx builds the fixture site for a sub-path, writes its nginx.conf
// as the image does (the generator's nginx-conf command), runs Debian's
// nginx on it on a loopback port and checks what a browser gets.
func TestNginx(t *testing.T) {
	ngx, err := exec.LookPath("nginx")
	if err != nil {
		if _, err := os.Stat("/usr/sbin/nginx"); err != nil {
			t.Skip("nginx is not installed (Debian: apt-get install -y nginx libnginx-mod-http-brotli-static): the container image's server config is not tested")
		}
		ngx = "/usr/sbin/nginx"
	}
	if _, err := os.Stat(DefaultBrotliModule); err != nil {
		t.Fatalf("nginx is installed but not its brotli module, which the image loads (Debian: apt-get install -y libnginx-mod-http-brotli-static): %v", err)
	}

	// The image's prefix directory: a world-readable directory, as
	// nginx's workers run as www-data when the test runs as root.
	prefix, err := os.MkdirTemp("", "gpu-atlas-nginx-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(prefix) })
	if err := os.Chmod(prefix, 0o755); err != nil {
		t.Fatal(err)
	}
	site := filepath.Join(prefix, "site")
	gen := buildFixture(t, site)
	// As the Dockerfile does, so a umask of 077 cannot hide the site from
	// the workers.
	if err := exec.Command("chmod", "-R", "a+rX", site).Run(); err != nil {
		t.Fatal(err)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	if msg, err := exec.Command(gen, nginxConfArgs(prefix, testBaseURL, addr)...).CombinedOutput(); err != nil {
		t.Fatalf("generator nginx-conf: %v\n%s", err, msg)
	}
	startNginx(t, ngx, prefix, addr)

	rules := readHeaders(t, filepath.Join(site, "_headers"))
	csp := rules["/gpu/*"]["Content-Security-Policy"]
	// Cache-Control comes from one rule per path: the root's, each
	// top-level name's (the 404 page's too), the assets'.
	pageCache := rules["/gpu/"]["Cache-Control"]
	assetCache := rules["/gpu/assets/*"]["Cache-Control"]
	if !strings.Contains(csp, "default-src 'self'") || !strings.Contains(pageCache, "max-age=") || !strings.Contains(assetCache, "immutable") ||
		rules["/gpu/404.html"]["Cache-Control"] != pageCache || rules["/gpu/*"]["Cache-Control"] != "" {
		t.Fatalf("_headers lacks the rules this test expects (/gpu/* with a CSP and no Cache-Control, /gpu/ and /gpu/404.html with a short one, /gpu/assets/* immutable):\n%v", rules)
	}
	file := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(site, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	css := glob(t, site, "assets/css/*.css")
	wasm := glob(t, site, "assets/*.wasm")

	client := &http.Client{
		Transport:     &http.Transport{DisableCompression: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout:       10 * time.Second,
	}
	type want struct {
		status   int
		encoding string // Content-Encoding, "" for none
		body     string // the site file the decoded body must equal ("" to skip)
		ctype    string // Content-Type prefix
		cache    string // Cache-Control
		location string
	}
	for _, c := range []struct {
		path, accept string
		want
	}{
		{"/gpu/", "gzip, deflate, br", want{200, "br", "index.html", "text/html; charset=utf-8", pageCache, ""}},
		{"/gpu/", "gzip", want{200, "gzip", "index.html", "text/html; charset=utf-8", pageCache, ""}},
		{"/gpu/", "", want{200, "", "index.html", "text/html; charset=utf-8", pageCache, ""}},
		{"/gpu/pricing/", "br", want{200, "br", "pricing/index.html", "text/html", pageCache, ""}},
		{"/gpu/zh/", "br", want{200, "br", "zh/index.html", "text/html", pageCache, ""}},
		{"/gpu/" + css, "gzip, br", want{200, "br", css, "text/css", assetCache, ""}},
		{"/gpu/" + wasm, "br", want{200, "br", wasm, "application/wasm", assetCache, ""}},
		{"/gpu/api/v1/offers.csv", "br", want{200, "br", "api/v1/offers.csv", "text/csv", pageCache, ""}},
		// Missing paths: the edition's 404 page, with status 404.
		{"/gpu/no-such-page/", "br", want{404, "br", "404.html", "text/html", pageCache, ""}},
		{"/gpu/zh/no-such-page/", "br", want{404, "br", "zh/404.html", "text/html", pageCache, ""}},
		{"/gpu/zh/no-such-page/", "gzip", want{404, "gzip", "zh/404.html", "text/html", pageCache, ""}},
		// A missing asset's 404 is not cached for a year.
		{"/gpu/assets/no-such-file.css", "br", want{404, "br", "404.html", "text/html", pageCache, ""}},
		{"/gpu/assets/css/", "br", want{404, "br", "404.html", "text/html", pageCache, ""}},
		{"/gpu/_headers", "", want{404, "", "404.html", "text/html", pageCache, ""}},
		{"/gpu/.gpu-atlas-output", "", want{404, "", "404.html", "text/html", pageCache, ""}},
		{"/outside/the/base/", "br", want{404, "br", "404.html", "text/html", pageCache, ""}},
		// Redirects stay relative (the container's port is not the host's).
		{"/", "", want{302, "", "", "", "", "/gpu/"}},
		{"/gpu", "", want{301, "", "", "", "", "/gpu/"}},
		{"/gpu/zh", "", want{301, "", "", "", pageCache, "/gpu/zh/"}},
	} {
		t.Run(strings.TrimPrefix(c.path, "/")+"|"+c.accept, func(t *testing.T) {
			req, err := http.NewRequest("GET", "http://"+addr+c.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.accept != "" {
				req.Header.Set("Accept-Encoding", c.accept)
			}
			res, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := io.ReadAll(res.Body)
			res.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			h := res.Header
			if res.StatusCode != c.status {
				t.Errorf("status %d, want %d", res.StatusCode, c.status)
			}
			if got := h.Get("Content-Encoding"); got != c.encoding {
				t.Errorf("Content-Encoding %q, want %q", got, c.encoding)
			}
			if c.location != "" && h.Get("Location") != c.location {
				t.Errorf("Location %q, want %q", h.Get("Location"), c.location)
			}
			if c.status == 302 || c.status == 301 && c.cache == "" {
				return // outside the site: no _headers rule applies
			}
			if got := h.Get("Content-Security-Policy"); got != csp {
				t.Errorf("Content-Security-Policy %q, want _headers' %q", got, csp)
			}
			if got := h.Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("X-Content-Type-Options %q", got)
			}
			if got := h.Values("Cache-Control"); len(got) != 1 || got[0] != c.cache {
				t.Errorf("Cache-Control %q, want %q", got, c.cache)
			}
			if c.body == "" {
				return
			}
			if !strings.HasPrefix(h.Get("Content-Type"), c.ctype) {
				t.Errorf("Content-Type %q, want %s", h.Get("Content-Type"), c.ctype)
			}
			if c.encoding != "" && !strings.Contains(h.Get("Vary"), "Accept-Encoding") {
				t.Errorf("Vary %q, want Accept-Encoding", h.Get("Vary"))
			}
			body := decode(t, c.encoding, raw)
			if !bytes.Equal(body, file(c.body)) {
				t.Errorf("body (%d bytes decoded) is not %s (%d bytes)", len(body), c.body, len(file(c.body)))
			}
		})
	}
	if t.Failed() {
		t.Logf("nginx.conf:\n%s", file("../nginx.conf"))
	}
}

// buildFixture builds the small fixture site (testdata/site with the
// repository's templates and static files) for testBaseURL into out, with
// the generator's command line as a team would run it, and returns the
// generator's binary.
func buildFixture(t *testing.T, out string) string {
	t.Helper()
	repo := repoRoot(t)
	root := t.TempDir()
	for _, c := range []struct{ from, to string }{
		{filepath.Join(repo, "testdata", "site"), root},
		{filepath.Join(repo, "templates"), filepath.Join(root, "templates")},
		{filepath.Join(repo, "static"), filepath.Join(root, "static")},
	} {
		if err := os.CopyFS(c.to, os.DirFS(c.from)); err != nil {
			t.Fatal(err)
		}
	}
	goBin := "go" // the go on PATH, as make runs it
	gen := filepath.Join(t.TempDir(), "generator")
	build := exec.Command(goBin, "build", "-o", gen, "./generator")
	build.Dir = repo
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./generator: %v\n%s", err, msg)
	}
	start := time.Now()
	cmd := exec.Command(gen, "build", "-root", root, "-out", out, "-base-url", testBaseURL)
	cmd.Dir = repo // the WebAssembly calculator is compiled from the module
	cmd.Env = append(os.Environ(), "SOURCE_DATE_EPOCH="+fixtureEpoch)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generator build: %v\n%s", err, msg)
	}
	t.Logf("built the fixture for %s in %v", testBaseURL, time.Since(start).Round(time.Millisecond))
	return gen
}

// startNginx runs nginx as the image does and stops it when the test ends.
func startNginx(t *testing.T, ngx, prefix, addr string) {
	t.Helper()
	logs := &lockedBuffer{}
	cmd := exec.Command(ngx, nginxArgs(prefix)...)
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM) // fast shutdown of the master and its workers
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("nginx's output:\n%s", logs.String())
		}
	})
	deadline := time.Now().Add(15 * time.Second)
	for {
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("nginx exited: %v\n%s", err, logs.String())
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nginx is not listening on %s after 15s", addr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// lockedBuffer is nginx's output, read while nginx may still write it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
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

// readHeaders reads _headers into pattern -> name -> value, independently
// of preview.Parse.
func readHeaders(t *testing.T, name string) map[string]map[string]string {
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]map[string]string{}
	var cur map[string]string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		if !strings.HasPrefix(line, " ") {
			cur = map[string]string{}
			rules[strings.TrimSpace(line)] = cur
			continue
		}
		if k, v, ok := strings.Cut(strings.TrimSpace(line), ": "); ok && cur != nil {
			cur[k] = v
		}
	}
	return rules
}

// glob returns the one site file matching pattern, slash-separated.
func glob(t *testing.T, site, pattern string) string {
	t.Helper()
	m, err := fs.Glob(os.DirFS(site), pattern)
	if err != nil || len(m) == 0 {
		t.Fatalf("no %s in the built site", pattern)
	}
	return m[0]
}

func decode(t *testing.T, encoding string, b []byte) []byte {
	t.Helper()
	var r io.Reader
	switch encoding {
	case "":
		return b
	case "br":
		r = brotli.NewReader(bytes.NewReader(b))
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	default:
		t.Fatalf("unexpected Content-Encoding %q", encoding)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decoding %s: %v", encoding, err)
	}
	return out
}
