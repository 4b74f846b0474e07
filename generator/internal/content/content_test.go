package content

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

// stub resolves {{< gpu "x" "name" >}} to "X" and fails on anything else.
type stub struct{}

func (stub) Shortcode(lang, name string, args []string, kv map[string]string) (string, error) {
	if name == "gpu" && len(args) == 2 && args[0] == "x" {
		return "X", nil
	}
	return "", errors.New("unknown")
}

func TestParse(t *testing.T) {
	tests := []struct {
		name, src string
		wantHTML  string // substring of the HTML; "" when the page must fail
		wantErr   string // the first error, exactly
	}{
		{"minimal", "+++\ntitle = \"T\"\ndescription = \"D\"\nsection = \"basics\"\n+++\n\n## Hello\n", `<h2 id="hello">Hello</h2>`, ""},
		{"shortcode", "+++\ntitle = \"T\"\ndescription = \"D\"\nsection = \"basics\"\n+++\nIt is {{< gpu \"x\" \"name\" >}}.\n", "<p>It is X.</p>", ""},
		{"raw HTML dropped", "+++\ntitle = \"T\"\ndescription = \"D\"\nsection = \"basics\"\n+++\n<script>alert(1)</script>\n", "<!-- raw HTML omitted -->", ""},
		{"raw HTML opted in", "+++\ntitle = \"T\"\ndescription = \"D\"\nsection = \"basics\"\nraw_html = true\n+++\n<b>bold</b>\n", "<b>bold</b>", ""},
		{"CRLF front matter", "+++\r\ntitle = \"T\"\r\ndescription = \"D\"\r\nsection = \"basics\"\r\n+++\r\nx\r\n", "<p>x</p>", ""},
		{"no front matter", "# Hi\n", "", "g.md:1:1: missing front matter: start the file with a line +++, the TOML keys (title, description, section, weight, updated), and a closing +++"},
		{"unclosed front matter", "+++\ntitle = \"T\"\n", "", "g.md:1:1: missing front matter: start the file with a line +++, the TOML keys (title, description, section, weight, updated), and a closing +++"},
		{"missing title", "+++\ndescription = \"D\"\nsection = \"basics\"\n+++\n", "", `g.md:1:1: front matter: missing required key "title"`},
		{"unknown shortcode arg", "+++\ntitle = \"T\"\ndescription = \"D\"\nsection = \"basics\"\n+++\n\n{{< gpu \"y\" \"name\" >}}\n", "", `g.md:7:1: shortcode "gpu": unknown`},
		{"wrong type", "+++\ntitle = 3\ndescription = \"D\"\nsection = \"basics\"\n+++\n", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &diag.List{}
			p := Parse("g.md", []byte(tt.src), Options{Resolver: stub{}}, d)
			errs := d.Errors()
			if tt.wantHTML != "" {
				if p == nil || len(errs) > 0 {
					t.Fatalf("want a page, got errors %v", errs)
				}
				if !strings.Contains(string(p.HTML), tt.wantHTML) {
					t.Errorf("HTML %q lacks %q", p.HTML, tt.wantHTML)
				}
				return
			}
			if p != nil || len(errs) == 0 {
				t.Fatalf("want an error, got a page")
			}
			if tt.wantErr != "" && errs[0].String() != tt.wantErr {
				t.Errorf("first error %q, want %q", errs[0].String(), tt.wantErr)
			}
			if errs[0].Line < 1 {
				t.Errorf("error without a line: %v", errs[0])
			}
		})
	}
}

// FuzzParse: any input either parses or yields positioned errors, never a
// panic; without raw_html no script element gets through.
func FuzzParse(f *testing.F) {
	f.Add("+++\ntitle = \"T\"\ndescription = \"D\"\nsection = \"basics\"\n+++\n## H\n{{< gpu \"x\" \"name\" >}}\n")
	f.Add("+++\ntitle = \"T\"\n+++\n<script>x</script>{{< gpu >}}")
	f.Add("+++\n+++\n")
	f.Fuzz(func(t *testing.T, src string) {
		d := &diag.List{}
		p := Parse("g.md", []byte(src), Options{Resolver: stub{}}, d)
		if p == nil && !d.HasErrors() {
			t.Fatal("no page and no error")
		}
		for _, e := range d.Errors() {
			if e.Line < 1 || e.Col < 1 {
				t.Fatalf("error without a position: %v", e)
			}
		}
		if p != nil && !p.RawHTML && strings.Contains(strings.ToLower(string(p.HTML)), "<script") {
			t.Fatalf("script passed through: %q", p.HTML)
		}
	})
}

// TestHeadings: the table of contents holds the level-2 headings with the
// ids the page's <h2> elements carry and their text as the page shows it.
func TestHeadings(t *testing.T) {
	body := "## Use `kv_cache && x` for *long* [context](/faq/)\n" +
		"## 显存怎么算：`kv_cache` 与 [价格](/pricing/)\n" +
		"### Not in the table\n" +
		"## H100 &#x26; A100 &amp; &copy; \\*not emphasis\\* \"q\" 'a'\n" +
		"## An image ![alt text](/a.png) and <https://example.org/?a&b>\n" +
		"> ## Quoted\n\n" +
		"## Quoted\n" +
		"Setext\nover two lines\n---\n"
	src := "+++\ntitle = \"T\"\ndescription = \"D\"\nsection = \"basics\"\n+++\n" + body
	want := []Heading{
		{"use-kv-cache--x-for-long-contextfaq", "Use kv_cache && x for long context"},
		{"显存怎么算kv-cache-与-价格pricing", "显存怎么算：kv_cache 与 价格"},
		{"h100-x26-a100-amp-copy-not-emphasis-q-a", "H100 & A100 & © *not emphasis* \"q\" 'a'"},
		{"an-image-alt-textapng-and-httpsexampleorgab", "An image  and https://example.org/?a&b"},
		{"quoted", "Quoted"},
		{"quoted-1", "Quoted"},
		{"over-two-lines", "Setext over two lines"},
	}
	d := &diag.List{}
	p := Parse("g.md", []byte(src), Options{}, d)
	if p == nil {
		t.Fatal(d.Errors())
	}
	if len(p.Headings) != len(want) {
		t.Fatalf("headings %q, want %q", p.Headings, want)
	}
	for i, h := range p.Headings {
		if h != want[i] {
			t.Errorf("heading %d = %q, want %q", i, h, want[i])
		}
		if tag := `<h2 id="` + h.ID + `">`; !strings.Contains(string(p.HTML), tag) {
			t.Errorf("the page has no %s", tag)
		}
	}
}
