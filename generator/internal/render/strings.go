package render

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/BurntSushi/toml"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/message"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/tomlpos"
)

// verbRE matches a printf verb ("%s", "%d", "%.1f", "%[2]s"), which the
// catalogs no longer use: their strings take {0} {1} … (package message).
// A percent sign before a space, a digit's end or a Chinese character is
// text ("51%", "% off").
var verbRE = regexp.MustCompile(`%(?:\[\d+\])?[0-9.]*[sdvfq](?:[^\p{L}]|$)`)

// Strings holds the UI strings of every language of a site, checked
// against the default language's catalog.
type Strings struct {
	byLang map[string]map[string]string
}

// For returns the strings of lang (nil for an unknown language).
func (s *Strings) For(lang string) map[string]string { return s.byLang[lang] }

// LoadStrings reads templates/i18n/<lang>.toml for each language, the
// first being the complete catalog the others are checked against. It
// reports, with positions: a file that does not parse, a key missing in a
// language (at the key's line in the first catalog), a key the first
// catalog does not have (with a did-you-mean), a string whose
// placeholders ({0} {1} …, package message) differ from the first
// catalog's, and a printf verb left in any string. No language falls back to
// another: a missing key is an error, so a shipped page never mixes
// languages.
func LoadStrings(root string, langs []string, d *diag.List) *Strings {
	s := &Strings{byLang: map[string]map[string]string{}}
	if len(langs) == 0 {
		langs = []string{DefaultLang}
	}
	type file struct {
		rel string
		m   map[string]string
		ix  *tomlpos.Index
	}
	files := map[string]*file{}
	for _, l := range langs {
		rel := "templates/i18n/" + l + ".toml"
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			d.Errorf(rel, 1, 1, "cannot read the %s UI strings: %v (copy templates/i18n/%s.toml and translate it)", l, err, langs[0])
			continue
		}
		m := map[string]string{}
		if _, err := toml.Decode(string(src), &m); err != nil {
			line, col, msg := tomlpos.DecodeError(src, err)
			d.Errorf(rel, line, col, "%s (every line is \"key\" = \"string\")", msg)
			continue
		}
		files[l] = &file{rel: rel, m: m, ix: tomlpos.Scan(src)}
		s.byLang[l] = m
	}
	base := files[langs[0]]
	if base == nil {
		return s
	}
	keys := make([]string, 0, len(base.m))
	for k := range base.m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	at := func(f *file, key string) (int, int) {
		if p := f.ix.Key(key); p.Line > 0 {
			return p.Line, p.Col
		}
		return 1, 1
	}
	for _, l := range langs {
		if f := files[l]; f != nil {
			noVerbs(f.rel, f.m, func(k string) (int, int) { return at(f, k) }, d)
		}
	}
	for _, l := range langs[1:] {
		f := files[l]
		if f == nil {
			continue
		}
		for _, k := range keys {
			v, ok := f.m[k]
			if !ok {
				line, col := at(base, k)
				d.Errorf(base.rel, line, col, "key %q has no %s string: add it to %s", k, l, f.rel)
				continue
			}
			if k == "lang" {
				continue
			}
			if want, got := message.Placeholders(base.m[k]), message.Placeholders(v); want != got {
				line, col := at(f, k)
				d.Errorf(f.rel, line, col, "key %q has placeholders %s, but %s has %s: use each of them (in any order)", k, orNone(got), base.rel, orNone(want))
			}
		}
		for k := range f.m {
			if _, ok := base.m[k]; !ok {
				line, col := at(f, k)
				d.Hintf(f.rel, line, col, diag.DidYouMean(k, keys), "key %q is not in %s (a string nothing looks up)", k, base.rel)
			}
		}
	}
	return s
}

// noVerbs reports each string of the catalog m (file rel; at gives a
// key's position) that still holds a printf verb.
func noVerbs(rel string, m map[string]string, at func(string) (int, int), d *diag.List) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if v := verbRE.FindString(m[k]); v != "" {
			line, col := at(k)
			d.Errorf(rel, line, col, "key %q has the printf verb %q: the catalogs take {0} {1} … for their arguments (package message)", k, strings.TrimRightFunc(v, func(r rune) bool { return !unicode.IsLetter(r) }))
		}
	}
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
