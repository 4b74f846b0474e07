package content

import (
	"bytes"
	"strings"
	"testing"
)

// TestTableWrap: a Markdown table renders inside a focusable, named
// scroll region, so a wide table scrolls by itself on a phone instead of
// widening the page; the name is the section's heading, or the header row
// where no heading precedes the table, escaped.
func TestTableWrap(t *testing.T) {
	for _, tc := range []struct{ md, want string }{
		{"## Billing *modes*\n\ntext\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
			`<div class="table-wrap" tabindex="0" role="region" aria-label="Billing modes"><table>`},
		{"| GPU | \"Price\" & 5 < 6 |\n|---|---|\n| H100 | 2 |\n",
			`<div class="table-wrap" tabindex="0" role="region" aria-label="GPU &#34;Price&#34; &amp; 5 &lt; 6"><table>`},
	} {
		var b bytes.Buffer
		if err := converter(false).Convert([]byte(tc.md), &b); err != nil {
			t.Fatal(err)
		}
		got := b.String()
		if !strings.Contains(got, tc.want) || !strings.Contains(got, "</table></div>") || strings.Count(got, "<table") != 1 {
			t.Errorf("%q renders\n%s\nwant it to contain %s … </table></div>", tc.md, got, tc.want)
		}
	}
}
