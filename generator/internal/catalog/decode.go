package catalog

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/safetext"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/tomlpos"
)

// file is one TOML source being decoded and checked; it turns key paths
// into positioned diagnostics.
type file struct {
	rel string // path shown in messages, relative to the site root
	src []byte
	ix  *tomlpos.Index
	d   *diag.List
	// blank holds the paths of required keys reported as empty, so the
	// value checks that follow do not report them a second time.
	blank map[string]bool
	// urlDone holds the paths of URL values checkStrings validated.
	urlDone map[string]bool
	// lines is src split into lines, computed once (sourceLines).
	lines []string
}

// sourceLines returns the source split into lines; an offers file holds
// thousands of price blocks, so it is split once, not per check.
func (f *file) sourceLines() []string {
	if f.lines == nil {
		f.lines = strings.Split(string(f.src), "\n")
	}
	return f.lines
}

// decodeFile reads and decodes path into v. It reports syntax errors,
// type mismatches and unknown keys; it returns nil when v is unusable.
func decodeFile(abs, rel string, v any, d *diag.List) *file {
	src, err := os.ReadFile(abs)
	if err != nil {
		d.Errorf(rel, 1, 1, "cannot read: %v", err)
		return nil
	}
	return decodeSource(src, rel, v, d)
}

// decodeSource is decodeFile on a source already read.
func decodeSource(src []byte, rel string, v any, d *diag.List) *file {
	ix := tomlpos.Source{Rel: rel, Text: src, ListValid: true}.Decode(v, d)
	if ix == nil {
		return nil
	}
	f := &file{rel: rel, src: src, ix: ix, d: d, blank: map[string]bool{}, urlDone: map[string]bool{}}
	f.checkStrings(v)
	return f
}

// pos returns where to report a problem with the key at path: its value,
// else the nearest enclosing table that appears in the source, else 1:1.
func (f *file) pos(path string) (int, int) {
	for p := path; p != ""; {
		if at := f.ix.Value(p); at.Line > 0 {
			return at.Line, at.Col
		}
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return 1, 1
}

// errorf reports an error at the key path.
func (f *file) errorf(path, format string, args ...any) {
	line, col := f.pos(path)
	f.d.Errorf(f.rel, line, col, format, args...)
}

// hintf reports an error at the key path with a hint ("" for none).
func (f *file) hintf(path, hint, format string, args ...any) {
	line, col := f.pos(path)
	f.d.Hintf(f.rel, line, col, hint, format, args...)
}

// warnf reports a warning at the key path.
func (f *file) warnf(path, format string, args ...any) {
	line, col := f.pos(path)
	f.d.Warnf(f.rel, line, col, format, args...)
}

// has reports whether the key at path is written in the source.
// An array of tables counts as written when its first element is.
func (f *file) has(path string) bool {
	return f.ix.Key(path).Line > 0 || f.ix.Key(path+".0").Line > 0
}

// require reports each key of keys that is missing under prefix.
func (f *file) require(prefix string, keys ...string) {
	for _, k := range keys {
		p := join(prefix, k)
		if !f.has(p) {
			where := "file"
			if prefix != "" {
				where = tomlpos.StripIndices(prefix)
				where = "[" + where + "]"
			}
			if line := f.commented(prefix, k); line > 0 {
				// A template from `new` holds the key as a comment: point there.
				f.d.Errorf(f.rel, line, 1, "missing required key %q in %s (uncomment this line and fill it in)", k, where)
				continue
			}
			f.errorf(prefix, "missing required key %q in %s", k, where)
		} else if f.emptyString(p) {
			f.errorf(p, "required key %q is empty", k)
			f.blank[p] = true
		}
	}
}

// emptyString reports whether the value at path is an empty or blank
// one-line string, basic or literal: a required text left unfilled.
func (f *file) emptyString(path string) bool {
	if f.ix.Kind(path) != 's' {
		return false
	}
	at := f.ix.Value(path)
	lines := f.sourceLines()
	if at.Line < 1 || at.Line > len(lines) {
		return false
	}
	rest, ok := fromColumn(lines[at.Line-1], at.Col)
	if !ok {
		return false
	}
	q := rest[:1]
	if strings.HasPrefix(rest, q+q+q) {
		return false // a multi-line string
	}
	end := strings.Index(rest[1:], q)
	return end >= 0 && strings.TrimSpace(rest[1:1+end]) == ""
}

// fromColumn returns line from its col-th character (1-based, counted in
// runes, as tomlpos counts); ok is false past its end. It converts
// nothing: a data file has tens of thousands of values to look at.
func fromColumn(line string, col int) (rest string, ok bool) {
	if col < 1 {
		return "", false
	}
	n := 1
	for i := range line {
		if n == col {
			return line[i:], true
		}
		n++
	}
	return "", false
}

// commented returns the line of a commented-out "# key = ..." inside the
// table at prefix (the lines between its header and the next header), or 0.
func (f *file) commented(prefix, key string) int {
	start := 1
	if prefix != "" {
		at := f.ix.Key(prefix)
		if at.Line == 0 {
			return 0
		}
		start = at.Line + 1
	}
	lines := f.sourceLines()
	for i := start - 1; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if strings.HasPrefix(l, "[") {
			break
		}
		if rest, ok := strings.CutPrefix(l, "#"); ok {
			if k, _, ok := strings.Cut(rest, "="); ok && strings.TrimSpace(k) == key {
				return i + 1
			}
		}
	}
	return 0
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

// checker bundles the range checks every kind of file uses.
type checker struct {
	*file
	now time.Time
	// captures is the absolute CaptureDir cited captures are verified in
	// ("" skips the file check); providerID the provider whose offers are
	// checked ("" outside offers files).
	captures, providerID string
	// sums hashes each capture file once per load, however many prices
	// cite it (nil: hash on every use).
	sums *captureSums
}

func (c checker) positive(path string, v float64) {
	if c.has(path) && !(v > 0) {
		c.errorf(path, "%s must be greater than 0, got %v", lastKey(path), v)
	}
}

func (c checker) positivePtr(path string, v *float64) {
	if v != nil {
		c.positive(path, *v)
	}
}

func (c checker) oneOf(path, v string, allowed ...string) {
	if !c.has(path) || c.blank[path] {
		return
	}
	for _, a := range allowed {
		if v == a {
			return
		}
	}
	c.hintf(path, diag.DidYouMean(v, allowed), "%s %q is not one of: %s", lastKey(path), v, strings.Join(allowed, ", "))
}

func (c checker) date(path string, t time.Time) {
	if !c.has(path) {
		return
	}
	day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	today := time.Date(c.now.Year(), c.now.Month(), c.now.Day(), 0, 0, 0, 0, time.UTC)
	switch {
	case day.After(today):
		c.errorf(path, "%s %s is in the future (today is %s)", lastKey(path), day.Format(time.DateOnly), today.Format(time.DateOnly))
	case t.Year() < 2000:
		c.errorf(path, "%s %s is implausibly old", lastKey(path), day.Format(time.DateOnly))
	}
}

func (c checker) url(path, v string) {
	if !c.has(path) || c.blank[path] || c.urlDone[path] || strings.TrimSpace(v) == "" {
		return
	}
	c.urlDone[path] = true
	if err := safetext.SourceURL(v); err != nil {
		c.errorf(path, "%s %q %v", lastKey(path), v, err)
	}
}

func (c checker) sources(prefix string, srcs []Source) {
	if len(srcs) == 0 {
		c.errorf(prefix, "at least one [[sources]] entry (url, title, accessed) is required")
	}
	for i, s := range srcs {
		p := join(prefix, fmt.Sprintf("sources.%d", i))
		c.require(p, requiredOf[Source]()...)
		c.url(p+".url", s.URL)
		c.date(p+".accessed", s.Accessed)
	}
}

func lastKey(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[i+1:]
	}
	return path
}

func sortStrings(s []string) { sort.Strings(s) }
