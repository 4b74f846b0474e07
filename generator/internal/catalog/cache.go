package catalog

import (
	"bytes"
	"os"
	"reflect"
	"sync"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/tomlpos"
)

// Cache keeps the decoded data files of one site between loads in the same
// process, so a load after an edit decodes only the files whose bytes
// changed: the dev server reloads the catalog after every save, and
// decoding the large offers files (a megabyte of TOML for one cloud) was
// most of that time. A file is decoded again whenever its content differs
// from the cached copy's, so the cache can never serve stale data; the
// checks that follow decoding, which depend on other files and on the
// date, run on every load as before. The zero value is not usable; make
// one with NewCache. A Cache may be used by one load at a time.
type Cache struct {
	mu    sync.Mutex
	files map[string]*cachedFile // by absolute path and display path
	seen  map[string]bool        // keys used by the current load
}

// cachedFile is one decoded file as it stood right after decoding, before
// any check changed it.
type cachedFile struct {
	src     []byte
	v       reflect.Value // a private copy of the decoded value (not a pointer)
	ix      *tomlpos.Index
	diags   *diag.List // what decoding reported
	urlDone map[string]bool
	lines   []string // src split into lines (file.sourceLines), read-only
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{files: map[string]*cachedFile{}} }

// Load is LoadLayered through the cache: files whose content is the same
// as at the previous load are copied from the cache instead of decoded.
// The catalog and diagnostics are the same as LoadLayered's. Files the
// load did not read are dropped from the cache.
func (c *Cache) Load(root string, layer Layer, now time.Time) (*Catalog, *diag.List) {
	c.mu.Lock()
	c.seen = map[string]bool{}
	c.mu.Unlock()
	cat, d := load(root, layer, now, c)
	c.mu.Lock()
	for k := range c.files {
		if !c.seen[k] {
			delete(c.files, k)
		}
	}
	c.seen = nil
	c.mu.Unlock()
	return cat, d
}

// decode is decodeFile through the cache; a nil cache decodes.
func (c *Cache) decode(abs, rel string, v any, d *diag.List) *file {
	if c == nil {
		return decodeFile(abs, rel, v, d)
	}
	key := abs + "\x00" + rel
	c.mu.Lock()
	c.seen[key] = true
	e := c.files[key]
	c.mu.Unlock()
	src, err := os.ReadFile(abs)
	if err != nil {
		d.Errorf(rel, 1, 1, "cannot read: %v", err)
		return nil
	}
	dst := reflect.ValueOf(v).Elem()
	if e != nil && bytes.Equal(e.src, src) && e.v.Type() == dst.Type() {
		dst.Set(clone(e.v))
		d.Merge(e.diags)
		urlDone := make(map[string]bool, len(e.urlDone))
		for k, ok := range e.urlDone {
			urlDone[k] = ok
		}
		return &file{rel: rel, src: src, ix: e.ix, d: d, blank: map[string]bool{}, urlDone: urlDone, lines: e.lines}
	}
	sub := &diag.List{}
	f := decodeSource(src, rel, v, sub)
	d.Merge(sub)
	if f == nil {
		c.mu.Lock()
		delete(c.files, key)
		c.mu.Unlock()
		return nil
	}
	urlDone := make(map[string]bool, len(f.urlDone))
	for k, ok := range f.urlDone {
		urlDone[k] = ok
	}
	c.mu.Lock()
	c.files[key] = &cachedFile{src: src, v: clone(dst), ix: f.ix, diags: sub, urlDone: urlDone, lines: f.sourceLines()}
	c.mu.Unlock()
	f.d = d
	return f
}

// clone returns a deep copy of v: pointers, slices and maps are copied,
// so nothing a check or a later stage changes in the copy reaches v.
// Unexported fields are copied as values (decoding sets none of them;
// time.Time keeps its shared, immutable location).
func clone(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		n := reflect.New(v.Type().Elem())
		n.Elem().Set(clone(v.Elem()))
		return n
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		n := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			n.Index(i).Set(clone(v.Index(i)))
		}
		return n
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		n := reflect.MakeMapWithSize(v.Type(), v.Len())
		it := v.MapRange()
		for it.Next() {
			n.SetMapIndex(it.Key(), clone(it.Value()))
		}
		return n
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		n := reflect.New(v.Type()).Elem()
		n.Set(clone(v.Elem()))
		return n
	case reflect.Array:
		n := reflect.New(v.Type()).Elem()
		for i := 0; i < v.Len(); i++ {
			n.Index(i).Set(clone(v.Index(i)))
		}
		return n
	case reflect.Struct:
		n := reflect.New(v.Type()).Elem()
		n.Set(v)
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			if !t.Field(i).IsExported() {
				continue
			}
			switch t.Field(i).Type.Kind() {
			case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface, reflect.Struct, reflect.Array:
				n.Field(i).Set(clone(v.Field(i)))
			}
		}
		return n
	}
	return v
}
