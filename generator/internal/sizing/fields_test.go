package sizing

import (
	"reflect"
	"testing"
)

// TestModelFieldsCoverModel: the table names every field of Model once,
// each row's Key is the field's toml tag (the preset files' key), and
// every name is unique on its surface.
func TestModelFieldsCoverModel(t *testing.T) {
	var m Model
	base := reflect.ValueOf(&m).Elem()
	byAddr := map[uintptr]reflect.StructField{}
	for i := range base.NumField() {
		byAddr[base.Field(i).Addr().Pointer()] = base.Type().Field(i)
	}
	seen := map[string]bool{}
	names := map[string]map[string]bool{"name": {}, "key": {}, "flag": {}, "js": {}}
	for _, f := range ModelFields() {
		sf, ok := byAddr[reflect.ValueOf(f.Ref(&m)).Pointer()]
		if !ok {
			t.Fatalf("%s: Ref points at no field of Model", f.Name)
		}
		if seen[sf.Name] {
			t.Errorf("%s: Model.%s is in the table twice", f.Name, sf.Name)
		}
		seen[sf.Name] = true
		if tag := sf.Tag.Get("toml"); tag != f.Key() {
			t.Errorf("%s: Key %q, but Model.%s's toml tag is %q", f.Name, f.Key(), sf.Name, tag)
		}
		if f.Bool != (sf.Type.Kind() == reflect.Bool) {
			t.Errorf("%s: Bool is %v for a %s", f.Name, f.Bool, sf.Type)
		}
		for surface, n := range map[string]string{"name": f.Name, "key": f.Key(), "flag": f.Flag(), "js": f.JS} {
			if n == "" || names[surface][n] {
				t.Errorf("%s: %s name %q is empty or taken", f.Name, surface, n)
			}
			names[surface][n] = true
		}
	}
	for i := range base.NumField() {
		if sf := base.Type().Field(i); sf.Name != "_" && !seen[sf.Name] {
			t.Errorf("Model.%s is not in ModelFields", base.Type().Field(i).Name)
		}
	}
}

// TestModelFieldsBounds: Validate accepts the example model and rejects
// each figure one past its range, naming that figure.
func TestModelFieldsBounds(t *testing.T) {
	ex := ExampleModel()
	if err := ex.Validate(); err != nil {
		t.Fatalf("ExampleModel: %v", err)
	}
	for _, f := range ModelFields() {
		if f.Bool {
			continue
		}
		for _, d := range []int64{-1, +1} {
			m := ExampleModel()
			lo, hi := f.Bounds(&m)
			v := lo - 1
			if d > 0 {
				v = hi + 1
			}
			f.Set(&m, v)
			if got := f.Get(&m); got != v {
				t.Fatalf("%s: Set %d, Get %d", f.Name, v, got)
			}
			err := m.Validate()
			if err == nil {
				t.Errorf("%s = %d (range %d..%d): Validate accepts it", f.Name, v, lo, hi)
			} else if Field(err) != f.Name {
				t.Errorf("%s = %d: Validate names %q (%v)", f.Name, v, Field(err), err)
			}
		}
	}
}
