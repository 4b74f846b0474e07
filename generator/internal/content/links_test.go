package content

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

const linkPage = "+++\ntitle = \"T\"\ndescription = \"D\"\nsection = \"basics\"\n+++\n" // the body starts on line 6

// TestUnsafeLinks: a destination that is unsafe once goldmark has read
// it (references resolved, escapes removed), or that its renderer would
// blank, is reported at the page's line and column where it is written.
func TestUnsafeLinks(t *testing.T) {
	const only = ": only relative links and http, https and mailto URLs are allowed in guides"
	tests := []struct {
		name, body string
		raw        bool
		want       string // the one error; "" for none
	}{
		{"plain", "[x](javascript:alert(1))", false, `g.md:6:5: link to "javascript:alert(1)"` + only},
		{"mixed case", "[x](JaVaScRiPt:alert(1))", false, `g.md:6:5: link to "JaVaScRiPt:alert(1)"` + only},
		{"decimal reference", "[x](&#106;avascript:alert(1))", false, `g.md:6:5: link to "&#106;avascript:alert(1)" (read as "javascript:alert(1)")` + only},
		{"hex reference", "[x](&#x6a;avascript:alert(1))", false, `g.md:6:5: link to "&#x6a;avascript:alert(1)" (read as "javascript:alert(1)")` + only},
		{"hex reference, upper case", "[x](&#X6A;AVASCRIPT&#x3A;alert(1))", false, `g.md:6:5: link to "&#X6A;AVASCRIPT&#x3A;alert(1)" (read as "jAVASCRIPT:alert(1)")` + only},
		{"named reference", "[x](javascript&colon;alert(1))", false, `g.md:6:5: link to "javascript&colon;alert(1)" (read as "javascript:alert(1)")` + only},
		{"a tab inside", "[x](java&#9;script:alert(1))", false, `g.md:6:5: link to "java&#9;script:alert(1)" (read as "java\tscript:alert(1)")` + only},
		{"a newline inside", "[x](java&#x0A;script:alert(1))", false, `g.md:6:5: link to "java&#x0A;script:alert(1)" (read as "java\nscript:alert(1)")` + only},
		{"a leading space", "[x](&#32;javascript:alert(1))", false, `g.md:6:5: link to "&#32;javascript:alert(1)" (read as " javascript:alert(1)")` + only},
		{"a leading control character", "[x](&#1;javascript:alert(1))", false, `g.md:6:5: link to "&#1;javascript:alert(1)" (read as "\x01javascript:alert(1)")` + only},
		{"a backslash escape", `[x](javascript\:alert(1))`, false, `g.md:6:5: link to "javascript\\:alert(1)" (read as "javascript:alert(1)")` + only},
		{"vbscript", "[x](vbscript:msgbox(1))", false, `g.md:6:5: link to "vbscript:msgbox(1)"` + only},
		{"vbscript, encoded", "[x](&#118;bscript:msgbox(1))", false, `g.md:6:5: link to "&#118;bscript:msgbox(1)" (read as "vbscript:msgbox(1)")` + only},
		{"file, encoded", "[x](&#x66;ile:///etc/passwd)", false, `g.md:6:5: link to "&#x66;ile:///etc/passwd" (read as "file:///etc/passwd")` + only},
		{"data image", "![x](data:image/png;base64,iVBORw0KGgo=)", false, `g.md:6:6: image to "data:image/png;base64,iVBORw0KGgo="` + only},
		{"data, encoded", "![x](&#100;ata:text/html;base64,PHNjcmlwdD4=)", false, `g.md:6:6: image to "&#100;ata:text/html;base64,PHNjcmlwdD4=" (read as "data:text/html;base64,PHNjcmlwdD4=")` + only},
		{"autolink", "<javascript:alert(1)>", false, `g.md:6:2: link to "javascript:alert(1)"` + only},
		{"reference definition", "[x][r]\n\n[r]: &#106;avascript:alert(1)\n", false, `g.md:8:6: link to "&#106;avascript:alert(1)" (read as "javascript:alert(1)")` + only},
		{"raw HTML pages too", "[x](&#106;avascript:alert(1))", true, `g.md:6:5: link to "&#106;avascript:alert(1)" (read as "javascript:alert(1)")` + only},
		{"after a label that reads the same", "Go [javascript:x](javascript:x)", false, `g.md:6:19: link to "javascript:x"` + only},
		{"on a later line", "Text.\n\nMore [x](&#106;avascript:x).", false, `g.md:8:10: link to "&#106;avascript:x" (read as "javascript:x")` + only},

		{"relative", "[x](../faq/)", false, ""},
		{"a query with a reference", "[x](/pricing/?a=1&amp;b=2)", false, ""},
		{"an encoded fragment", "[x](https://example.org/a&#35;b)", false, ""},
		{"a fragment", "[x](#top)", false, ""},
		{"mailto", "[x](mailto:a@example.org)", false, ""},
		{"an http autolink", "<https://example.org/>", false, ""},
		{"an image", "![x](/img/a.png)", false, ""},
		{"empty", "[x]()", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := linkPage + tt.body + "\n"
			if tt.raw {
				src = strings.Replace(src, "+++\n", "+++\nraw_html = true\n", 1)
				// the body moves a line down
				tt.want = strings.Replace(tt.want, "g.md:6:", "g.md:7:", 1)
			}
			d := &diag.List{}
			p := Parse("g.md", []byte(src), Options{}, d)
			var got []string
			for _, e := range d.Errors() {
				got = append(got, e.String())
			}
			var want []string
			if tt.want != "" {
				want = []string{tt.want}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("errors\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
			if (p == nil) != (tt.want != "") {
				t.Errorf("page %v, want one: %v", p != nil, tt.want == "")
			}
		})
	}
}
