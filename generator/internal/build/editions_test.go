package build

import (
	"html"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

var (
	repoOnce  sync.Once
	repoFiles map[string]string
	repoDiag  *diag.List
)

// repoSite builds the repository's site once for the package's tests and
// returns its files (path -> content) and the build's diagnostics.
func repoSite(t *testing.T) (map[string]string, *diag.List) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the real site")
	}
	repoOnce.Do(func() {
		out := filepath.Join(t.TempDir(), "public")
		now := time.Now().UTC()
		res, d := Run(Options{Root: filepath.Join("..", "..", ".."), Out: out, NoMinify: true, Now: time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)})
		repoDiag = d
		if res != nil {
			repoFiles = map[string]string{}
			for _, p := range res.Tree.Paths() {
				b, _ := res.Tree.Get(p)
				repoFiles[p] = string(b)
			}
		}
	})
	if repoFiles == nil {
		t.Fatalf("build failed: %v", repoDiag.Errors())
	}
	return repoFiles, repoDiag
}

// TestEditionPageSets: every page of the English edition has its Chinese
// counterpart at /zh/ with the same path, and the reverse.
func TestEditionPageSets(t *testing.T) {
	files, _ := repoSite(t)
	en, zh := map[string]bool{}, map[string]bool{}
	for p := range files {
		if !strings.HasSuffix(p, ".html") {
			continue
		}
		if rest, ok := strings.CutPrefix(p, "zh/"); ok {
			zh[rest] = true
		} else {
			en[p] = true
		}
	}
	for p := range en {
		if !zh[p] {
			t.Errorf("/%s has no Chinese counterpart /zh/%s", p, p)
		}
	}
	for p := range zh {
		if !en[p] {
			t.Errorf("/zh/%s has no English counterpart /%s", p, p)
		}
	}
	if len(en) < 100 || len(en) != len(zh) {
		t.Errorf("%d English and %d Chinese pages", len(en), len(zh))
	}
}

var (
	hrefRE2    = regexp.MustCompile(`<(a|link)\b([^>]*)>`)
	attrHref   = regexp.MustCompile(`\bhref="([^"]*)"`)
	attrLang   = regexp.MustCompile(`\bhreflang="`)
	htmlLangRE = regexp.MustCompile(`<html lang="([^"]+)"`)
)

// TestEditionLinks: a Chinese page is marked zh-CN, names every edition
// of itself with hreflang, and every other internal link stays in the
// Chinese tree, except links to language-neutral files and the language
// switch (which carries hreflang).
func TestEditionLinks(t *testing.T) {
	files, _ := repoSite(t)
	checked := 0
	for p, body := range files {
		zhPage := strings.HasPrefix(p, "zh/")
		if !strings.HasSuffix(p, ".html") || p == "404.html" || p == "zh/404.html" {
			continue
		}
		want := "en"
		if zhPage {
			want = "zh-CN"
		}
		if m := htmlLangRE.FindStringSubmatch(body); m == nil || m[1] != want {
			t.Errorf("/%s: <html lang> is %v, want %s", p, m, want)
		}
		for _, alt := range []string{`hreflang="en"`, `hreflang="zh-CN"`, `hreflang="x-default"`} {
			if !strings.Contains(body, alt) {
				t.Errorf("/%s lacks <link rel=alternate %s>", p, alt)
			}
		}
		if !zhPage {
			continue
		}
		for _, m := range hrefRE2.FindAllStringSubmatch(body, -1) {
			h := attrHref.FindStringSubmatch(m[2])
			if h == nil || attrLang.MatchString(m[2]) || strings.Contains(m[2], `rel="icon"`) || strings.Contains(m[2], `rel="stylesheet"`) {
				continue
			}
			u := html.UnescapeString(h[1])
			if !strings.HasPrefix(u, "/") || strings.HasPrefix(u, "//") {
				continue // external or fragment
			}
			checked++
			if !strings.HasPrefix(u, "/zh/") && !neutralPath(strings.TrimPrefix(u, "/")) {
				t.Errorf("/%s links out of the Chinese edition: %s", p, u)
			}
		}
	}
	if checked < 1000 {
		t.Errorf("only %d internal links checked", checked)
	}
}

var (
	skipBlocks = regexp.MustCompile(`(?s)<(script|style|svg|code|pre)\b.*?</(script|style|svg|code|pre)>`)
	tagRE2     = regexp.MustCompile(`<[^>]*>`)
	langEnRE   = regexp.MustCompile(`(?s)<([a-z]+)\b[^>]*\blang="en"[^>]*>.*?</([a-z]+)>`)
)

// TestNoUntranslatedUIStrings renders every Chinese page and looks for the
// English text of any UI string whose Chinese text differs: none may be
// left. Text a page marks lang="en" (data notes with no Chinese text) is
// exempt, as are code and charts' data.
func TestNoUntranslatedUIStrings(t *testing.T) {
	files, _ := repoSite(t)
	var en, zh map[string]string
	if _, err := toml.DecodeFile(filepath.Join("..", "..", "..", "templates", "i18n", "en.toml"), &en); err != nil {
		t.Fatal(err)
	}
	if _, err := toml.DecodeFile(filepath.Join("..", "..", "..", "templates", "i18n", "zh.toml"), &zh); err != nil {
		t.Fatal(err)
	}
	// Phrases worth finding: English strings of three or more words
	// (short ones such as "GPU" or "TFLOPS" are the same in both).
	var phrases []string
	for k, v := range en {
		if zh[k] == v || strings.Contains(v, "%") || strings.Contains(v, "<") {
			continue
		}
		if len(strings.Fields(v)) >= 3 {
			phrases = append(phrases, v)
		}
	}
	sort.Strings(phrases)
	found := map[string][]string{}
	pages := 0
	for p, body := range files {
		if !strings.HasPrefix(p, "zh/") || !strings.HasSuffix(p, ".html") {
			continue
		}
		pages++
		text := langEnRE.ReplaceAllString(body, " ")
		text = skipBlocks.ReplaceAllString(text, " ")
		text = html.UnescapeString(tagRE2.ReplaceAllString(text, " "))
		text = strings.Join(strings.Fields(text), " ")
		for _, ph := range phrases {
			if strings.Contains(text, ph) && len(found[ph]) < 3 {
				found[ph] = append(found[ph], p)
			}
		}
	}
	for ph, ps := range found {
		t.Errorf("English UI text %q on %v", ph, ps)
	}
	t.Logf("%d Chinese pages, %d English phrases looked for", pages, len(phrases))
}

// TestEveryGuideTranslated: the shipped repository has a Chinese text for
// every page (check would warn about a missing one).
func TestEveryGuideTranslated(t *testing.T) {
	_, d := repoSite(t)
	for _, x := range d.Sorted() {
		if strings.Contains(x.Msg, "edition shows it in") {
			t.Errorf("%s", x)
		}
	}
}
