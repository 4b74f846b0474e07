package content

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

// TestTableWrap: a Markdown table renders inside a focusable, named
// scroll region, so a wide table scrolls by itself on a phone instead of
// widening the page; the name is the section's heading, or the header row
// where no heading precedes the table, escaped; a second table under the
// same heading is named with its place, so no two regions share a name.
func TestTableWrap(t *testing.T) {
	for _, tc := range []struct{ md, want string }{
		{"## Billing *modes*\n\ntext\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
			`<div class="table-wrap" tabindex="0" role="region" aria-label="Billing modes"><table>`},
		{"| GPU | \"Price\" & 5 < 6 |\n|---|---|\n| H100 | 2 |\n",
			`<div class="table-wrap" tabindex="0" role="region" aria-label="GPU &#34;Price&#34; &amp; 5 &lt; 6"><table>`},
	} {
		var b bytes.Buffer
		if err := converter(false, DefaultParen).Convert([]byte(tc.md), &b); err != nil {
			t.Fatal(err)
		}
		got := b.String()
		if !strings.Contains(got, tc.want) || !strings.Contains(got, "</table></div>") || strings.Count(got, "<table") != 1 {
			t.Errorf("%q renders\n%s\nwant it to contain %s … </table></div>", tc.md, got, tc.want)
		}
	}
}

// TestTableWrapNames: every table under one heading gets its own region
// name, the first the heading's, the others the heading's and their place.
func TestTableWrapNames(t *testing.T) {
	md := "## Ways\n\n| a |\n|---|\n| 1 |\n\ntext\n\n| a |\n|---|\n| 2 |\n\n| a |\n|---|\n| 3 |\n\n## Next\n\n| a |\n|---|\n| 4 |\n"
	for paren, want := range map[string][]string{
		DefaultParen: {"Ways", "Ways (2)", "Ways (3)", "Next"},
		"（{0}）":      {"Ways", "Ways（2）", "Ways（3）", "Next"}, // the edition's own parentheses
	} {
		var b bytes.Buffer
		if err := converter(false, paren).Convert([]byte(md), &b); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, part := range strings.Split(b.String(), `aria-label="`)[1:] {
			names = append(names, part[:strings.IndexByte(part, '"')])
		}
		if strings.Join(names, "|") != strings.Join(want, "|") {
			t.Errorf("%s: region names %q, want %q", paren, names, want)
		}
	}
}

// TestParseParens: a page's tables are named with its language's
// parentheses as Options.Parens gives them, and a language it does not
// give takes DefaultParen.
func TestParseParens(t *testing.T) {
	src := "+++\ntitle = \"T\"\ndescription = \"D\"\nsection = \"basics\"\n+++\n## 方式\n\n| a |\n|---|\n| 1 |\n\n| a |\n|---|\n| 2 |\n"
	o := Options{Languages: []string{"en", "zh", "ja"}, Parens: map[string]string{"en": DefaultParen, "zh": "（{0}）"}}
	for rel, want := range map[string]string{"g.md": "方式 (2)", "g.zh.md": "方式（2）", "g.ja.md": "方式 (2)"} {
		d := &diag.List{}
		p := Parse(rel, []byte(src), o, d)
		if p == nil {
			t.Fatal(d.Errors())
		}
		if !strings.Contains(string(p.HTML), `aria-label="`+want+`"`) {
			t.Errorf("%s: want a region named %q in\n%s", rel, want, p.HTML)
		}
	}
}
