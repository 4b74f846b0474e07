package catalog

import (
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/safetext"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/tomlpos"
)

// urlKeys are the keys whose values are URLs wherever they appear in a
// data file: sources of specs and prices, homepages, dataset pages.
func urlKeys() map[string]bool {
	return map[string]bool{"url": true, "source": true, "homepage": true, "repo_url": true}
}

// checkStrings walks a decoded file and reports, at each value's position,
// every string holding a character badRune rejects and every URL field
// (urlKeys) that safetext.SourceURL rejects. It records the URL fields it checked, so
// the per-kind checks do not report them again.
func (f *file) checkStrings(v any) {
	f.walkStrings(reflect.ValueOf(v), "")
}

func (f *file) walkStrings(v reflect.Value, path string) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			f.walkStrings(v.Elem(), path)
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(time.Time{}) {
			return
		}
		for _, sf := range tomlpos.Fields(v.Type()) {
			f.walkStrings(v.FieldByIndex(sf.Index), join(path, tomlpos.KeyOf(sf)))
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			f.walkStrings(v.Index(i), join(path, strconv.Itoa(i)))
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			if k.Kind() == reflect.String {
				f.checkString(join(path, k.String()), k.String(), false)
			}
			f.walkStrings(v.MapIndex(k), join(path, k.String()))
		}
	case reflect.String:
		f.checkString(path, v.String(), urlKeys()[lastKey(path)])
	}
}

func (f *file) checkString(path, s string, isURL bool) {
	if !f.has(path) {
		return
	}
	if r, bad := safetext.FirstBad(s); bad {
		f.errorf(path, "%s holds the character %U: remove it (control characters and bidirectional overrides are not allowed in data)", lastKey(path), r)
		if isURL {
			f.urlDone[path] = true
		}
		return
	}
	if !isURL || strings.TrimSpace(s) == "" {
		return // an empty required value is reported by require
	}
	f.urlDone[path] = true
	if err := safetext.SourceURL(s); err != nil {
		f.errorf(path, "%s %q %v", lastKey(path), s, err)
	}
}
