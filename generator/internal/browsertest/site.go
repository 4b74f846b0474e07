package browsertest

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/fixture"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/site"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

// served is one built and served site, shared by every test of the binary.
type served struct {
	once sync.Once
	url  string
	dir  string
	err  error
	srv  *http.Server
}

var (
	repoSite, fixtureSite served
	tmpMu                 sync.Mutex
	tmpDirs               []string
)

// Site returns the base URL (ending in "/") of the real repository's site,
// built once per test binary and served on 127.0.0.1. It is BuildRepo.
func Site(t testing.TB) string {
	t.Helper()
	return BuildRepo(t)
}

// BuildRepo builds the repository's site (data, guides, templates, static,
// the WebAssembly calculator) once per test binary into a temporary
// directory, serves it and returns its base URL. The build date is
// site.Today (SOURCE_DATE_EPOCH when set).
func BuildRepo(t testing.TB) string {
	t.Helper()
	return serveOnce(t, &repoSite, func() (string, time.Time, error) {
		now, err := site.Today()
		return testcat.RepoRoot(), now, err
	})
}

// BuildFixture builds the small fixture site (testdata/site with the
// repository's templates and static files) once per test binary, serves
// it and returns its base URL. Its "today" is testcat.FixtureNow.
func BuildFixture(t testing.TB) string {
	t.Helper()
	return serveOnce(t, &fixtureSite, func() (string, time.Time, error) {
		root, err := fixtureRoot()
		return root, testcat.FixtureNow, err
	})
}

// SiteDir returns the output directory of a site served by BuildRepo or
// BuildFixture, given its base URL.
func SiteDir(baseURL string) string {
	for _, s := range []*served{&repoSite, &fixtureSite} {
		if s.url == baseURL {
			return s.dir
		}
	}
	return ""
}

func serveOnce(t testing.TB, s *served, source func() (root string, now time.Time, err error)) string {
	t.Helper()
	Chromium(t) // the site is served for the browser: skip or fail early
	s.once.Do(func() {
		start := time.Now()
		root, now, err := source()
		if err != nil {
			s.err = err
			return
		}
		out, err := tempDir("gpu-atlas-site-")
		if err != nil {
			s.err = err
			return
		}
		out = filepath.Join(out, "public")
		_, d := site.Run(site.Options{Root: root, Out: out, Now: now, BaseURL: "/"})
		if d.HasErrors() {
			var b strings.Builder
			d.Print(&b)
			s.err = fmt.Errorf("building %s:\n%s", root, b.String())
			return
		}
		s.dir = out
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			s.err = err
			return
		}
		s.srv = &http.Server{Handler: FileServer(out), ReadHeaderTimeout: 10 * time.Second}
		go s.srv.Serve(ln)
		s.url = "http://" + ln.Addr().String() + "/"
		t.Logf("built %s in %v, serving it at %s", root, time.Since(start).Round(time.Millisecond), s.url)
	})
	if s.err != nil {
		t.Fatalf("site: %v", s.err)
	}
	return s.url
}

// BuildFixtureCopy copies the fixture site (as BuildFixture builds it),
// lets edit change the copy (it gets the copy's root directory), builds it
// with testcat.FixtureNow as "today" and serves it until the test ends. It returns
// the copy's root and the site's base URL (ending in "/"). Unlike
// BuildFixture it builds for this test alone, for a case the shared
// fixture lacks.
func BuildFixtureCopy(t testing.TB, edit func(root string)) (root, baseURL string) {
	t.Helper()
	root, baseURL, _ = BuildFixtureCopyOut(t, edit)
	return root, baseURL
}

// BuildFixtureCopyOut is BuildFixtureCopy that also returns the output
// directory it serves.
func BuildFixtureCopyOut(t testing.TB, edit func(root string)) (root, baseURL, out string) {
	t.Helper()
	Chromium(t)
	start := time.Now()
	root, err := fixtureRoot()
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(root)
	}
	out = filepath.Join(t.TempDir(), "public")
	if _, d := site.Run(site.Options{Root: root, Out: out, Now: testcat.FixtureNow, BaseURL: "/"}); d.HasErrors() {
		var b strings.Builder
		d.Print(&b)
		t.Fatalf("building %s:\n%s", root, b.String())
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: FileServer(out), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	baseURL = "http://" + ln.Addr().String() + "/"
	t.Logf("built a copy of the fixture in %v, serving it at %s", time.Since(start).Round(time.Millisecond), baseURL)
	return root, baseURL, out
}

// FixtureRoot copies the fixture site (testdata/site with the
// repository's templates and static files) into a new directory that is
// removed when the test binary ends, and returns it.
func FixtureRoot(t testing.TB) string {
	t.Helper()
	root, err := fixtureRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// fixtureRoot copies testdata/site plus the repository's templates and
// static files into a temporary site root.
func fixtureRoot() (string, error) {
	root, err := tempDir("gpu-atlas-fixture-")
	if err != nil {
		return "", err
	}
	if err := fixture.Copy(root); err != nil {
		return "", err
	}
	return root, nil
}

// tempDir makes a directory that Main removes when the test binary ends
// (a site outlives the test that first asked for it).
func tempDir(pattern string) (string, error) {
	dir, err := os.MkdirTemp("", pattern)
	if err != nil {
		return "", err
	}
	tmpMu.Lock()
	tmpDirs = append(tmpDirs, dir)
	tmpMu.Unlock()
	return dir, nil
}

// Main runs the tests, then stops the servers and removes the built sites.
// A package whose tests use this harness calls it from TestMain:
//
//	func TestMain(m *testing.M) { browsertest.Main(m) }
func Main(m *testing.M) {
	code := m.Run()
	for _, s := range []*served{&repoSite, &fixtureSite} {
		if s.srv != nil {
			s.srv.Close()
		}
	}
	tmpMu.Lock()
	for _, d := range tmpDirs {
		os.RemoveAll(d)
	}
	tmpMu.Unlock()
	os.Exit(code)
}

// FileServer serves a built site the way a static host does: "dir/" serves
// dir/index.html, "dir" redirects to "dir/", and a missing file gets
// 404.html with status 404.
func FileServer(dir string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := path.Clean("/" + r.URL.Path)
		if strings.HasSuffix(r.URL.Path, "/") && p != "/" {
			p += "/"
		}
		file := filepath.Join(dir, filepath.FromSlash(p))
		if st, err := os.Stat(file); err == nil && st.IsDir() {
			if !strings.HasSuffix(p, "/") {
				http.Redirect(w, r, p+"/", http.StatusMovedPermanently)
				return
			}
			file = filepath.Join(file, "index.html")
		}
		f, err := os.Open(file)
		if err != nil {
			notFound(w, dir, p)
			return
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil || st.IsDir() {
			notFound(w, dir, p)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		http.ServeContent(w, r, st.Name(), st.ModTime(), f)
	})
}

// notFound answers with the 404 page nearest to the request: a language
// edition's own (/zh/404.html) for a path in it, else the site's.
func notFound(w http.ResponseWriter, dir, p string) {
	page := filepath.Join(dir, "404.html")
	if first, _, ok := strings.Cut(strings.TrimPrefix(p, "/"), "/"); ok && first != "" {
		if _, err := os.Stat(filepath.Join(dir, first, "404.html")); err == nil {
			page = filepath.Join(dir, first, "404.html")
		}
	}
	b, err := os.ReadFile(page)
	if errors.Is(err, os.ErrNotExist) {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	w.Write(b)
}
