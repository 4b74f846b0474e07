package site

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/fixture"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

var (
	attrURL    = regexp.MustCompile(`\s(href|src|srcset|action|data-wasm|data-extra|data-config|data-exec|data-json|data-base|data-index|data-all)="([^"]*)"`)
	tagRE      = regexp.MustCompile(`<(link|script|img|source|iframe|audio|video|embed|object|a|form)\b[^>]*>`)
	cssURL     = regexp.MustCompile(`url\(\s*['"]?([^'")]+)`)
	inlineJS   = regexp.MustCompile(`<script\b([^>]*)>([^<]+)</script>`)
	styleAttr  = regexp.MustCompile(`\sstyle="`)
	styleTag   = regexp.MustCompile(`<style\b`)
	eventAttr  = regexp.MustCompile(`\son[a-z]+="`)
	externalRE = regexp.MustCompile(`^(https?:)?//`)
)

// readTree reads a built site into memory.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if e.IsDir() || strings.HasSuffix(p, ".br") || strings.HasSuffix(p, ".gz") || strings.HasSuffix(p, ".wasm") {
			return nil
		}
		b, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	return files
}

// resources lists the URLs a page makes the browser fetch: src, srcset,
// stylesheet/script/icon/preload hrefs, form actions and data-* URLs the
// scripts fetch. Plain <a href> links are navigation, not requests.
func resources(html string) []string {
	var out []string
	for _, tag := range tagRE.FindAllString(html, -1) {
		isLink := strings.HasPrefix(tag, "<link")
		isA := strings.HasPrefix(tag, "<a")
		for _, m := range attrURL.FindAllStringSubmatch(tag, -1) {
			switch m[1] {
			case "href":
				if isA || (isLink && !strings.Contains(tag, `rel="stylesheet"`) && !strings.Contains(tag, `rel="icon"`) && !strings.Contains(tag, `rel="preload"`) && !strings.Contains(tag, `rel="modulepreload"`) && !strings.Contains(tag, `rel="manifest"`)) {
					continue
				}
			case "srcset":
				for _, part := range strings.Split(m[2], ",") {
					if f := strings.Fields(part); len(f) > 0 {
						out = append(out, f[0])
					}
				}
				continue
			}
			out = append(out, m[2])
		}
	}
	return out
}

// TestNoThirdPartyRequests scans the whole output of the real site for
// resources loaded from elsewhere, and for inline scripts, styles and
// event handlers that the Content Security Policy forbids.
func TestNoThirdPartyRequests(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the real site")
	}
	out := filepath.Join(t.TempDir(), "public")
	res, d := Run(Options{Root: filepath.Join("..", "..", ".."), Out: out, Now: testcat.Today(t)})
	if res == nil {
		t.Fatalf("build failed: %v", d.Errors())
	}
	files := readTree(t, out)
	pages := 0
	for p, body := range files {
		switch {
		case strings.HasSuffix(p, ".html"):
			pages++
			for _, u := range resources(body) {
				if externalRE.MatchString(u) {
					t.Errorf("%s loads a third-party resource: %s", p, u)
				}
			}
			for _, m := range inlineJS.FindAllStringSubmatch(body, -1) {
				if !strings.Contains(m[1], `type="application/json"`) && !strings.Contains(m[1], `type="application/ld+json"`) {
					t.Errorf("%s has an inline script (forbidden by the CSP): %.80s", p, m[2])
				}
			}
			if styleAttr.MatchString(body) || styleTag.MatchString(body) {
				t.Errorf("%s has an inline style (forbidden by the CSP)", p)
			}
			if eventAttr.MatchString(body) {
				t.Errorf("%s has an inline event handler (forbidden by the CSP)", p)
			}
			for _, need := range []string{"<title>", `<meta name="description" content=`, `<html lang="`} {
				if !strings.Contains(body, need) {
					t.Errorf("%s lacks %s", p, need)
				}
			}
		case strings.HasSuffix(p, ".css"):
			for _, m := range cssURL.FindAllStringSubmatch(body, -1) {
				if externalRE.MatchString(m[1]) {
					t.Errorf("%s loads a third-party resource: %s", p, m[1])
				}
			}
			if strings.Contains(body, "@import") {
				t.Errorf("%s uses @import", p)
			}
		}
	}
	if pages < 50 {
		t.Errorf("only %d pages scanned", pages)
	}
	if !strings.Contains(files["_headers"], "Content-Security-Policy: ") || strings.Contains(files["_headers"], "unsafe-inline") {
		t.Errorf("_headers lacks a strict CSP:\n%s", files["_headers"])
	}
}

// TestSubPath builds under https://intranet.example/gpu/ and checks that
// every internal URL in the output (links, assets, the WebAssembly URL,
// sitemap, robots.txt, _headers) lives under /gpu/ and resolves.
func TestSubPath(t *testing.T) {
	root := fixture.Site(t)
	out := filepath.Join(t.TempDir(), "public")
	buildAt(t, root, out, "https://intranet.example/gpu/")
	files := readTree(t, out)
	exists := func(u string) bool {
		u = strings.TrimPrefix(u, "https://intranet.example")
		if i := strings.IndexAny(u, "?#"); i >= 0 {
			u = u[:i]
		}
		if !strings.HasPrefix(u, "/gpu/") {
			return false
		}
		p := strings.TrimPrefix(u, "/gpu/")
		if p == "" || strings.HasSuffix(p, "/") {
			p += "index.html"
		}
		if _, ok := files[p]; ok {
			return true
		}
		_, err := os.Stat(filepath.Join(out, p)) // .wasm is not read into files
		return err == nil
	}
	checked := 0
	for p, body := range files {
		if !strings.HasSuffix(p, ".html") {
			continue
		}
		for _, m := range attrURL.FindAllStringSubmatch(body, -1) {
			u := strings.ReplaceAll(m[2], "&amp;", "&")
			if u == "" || strings.HasPrefix(u, "#") || strings.HasPrefix(u, "mailto:") || (externalRE.MatchString(u) && !strings.HasPrefix(u, "https://intranet.example/")) {
				continue
			}
			checked++
			if !exists(u) {
				t.Errorf("%s: %s=%q does not resolve under /gpu/", p, m[1], u)
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d internal URLs checked", checked)
	}
	for _, loc := range regexp.MustCompile(`<loc>([^<]+)</loc>`).FindAllStringSubmatch(files["sitemap.xml"], -1) {
		if !strings.HasPrefix(loc[1], "https://intranet.example/gpu/") || !exists(loc[1]) {
			t.Errorf("sitemap entry %s is not a page under the base URL", loc[1])
		}
	}
	if !strings.Contains(files["robots.txt"], "Sitemap: https://intranet.example/gpu/sitemap.xml") {
		t.Errorf("robots.txt: %s", files["robots.txt"])
	}
	if !strings.HasPrefix(files["_headers"], "/gpu/*") || !strings.Contains(files["_headers"], "/gpu/assets/*") {
		t.Errorf("_headers paths ignore the base path:\n%s", files["_headers"])
	}
	// The engine's WebAssembly, which every reader of the calculator
	// loads, stays under issue 34's limit (BenchmarkPageWeight reports it),
	// and so do the modules loaded on demand (the ways to pay and the
	// models that fit; config.json).
	for _, name := range []string{"size", "extra", "config"} {
		wasm, _ := filepath.Glob(filepath.Join(out, "assets", name+".*.wasm"))
		if len(wasm) != 1 {
			t.Fatalf("want one %s module, got %v", name, wasm)
		}
		st, err := os.Stat(wasm[0])
		if err != nil {
			t.Fatal(err)
		}
		if st.Size() > wasmRawBudget {
			t.Errorf("%s: %d bytes, over the %d-byte limit", wasm[0], st.Size(), wasmRawBudget)
		}
	}
}
