package catalog

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"hash"
	"maps"
	"os"
	"reflect"
	"slices"
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
// from the cached copy's, so the cache can never serve stale data.
//
// The checks that follow decoding depend on other files and on the date.
// They run on every load, except those of an offers file's offers, the
// bulk of them: the cache keeps each offers file's offers as checked, with
// what the checks reported, under a key of everything those checks read
// (the date, the overlay, and the bytes of every other data file of the
// load but the offers files, see depsKey), and a load whose key and file
// are the same takes a copy of them instead of checking again. The checks
// across offers files (an instance listed twice) run on every load.
//
// The zero value is not usable; make one with NewCache. A Cache may be
// used by one load at a time.
type Cache struct {
	mu    sync.Mutex
	files map[string]*cachedFile // by absolute path and display path
	seen  map[string]bool        // keys used by the current load
	// deps hashes the files the current load decoded so far, other than
	// offers files (decodeOffers).
	deps hash.Hash
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
	// checked is an offers file's offers after their checks, for loads
	// with the same dependencies (nil until a load checked them).
	checked *checkedOffers
}

// checkedOffers are an offers file's offers as a load checked them, and
// what each offer's checks reported. The copies the cache keeps point to
// no provider or GPU (those are the load's own): linked says which offers
// the checks linked to their GPU.
type checkedOffers struct {
	deps   [sha256.Size]byte
	offers []*Offer
	linked []bool
	diags  []*diag.List
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
	c.deps = sha256.New()
	c.mu.Unlock()
	cat, d := load(root, layer, now, c)
	c.mu.Lock()
	for k := range c.files {
		if !c.seen[k] {
			delete(c.files, k)
		}
	}
	c.seen, c.deps = nil, nil
	c.mu.Unlock()
	return cat, d
}

// decode is decodeFile through the cache; a nil cache decodes. The file
// counts among the dependencies of the offers files' checks (depsKey).
func (c *Cache) decode(abs, rel string, v any, d *diag.List) *file {
	if c == nil {
		return decodeFile(abs, rel, v, d)
	}
	src, e, ok := c.read(abs, rel, d)
	if !ok {
		return nil
	}
	fmt.Fprintf(c.deps, "%d:%s%d:", len(rel), rel, len(src))
	c.deps.Write(src)
	return c.fill(abs, rel, src, e, v, d)
}

// read reads a file and returns the cache's entry of it, if any.
func (c *Cache) read(abs, rel string, d *diag.List) (src []byte, e *cachedFile, ok bool) {
	key := fileKey(abs, rel)
	c.mu.Lock()
	c.seen[key] = true
	e = c.files[key]
	c.mu.Unlock()
	src, err := os.ReadFile(abs)
	if err != nil {
		d.Errorf(rel, 1, 1, "cannot read: %v", err)
		return nil, nil, false
	}
	if e != nil && !bytes.Equal(e.src, src) {
		e = nil
	}
	return src, e, true
}

// depsKey is the key of what an offers file's checks read besides the
// file itself: the date, the overlay, and every file the load decoded
// through the cache so far (the load decodes the offers files last). A nil
// cache has none.
func (c *Cache) depsKey(now time.Time, layer Layer, captures string) (k [sha256.Size]byte) {
	if c == nil {
		return k
	}
	fmt.Fprintf(c.deps, "now %s\x00layer %q %q\x00captures %s", now.Format(time.RFC3339Nano), layer.Dir, layer.Label, captures)
	c.deps.Sum(k[:0])
	return k
}

// decodeOffers decodes an offers file into v, as decode does but without
// counting it among the dependencies; when the cache holds the file's
// offers as checked under deps, it returns a copy of them instead, and v
// is left as it was.
func (c *Cache) decodeOffers(abs, rel string, v *OfferFile, deps [sha256.Size]byte, d *diag.List) (*file, *checkedOffers) {
	if c == nil {
		return decodeFile(abs, rel, v, d), nil
	}
	src, e, ok := c.read(abs, rel, d)
	if !ok {
		return nil, nil
	}
	if e != nil && e.checked != nil && e.checked.deps == deps {
		d.Merge(e.diags)
		return e.file(rel, src, d), e.checked.copy()
	}
	return c.fill(abs, rel, src, e, v, d), nil
}

// keepChecked records an offers file's offers as its load checked them,
// with what each offer's checks reported, for the loads with the same
// dependencies (deps). A nil cache keeps nothing.
func (c *Cache) keepChecked(abs, rel string, deps [sha256.Size]byte, offers []*Offer, diags []*diag.List) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.files[fileKey(abs, rel)]
	if e == nil {
		return
	}
	k := &checkedOffers{deps: deps, diags: diags, linked: make([]bool, len(offers)), offers: copyOffers(offers)}
	for i, o := range offers {
		k.linked[i] = o.GPU != nil
	}
	e.checked = k
}

// copy returns k with a deep copy of its offers (copyOffers), sharing the
// diagnostics, which nobody changes.
func (k *checkedOffers) copy() *checkedOffers {
	out := *k
	out.offers = copyOffers(k.offers)
	return &out
}

// copyOffers returns a deep copy of offers whose Provider and GPU are left
// nil: those are a load's own.
func copyOffers(offers []*Offer) []*Offer {
	out := make([]*Offer, len(offers))
	for i, o := range offers {
		p, g := o.Provider, o.GPU
		o.Provider, o.GPU = nil, nil
		c := clone(reflect.ValueOf(o)).Interface().(*Offer)
		o.Provider, o.GPU = p, g
		c.current = slices.Clone(o.current) // unexported: clone shares it
		out[i] = c
	}
	return out
}

// fileKey is a cached file's key: its absolute and display paths.
func fileKey(abs, rel string) string { return abs + "\x00" + rel }

// file returns a checker's view of a cached file, reporting to d.
func (e *cachedFile) file(rel string, src []byte, d *diag.List) *file {
	return &file{rel: rel, src: src, ix: e.ix, d: d, blank: map[string]bool{}, urlDone: maps.Clone(e.urlDone), lines: e.lines}
}

// fill decodes src into v, or copies the cached entry e (of the same
// bytes) into it, and keeps what decoding gave.
func (c *Cache) fill(abs, rel string, src []byte, e *cachedFile, v any, d *diag.List) *file {
	key := fileKey(abs, rel)
	dst := reflect.ValueOf(v).Elem()
	if e != nil && e.v.Type() == dst.Type() {
		dst.Set(clone(e.v))
		d.Merge(e.diags)
		return e.file(rel, src, d)
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
	c.mu.Lock()
	c.files[key] = &cachedFile{src: src, v: clone(dst), ix: f.ix, diags: sub, urlDone: maps.Clone(f.urlDone), lines: f.sourceLines()}
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
