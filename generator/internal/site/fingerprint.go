package site

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"reflect"
	"slices"
)

// fingerprinter hashes a page's data by value: every exported field,
// element, map entry and pointed-to value, which is what a template can
// read. Unexported fields are skipped: they are indexes and memos derived
// from the exported ones, some filled lazily while pages render, so
// hashing them would make a page's fingerprint depend on which other pages
// were rendered first. Two
// builds whose page has the same fingerprint render it to the same bytes,
// as long as the templates, UI strings and assets are the same (the dev
// server renders everything when one of those changes). Values reached
// through a pointer are hashed once per fingerprinter: the catalog is
// immutable once loaded, and most pages point into it.
//
// A func cannot be hashed by value, so a page holding one is never reused,
// unless its struct field is tagged `fingerprint:"code"`: a function
// literal capturing nothing, identified by its code. A slice field tagged
// `fingerprint:"ids"` (the catalog's back-references, GPU.Offers) is
// hashed by its elements' ID fields only; without that, every offer would
// reach the whole catalog through its GPU's and provider's offers, and
// the cycle would make a hash depend on where it was entered.
//
// A fingerprinter is used by one goroutine at a time.
type fingerprinter struct {
	seed maphash.Seed
	memo map[ptrKey]uint64
	// opaque is set when a value could not be hashed by value (a func, a
	// channel): such a page is never reused.
	opaque bool
}

type ptrKey struct {
	p uintptr
	t reflect.Type
}

// inProgress stands for a value reached again while it is being hashed (a
// cycle); any fixed value would do.
const inProgress = 0x9e3779b97f4a7c15

func newFingerprinter(seed maphash.Seed) *fingerprinter {
	return &fingerprinter{seed: seed, memo: map[ptrKey]uint64{}}
}

// sum hashes v; ok is false when v holds something that cannot be hashed
// by value.
func (f *fingerprinter) sum(v any) (sum uint64, ok bool) {
	f.opaque = false
	var h maphash.Hash
	h.SetSeed(f.seed)
	f.value(&h, reflect.ValueOf(v))
	return h.Sum64(), !f.opaque
}

// value writes v's fingerprint to h: its kind's bytes, or for a pointer,
// interface, struct, slice, array or map what the method of that kind
// writes. A func, channel or unsafe pointer sets f.opaque.
func (f *fingerprinter) value(h *maphash.Hash, v reflect.Value) {
	if !v.IsValid() {
		writeU64(h, 0)
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			writeU64(h, 1)
		} else {
			writeU64(h, 2)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		writeU64(h, uint64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		writeU64(h, v.Uint())
	case reflect.Float32, reflect.Float64:
		writeU64(h, math.Float64bits(v.Float()))
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		writeU64(h, math.Float64bits(real(c)))
		writeU64(h, math.Float64bits(imag(c)))
	case reflect.String:
		s := v.String()
		writeU64(h, uint64(len(s)))
		h.WriteString(s)
	case reflect.Pointer:
		f.pointer(h, v)
	case reflect.Interface:
		if v.IsNil() {
			writeU64(h, 0)
			return
		}
		h.WriteString(v.Elem().Type().String())
		f.value(h, v.Elem())
	case reflect.Struct:
		f.structFields(h, v)
	case reflect.Slice, reflect.Array:
		f.elements(h, v)
	case reflect.Map:
		f.mapEntries(h, v)
	default:
		// Funcs (a closure's captured state is out of reach), channels,
		// unsafe pointers: a page holding one is always rendered again.
		f.opaque = true
	}
}

// writeU64 writes x to h as 8 little-endian bytes.
func writeU64(h *maphash.Hash, x uint64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], x)
	h.Write(b[:])
}

// pointer writes the pointer v's fingerprint to h: 0 when it is nil, else
// the sum of the value it points to, hashed once per pointer and type (a
// cycle back to it reads inProgress).
func (f *fingerprinter) pointer(h *maphash.Hash, v reflect.Value) {
	if v.IsNil() {
		writeU64(h, 0)
		return
	}
	k := ptrKey{v.Pointer(), v.Type()}
	sum, ok := f.memo[k]
	if !ok {
		f.memo[k] = inProgress
		var sub maphash.Hash
		sub.SetSeed(f.seed)
		f.value(&sub, v.Elem())
		sum = sub.Sum64()
		f.memo[k] = sum
	}
	writeU64(h, 1)
	writeU64(h, sum)
}

// structFields writes the struct v's fingerprint to h: its type's name
// and each exported field, a field tagged `fingerprint:"code"` by its
// func's code pointer and one tagged `fingerprint:"ids"` by its
// elements' IDs (see fingerprinter).
func (f *fingerprinter) structFields(h *maphash.Hash, v reflect.Value) {
	t := v.Type()
	h.WriteString(t.String())
	for i := range v.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		fv := v.Field(i)
		switch sf.Tag.Get("fingerprint") {
		case "code":
			// A func literal that captures nothing: its code is its
			// behaviour.
			writeU64(h, uint64(fv.Pointer()))
			continue
		case "ids":
			f.ids(h, fv)
			continue
		}
		f.value(h, fv)
	}
}

// ids writes the fingerprint of a back-reference (a GPU's offers) to h:
// which elements, by their ID field, not their contents, so the hash of a
// page touching one offer is not the whole catalog's. An element without
// a string ID field sets f.opaque.
func (f *fingerprinter) ids(h *maphash.Hash, v reflect.Value) {
	writeU64(h, uint64(v.Len())+1)
	for j := range v.Len() {
		e := v.Index(j)
		for e.Kind() == reflect.Pointer && !e.IsNil() {
			e = e.Elem()
		}
		if id := e.FieldByName("ID"); e.Kind() == reflect.Struct && id.Kind() == reflect.String {
			h.WriteString(id.String())
			h.WriteByte(0)
		} else {
			f.opaque = true
		}
	}
}

// elements writes the slice or array v's fingerprint to h: 0 for a nil
// slice, else its length plus one and each element (a byte slice's bytes
// at once).
func (f *fingerprinter) elements(h *maphash.Hash, v reflect.Value) {
	if v.Kind() == reflect.Slice && v.IsNil() {
		writeU64(h, 0)
		return
	}
	writeU64(h, uint64(v.Len())+1)
	if v.Type().Elem().Kind() == reflect.Uint8 && v.Kind() == reflect.Slice {
		h.Write(v.Bytes())
		return
	}
	for i := range v.Len() {
		f.value(h, v.Index(i))
	}
}

// mapEntries writes the map v's fingerprint to h: 0 for a nil map, else
// its length plus one and each entry's key and value sums, in an order of
// their own (sorted by the key's sum), since a map's is random.
func (f *fingerprinter) mapEntries(h *maphash.Hash, v reflect.Value) {
	if v.IsNil() {
		writeU64(h, 0)
		return
	}
	type entry struct{ k, v uint64 }
	es := make([]entry, 0, v.Len())
	it := v.MapRange()
	for it.Next() {
		var kh, vh maphash.Hash
		kh.SetSeed(f.seed)
		vh.SetSeed(f.seed)
		f.value(&kh, it.Key())
		f.value(&vh, it.Value())
		es = append(es, entry{kh.Sum64(), vh.Sum64()})
	}
	slices.SortFunc(es, func(a, b entry) int {
		switch {
		case a.k < b.k:
			return -1
		case a.k > b.k:
			return 1
		}
		return 0
	})
	writeU64(h, uint64(len(es))+1)
	for _, e := range es {
		writeU64(h, e.k)
		writeU64(h, e.v)
	}
}
