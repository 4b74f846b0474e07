package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// hugoSite writes into dir a Hugo project of the built site at public (a
// plain build): every page's <main> as a content file at the page's own
// path (a branch bundle _index.html where pages sit below it, else a leaf
// bundle index.html), its title and description as front matter, the
// English and Chinese editions as Hugo's two languages with English at the
// root, one layout holding the site's header and footer (taken from the
// home page of each edition), and every file that is not a page under
// static/ for Hugo to copy. Hugo then renders and writes the same pages,
// byte for byte the same bodies, as the generator did; it does none of the
// generator's loading, validating or deriving, so its build time is a
// floor for a port of this site to Hugo, not the time such a port would
// take. It returns the number of pages written.
func hugoSite(t testing.TB, public, dir string) int {
	t.Helper()
	chrome := map[string][2]string{}
	var pages []string
	err := filepath.WalkDir(public, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(public, p)
		rel = filepath.ToSlash(rel)
		if filepath.Base(rel) != "index.html" {
			if strings.HasSuffix(rel, ".html") {
				return nil // 404.html: Hugo writes its own
			}
			return copyFile(p, filepath.Join(dir, "static", rel))
		}
		pages = append(pages, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A page is a branch when another page sits below its directory.
	dirs := map[string]bool{}
	for _, rel := range pages {
		for d := filepath.Dir(filepath.Dir(rel)); ; d = filepath.Dir(d) {
			dirs[d] = true
			if d == "." {
				break
			}
		}
	}
	for _, rel := range pages {
		src, err := os.ReadFile(filepath.Join(public, rel))
		if err != nil {
			t.Fatal(err)
		}
		lang, path := "en", filepath.Dir(rel)
		if path == "zh" || strings.HasPrefix(path, "zh/") {
			lang, path = "zh", strings.TrimPrefix(strings.TrimPrefix(path, "zh"), "/")
		}
		if path == "" {
			path = "."
		}
		head, main, tail, ok := splitPage(src)
		if !ok {
			t.Fatalf("%s: no <main> element", rel)
		}
		if path == "." {
			chrome[lang] = [2]string{head, tail}
		}
		name := "index.html"
		if dirs[filepath.Dir(rel)] {
			name = "_index.html"
		}
		fm, _ := json.Marshal(map[string]string{"title": between(src, "<title>", "</title>"),
			"description": between(src, `<meta name="description" content="`, `"`)})
		out := filepath.Join(dir, "content", lang, path, name)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(out, append(append(fm, '\n'), main...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, lang := range []string{"en", "zh"} {
		c, ok := chrome[lang]
		if !ok {
			t.Fatalf("no %s home page in %s", lang, public)
		}
		for i, part := range []string{"header", "footer"} {
			f := filepath.Join(dir, "layouts", "partials", part+"-"+lang+".html")
			os.MkdirAll(filepath.Dir(f), 0o755)
			if err := os.WriteFile(f, []byte(c[i]), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	files := map[string]string{
		"hugo.toml": `baseURL = "https://gpu-atlas.example/"
defaultContentLanguage = "en"
defaultContentLanguageInSubdir = false
disableKinds = ["taxonomy", "term"]
[languages.en]
contentDir = "content/en"
weight = 1
[languages.zh]
contentDir = "content/zh"
weight = 2
`,
		"layouts/_default/baseof.html": `<!doctype html><html lang="{{ .Lang }}"><head><meta charset="utf-8">` +
			`<meta name="viewport" content="width=device-width,initial-scale=1"><title>{{ .Title }}</title>` +
			`<meta name="description" content="{{ .Params.description }}">` +
			`{{ range .AllTranslations }}<link rel="alternate" hreflang="{{ .Lang }}" href="{{ .RelPermalink }}">{{ end }}` +
			`</head><body>{{ partial (printf "header-%s.html" .Lang) . }}<main id="main">{{ block "main" . }}{{ end }}</main>` +
			`{{ partial (printf "footer-%s.html" .Lang) . }}</body></html>`,
		"layouts/_default/single.html": `{{ define "main" }}{{ .Content }}{{ end }}`,
		"layouts/_default/list.html":   `{{ define "main" }}{{ .Content }}{{ end }}`,
	}
	for name, body := range files {
		f := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(f), 0o755)
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return len(pages)
}

// splitPage returns what a page has between <body> and <main>, the inside
// of <main>, and what follows </main> up to </body>.
func splitPage(src []byte) (header, main, footer string, ok bool) {
	s := string(src)
	b := strings.Index(s, "<body")
	m := strings.Index(s, "<main")
	e := strings.LastIndex(s, "</main>")
	end := strings.LastIndex(s, "</body>")
	if b < 0 || m < b || e < m || end < e {
		return "", "", "", false
	}
	b += strings.IndexByte(s[b:], '>') + 1
	mi := m + strings.IndexByte(s[m:], '>') + 1
	return s[b:m], s[mi:e], s[e+len("</main>") : end], true
}

// between is the text of src between the first open and the close after it.
func between(src []byte, open, close string) string {
	_, after, ok := bytes.Cut(src, []byte(open))
	if !ok {
		return ""
	}
	v, _, _ := bytes.Cut(after, []byte(close))
	return string(v)
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}

// BenchmarkAgainstHugo builds the site scaled 4 times ($GPU_ATLAS_K to
// change it) with the generator and the same pages with Hugo
// ($GPU_ATLAS_HUGO, the hugo binary; make bench-hugo installs one), in
// turns: the generator's plain build against `hugo`, and its default build
// (brotli and gzip from a warm cache) against `hugo --minify`, and reports
// the median wall times and their ratios (x-hugo-plain, x-hugo-default: the
// generator over Hugo) and peak memory (x-hugo-mem, plain builds). Hugo's
// project is hugoSite's: the generator's pages as content, so Hugo's time
// is a floor for a Hugo port of this site and the ratios err against the
// generator. It is skipped without $GPU_ATLAS_HUGO.
func BenchmarkAgainstHugo(b *testing.B) {
	hugo := os.Getenv("GPU_ATLAS_HUGO")
	if hugo == "" {
		b.Skip("set GPU_ATLAS_HUGO to a hugo binary (make bench-hugo)")
	}
	const rounds = 3
	k := scaleFromEnv(b)
	bin := generatorBinary(b)
	root := filepath.Join(b.TempDir(), "site")
	scaleSite(b, root, k)
	plain, out, cache := filepath.Join(b.TempDir(), "plain"), filepath.Join(b.TempDir(), "public"), filepath.Join(b.TempDir(), "cache")
	// Warm the Go build cache (the WebAssembly) and the precompression
	// cache, outside the measurements; the plain build gives Hugo its
	// pages.
	measure(b, root, bin, "build", "-root", root, "-out", out, "-cache-dir", cache)
	measure(b, root, bin, "build", "-root", root, "-out", plain, "-no-precompress")
	hroot := filepath.Join(b.TempDir(), "hugo")
	pages := hugoSite(b, plain, hroot)
	hplain, hmin := filepath.Join(b.TempDir(), "hugo-plain"), filepath.Join(b.TempDir(), "hugo-min")
	hugoArgs := func(dest string, extra ...string) []string {
		return append([]string{"--quiet", "--source", hroot, "--destination", dest, "--cleanDestinationDir", "--noBuildLock"}, extra...)
	}
	// Hugo's first build fills its caches, as the generator's did.
	measure(b, hroot, hugo, hugoArgs(hmin, "--minify")...)
	var gp, hp, gd, hd []time.Duration
	var gm, hm []float64
	for i := 0; i < b.N; i++ {
		for r := 0; r < rounds; r++ {
			w, _, m := measure(b, root, bin, "build", "-root", root, "-out", plain, "-no-precompress")
			gp, gm = append(gp, w), append(gm, m)
			w, _, m = measure(b, hroot, hugo, hugoArgs(hplain)...)
			hp, hm = append(hp, w), append(hm, m)
			w, _, _ = measure(b, root, bin, "build", "-root", root, "-out", out, "-cache-dir", cache)
			gd = append(gd, w)
			w, _, _ = measure(b, hroot, hugo, hugoArgs(hmin, "--minify")...)
			hd = append(hd, w)
		}
	}
	if n := countPages(hplain); n < pages {
		b.Fatalf("hugo wrote %d pages, want at least the generator's %d", n, pages)
	}
	b.ReportMetric(float64(pages), "pages")
	b.ReportMetric(median(gp).Seconds(), "s-plain")
	b.ReportMetric(median(hp).Seconds(), "s-hugo-plain")
	b.ReportMetric(median(gp).Seconds()/median(hp).Seconds(), "x-hugo-plain")
	b.ReportMetric(median(gd).Seconds(), "s-default")
	b.ReportMetric(median(hd).Seconds(), "s-hugo-minify")
	b.ReportMetric(median(gd).Seconds()/median(hd).Seconds(), "x-hugo-default")
	b.ReportMetric(median(gm)/median(hm), "x-hugo-mem")
	if testing.Verbose() {
		fmt.Printf("hugo project: %s (%d pages)\n", hroot, pages)
	}
}

// TestHugoSite checks the Hugo project hugoSite writes for a small built
// tree: pages as leaf or branch bundles per edition, front matter, the
// editions' header and footer as partials, other files under static/.
func TestHugoSite(t *testing.T) {
	pub, dir := t.TempDir(), t.TempDir()
	page := func(lang, title, body string) string {
		return `<!doctype html><html lang="` + lang + `"><head><title>` + title + `</title><meta name="description" content="d ` + title + `"></head>` +
			`<body><header>` + lang + `-top</header><main id="main">` + body + `</main><footer>` + lang + `-end</footer></body></html>`
	}
	files := map[string]string{
		"index.html":           page("en", "Home", "<h1>Home</h1>"),
		"gpus/index.html":      page("en", "GPUs", "<p>all</p>"),
		"gpus/h100/index.html": page("en", "H100", "<p>h100 &amp; more</p>"),
		"zh/index.html":        page("zh", "首页", "<h1>首页</h1>"),
		"zh/gpus/index.html":   page("zh", "GPU", "<p>全部</p>"),
		"404.html":             page("en", "404", "x"),
		"assets/site.css":      "body{}",
	}
	for name, body := range files {
		f := filepath.Join(pub, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(f), 0o755)
		os.WriteFile(f, []byte(body), 0o644)
	}
	if n := hugoSite(t, pub, dir); n != 5 {
		t.Errorf("hugoSite = %d pages, want 5", n)
	}
	for name, want := range map[string]string{
		"content/en/_index.html":          `{"description":"d Home","title":"Home"}` + "\n<h1>Home</h1>",
		"content/en/gpus/_index.html":     `{"description":"d GPUs","title":"GPUs"}` + "\n<p>all</p>",
		"content/en/gpus/h100/index.html": `{"description":"d H100","title":"H100"}` + "\n<p>h100 &amp; more</p>",
		"content/zh/_index.html":          `{"description":"d 首页","title":"首页"}` + "\n<h1>首页</h1>",
		"content/zh/gpus/index.html":      `{"description":"d GPU","title":"GPU"}` + "\n<p>全部</p>",
		"layouts/partials/header-en.html": "<header>en-top</header>",
		"layouts/partials/footer-zh.html": "<footer>zh-end</footer>",
		"static/assets/site.css":          "body{}",
	} {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if string(got) != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "static", "404.html")); err == nil {
		t.Error("404.html copied; Hugo writes its own")
	}
}
