package content

import (
	"bytes"
	"strings"
	"testing"
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
		if err := converter(false, "en").Convert([]byte(tc.md), &b); err != nil {
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
	for lang, want := range map[string][]string{
		"en": {"Ways", "Ways (2)", "Ways (3)", "Next"},
		"zh": {"Ways", "Ways（2）", "Ways（3）", "Next"}, // the edition's own parentheses
	} {
		var b bytes.Buffer
		if err := converter(false, lang).Convert([]byte(md), &b); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, part := range strings.Split(b.String(), `aria-label="`)[1:] {
			names = append(names, part[:strings.IndexByte(part, '"')])
		}
		if strings.Join(names, "|") != strings.Join(want, "|") {
			t.Errorf("%s: region names %q, want %q", lang, names, want)
		}
	}
}
