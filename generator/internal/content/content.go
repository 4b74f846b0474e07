// Package content loads the Markdown guides: it splits TOML front matter
// from the body, validates it with positions, expands catalog shortcodes
// and converts the Markdown to HTML with goldmark.
package content

import (
	"bytes"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/tomlpos"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
)

// Sections are the guide sections in display order. Pages in the
// "faq" and "about" sections are served at /<slug>/ rather than under
// /guides/.
func Sections() []string {
	return []string{"basics", "selection", "scenarios", "cost", "pitfalls", "trends", "faq", "about"}
}

// TopLevel reports whether pages of a section are served at /<slug>/.
func TopLevel(section string) bool { return section == "faq" || section == "about" }

// FrontMatter is the TOML block between the +++ lines.
type FrontMatter struct {
	Title       string    `toml:"title"`
	Description string    `toml:"description"`
	Section     string    `toml:"section"`
	Weight      int       `toml:"weight"`
	Updated     time.Time `toml:"updated"`
	RawHTML     bool      `toml:"raw_html"`
}

// Page is one guide.
type Page struct {
	FrontMatter
	Slug string // file name without .md
	File string // path relative to the site root
	HTML template.HTML
	// Headings are the page's level-2 headings, for a table of contents.
	Headings []Heading
}

// Heading is a heading with its anchor id.
type Heading struct{ ID, Text string }

// Resolver expands a shortcode into Markdown. args are the positional
// arguments, kv the key="value" ones.
type Resolver interface {
	Shortcode(name string, args []string, kv map[string]string) (string, error)
}

// Load reads every content/**/*.md under root. It reports front-matter and
// shortcode errors with positions; pages with errors are left out.
func Load(root string, r Resolver, d *diag.List) []*Page {
	dir := filepath.Join(root, "content")
	var pages []*Page
	err := filepath.WalkDir(dir, func(path string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			return nil
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, root+string(filepath.Separator)))
		if rp, err := filepath.Rel(root, path); err == nil {
			rel = filepath.ToSlash(rp)
		}
		if !strings.HasSuffix(e.Name(), ".md") {
			d.Warnf(rel, 0, 0, "skipped: not a .md file")
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			d.Errorf(rel, 0, 0, "cannot read: %v", err)
			return nil
		}
		if p := Parse(rel, src, r, d); p != nil {
			pages = append(pages, p)
		}
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		d.Errorf("content", 0, 0, "%v", err)
	}
	sort.Slice(pages, func(i, j int) bool { return pages[i].Slug < pages[j].Slug })
	return pages
}

// Parse parses one Markdown page. It returns nil when the page has errors.
func Parse(rel string, src []byte, r Resolver, d *diag.List) *Page {
	before := len(d.Errors())
	slug := strings.TrimSuffix(filepath.Base(rel), ".md")
	p := &Page{Slug: slug, File: rel}
	fm, body, bodyLine, ok := split(src)
	if !ok {
		d.Errorf(rel, 1, 1, "missing front matter: start the file with a line +++, the TOML keys (title, description, section, weight, updated), and a closing +++")
		return nil
	}
	md, err := toml.Decode(string(fm), &p.FrontMatter)
	if err != nil {
		if pe, ok := err.(toml.ParseError); ok {
			col := pe.Position.Col
			if col == 0 {
				col = 1
			}
			d.Errorf(rel, pe.Position.Line+1, col, "front matter: %s", pe.Message)
		} else {
			d.Errorf(rel, 2, 1, "front matter: %v", err)
		}
		return nil
	}
	ix := tomlpos.Scan(fm)
	at := func(key string) (int, int) {
		if v := ix.Value(key); v.Line > 0 {
			return v.Line + 1, v.Col
		}
		return 1, 1
	}
	valid := []string{"description", "raw_html", "section", "title", "updated", "weight"}
	for _, k := range md.Undecoded() {
		l, c := 1, 1
		if ps := ix.Find(k.String()); len(ps) > 0 {
			l, c = ps[0].Line+1, ps[0].Col
		}
		msg := fmt.Sprintf("front matter: unknown key %q", k.String())
		if s := diag.Suggest(k.String(), valid); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		d.Errorf(rel, l, c, "%s", msg)
	}
	for _, k := range []string{"title", "description", "section"} {
		if ix.Key(k).Line == 0 {
			d.Errorf(rel, 1, 1, "front matter: missing required key %q", k)
		}
	}
	if ix.Key("section").Line > 0 && !contains(Sections(), p.Section) {
		l, c := at("section")
		msg := fmt.Sprintf("front matter: section %q is not one of: %s", p.Section, strings.Join(Sections(), ", "))
		if s := diag.Suggest(p.Section, Sections()); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		d.Errorf(rel, l, c, "%s", msg)
	}
	body = expand(rel, body, bodyLine, r, d)
	if len(d.Errors()) > before {
		return nil
	}
	var out bytes.Buffer
	if err := converter(p.RawHTML).Convert(body, &out); err != nil {
		d.Errorf(rel, bodyLine, 1, "markdown: %v", err)
		return nil
	}
	p.HTML = template.HTML(out.String()) // goldmark escapes text; raw HTML only with raw_html = true
	p.Headings = headings(out.String())
	return p
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// split separates the front matter; bodyLine is the 1-based line the body
// starts on.
func split(src []byte) (fm, body []byte, bodyLine int, ok bool) {
	s := string(bytes.TrimPrefix(src, []byte("\xef\xbb\xbf")))
	if !strings.HasPrefix(s, "+++\n") && !strings.HasPrefix(s, "+++\r\n") {
		return nil, nil, 0, false
	}
	rest := s[strings.IndexByte(s, '\n')+1:]
	lines := 1
	for off := 0; off < len(rest); {
		nl := strings.IndexByte(rest[off:], '\n')
		line := rest[off:]
		if nl >= 0 {
			line = rest[off : off+nl]
		}
		lines++
		if strings.TrimRight(line, "\r ") == "+++" {
			end := len(rest)
			if nl >= 0 {
				end = off + nl + 1
			}
			return []byte(rest[:off]), []byte(rest[end:]), lines + 1, true
		}
		if nl < 0 {
			break
		}
		off += nl + 1
	}
	return nil, nil, 0, false
}

var shortcodeRE = regexp.MustCompile(`\{\{<\s*([a-z]+)((?:\s+(?:[a-z_]+=)?"[^"\n]*")*)\s*>\}\}`)
var argRE = regexp.MustCompile(`(?:([a-z_]+)=)?"([^"\n]*)"`)

// expand replaces shortcodes with the resolver's Markdown, reporting
// errors at the shortcode's position.
func expand(rel string, body []byte, bodyLine int, r Resolver, d *diag.List) []byte {
	src := string(body)
	var out strings.Builder
	last := 0
	starts := map[int]bool{}
	for _, m := range shortcodeRE.FindAllStringSubmatchIndex(src, -1) {
		starts[m[0]] = true
		out.WriteString(src[last:m[0]])
		last = m[1]
		name := src[m[2]:m[3]]
		var args []string
		kv := map[string]string{}
		for _, a := range argRE.FindAllStringSubmatch(src[m[4]:m[5]], -1) {
			if a[1] != "" {
				kv[a[1]] = a[2]
			} else {
				args = append(args, a[2])
			}
		}
		line := bodyLine + strings.Count(src[:m[0]], "\n")
		col := m[0] - strings.LastIndexByte(src[:m[0]], '\n')
		if r == nil {
			d.Errorf(rel, line, col, "shortcode %q: no catalog to resolve it", name)
			continue
		}
		s, err := r.Shortcode(name, args, kv)
		if err != nil {
			d.Errorf(rel, line, col, "shortcode %q: %v", name, err)
			continue
		}
		out.WriteString(s)
	}
	out.WriteString(src[last:])
	// A "{{<" that starts no well-formed shortcode is a malformed one.
	for off := 0; ; {
		i := strings.Index(src[off:], "{{<")
		if i < 0 {
			break
		}
		j := off + i
		if !starts[j] {
			line := bodyLine + strings.Count(src[:j], "\n")
			col := j - strings.LastIndexByte(src[:j], '\n')
			d.Errorf(rel, line, col, `malformed shortcode: write {{< name "arg" key="value" >}}`)
		}
		off = j + 3
	}
	return []byte(out.String())
}

func converter(raw bool) goldmark.Markdown {
	opts := []goldmark.Option{
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
	}
	if raw {
		opts = append(opts, goldmark.WithRendererOptions(html.WithUnsafe()))
	}
	return goldmark.New(opts...)
}

var h2RE = regexp.MustCompile(`<h2 id="([^"]+)">(.*?)</h2>`)
var tagRE = regexp.MustCompile(`<[^>]+>`)

func headings(h string) []Heading {
	var out []Heading
	for _, m := range h2RE.FindAllStringSubmatch(h, -1) {
		text := tagRE.ReplaceAllString(m[2], "")
		text = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#39;", "'").Replace(text)
		out = append(out, Heading{ID: m[1], Text: text})
	}
	return out
}

// Titles returns slug -> title for every page under root/content, reading
// only the front matter; pages whose front matter does not parse are left
// out (Load reports them). Shortcodes linking to guides use it.
// The second map holds the slugs served at /<slug>/ (see TopLevel).
func Titles(root string) (map[string]string, map[string]bool) {
	out, top := map[string]string{}, map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(root, "content", "*.md"))
	more, _ := filepath.Glob(filepath.Join(root, "content", "*", "*.md"))
	for _, f := range append(files, more...) {
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		fm, _, _, ok := split(src)
		if !ok {
			continue
		}
		var m FrontMatter
		if _, err := toml.Decode(string(fm), &m); err == nil {
			slug := strings.TrimSuffix(filepath.Base(f), ".md")
			out[slug] = m.Title
			top[slug] = TopLevel(m.Section)
		}
	}
	return out, top
}
