// Package content loads the Markdown guides: it splits TOML front matter
// from the body, validates it with positions, expands catalog shortcodes
// and converts the Markdown to HTML with goldmark.
package content

import (
	"bytes"
	"html/template"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/parallel"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/safetext"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/tomlpos"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

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
	Slug string // file name without the language suffix and .md
	Lang string // language code: the default language, or the file's suffix (slug.zh.md)
	// Fallback is set on a page served in a language it has no file for:
	// it holds the text of another language's file (TextLang), with links
	// and shortcodes resolved for Lang.
	Fallback bool
	// TextLang is the language the text is written in (Lang, unless
	// Fallback).
	TextLang string
	File     string // path relative to the site root (an overlay's: Overlay.Label + its path in the overlay)
	// FromOverlay is set on a page from the overlay's content/.
	FromOverlay bool
	abs         string // the file to read it from
	HTML        template.HTML
	// Headings are the page's level-2 headings, for a table of contents.
	Headings []Heading
}

// Heading is a heading with its anchor id.
type Heading struct{ ID, Text string }

// Resolver expands a shortcode into Markdown for a page in language lang.
// args are the positional arguments, kv the key="value" ones.
type Resolver interface {
	Shortcode(lang, name string, args []string, kv map[string]string) (string, error)
}

// Options configure loading.
type Options struct {
	// Now is the build date: an updated date after it is an error.
	Now time.Time
	// Resolver expands shortcodes; nil reports every shortcode as an error.
	Resolver Resolver
	// Languages are the site's language codes; the first is the default,
	// whose pages are slug.md, and the others' are slug.<code>.md. Empty
	// means English only.
	Languages []string
	// Overlay is a team's overlay directory whose content/ is loaded on
	// top of root's (see overlay.go); the zero value is none.
	Overlay Overlay
	// Cache, when set, keeps the parsed pages for the next load (see
	// Cache); the pages are the same either way.
	Cache *Cache
	// Parens holds each language's parentheses, as its UI string
	// punct.paren ({0} is what they enclose: " ({0})", "（{0}）"): the
	// second and later tables under one heading are named with their
	// place in them. A language without one takes DefaultParen.
	Parens map[string]string
}

// DefaultParen is the parentheses of a language Options.Parens does not
// give.
const DefaultParen = " ({0})"

// paren is lang's parentheses (Options.Parens).
func (o Options) paren(lang string) string {
	if p, ok := o.Parens[lang]; ok {
		return p
	}
	return DefaultParen
}

func (o Options) langs() []string {
	if len(o.Languages) == 0 {
		return []string{"en"}
	}
	return o.Languages
}

// Name splits a content file name into its slug and language code:
// "five-dimensions.zh.md" is ("five-dimensions", "zh"), "faq.md" is
// ("faq", def).
func Name(file, def string) (slug, lang string) {
	base := strings.TrimSuffix(filepath.Base(file), ".md")
	if i := strings.LastIndexByte(base, '.'); i >= 0 {
		return base[:i], base[i+1:]
	}
	return base, def
}

// Load reads every content/**/*.md under root. It reports front-matter and
// shortcode errors with positions, a file naming an unknown language, and
// two files with the same slug in one language; pages with errors are
// left out. Pages are sorted by language, then slug.
//
// With o.Overlay set, the overlay's content/ pages are added: one with
// the slug and language of a public page replaces it in that language's
// edition (see overlay.go).
func Load(root string, o Options, d *diag.List) []*Page {
	o.Cache.begin()
	defer o.Cache.end()
	pages := walk(root, "", o, d)
	if o.Overlay.Dir != "" {
		pages = append(pages, walk(o.Overlay.Dir, o.Overlay.label(), o, d)...)
	}
	sort.Slice(pages, func(i, j int) bool {
		if pages[i].Lang != pages[j].Lang {
			return pages[i].Lang < pages[j].Lang
		}
		if pages[i].Slug != pages[j].Slug {
			return pages[i].Slug < pages[j].Slug
		}
		return pages[i].File < pages[j].File
	})
	// One slug, one page per language, whatever folder it is in: the URL
	// of a guide does not say its folder.
	out := pages[:0]
	var replaced []replacement
	for i, p := range pages {
		if i > 0 && p.Lang == pages[i-1].Lang && p.Slug == pages[i-1].Slug {
			prev := out[len(out)-1]
			if prev.FromOverlay != p.FromOverlay {
				// An overlay page replaces the public one.
				pub, ov := prev, p
				if prev.FromOverlay {
					pub, ov = p, prev
				}
				out[len(out)-1] = ov
				replaced = append(replaced, replacement{public: pub, overlay: ov})
				continue
			}
			d.Errorf(p.File, 1, 1, "slug %q is also the slug of %s: both would be served at the same URL; rename one of the files", p.Slug, prev.File)
			continue
		}
		out = append(out, p)
	}
	warnPartial(out, replaced, o, d)
	return append(out, fallbacks(out, o, d)...)
}

// walk parses every content/**/*.md under root, naming each file prefix +
// its path relative to root.
//
// The files are parsed on every core (shortcodes only read the catalog's
// derived data); the pages and diagnostics come in walk order whatever the
// number of cores.
func walk(root, prefix string, o Options, d *diag.List) []*Page {
	const dir = "content"
	type source struct{ abs, rel string }
	var files []source
	err := filepath.WalkDir(filepath.Join(root, dir), func(path string, e os.DirEntry, err error) error {
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
		rel = prefix + rel
		if !strings.HasSuffix(e.Name(), ".md") {
			d.Warnf(rel, 1, 1, "skipped: not a .md file")
			return nil
		}
		files = append(files, source{abs: path, rel: rel})
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		d.Errorf(prefix+dir, 0, 0, "%v", err)
	}
	parsed := make([]*Page, len(files))
	diags := make([]diag.List, len(files))
	parallel.For(len(files), 0, func(i int) {
		f := files[i]
		src, err := os.ReadFile(f.abs)
		if err != nil {
			diags[i].Errorf(f.rel, 1, 1, "cannot read: %v", err)
			return
		}
		if p := o.Cache.parse(f.rel, src, o, "", &diags[i]); p != nil {
			p.abs, p.FromOverlay = f.abs, prefix != ""
			parsed[i] = p
		}
	})
	var pages []*Page
	for i, p := range parsed {
		d.Merge(&diags[i])
		if p != nil {
			pages = append(pages, p)
		}
	}
	return pages
}

// fallbacks returns, for every page missing in a language, the page of
// another language (the default one where it exists) parsed for that
// language, and warns about each: every edition has every page, and a
// missing translation is visible to check.
func fallbacks(pages []*Page, o Options, d *diag.List) []*Page {
	langs := o.langs()
	have := map[string]map[string]*Page{} // slug -> lang -> page
	var slugs []string
	for _, p := range pages {
		if have[p.Slug] == nil {
			have[p.Slug] = map[string]*Page{}
			slugs = append(slugs, p.Slug)
		}
		have[p.Slug][p.Lang] = p
	}
	var out []*Page
	for _, slug := range slugs {
		for _, l := range langs {
			if have[slug][l] != nil {
				continue
			}
			src := have[slug][langs[0]]
			for _, other := range langs {
				if src == nil {
					src = have[slug][other]
				}
			}
			b, err := os.ReadFile(src.abs)
			if err != nil {
				continue
			}
			q := diag.List{} // its diagnostics were reported when it was loaded as itself
			if p := o.Cache.parse(src.File, b, o, l, &q); p != nil {
				p.Fallback, p.FromOverlay, p.abs = true, src.FromOverlay, src.abs
				out = append(out, p)
				want := strings.TrimSuffix(src.File, ".md")
				if src.Lang != langs[0] {
					want = strings.TrimSuffix(want, "."+src.Lang)
				}
				if l != langs[0] {
					want += "." + l
				}
				d.Warnf(src.File, 1, 1, "no %s text of this page (%s.md): the %s edition shows it in %s until it is written", l, want, l, src.Lang)
			}
		}
	}
	return out
}

// Parse parses one Markdown page. It returns nil when the page has errors.
func Parse(rel string, src []byte, o Options, d *diag.List) *Page {
	return parseAs(rel, src, o, "", d)
}

// parseAs parses a page for the edition in language as (its own language
// when empty): shortcodes and links resolve for that edition.
func parseAs(rel string, src []byte, o Options, as string, d *diag.List) *Page {
	before := len(d.Errors())
	langs := o.langs()
	slug, lang := Name(rel, langs[0])
	p := &Page{Slug: slug, Lang: lang, TextLang: lang, File: rel}
	if as != "" {
		p.Lang = as
	}
	if !contains(langs, lang) {
		d.Errorf(rel, 1, 1, "file name names language %q, which data/site.toml does not declare (languages: %s): name it %s.md for %s, or declare the language", lang, strings.Join(langs, ", "), slug, langs[0])
		return nil
	}
	if !slugPattern.MatchString(slug) {
		d.Errorf(rel, 1, 1, "file name %q is not a valid slug: use lowercase letters, digits and single dashes (the slug is the page's URL)", slug)
		return nil
	}
	fm, body, bodyLine, ok := split(src)
	if !ok {
		d.Errorf(rel, 1, 1, "missing front matter: start the file with a line +++, the TOML keys (title, description, section, weight, updated), and a closing +++")
		return nil
	}
	ix := tomlpos.Source{Rel: rel, Text: fm, Line: frontMatterLine, Prefix: "front matter: "}.Decode(&p.FrontMatter, d)
	if ix == nil {
		return nil
	}
	at := func(key string) (int, int) {
		if v := ix.Value(key); v.Line > 0 {
			return v.Line + frontMatterLine - 1, v.Col
		}
		return 1, 1
	}
	for _, k := range []string{"title", "description", "section"} {
		if ix.Key(k).Line == 0 {
			d.Errorf(rel, 1, 1, "front matter: missing required key %q", k)
		}
	}
	if ix.Key("section").Line > 0 && !contains(Sections(), p.Section) {
		l, c := at("section")
		d.Hintf(rel, l, c, diag.DidYouMean(p.Section, Sections()), "front matter: section %q is not one of: %s", p.Section, strings.Join(Sections(), ", "))
	}
	for _, k := range []string{"title", "description"} {
		v := map[string]string{"title": p.Title, "description": p.Description}[k]
		if r, bad := safetext.FirstBad(v); bad {
			l, c := at(k)
			d.Errorf(rel, l, c, "front matter: %s holds the character %U: remove it (control characters and bidirectional overrides are not allowed)", k, r)
		}
	}
	if ix.Key("updated").Line > 0 && !o.Now.IsZero() && p.Updated.After(o.Now) {
		l, c := at("updated")
		d.Errorf(rel, l, c, "front matter: updated %s is in the future (today is %s)", p.Updated.Format(time.DateOnly), o.Now.Format(time.DateOnly))
	}
	checkClaims(rel, body, bodyLine, d)
	expanded, shifts := expand(rel, p.Lang, body, bodyLine, o.Resolver, d)
	if len(d.Errors()) > before {
		return nil
	}
	var out bytes.Buffer
	md2 := converter(p.RawHTML, o.paren(p.Lang))
	doc := md2.Parser().Parse(text.NewReader(expanded), parser.WithContext(parser.NewContext(parser.WithIDs(newHeadingIDs()))))
	checkLinks(rel, body, bodyLine, expanded, shifts, doc, d)
	if len(d.Errors()) > before {
		return nil
	}
	if err := md2.Renderer().Render(&out, expanded, doc); err != nil {
		d.Errorf(rel, bodyLine, 1, "markdown: %v", err)
		return nil
	}
	p.HTML = template.HTML(out.String()) // goldmark escapes text; raw HTML only with raw_html = true
	p.Headings = headings(doc, expanded)
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

// frontMatterLine is the line of a page that its front matter starts on,
// after the opening +++.
const frontMatterLine = 2

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
func expand(rel, lang string, body []byte, bodyLine int, r Resolver, d *diag.List) ([]byte, []shift) {
	src := string(body)
	var out strings.Builder
	var shifts []shift
	last := 0
	starts := map[int]bool{}
	for _, m := range shortcodeRE.FindAllStringSubmatchIndex(src, -1) {
		starts[m[0]] = true
		out.WriteString(src[last:m[0]])
		last = m[1]
		at := out.Len()
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
		s, err := r.Shortcode(lang, name, args, kv)
		if err != nil {
			msg, hint := diag.Hinted(err)
			d.Hintf(rel, line, col, hint, "shortcode %q: %s", name, msg)
			continue
		}
		out.WriteString(s)
		shifts = append(shifts, shift{out: at, outEnd: out.Len(), src: m[0], srcEnd: m[1]})
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
	return []byte(out.String()), shifts
}

// converter is the Markdown converter of a page, raw when it may hold
// HTML, whose language writes parentheses as paren (Options.Parens).
func converter(raw bool, paren string) goldmark.Markdown {
	opts := []goldmark.Option{
		// GFM, with table alignment left to renderTable: goldmark's default
		// is an inline style, which the site's CSP forbids.
		goldmark.WithExtensions(extension.Linkify, extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignNone)), extension.Strikethrough, extension.TaskList),
		goldmark.WithParserOptions(parser.WithAutoHeadingID(), parser.WithAttribute()), // {#id} after a heading: the same anchor in every edition
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(tableWrap{paren: paren}, 100))),
	}
	if raw {
		opts = append(opts, goldmark.WithRendererOptions(html.WithUnsafe()))
	}
	return goldmark.New(opts...)
}

// TitlesLayered returns, for each language of langs (the first is the
// default), slug -> title of every page under root/content, reading only
// the front matter. A page missing in a language has its default-language
// title there (it is served in the default language until translated). A
// page whose front matter does not parse keeps its slug with an empty
// title, so links to it raise no second error (Load reports the first).
// The second map holds the slugs served at /<slug>/ (see TopLevel). An
// overlay page's title replaces the public page's of its slug and
// language.
func TitlesLayered(root string, ov Overlay, langs []string) (map[string]map[string]string, map[string]bool) {
	if len(langs) == 0 {
		langs = []string{"en"}
	}
	out, top := map[string]map[string]string{}, map[string]bool{}
	for _, l := range langs {
		out[l] = map[string]string{}
	}
	var all []string
	for _, r := range []string{root, ov.Dir} {
		if r == "" {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(r, "content", "*.md"))
		more, _ := filepath.Glob(filepath.Join(r, "content", "*", "*.md"))
		all = append(append(all, files...), more...)
	}
	for _, f := range all {
		slug, lang := Name(f, langs[0])
		if out[lang] == nil {
			continue // Load reports the unknown language
		}
		title := ""
		if src, err := os.ReadFile(f); err == nil {
			if fm, _, _, ok := split(src); ok {
				var m FrontMatter
				if _, err := toml.Decode(string(fm), &m); err == nil {
					title = m.Title
					if lang == langs[0] {
						top[slug] = TopLevel(m.Section)
					}
				}
			}
		}
		out[lang][slug] = title
	}
	for _, l := range langs[1:] {
		for slug, t := range out[langs[0]] {
			if _, ok := out[l][slug]; !ok {
				out[l][slug] = t
			}
		}
	}
	return out, top
}
