package render

import (
	"html/template"
	"os"
	"path/filepath"
	"regexp"
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

// TestStrings: each language's catalog is checked against English, with
// positions; a complete one renders without any English.
func TestStrings(t *testing.T) {
	const en = "lang = \"en\"\n\"a\" = \"Prices\"\n\"b\" = \"{0} offers\"\n\"c\" = \"{0} on {1} GPUs\"\n"
	const c = "\"c\" = \"{1} 块 {0}\"\n"
	for _, tc := range []struct {
		name, zh string
		want     string // a diagnostic line prefix; "" for none
	}{
		{"complete", "lang = \"zh-CN\"\n\"a\" = \"价格\"\n\"b\" = \"{0} 个报价\"\n" + c, ""},
		{"missing key", "lang = \"zh-CN\"\n\"a\" = \"价格\"\n" + c, `templates/i18n/en.toml:3:1: key "b" has no zh string: add it to templates/i18n/zh.toml`},
		{"unknown key", "lang = \"zh-CN\"\n\"a\" = \"价格\"\n\"b\" = \"{0} 个\"\n\"aa\" = \"x\"\n", `templates/i18n/zh.toml:4:1: key "aa" is not in templates/i18n/en.toml (a string nothing looks up) (did you mean "a"?)`},
		{"placeholder dropped", "lang = \"zh-CN\"\n\"a\" = \"价格\"\n\"b\" = \"报价\"\n\"c\" = \"{1} 块 {0}\"\n", `templates/i18n/zh.toml:3:1: key "b" has placeholders none, but templates/i18n/en.toml has {0}`},
		{"printf verb", "lang = \"zh-CN\"\n\"a\" = \"价格\"\n\"b\" = \"%s 个\"\n\"c\" = \"{1} 块 {0}\"\n", `templates/i18n/zh.toml:3:1: key "b" has the printf verb "%s": the catalogs take {0} {1} … for their arguments (package message)`},
		{"a percent sign is text", "lang = \"zh-CN\"\n\"a\" = \"价格\"\n\"b\" = \"{0} 个，51% 的时间\"\n\"c\" = \"{1} 块 {0}\"\n", ""},
		{"placeholder missing", "lang = \"zh-CN\"\n\"a\" = \"价格\"\n\"b\" = \"{0} 个报价\"\n\"c\" = \"{1} 块 GPU\"\n", `templates/i18n/zh.toml:4:1: key "c" has placeholders {1}, but templates/i18n/en.toml has {0} {1}: use each of them (in any order)`},
		{"placeholder unknown to English", "lang = \"zh-CN\"\n\"a\" = \"价格\"\n\"b\" = \"{0} 个报价\"\n\"c\" = \"{2} 块 {0} {1}\"\n", `templates/i18n/zh.toml:4:1: key "c" has placeholders {0} {1} {2}`},
		{"syntax error", "lang = \"zh-CN\"\n\"a\" = 价格\n", "templates/i18n/zh.toml:2:7: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeSite(t, map[string]string{"en": en, "zh": tc.zh})
			var d diag.List
			s := LoadStrings(root, []string{"en", "zh"}, &d)
			got := diagText(&d)
			if tc.want == "" {
				if d.HasErrors() {
					t.Fatalf("errors:\n%s", got)
				}
				r := New(Options{Root: root, Lang: "zh", Strings: s.For("zh")}, &d)
				b, err := r.Render(&Page{Kind: "page"})
				if err != nil || string(b) != `<html lang="zh-CN">价格|`+s.For("zh")["b"]+`</html>` || !strings.Contains(string(b), "个") {
					t.Errorf("rendered %q, %v", b, err)
				}
				return
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("want\n  %s\ngot\n%s", tc.want, got)
			}
		})
	}
}

// TestCatalogErrors: a missing or broken catalog is reported, English or not.
func TestCatalogErrors(t *testing.T) {
	for _, tc := range []struct {
		name     string
		catalogs map[string]string
		want     string
	}{
		{"no language file", map[string]string{"en": "\"a\" = \"A\"\n"}, "templates/i18n/zh.toml:1:1: cannot read the zh UI strings"},
		{"no English file", map[string]string{"zh": "\"a\" = \"甲\"\n"}, "templates/i18n/en.toml:1:1: cannot read"},
		{"broken language file", map[string]string{"en": "\"a\" = \"A\"\n", "zh": "\"a\" = \n"}, "templates/i18n/zh.toml:1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d diag.List
			LoadStrings(writeSite(t, tc.catalogs), []string{"en", "zh"}, &d)
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

// keyRE finds literal keys in templates: {{t "key"}}, {{th "key"}},
// {{tf "key" args}}, and the parenthesised form (t "key") used inside
// printf, or, dict.
var keyRE = regexp.MustCompile(`(?:\{\{-?\s*|\()(?:th?|tf|tt)\s+"([^"]+)"`)

// prefixRE finds computed keys, {{t (print "billing." .Mode)}}: at least one
// key with that prefix must exist.
var prefixRE = regexp.MustCompile(`\b(?:th?|tf|tt)\s+\(print\s+"([^"]+\.)"`)

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
		{`<p>{{tf "fx.note" (date .AsOf) (link .URL (t "common.source"))}}</p>`, []string{"fx.note", "common.source"}},
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

// TestRepoCatalogs: the repository's catalogs pass LoadStrings' checks:
// every language has every key of en.toml, no other key, and the same
// printf verbs.
func TestRepoCatalogs(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(repoRoot, "templates", "i18n", "*.toml"))
	langs := []string{DefaultLang}
	for _, f := range files {
		if l := strings.TrimSuffix(filepath.Base(f), ".toml"); l != DefaultLang {
			langs = append(langs, l)
		}
	}
	var d diag.List
	s := LoadStrings(repoRoot, langs, &d)
	if d.HasErrors() {
		t.Fatalf("the catalogs:\n%s", diagText(&d))
	}
	for _, l := range langs {
		t.Logf("%s: %d keys", l, len(s.For(l)))
	}
}

// TestDataText: a data text in another language than the edition's is
// marked with its language; text is always escaped.
func TestDataText(t *testing.T) {
	zh := &Renderer{lang: "zh", tag: "zh-CN"}
	en := &Renderer{lang: "en", tag: "en"}
	for _, c := range []struct {
		r    *Renderer
		in   string
		want string
	}{
		{zh, "Billed per second.", `<span lang="en">Billed per second.</span>`},
		{zh, "按秒计费，按小时结算。", "按秒计费，按小时结算。"},
		{zh, "腾讯云 GPU 实例按秒计费", "腾讯云 GPU 实例按秒计费"},
		{en, "Billed per second <b>.", "Billed per second &lt;b&gt;."},
		{en, "包年包月", `<span lang="zh-CN">包年包月</span>`},
		{en, "GPU instances use ECS billing: subscription (包年包月), pay-as-you-go (按量付费)", "GPU instances use ECS billing: subscription (包年包月), pay-as-you-go (按量付费)"},
		{zh, "", ""},
	} {
		if got := string(c.r.DataText(c.in)); got != c.want {
			t.Errorf("%s DataText(%q) = %q, want %q", c.r.lang, c.in, got, c.want)
		}
	}
}

// TestTF: a sentence key with its parts as arguments: the template is
// trusted markup, string arguments are escaped, HTML ones (a link) kept;
// a number fills a placeholder as text; a language may reorder ({1} …
// {0}); a space of the template between Chinese text and a Chinese
// argument goes, the arguments' own spaces stay.
func TestTF(t *testing.T) {
	r := &Renderer{lang: "zh", tag: "zh-CN", strings: map[string]string{
		"fx":    "汇率日期为 {0}（{1}）。",
		"paren": "（{0}）",
		"age":   "{1} 天以内为<b>{0}</b>",
		"cap":   "{0} 的 GPU 实例",
	}}
	for _, c := range []struct {
		got  template.HTML
		want string
	}{
		{r.TF("fx", "2026年12月1日", Link("https://example.org/a b?x=1&y='2'", "来源")), `汇率日期为 2026年12月1日（<a href="https://example.org/a%20b?x=1&amp;y=%272%27">来源</a>）。`},
		{r.TF("paren", 3), "（3）"},
		{r.TF("paren", "<b>"), "（&lt;b&gt;）"},
		{r.TF("age", "较新", 90), "90 天以内为<b>较新</b>"},
		{r.TF("cap", "龙云"), "龙云的 GPU 实例"},
		{r.TF("cap", "Acme Cloud"), "Acme Cloud 的 GPU 实例"},
		{r.TF("cap", "京东云 云主机"), "京东云 云主机的 GPU 实例"},
		{r.TF("missing"), "[missing]"},
		{Link("javascript:alert(1)", "x"), `<a href="#">x</a>`},
		{Link("//evil.example/", "x"), `<a href="#">x</a>`},
		{Link("/zh/gpus/", template.HTML(`<span lang="en">GPUs</span>`)), `<a href="/zh/gpus/"><span lang="en">GPUs</span></a>`},
	} {
		if string(c.got) != c.want {
			t.Errorf("got  %s\nwant %s", c.got, c.want)
		}
	}
	// Two Chinese arguments around a space of a template that has no
	// Chinese character of its own.
	r.strings["pair"] = "{0} {1}"
	if got, want := r.Text("pair", "华为云", "天翼云"), "华为云天翼云"; got != want {
		t.Errorf("Text(pair) = %q, want %q", got, want)
	}
	if got, want := r.Text("pair", "⺀", "⺀"), "⺀⺀"; got != want { // U+2E80, the lowest Han character
		t.Errorf("Text(pair) = %q, want %q", got, want)
	}
	if got, want := r.Text("pair", "Acme", "Cloud"), "Acme Cloud"; got != want {
		t.Errorf("Text(pair) = %q, want %q", got, want)
	}
	if got, want := r.Text("cap", "龙云"), "龙云的 GPU 实例"; got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
}

// TestStringsReorder: a language may take the arguments in another
// order, as long as it takes each.
func TestStringsReorder(t *testing.T) {
	const en = "lang = \"en\"\n\"a\" = \"Prices\"\n\"b\" = \"{0} up to {1} days\"\n"
	for _, c := range []struct{ zh, want string }{
		{"lang = \"zh-CN\"\n\"a\" = \"价格\"\n\"b\" = \"{1} 天以内为{0}\"\n", ""},
		{"lang = \"zh-CN\"\n\"a\" = \"价格\"\n\"b\" = \"{1} 天\"\n", `key "b" has placeholders {1}, but templates/i18n/en.toml has {0} {1}`},
	} {
		root := writeSite(t, map[string]string{"en": en, "zh": c.zh})
		var d diag.List
		LoadStrings(root, []string{"en", "zh"}, &d)
		got := diagText(&d)
		if c.want == "" && d.HasErrors() || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%q: diagnostics\n%s\nwant %q", c.zh, got, c.want)
		}
	}
}

// TestCached: "cached" renders a partial once per key and build, copies it
// on later calls (even when the data differs: the key is the caller's
// promise), escapes what it renders, and renders afresh after
// ForgetCached; an unknown partial is an error of the page.
func TestCached(t *testing.T) {
	root := writeSite(t, map[string]string{"en": "lang = \"en\"\na = \"A\"\nb = \"B\"\n"})
	files := map[string]string{
		"templates/_parts.html": `{{define "row"}}<li>{{.N}}:{{.Text}}</li>{{end}}`,
		"templates/list.html":   `{{define "main"}}{{range .Data}}{{cached "row" .Key .}}{{end}}{{end}}`,
		"templates/bad.html":    `{{define "main"}}{{cached "nosuch" "" .}}{{end}}`,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(name)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d := &diag.List{}
	r := New(Options{Root: root}, d)
	if d.HasErrors() {
		t.Fatal(diagText(d))
	}
	type row struct {
		Key  string
		N    int
		Text string
	}
	page := func(rows ...row) string {
		t.Helper()
		out, err := r.Render(&Page{Kind: "list", Data: rows})
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	for _, c := range []struct {
		name string
		rows []row
		want string
	}{
		{"rendered and escaped", []row{{"a", 1, "<x>"}, {"b", 2, "y"}}, `<li>1:&lt;x&gt;</li><li>2:y</li>`},
		{"a key seen is copied", []row{{"b", 3, "z"}, {"a", 9, "other"}}, `<li>2:y</li><li>1:&lt;x&gt;</li>`},
		{"a new key is rendered", []row{{"c", 4, "w"}}, `<li>4:w</li>`},
	} {
		if got, want := page(c.rows...), `<html lang="en">`+c.want+`</html>`; got != want {
			t.Errorf("%s: got %s, want %s", c.name, got, want)
		}
	}
	r.ForgetCached()
	if got, want := page(row{"a", 9, "other"}), `<html lang="en"><li>9:other</li></html>`; got != want {
		t.Errorf("after ForgetCached: got %s, want %s", got, want)
	}
	if _, err := r.Render(&Page{Kind: "bad"}); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("unknown partial: err = %v, want one naming it", err)
	}
}
