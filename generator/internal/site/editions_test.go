package site

import (
	"html"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/pages"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
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
		// A base URL with a host, as the deployed site has: canonical, hreflang
		// and sitemap URLs are written only then.
		res, d := Run(Options{Root: filepath.Join("..", "..", ".."), Out: out, NoMinify: true, Now: testcat.Today(t), BaseURL: "https://gpu-atlas.example/"})
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
			if !strings.HasPrefix(u, "/zh/") && !pages.Neutral(strings.TrimPrefix(u, "/")) {
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
// exempt, as are code, charts' data and the catalog's own strings (names
// such as "Secure Cloud", notes).
func TestNoUntranslatedUIStrings(t *testing.T) {
	files, _ := repoSite(t)
	var en, zh map[string]string
	if _, err := toml.DecodeFile(filepath.Join("..", "..", "..", "templates", "i18n", "en.toml"), &en); err != nil {
		t.Fatal(err)
	}
	if _, err := toml.DecodeFile(filepath.Join("..", "..", "..", "templates", "i18n", "zh.toml"), &zh); err != nil {
		t.Fatal(err)
	}
	// Phrases worth finding: English strings of two or more words, or
	// the words around a string's %s arguments and markup ("Price history
	// of", "up to", "days"); short ones such as "GPU" or "TFLOPS" are the
	// same in both.
	argRE := regexp.MustCompile(`%(?:\[\d+\])?[-+#0-9.]*[a-zA-Z%]|<[^>]*>|\{[a-z0-9]+\}|[,.;:()"“”]\s|\s[(“"]|[()]`)
	seen := map[string]bool{}
	for k, v := range en {
		if zh[k] == v {
			continue
		}
		for _, part := range argRE.Split(v, -1) {
			part = strings.Trim(part, " .,;:")
			// Words the Chinese string also has ("bf16 + AdamW") are the
			// same in both, and so are names and units ("BF16 TFLOPS"): a
			// phrase has an English word in lower case.
			if len(strings.Fields(part)) >= 2 && !strings.ContainsAny(part, "%<>{}") && !strings.Contains(zh[k], part) && lowerWord.MatchString(part) {
				seen[part] = true
			}
		}
	}
	phrases := slices.Sorted(maps.Keys(seen))
	ds := dataStrings(t)
	pairs := make([]string, 0, 2*len(ds))
	for _, s := range ds {
		pairs = append(pairs, s, " ")
	}
	data := strings.NewReplacer(pairs...)
	found := map[string][]string{}
	pages := 0
	for p, body := range files {
		if !strings.HasPrefix(p, "zh/") || !strings.HasSuffix(p, ".html") {
			continue
		}
		pages++
		text := strings.Join(zhUIText(body, data, true), "\n")
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

// dataStrings returns every string value of the repository's data files
// (data/**/*.toml) and the titles and descriptions of its guides: text
// the pages show as written, which the UI-string tests below leave out
// (a GPU named "Tesla K80 (per GK210 GPU)", a note in English, a Chinese
// note with ASCII punctuation).
func dataStrings(t *testing.T) []string {
	t.Helper()
	root := filepath.Join("..", "..", "..")
	var extra []string
	front := regexp.MustCompile(`(?m)^(?:title|description) = "(.*)"$`)
	guides, _ := filepath.Glob(filepath.Join(root, "content", "*.md"))
	more, _ := filepath.Glob(filepath.Join(root, "content", "guides", "*.md"))
	for _, g := range append(guides, more...) {
		b, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range front.FindAllStringSubmatch(string(b), -1) {
			var v struct{ S string }
			if _, err := toml.Decode(`S = "`+m[1]+`"`, &v); err == nil {
				extra = append(extra, v.S)
			}
		}
	}
	out, err := testcat.DataStrings(root, extra...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var (
	lowerWord = regexp.MustCompile(`\b[a-z]{2,}\b`)
	guideBody = regexp.MustCompile(`(?s)<article class="guide"[^>]*>.*?</article>`)
	uiAttr    = regexp.MustCompile(`\s(?:aria-label|title|placeholder|alt|data-count)="([^"]*)"`)
	// hanPunct is ASCII punctuation touching a Han character: a sentence
	// glued from fragments with English punctuation ("日期为 2026年12月1日
	// (来源). 价格时效", "按量计费: 支持, 计费粒度").
	hanPunct = regexp.MustCompile(`\p{Han} ?[,:;()]|[,:;(] ?\p{Han}|\p{Han}\.(?:\s|$)`)
	// inlineTag is a tag inside a sentence: removed, so that the text
	// around a link or a figure reads as one line.
	inlineTag = regexp.MustCompile(`</?(?:a|span|strong|em|b|i|time|abbr|sup|sub|kbd|small|bdi)\b[^>]*>`)
)

// zhUIText returns the UI text of a Chinese page: its text and the UI
// attributes (aria-label, title, placeholder, alt), less what is marked
// lang="en", code, scripts and charts, every data string and, unless
// guides is set, the body of a guide (authored text).
func zhUIText(body string, data *strings.Replacer, guides bool) []string {
	var out []string
	for _, m := range uiAttr.FindAllStringSubmatch(body, -1) {
		out = append(out, data.Replace(html.UnescapeString(m[1])))
	}
	text := body
	if !guides {
		text = guideBody.ReplaceAllString(body, " ")
	}
	text = langEnRE.ReplaceAllString(text, " ")
	text = skipBlocks.ReplaceAllString(text, " ")
	text = html.UnescapeString(tagRE2.ReplaceAllString(inlineTag.ReplaceAllString(text, ""), "\n"))
	for _, l := range strings.Split(data.Replace(text), "\n") {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// TestNoEnglishPunctuationInChineseUI: no sentence of a Chinese page's
// interface glues its parts with English punctuation next to Chinese text
// (each sentence is one UI string with %s arguments, punctuated in
// Chinese). Data, guides and code are left out.
func TestNoEnglishPunctuationInChineseUI(t *testing.T) {
	files, _ := repoSite(t)
	ds := dataStrings(t)
	pairs := make([]string, 0, 2*len(ds))
	for _, s := range ds {
		pairs = append(pairs, s, " ")
	}
	data := strings.NewReplacer(pairs...)
	found := map[string][]string{}
	pages := 0
	for p, body := range files {
		if !strings.HasPrefix(p, "zh/") || !strings.HasSuffix(p, ".html") {
			continue
		}
		pages++
		for _, l := range zhUIText(body, data, false) {
			for _, m := range hanPunct.FindAllStringIndex(l, -1) {
				a, b := max(0, m[0]-30), min(len(l), m[1]+30)
				for a > 0 && !utf8.RuneStart(l[a]) {
					a--
				}
				for b < len(l) && !utf8.RuneStart(l[b]) {
					b++
				}
				ctx := l[a:b]
				if len(found[ctx]) < 3 {
					found[ctx] = append(found[ctx], p)
				}
			}
		}
	}
	for _, ctx := range slices.Sorted(maps.Keys(found)) {
		t.Errorf("English punctuation in Chinese text: %q on %v", ctx, found[ctx])
	}
	t.Logf("%d Chinese pages, %d data strings left out", pages, len(ds))
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
