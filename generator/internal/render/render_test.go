package render

import (
	"html/template"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

// repoRoot is the site root holding templates/, from this package.
var repoRoot = filepath.Join("..", "..", "..")

// writeSite writes a minimal site root: a layout and the given catalogs.
func writeSite(t *testing.T, catalogs map[string]string) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"templates/layout.html": `<html lang="{{t "lang"}}">{{template "main" .}}</html>`,
		"templates/page.html":   `{{define "main"}}{{t "a"}}|{{t "b"}}{{end}}`,
	}
	for lang, src := range catalogs {
		files["templates/i18n/"+lang+".toml"] = src
	}
	for name, src := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func diagText(d *diag.List) string {
	var b strings.Builder
	d.Print(&b)
	return b.String()
}

// TestLookupFallback: the site language's catalog overlays en.toml, and a
// key it lacks falls back to the English string.
func TestLookupFallback(t *testing.T) {
	root := writeSite(t, map[string]string{
		"en": "lang = \"en\"\n\"a\" = \"Prices\"\n\"b\" = \"Billing\"\n\"only.en\" = \"Only English\"\n",
		"zh": "lang = \"zh-CN\"\n\"a\" = \"价格\"\n",
	})
	for _, tc := range []struct {
		name, lang, key, want string
	}{
		{"english", "en", "a", "Prices"},
		{"empty language is English", "", "a", "Prices"},
		{"translated", "zh", "a", "价格"},
		{"language tag translated", "zh", "lang", "zh-CN"},
		{"missing in zh falls back to English", "zh", "b", "Billing"},
		{"missing in zh, English-only key", "zh", "only.en", "Only English"},
		{"missing everywhere", "zh", "no.such.key", "[no.such.key]"},
		{"missing in English", "en", "no.such.key", "[no.such.key]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d diag.List
			r := New(Options{Root: root, Lang: tc.lang}, &d)
			if d.HasErrors() {
				t.Fatalf("New reported errors:\n%s", diagText(&d))
			}
			if got := r.T(tc.key); got != tc.want {
				t.Errorf("T(%q) = %q, want %q", tc.key, got, tc.want)
			}
		})
	}
}

// TestLookupFallbackRenders: a page rendered in zh mixes translated and
// English strings rather than showing "[key]".
func TestLookupFallbackRenders(t *testing.T) {
	root := writeSite(t, map[string]string{
		"en": "lang = \"en\"\n\"a\" = \"Prices\"\n\"b\" = \"Billing\"\n",
		"zh": "lang = \"zh-CN\"\n\"a\" = \"价格\"\n",
	})
	var d diag.List
	r := New(Options{Root: root, Lang: "zh"}, &d)
	if d.HasErrors() {
		t.Fatalf("New reported errors:\n%s", diagText(&d))
	}
	b, err := r.Render(&Page{Kind: "page"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `<html lang="zh-CN">价格|Billing</html>`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestCatalogErrors: a missing or broken catalog is reported, English or not.
func TestCatalogErrors(t *testing.T) {
	for _, tc := range []struct {
		name     string
		lang     string
		catalogs map[string]string
		want     string
	}{
		{"no language file", "zh", map[string]string{"en": "\"a\" = \"A\"\n"}, "templates/i18n/zh.toml"},
		{"no English file", "zh", map[string]string{"zh": "\"a\" = \"甲\"\n"}, "templates/i18n/en.toml"},
		{"broken language file", "zh", map[string]string{"en": "\"a\" = \"A\"\n", "zh": "\"a\" = \n"}, "templates/i18n/zh.toml:1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d diag.List
			New(Options{Root: writeSite(t, tc.catalogs), Lang: tc.lang}, &d)
			if !d.HasErrors() || !strings.Contains(diagText(&d), tc.want) {
				t.Errorf("want an error naming %s, got:\n%s", tc.want, diagText(&d))
			}
		})
	}
}

// TestTrustedLookup: th returns the catalog string as HTML; t escapes it.
func TestTrustedLookup(t *testing.T) {
	root := writeSite(t, map[string]string{"en": "\"a\" = \"the job's <code>x</code>\"\n"})
	var d diag.List
	r := New(Options{Root: root, Lang: "en"}, &d)
	if d.HasErrors() {
		t.Fatalf("New reported errors:\n%s", diagText(&d))
	}
	if got, want := r.TH("a"), template.HTML("the job's <code>x</code>"); got != want {
		t.Errorf("TH = %q, want %q", got, want)
	}
	if got, want := r.TH("<missing>"), template.HTML("[&lt;missing&gt;]"); got != want {
		t.Errorf("TH of a missing key = %q, want %q", got, want)
	}
}

func readCatalog(t *testing.T, lang string) map[string]string {
	t.Helper()
	m := map[string]string{}
	if _, err := toml.DecodeFile(filepath.Join(repoRoot, "templates", "i18n", lang+".toml"), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// keyRE finds literal keys in templates: {{t "key"}}, {{th "key"}}, and the
// parenthesised form (t "key") used inside printf, or, dict.
var keyRE = regexp.MustCompile(`(?:\{\{-?\s*|\()th?\s+"([^"]+)"`)

// prefixRE finds computed keys, {{t (print "billing." .Mode)}}: at least one
// key with that prefix must exist.
var prefixRE = regexp.MustCompile(`\bth?\s+\(print\s+"([^"]+\.)"`)

// TestTemplateKeysDefined fails when a template uses a key en.toml lacks
// (it would render as "[key]").
func TestTemplateKeysDefined(t *testing.T) {
	en := readCatalog(t, "en")
	files, err := filepath.Glob(filepath.Join(repoRoot, "templates", "*.html"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no templates found (%v)", err)
	}
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := "templates/" + filepath.Base(f)
		for _, m := range keyRE.FindAllStringSubmatch(string(b), -1) {
			n++
			if _, ok := en[m[1]]; !ok {
				t.Errorf("%s uses %q, which templates/i18n/en.toml does not define", name, m[1])
			}
		}
		for _, m := range prefixRE.FindAllStringSubmatch(string(b), -1) {
			found := false
			for k := range en {
				if strings.HasPrefix(k, m[1]) {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s computes keys %q…, and templates/i18n/en.toml defines none", name, m[1])
			}
		}
	}
	if n < 100 {
		t.Errorf("found only %d keys in templates; is keyRE still right?", n)
	}
}

// TestKeyRE pins what the key finder matches.
func TestKeyRE(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{`<h2>{{t "gpu.specs"}}</h2>`, []string{"gpu.specs"}},
		{`{{- t "nav.skip"}}`, []string{"nav.skip"}},
		{`<p>{{th "api.rule.asof"}}</p>`, []string{"api.rule.asof"}},
		{`{{printf (t "pricing.shown") $d.Limit (len $d.Rows)}}`, []string{"pricing.shown"}},
		{`{{or .Country (t "providers.notstated")}}`, []string{"providers.notstated"}},
		{`dict "Label" (t "col.gpu") "Caption" (t "gpus.caption")`, []string{"col.gpu", "gpus.caption"}},
		{`{{t (print "billing." .Mode)}} {{url "gpus/"}} {{template "main" .}}`, nil},
	} {
		var got []string
		for _, m := range keyRE.FindAllStringSubmatch(tc.src, -1) {
			got = append(got, m[1])
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%s: got %q, want %q", tc.src, got, tc.want)
		}
	}
}

// TestRepoCatalogs: every catalog under templates/i18n loads over English
// without errors, defines only keys English has (anything else is a typo
// that would never be looked up), and keeps English's printf verbs.
func TestRepoCatalogs(t *testing.T) {
	en := readCatalog(t, "en")
	files, _ := filepath.Glob(filepath.Join(repoRoot, "templates", "i18n", "*.toml"))
	// A space is not read as a flag: "% off" and "% utilisation" in
	// en.toml are literal percent signs in strings no template printfs,
	// and their translations ("% 的优惠") cannot keep the letter after it.
	verbs := regexp.MustCompile(`%[-+#0-9.]*[a-zA-Z%]`)
	for _, f := range files {
		lang := strings.TrimSuffix(filepath.Base(f), ".toml")
		if lang == DefaultLang {
			continue
		}
		t.Run(lang, func(t *testing.T) {
			var d diag.List
			// The strings New would load, without the templates (which
			// need the build's template functions).
			r := &Renderer{strings: loadStrings(filepath.Join(repoRoot, "templates"), lang, &d)}
			if d.HasErrors() {
				t.Fatalf("loading the catalogs reported errors:\n%s", diagText(&d))
			}
			cat := readCatalog(t, lang)
			var missing []string
			for k, v := range cat {
				e, ok := en[k]
				if !ok {
					t.Errorf("%s.toml defines %q, which en.toml does not", lang, k)
					continue
				}
				if k != "lang" && strings.Join(verbs.FindAllString(v, -1), " ") != strings.Join(verbs.FindAllString(e, -1), " ") {
					t.Errorf("%s.toml %q = %q: printf verbs differ from English %q", lang, k, v, e)
				}
				if got := r.T(k); got != v {
					t.Errorf("T(%q) = %q, want the %s string %q", k, got, lang, v)
				}
			}
			for k := range en {
				if _, ok := cat[k]; !ok {
					missing = append(missing, k)
				}
			}
			sort.Strings(missing)
			// Untranslated keys fall back to English.
			for _, k := range missing {
				if got := r.T(k); got != en[k] {
					t.Errorf("T(%q) = %q, want the English fallback %q", k, got, en[k])
				}
			}
			t.Logf("%s: %d of %d keys translated, %d fall back to English", lang, len(cat), len(en), len(missing))
		})
	}
}
