package tomlpos

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

// Source is TOML text to decode into a struct, with what the diagnostics
// about it need: the catalog's data files and the guides' front matter
// are both decoded by Source.Decode.
type Source struct {
	// Rel is the path the diagnostics carry.
	Rel string
	// Text is the TOML.
	Text []byte
	// Line is the line of the file that Text starts on (front matter,
	// after its opening +++ line: 2); 0 means 1, a whole file.
	Line int
	// Prefix starts every message ("front matter: ").
	Prefix string
	// ListValid names every key valid at the place of an unknown key
	// when none is close enough to suggest ("valid keys here: ...").
	ListValid bool
}

// Decode decodes s.Text into v, a pointer to a struct, and reports to d
// at their line and column: a syntax error or a type mismatch (see
// DecodeError), and every key that no field of the struct takes, with a
// did-you-mean drawn from the toml tags of the struct at that place. It
// returns the index of s.Text, or nil when the text did not decode and v
// is unusable. Unknown keys do not make v unusable: the rest decoded.
func (s Source) Decode(v any, d *diag.List) *Index {
	first := max(s.Line, 1)
	md, err := toml.Decode(string(s.Text), v)
	if err != nil {
		line, col, msg := DecodeError(s.Text, err)
		d.Errorf(s.Rel, line+first-1, col, "%s%s", s.Prefix, msg)
		return nil
	}
	ix := Scan(s.Text)
	s.unknownKeys(ix, md.Undecoded(), reflect.TypeOf(v), first, d)
	return ix
}

// unknownKeys reports every key the decoder did not use. A misspelt
// table is reported once, not again for each key inside it; a key is
// reported at every place it is written (each element of an array of
// tables), or at the file's 1:1 when the index cannot find it.
func (s Source) unknownKeys(ix *Index, undecoded []toml.Key, t reflect.Type, first int, d *diag.List) {
	seen := map[Pos]bool{}
	for _, k := range undecoded {
		key := k.String()
		if insideOther(key, undecoded) {
			continue
		}
		name := k[len(k)-1]
		valid := fieldKeys(t, k[:len(k)-1])
		msg := fmt.Sprintf("%sunknown key %q", s.Prefix, name)
		hint := diag.DidYouMean(name, valid)
		if hint == "" && s.ListValid && len(valid) > 0 {
			hint = "valid keys here: " + strings.Join(valid, ", ")
		}
		at := ix.Find(key)
		for i := range at {
			at[i].Line += first - 1
		}
		if len(at) == 0 {
			at = []Pos{{Line: 1, Col: 1}}
		}
		for _, p := range at {
			if !seen[p] {
				seen[p] = true
				d.Hintf(s.Rel, p.Line, p.Col, hint, "%s", msg)
			}
		}
	}
}

// insideOther reports whether key lies inside another undecoded key.
func insideOther(key string, undecoded []toml.Key) bool {
	for _, other := range undecoded {
		if o := other.String(); o != key && strings.HasPrefix(key, o+".") {
			return true
		}
	}
	return false
}

// fieldKeys lists, sorted, the TOML keys of the struct reached from t by
// path (through pointers, slices and maps; a map's key is any name).
func fieldKeys(t reflect.Type, path []string) []string {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		if t.Kind() == reflect.Map {
			// A table keyed by the writer (i18n.<lang>): the key is any name.
			if len(path) == 0 {
				return nil
			}
			path = path[1:]
		}
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	if len(path) > 0 {
		for _, f := range Fields(t) {
			if KeyOf(f) == path[0] {
				return fieldKeys(f.Type, path[1:])
			}
		}
		return nil
	}
	var out []string
	for _, f := range Fields(t) {
		out = append(out, KeyOf(f))
	}
	sort.Strings(out)
	return out
}

// Keys lists, sorted, the TOML keys of a struct type (through pointers,
// slices and maps to it).
func Keys(t reflect.Type) []string { return fieldKeys(t, nil) }

// Fields returns the exported fields of struct type t that have a TOML
// key, in order, with those of an embedded struct in its place (as the
// decoder reads them; use Value.FieldByIndex with their Index).
func Fields(t reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for _, f := range reflect.VisibleFields(t) {
		if k := KeyOf(f); k != "" && k != "-" && f.IsExported() && !f.Anonymous {
			out = append(out, f)
		}
	}
	return out
}

// KeyOf returns the TOML key of a struct field: its toml tag's name, ""
// for none and "-" for a field the decoder skips.
func KeyOf(f reflect.StructField) string {
	k, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
	return k
}
