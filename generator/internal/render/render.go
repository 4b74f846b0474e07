// Package render turns derived data into pages with html/template. Page
// templates live in templates/: layout.html wraps every page, and each
// page kind has its own file defining "title", "description" and "main".
// UI strings go through one lookup (templates/i18n/<lang>.toml, loaded and
// checked by LoadStrings) so a language is added without touching the
// templates. A site has one Renderer per edition (language): its url
// function writes the edition's links (/zh/gpus/ ...), while assets and
// language-neutral files keep their one URL.
package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/message"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

// Renderer holds the parsed templates of a site.
type Renderer struct {
	pages     map[string]*pageTemplate
	strings   map[string]string
	base      string // base path, "/" or "/sub/"
	edition   string // the edition's path: base, or base + "zh/"
	neutral   func(string) bool
	dateStyle string
	lang, tag string // the edition's language code and BCP 47 tag
	assets    map[string]string
	extra     template.FuncMap
	// scriptStrings holds JSONStrings of every "<page>.js." prefix,
	// computed once: the layout asks for one on every page.
	scriptStrings map[string]string
	// shared is the layout and the partials without a page: what
	// Cached renders with. cached holds Cached's answers of this build
	// (name + "\x00" + key -> template.HTML); ForgetCached empties it.
	shared *template.Template
	cached sync.Map
}

// pageTemplate is a page's template set and the length of the page it
// last wrote: Render sizes its buffer by that, as pages of one template
// are alike in length (a large site's pair pages, say), instead of
// growing it by doubling.
type pageTemplate struct {
	t    *template.Template
	size atomic.Int64
}

// Options configure a Renderer.
type Options struct {
	Root     string // site root holding templates/
	BasePath string // URL path prefix of the site: "/" or "/gpu/"
	// EditionPath is the URL path prefix of this edition's pages: BasePath
	// for the default language, BasePath + "zh/" for Chinese. Empty means
	// BasePath.
	EditionPath string
	// Neutral reports a path served once for all editions (data exports,
	// the WebAssembly engine): url writes it under BasePath.
	Neutral func(p string) bool
	Lang    string // UI language, e.g. "en"
	// Tag is the edition's BCP 47 tag ("zh-CN"); Lang when empty.
	Tag string
	// Strings are the edition's UI strings (see LoadStrings); nil loads
	// templates/i18n/<Lang>.toml alone.
	Strings map[string]string
	// DateStyle is "iso" (2026-12-01) or "cjk" (2026年12月1日).
	DateStyle string
	Assets    map[string]string // logical asset name -> hashed path under the site
	// Funcs are extra template functions the build provides.
	Funcs template.FuncMap
}

var tmplErrRE = regexp.MustCompile(`template: ([^:]+):(\d+):(?:(\d+):)?\s*(.*)`)

// DefaultLang is the language whose catalog, templates/i18n/en.toml, holds
// every UI string; other languages overlay it.
const DefaultLang = "en"

// New parses templates/layout.html with every other templates/*.html.
//
// UI strings are loaded in two layers: templates/i18n/en.toml first, then,
// when o.Lang is another language, templates/i18n/<o.Lang>.toml on top of
// it. A key the language's file lacks keeps its English string, so a
// partial translation renders as a mixed page rather than as "[key]".
func New(o Options, d *diag.List) *Renderer {
	r := newRenderer(o)
	dir := filepath.Join(o.Root, "templates")
	r.strings = o.Strings
	if r.strings == nil {
		lang := o.Lang
		if lang == "" {
			lang = DefaultLang
		}
		r.strings = LoadStrings(o.Root, []string{lang}, d).For(lang)
	}
	r.indexScriptStrings()
	layout, err := os.ReadFile(filepath.Join(dir, "layout.html"))
	if err != nil {
		d.Errorf("templates/layout.html", 0, 0, "cannot read: %v", err)
		return r
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.html"))
	sort.Strings(files)
	partials := readPartials(files, d)
	shared, fatal := r.parsePage(string(layout), partials, "", "", d)
	if fatal {
		return r
	}
	r.shared = shared
	for _, f := range files {
		name := filepath.Base(f)
		if name == "layout.html" || strings.HasPrefix(name, "_") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			d.Errorf("templates/"+name, 0, 0, "cannot read: %v", err)
			continue
		}
		t, fatal := r.parsePage(string(layout), partials, name, string(src), d)
		if fatal {
			return r
		}
		if t != nil {
			r.pages[strings.TrimSuffix(name, ".html")] = &pageTemplate{t: t}
		}
	}
	return r
}

// newRenderer returns a Renderer with o's settings and their defaults
// (language DefaultLang, tag the language, base path "/", edition path
// the base path), without strings or templates.
func newRenderer(o Options) *Renderer {
	r := &Renderer{pages: map[string]*pageTemplate{}, base: o.BasePath, edition: o.EditionPath, neutral: o.Neutral,
		dateStyle: o.DateStyle, lang: o.Lang, tag: o.Tag, assets: o.Assets, extra: o.Funcs}
	if r.lang == "" {
		r.lang = DefaultLang
	}
	if r.tag == "" {
		r.tag = r.lang
	}
	if r.base == "" {
		r.base = "/"
	}
	if r.edition == "" {
		r.edition = r.base
	}
	return r
}

// indexScriptStrings fills r.scriptStrings with the JSONStrings of each
// "<page>.js." prefix of r.strings' keys.
func (r *Renderer) indexScriptStrings() {
	r.scriptStrings = map[string]string{}
	for k := range r.strings {
		if i := strings.Index(k, ".js."); i >= 0 {
			if p := k[:i+len(".js.")]; r.scriptStrings[p] == "" {
				r.scriptStrings[p] = r.jsonStrings(p)
			}
		}
	}
}

// readPartials reads the partials among files (sorted template paths):
// those whose name starts with "_", shared definitions parsed into every
// page. It returns their names and sources in pairs, in files' order, and
// reports a file it cannot read in d.
func readPartials(files []string, d *diag.List) []string {
	var partials []string
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), "_") {
			b, err := os.ReadFile(f)
			if err != nil {
				d.Errorf("templates/"+filepath.Base(f), 0, 0, "cannot read: %v", err)
				continue
			}
			partials = append(partials, filepath.Base(f), string(b))
		}
	}
	return partials
}

// parsePage parses the page template name, of source src, with the
// layout and the partials (names and sources in pairs) and r's functions;
// with no name, the layout and the partials alone.
// It reports a parse error in d and returns a nil template; fatal is true
// when the error is the layout's or a partial's, which every page shares.
func (r *Renderer) parsePage(layout string, partials []string, name, src string, d *diag.List) (t *template.Template, fatal bool) {
	t = template.New("layout.html").Funcs(r.funcs())
	if _, err := t.Parse(layout); err != nil {
		templateError(d, err, "layout.html", layout)
		return nil, true
	}
	for i := 0; i < len(partials); i += 2 {
		if _, err := t.New(partials[i]).Parse(partials[i+1]); err != nil {
			templateError(d, err, partials[i], partials[i+1])
			return nil, true
		}
	}
	if name == "" {
		return t, false
	}
	if _, err := t.New(name).Parse(src); err != nil {
		templateError(d, err, name, src)
		return nil, false
	}
	return t, false
}

// templateError reports a parse error of the template file name (its
// source src) as "templates/FILE:LINE:COL: message". A block left open,
// which the parser notices only at the end of the file or at the next
// {{define}}, is reported at its opening action instead (see
// unclosedBlock); otherwise the parser's position stands.
func templateError(d *diag.List, err error, name, src string) {
	if m := tmplErrRE.FindStringSubmatch(err.Error()); m != nil {
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		msg := m[4]
		if m[1] == name {
			if open, def, ok := unclosedBlock(src); ok {
				switch {
				case msg == "unexpected EOF" && def.line == 0:
					line, col, msg = open.line, open.col, "unclosed {{"+open.word+"}} (add {{end}})"
				case msg == "unexpected <define> in command" && def.line == line:
					line, col, msg = open.line, open.col, "unclosed {{"+open.word+"}} (add {{end}} before the {{define}} on line "+strconv.Itoa(def.line)+")"
				}
			}
		}
		d.Errorf("templates/"+m[1], line, max(col, 1), "%s", msg)
		return
	}
	d.Errorf("templates", 0, 0, "%v", err)
}

// Page is what every page template receives.
type Page struct {
	Kind        string // template name
	Path        string // URL path below the base, e.g. "gpus/h100-sxm5-80gb/"
	Title       string
	Description string
	Site        any
	// Built is the build's date: the day its prices were aged on (the
	// pages' script re-ages them on the day a page is read).
	Built   time.Time
	Data    any
	Scripts []string // logical asset names of scripts the page loads
	// Edition is the page's language edition and its other editions.
	Edition Edition
}

// Edition is a page's language edition, for <html lang>, hreflang links
// and the language switch.
type Edition struct {
	Code, Tag, Name string
	Default         bool   // the default language, served at the root
	DefaultURL      string // the page in the default language (x-default), absolute when the origin is known
	Alternates      []Alternate
	// Canonical is the page's absolute URL, "" when base_url names no
	// host: canonical, hreflang and og:url links want absolute URLs, so
	// the layout writes them only then.
	Canonical string
}

// Alternate is one edition's URL of the same page: URL as the site links
// it, Abs with the site's origin when base_url names one (hreflang wants
// absolute URLs).
type Alternate struct {
	Code, Tag, Name, URL, Abs string
	Current                   bool
}

// Render executes the page's template.
func (r *Renderer) Render(p *Page) ([]byte, error) {
	t := r.pages[p.Kind]
	if t == nil {
		return nil, fmt.Errorf("templates/%s.html: no such page template", p.Kind)
	}
	var b bytes.Buffer
	if n := t.size.Load(); n > 0 {
		b.Grow(int(n + n/8))
	}
	if err := t.t.ExecuteTemplate(&b, "layout.html", p); err != nil {
		return nil, err
	}
	t.size.Store(int64(b.Len()))
	return b.Bytes(), nil
}

// Partial executes the template name (a {{define}} of a partial) as
// page's template set has it, with data, and returns what it writes:
// the same HTML the page writes where it calls the template in text
// context.
func (r *Renderer) Partial(page, name string, data any) ([]byte, error) {
	t := r.pages[page]
	if t == nil {
		return nil, fmt.Errorf("templates/%s.html: no such page template", page)
	}
	var b bytes.Buffer
	if err := t.t.ExecuteTemplate(&b, name, data); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Cached is the template function "cached": what the template name (a
// {{define}} of layout.html or of a partial, so every page has it) writes
// for data, rendered on the first call with key in a build and copied on
// every later one. It is for what many pages show alike: the navigation
// of a section, a table row of the same figures. The caller promises that
// key decides the output: two calls with one key and name in a build must
// want the same HTML, so data should hold only what key stands for and
// what is the same all build long (the site's settings). Call it where an
// element may go (its output is HTML for text context). Concurrent calls
// may both render a key; the first answer stored is kept.
func (r *Renderer) Cached(name, key string, data any) (template.HTML, error) {
	k := name + "\x00" + key
	if h, ok := r.cached.Load(k); ok {
		return h.(template.HTML), nil
	}
	if r.shared == nil {
		return "", fmt.Errorf("cached %q: no templates", name)
	}
	var b strings.Builder
	if err := r.shared.ExecuteTemplate(&b, name, data); err != nil {
		return "", err
	}
	h, _ := r.cached.LoadOrStore(k, template.HTML(b.String())) // #nosec G203 -- a template's own output
	return h.(template.HTML), nil
}

// ForgetCached drops Cached's answers: a Renderer kept for the next build
// (the development server's) starts it with none, as data may change
// between builds.
func (r *Renderer) ForgetCached() { r.cached.Clear() }

// T looks up a UI string; a missing key renders as the key in brackets so
// it is visible, and is reported by the build's checks.
func (r *Renderer) T(key string) string {
	if s, ok := r.strings[key]; ok {
		return s
	}
	return "[" + key + "]"
}

// TH is T for a string that holds inline markup (<code>, <sup>, <kbd>) or
// characters the HTML escaper would rewrite (quotes, apostrophes, "+"): the
// string is trusted as HTML, as the catalogs are part of the repository and
// reviewed like the templates. Templates call it as {{th "key"}} in text
// (never attribute) context; data never goes into it.
func (r *Renderer) TH(key string) template.HTML {
	if s, ok := r.strings[key]; ok {
		return template.HTML(s)
	}
	return template.HTML(template.HTMLEscapeString("[" + key + "]"))
}

// URL returns the URL of a path in this edition ("gpus/" -> "/sub/gpus/",
// or "/sub/zh/gpus/" in the Chinese edition); a language-neutral path
// (see Options.Neutral) keeps its one URL under the base.
func (r *Renderer) URL(p string) string {
	p = strings.TrimPrefix(p, "/")
	if r.neutral != nil && r.neutral(p) {
		return r.base + p
	}
	return r.edition + p
}

// JSONStrings returns, as a JSON object, the UI strings whose keys start
// with prefix, keyed by the rest of the key: what a page's script needs in
// the edition's language ({{i18njson "search.js."}} in a data attribute).
func (r *Renderer) JSONStrings(prefix string) string {
	if s, ok := r.scriptStrings[prefix]; ok {
		return s
	}
	return r.jsonStrings(prefix)
}

func (r *Renderer) jsonStrings(prefix string) string {
	m := map[string]string{}
	for k, v := range r.strings {
		if rest, ok := strings.CutPrefix(k, prefix); ok {
			m[rest] = v
		}
	}
	b, _ := json.Marshal(m) // map keys are sorted: stable output
	return string(b)
}

// DataText shows a text from the data files (notes, descriptions, source
// titles), which stay in the language they were written in: escaped, and
// wrapped in <span lang="..."> when that language is not the edition's,
// so screen readers and browsers treat it right. The language is read
// from the script: text that is mostly Han characters is Chinese,
// anything else English.
func (r *Renderer) DataText(s string) template.HTML {
	esc := template.HTMLEscapeString(s)
	if s == "" || catalog.WrittenIn(s, r.lang) {
		return template.HTML(esc)
	}
	return template.HTML(`<span lang="` + catalog.TextLang(s) + `">` + esc + `</span>`)
}

// TF formats a UI string with arguments: the catalog string is the
// template (trusted like TH, so it may hold inline markup and the
// edition's punctuation), each argument is escaped (a string, or a number
// as fmt.Sprint writes it), and a template.HTML argument (a link, a dtext)
// is kept as it is. One key per sentence, its parts as {0} {1} …, lets a
// language put them in its own order and punctuation ("{0} ({1})" in
// English, "{0}（{1}）" in Chinese) instead of a template gluing
// fragments with English punctuation. Templates call it as
// {{tf "key" args...}} in text context; for an attribute, use tt.
func (r *Renderer) TF(key string, args ...any) template.HTML {
	format, ok := r.strings[key]
	if !ok {
		return template.HTML(template.HTMLEscapeString("[" + key + "]"))
	}
	esc := make([]string, len(args))
	for i, a := range args {
		if h, ok := a.(template.HTML); ok {
			esc[i] = string(h)
		} else {
			esc[i] = template.HTMLEscapeString(argText(a))
		}
	}
	return template.HTML(fillCJK(format, esc))
}

// cjkEdge is a space of a template between a Chinese character and an
// argument that starts or ends with one (the arguments are fenced by
// \x00 and \x01, which no catalog or data text holds).
var cjkEdge = regexp.MustCompile(`[\p{Han}\x{3000}-\x{303f}\x{ff01}-\x{ff60}]\x01 \x00?[\p{Han}\x{3000}-\x{303f}\x{ff01}-\x{ff60}]|[\p{Han}\x{3000}-\x{303f}\x{ff01}-\x{ff60}] \x00[\p{Han}\x{3000}-\x{303f}\x{ff01}-\x{ff60}]`)

// fillCJK is message.Fill, less the spaces of the template that would
// fall between two Chinese characters once the arguments are in: a word
// space in "{0} 的 GPU" for a Latin name, none for a Chinese one ("Acme
// Cloud 的 GPU", "龙云的 GPU"). The arguments themselves are left as
// they are.
func fillCJK(tmpl string, args []string) string {
	if !wide(tmpl, args) {
		return message.Fill(tmpl, args, nil) // no Chinese character: no space to drop
	}
	fenced := make([]string, len(args))
	for i, a := range args {
		fenced[i] = "\x00" + a + "\x01"
	}
	s := cjkEdge.ReplaceAllStringFunc(message.Fill(tmpl, fenced, nil), func(m string) string { return strings.Replace(m, " ", "", 1) })
	return unfence.Replace(s)
}

// unfence takes the fences of fillCJK away. A Replacer is safe for
// concurrent use and built once, on its first use (building one per call
// was 6% of a large build's CPU).
var unfence = strings.NewReplacer("\x00", "", "\x01", "")

// wide reports whether tmpl or an argument holds a character of U+2E80
// or above (the first Han radicals; cjkEdge looks for nothing below): a
// UTF-8 lead byte of E3 or more, or E2 with a second byte of BA or more.
func wide(tmpl string, args []string) bool {
	if wideText(tmpl) {
		return true
	}
	for _, s := range args {
		if wideText(s) {
			return true
		}
	}
	return false
}

// wideText is wide for one string.
func wideText(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xE3 || s[i] == 0xE2 && i+1 < len(s) && s[i+1] >= 0xBA {
			return true
		}
	}
	return false
}

// argText is an argument as a template shows it: a string as it is,
// anything else as fmt.Sprint writes it (a count, a Stringer).
func argText(a any) string {
	if s, ok := a.(string); ok {
		return s
	}
	return fmt.Sprint(a)
}

// Text formats a UI string as plain text (its placeholders filled with
// the arguments as text, the Chinese edges as TF spaces them), for text
// the Go code composes (labels, JSON for scripts) and templates write with
// tt.
func (r *Renderer) Text(key string, args ...any) string {
	if len(args) == 0 {
		return r.T(key)
	}
	strs := make([]string, len(args))
	for i, a := range args {
		strs[i] = argText(a)
	}
	return fillCJK(r.T(key), strs)
}

// Format fills a UI string's placeholders with args as text (fmt.Sprint
// of each), with no change to its spaces: for Go code that holds the
// string itself (a shortcode's words, a chart's labels).
func Format(tmpl string, args ...any) string {
	strs := make([]string, len(args))
	for i, a := range args {
		strs[i] = argText(a)
	}
	return message.Fill(tmpl, strs, nil)
}

// Lang is the edition's language code ("en", "zh").
// PhoneRows is how many offers a GPU or provider page shows on a phone
// before the reader asks for all of them (template func phonerows): the
// rest are in the page, folded by CSS; wider screens show every row.
const PhoneRows = 10

func (r *Renderer) Lang() string { return r.lang }

// Tag is the edition's BCP 47 tag ("en", "zh-CN").
func (r *Renderer) Tag() string { return r.tag }

// Link returns an <a href> element for TF arguments: href must be a path
// or an http(s) URL (anything else becomes "#"), and text is escaped
// unless it is template.HTML (dtext).
func Link(href string, text any) template.HTML {
	h := strings.TrimSpace(href)
	lower := strings.ToLower(h)
	if !(strings.HasPrefix(h, "/") && !strings.HasPrefix(h, "//") || strings.HasPrefix(h, "#") || strings.HasPrefix(h, "?") ||
		strings.HasPrefix(lower, "https://") || strings.HasPrefix(lower, "http://")) {
		h = "#"
	}
	var body string
	switch v := text.(type) {
	case template.HTML:
		body = string(v)
	default:
		body = template.HTMLEscapeString(fmt.Sprint(v))
	}
	return template.HTML(`<a href="` + template.HTMLEscapeString(normalizeURL(h)) + `">` + body + `</a>`)
}

// normalizeURL percent-encodes what html/template's URL normalizer
// encodes in an href (spaces, quotes, parentheses, non-ASCII bytes), so a
// link written by Link reads the same as one written by a template.
func normalizeURL(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', strings.IndexByte("-._~!#$&*+,/:;=?@[]%", c) >= 0:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02x", c)
		}
	}
	return b.String()
}

// RegionName is a provider region's display name in the edition's
// language (the region's [regions.i18n] name, else its English name, else
// its id).
func (r *Renderer) RegionName(p *catalog.Provider, id string) string {
	if p == nil {
		return id
	}
	for _, reg := range p.Regions {
		if reg.ID == id {
			return reg.LocalName(r.lang)
		}
	}
	return id
}

// ProviderDescription is a provider's description in the edition's
// language where the data has one ([i18n.<lang>] description), else its
// description.
func (r *Renderer) ProviderDescription(p *catalog.Provider) string {
	return p.DescriptionIn(r.lang)
}

// RegionLocal is a region's name in the edition's language when the data
// gives one ([regions.i18n]), else "".
func (r *Renderer) RegionLocal(reg catalog.Region) string {
	if t, ok := reg.I18n[r.lang]; ok {
		return t.Name
	}
	return ""
}

// Term names a commitment term: "1 month", "1 year", "3 years", "6
// months" (billing.term.* strings).
func (r *Renderer) Term(months int) string {
	switch {
	case months == 1:
		return r.T("billing.term.month")
	case months == 12:
		return r.T("billing.term.year")
	case months%12 == 0:
		return Format(r.T("billing.term.years"), months/12)
	}
	return Format(r.T("billing.term"), months)
}

// SizeUnit is the quantity unit of an extra cost's unit ("gib-month" ->
// "GiB", "gb" -> "GB"), for tier bounds.
func SizeUnit(unit string) string {
	switch {
	case strings.HasPrefix(unit, "gib"):
		return "GiB"
	case strings.HasPrefix(unit, "gb"):
		return "GB"
	}
	return unit
}

// RootURL returns the URL of a path below the site's base, outside any
// edition.
func (r *Renderer) RootURL(p string) string { return r.base + strings.TrimPrefix(p, "/") }

// Date formats a date in the edition's style.
func (r *Renderer) Date(t time.Time) string {
	if r.dateStyle == "cjk" {
		return fmt.Sprintf("%d年%d月%d日", t.Year(), int(t.Month()), t.Day())
	}
	return t.Format(time.DateOnly)
}

// When is a price's date: <time class="asof" datetime="2024-05-07">
// in the edition's style.
func (r *Renderer) When(t time.Time) template.HTML {
	return template.HTML(`<time class="asof" datetime="` + t.Format(time.DateOnly) + `">` + template.HTMLEscapeString(r.Date(t)) + `</time>`)
}

// AgeConfig is the JSON static/js/_age.mjs reads from <body data-age>.
func (r *Renderer) AgeConfig(st catalog.Staleness, built time.Time) (string, error) {
	b, err := json.Marshal(map[string]any{"fresh": st.FreshDays, "stale": st.StaleDays, "built": built.Format(time.DateOnly),
		"t": map[string]string{"fresh": r.T("band.fresh"), "ageing": r.T("band.ageing"), "stale": r.T("band.stale"), "age": r.T("tables.age"), "aged": r.T("age.aged")}})
	return string(b), err
}

func (r *Renderer) funcs() template.FuncMap {
	m := r.baseFuncs()
	for k, v := range r.extra {
		m[k] = v
	}
	return m
}

// baseFuncs returns the template functions of every site; funcs adds the
// build's own (Options.Funcs) to them.
func (r *Renderer) baseFuncs() template.FuncMap {
	return template.FuncMap{
		"t":   r.T,
		"th":  r.TH,
		"url": r.URL,
		// evidence is where a price's source link goes: its published
		// capture when it was read from one, else its source URL.
		"evidence": func(source, capture string) string {
			if capture != "" {
				return r.URL(catalog.CaptureURL(capture))
			}
			return source
		},
		"asset": func(name string) (string, error) {
			h, ok := r.assets[name]
			if !ok {
				return "", fmt.Errorf("unknown asset %q", name)
			}
			return r.RootURL(h), nil
		},
		"rooturl":   r.RootURL,
		"dtext":     r.DataText,
		"pname":     func(p interface{ LocalName(string) string }) string { return p.LocalName(r.lang) },
		"phonerows": func() int { return PhoneRows },
		"gname":     func(g interface{ LocalName(string) string }) string { return g.LocalName(r.lang) },
		"rname":     r.RegionName,
		"rlocal":    r.RegionLocal,
		"pdesc":     r.ProviderDescription,
		// lang is the edition's language code, for the data's texts in it
		// ({{$p.Billing.NotesIn lang}}).
		"lang":      func() string { return r.lang },
		"tf":        r.TF,
		"tt":        r.Text,
		"link":      Link,
		"sitelinks": r.siteLinks,
		"term":      r.Term,
		"sizeunit":  SizeUnit,
		"i18njson":  r.JSONStrings,
		"money":     Money,
		// figure is an amount as money writes it, without the currency
		// (a table whose caption names it).
		"figure":  func(v float64) string { return strings.TrimSuffix(Money(v, ""), " ") },
		"gib":     sizing.FormatGiB,
		"flops":   sizing.FormatFLOPs,
		"tps":     sizing.FormatRate,
		"hours":   sizing.FormatDuration,
		"num":     numAny,
		"date":    r.Date,
		"isodate": func(t time.Time) string { return t.Format(time.DateOnly) },
		// when is a price's date as readers see it, in a <time> whose
		// datetime is ISO in every edition; the page script
		// (static/js/age.js) reads it to age the price on the day the page
		// is read.
		"when": r.When,
		// agecfg is the page script's price-age rule (static/js/_age.mjs):
		// the thresholds, the build date and the band words.
		"agecfg": r.AgeConfig,
		"deref":  func(p *float64) float64 { return *p },
		"derefi": func(p *int) int { return *p },
		"add":    func(a, b int) int { return a + b },
		"add64":  func(a, b int64) int64 { return a + b },
		"seq":    seq,
		"join":   strings.Join,
		"dict":   dict,
		"cached": r.Cached,
	}
}

// siteLinks writes URLs as links named by their host, as code (a name,
// not prose in either edition), in a list.
func (r *Renderer) siteLinks(urls []string) template.HTML {
	out := make([]string, len(urls))
	for i, u := range urls {
		host := u
		if p, err := url.Parse(u); err == nil && p.Host != "" {
			host = p.Host
		}
		out[i] = string(Link(u, template.HTML("<code>"+template.HTMLEscapeString(host)+"</code>")))
	}
	return template.HTML(strings.Join(out, template.HTMLEscapeString(r.T("punct.list"))))
}

// seq returns the integers 0 to n-1, for ranging n times in a template.
func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// dict makes a map of key, value pairs (each key formatted by fmt.Sprint;
// an odd last argument is ignored), to pass several values to a template.
func dict(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[fmt.Sprint(kv[i])] = kv[i+1]
	}
	return m
}

// Money formats an amount with its currency code: "12.34 USD". Amounts
// under 1 keep three decimals so cheap GPUs stay distinguishable.
func Money(v float64, cur string) string {
	if v < 1 {
		return strconv.FormatFloat(v, 'f', 3, 64) + " " + cur
	}
	return strconv.FormatFloat(v, 'f', 2, 64) + " " + cur
}

// Num formats a number without trailing zeros, with thousands separators
// for large integers.
func Num(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		s := strconv.FormatInt(int64(v), 10)
		if len(s) <= 4 {
			return s
		}
		var b strings.Builder
		for i, c := range s {
			if i > 0 && (len(s)-i)%3 == 0 {
				b.WriteByte(',')
			}
			b.WriteRune(c)
		}
		return b.String()
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func numAny(v any) string {
	switch x := v.(type) {
	case float64:
		return Num(x)
	case int:
		return Num(float64(x))
	case int64:
		return Num(float64(x))
	}
	return fmt.Sprint(v)
}
