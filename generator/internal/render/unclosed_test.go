package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

// newErrors builds a Renderer from the given templates (templates/NAME;
// layout.html defaults to one that calls "main") and returns its
// diagnostics.
func newErrors(t *testing.T, templates map[string]string) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"templates/layout.html":  `<html>{{template "main" .}}</html>`,
		"templates/i18n/en.toml": "lang = \"en\"\n",
	}
	for name, src := range templates {
		files["templates/"+name] = src
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
	var d diag.List
	New(Options{Root: root, Lang: "en"}, &d)
	return diagText(&d)
}

// TestUnclosedBlock: a block without its {{end}} is reported at its
// opening action, which the parser does not say (it stops at the end of
// the file, or at the next {{define}}); other parse errors keep the
// parser's position.
func TestUnclosedBlock(t *testing.T) {
	for _, tc := range []struct {
		name string
		file string // templates/FILE
		src  string
		want string // the diagnostic line
	}{
		{"if", "page.html", "{{define \"main\"}}\n<p>{{if .Data}}x</p>\n",
			"templates/page.html:2:4: unclosed {{if}} (add {{end}})"},
		{"range", "page.html", "{{define \"main\"}}{{end}}\n\n{{range .Data}}\n  x\n",
			"templates/page.html:3:1: unclosed {{range}} (add {{end}})"},
		{"with and trim markers", "page.html", "{{define \"main\"}}{{end}}\n  {{- with .Data -}}\n  x\n",
			"templates/page.html:2:3: unclosed {{with}} (add {{end}})"},
		{"define", "page.html", "{{define \"main\"}}\n{{if .X}}a{{else}}b{{end}}\n",
			"templates/page.html:1:1: unclosed {{define}} (add {{end}})"},
		{"block", "page.html", "{{define \"main\"}}{{block \"inner\" .}}x{{end}}{{end}}\n{{block \"tail\" .}}\n",
			"templates/page.html:2:1: unclosed {{block}} (add {{end}})"},
		{"nested: the innermost open block", "page.html",
			"{{define \"main\"}}\n{{range .A}}\n  {{with .B}}{{if .C}}c{{end}}\n  {{end}}\n",
			"templates/page.html:2:1: unclosed {{range}} (add {{end}})"},
		{"nested three deep", "page.html",
			"{{define \"main\"}}\n{{range .A}}\n  {{with .B}}\n    {{if .C}}c\n",
			"templates/page.html:4:5: unclosed {{if}} (add {{end}})"},
		{"else if belongs to its if", "page.html",
			"{{define \"main\"}}{{end}}\n{{if .A}}a{{else if .B}}b\n{{- else if .C}}c{{else}}d\n",
			"templates/page.html:2:1: unclosed {{if}} (add {{end}})"},
		{"else with belongs to its with", "page.html",
			"{{define \"main\"}}{{end}}\n{{with .A}}a{{else with .B}}b{{else}}\n",
			"templates/page.html:2:1: unclosed {{with}} (add {{end}})"},
		{"comment holding an if", "page.html",
			"{{define \"main\"}}{{end}}\n{{with .A}}{{/* }} {{if .X}} */}}\n",
			"templates/page.html:2:1: unclosed {{with}} (add {{end}})"},
		{"comment holding an end", "page.html",
			"{{define \"main\"}}\n{{with .A}}a{{- /* }}{{end}} */ -}}\n{{end}}\n",
			"templates/page.html:1:1: unclosed {{define}} (add {{end}})"},
		{"strings holding delimiters", "page.html",
			"{{define \"main\"}}{{end}}\n{{if eq .A \"x}}{{end}}\" `{{end}}` '}'}}\n",
			"templates/page.html:2:1: unclosed {{if}} (add {{end}})"},
		{"columns count characters", "page.html", "{{define \"main\"}}\n<p>价格 {{if .X}}\n",
			"templates/page.html:2:7: unclosed {{if}} (add {{end}})"},
		{"open block at the next define", "page.html",
			"{{define \"main\"}}\n{{if .X}}\n{{end}}{{with .Y}}\n{{define \"other\"}}{{end}}\n",
			"templates/page.html:3:8: unclosed {{with}} (add {{end}} before the {{define}} on line 4)"},
		{"open define at the next define", "page.html",
			"{{define \"main\"}}{{if .X}}x{{end}}\n\n{{define \"other\"}}{{end}}\n",
			"templates/page.html:1:1: unclosed {{define}} (add {{end}} before the {{define}} on line 3)"},
		{"in a partial", "_part.html", "{{define \"part\"}}\n  {{range .}}\n{{end}}\n",
			"templates/_part.html:1:1: unclosed {{define}} (add {{end}})"},
		{"in the layout", "layout.html", "<html>\n<body>{{if .Data}}{{template \"main\" .}}</body>\n</html>\n",
			"templates/layout.html:2:7: unclosed {{if}} (add {{end}})"},
		// Other errors keep the parser's message and position.
		{"extra end", "page.html", "{{define \"main\"}}{{end}}\n{{end}}\n",
			"templates/page.html:2:1: unexpected {{end}}"},
		{"unclosed action", "page.html", "{{define \"main\"}}\n{{if .X}}{{end}}{{end}}{{ .Y\n",
			"templates/page.html:3:1: unclosed action started at page.html:2"},
		{"unclosed comment", "page.html", "{{define \"main\"}}{{if .X}}{{/* x {{end}}\n",
			"templates/page.html:1:1: unclosed comment"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{tc.file: tc.src}
			if tc.file != "page.html" {
				files["page.html"] = `{{define "main"}}x{{end}}`
			}
			got := newErrors(t, files)
			if !strings.Contains(got, tc.want+"\n") {
				t.Errorf("want\n  %s\ngot\n%s", tc.want, got)
			}
		})
	}
}

// TestUnclosedBlockScan pins the scan on its own: what it finds, and that
// it finds nothing in closed sources.
func TestUnclosedBlockScan(t *testing.T) {
	for _, tc := range []struct {
		src       string
		open, def tmplAction
		ok        bool
	}{
		{`{{if .X}}{{else}}{{end}}{{range .}}{{break}}{{end}}`, tmplAction{}, tmplAction{}, false},
		{`{{/* }}{{if */}}{{- /* }}{{range */ -}}`, tmplAction{}, tmplAction{}, false},
		{`{{if "{{"}}{{end}}{{if "\"}}"}}{{end}}`, tmplAction{}, tmplAction{}, false},
		{"{{-3}}{{iffy}}{{.if}}{{ end}}", tmplAction{}, tmplAction{}, false},
		{"{{if(.X)}}", tmplAction{"if", 1, 1}, tmplAction{}, true},
		{"{{- if .X -}}\n{{ range . }}", tmplAction{"range", 2, 1}, tmplAction{}, true},
		{"{{block \"a\" .}}\n {{define \"b\"}}", tmplAction{"block", 1, 1}, tmplAction{"define", 2, 2}, true},
		{"{{with .X}}{{ `a\n}}` }}\n{{if 1}}", tmplAction{"if", 3, 1}, tmplAction{}, true},
	} {
		open, def, ok := unclosedBlock(tc.src)
		if open != tc.open || def != tc.def || ok != tc.ok {
			t.Errorf("%q: got %v %v %v, want %v %v %v", tc.src, open, def, ok, tc.open, tc.def, tc.ok)
		}
	}
}
