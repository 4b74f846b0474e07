package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/tomlpos"
)

// repoRoot is the repository root, found from this file's location.
func repoRoot(t *testing.T) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the test file")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

func TestSchemaIsFresh(t *testing.T) {
	dir := t.TempDir()
	paths, err := Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != len(Kinds()) {
		t.Fatalf("wrote %d schemas, want %d", len(paths), len(Kinds()))
	}
	for _, k := range Kinds() {
		want, err := os.ReadFile(filepath.Join(dir, k.File()))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(repoRoot(t), "schema", k.File()))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("schema/%s is stale: run go run ./generator schema -out schema/", k.File())
		}
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	for _, k := range Kinds() {
		a, err := Generate(k)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Generate(k)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two runs differ", k.Name)
		}
		if !bytes.HasSuffix(a, []byte("}\n")) || !bytes.HasPrefix(a, []byte("{\n  \"")) {
			t.Errorf("%s: want 2-space indented JSON with a trailing newline", k.Name)
		}
		var doc map[string]any
		if err := json.Unmarshal(a, &doc); err != nil {
			t.Fatalf("%s: %v", k.Name, err)
		}
		if doc["$schema"] != Draft || doc["additionalProperties"] != false {
			t.Errorf("%s: want $schema %s and additionalProperties false", k.Name, Draft)
		}
	}
}

// TestDocTags checks every doc tag of the catalog's types reaches a
// schema: it sits on a field with a TOML key and reads as a quoted string
// (a malformed struct tag reads as none).
func TestDocTags(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(typ reflect.Type) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || seen[typ] {
			return
		}
		seen[typ] = true
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			key := tomlpos.KeyOf(f)
			if strings.Contains(string(f.Tag), "doc:") {
				if f.Tag.Get("doc") == "" {
					t.Errorf("%s.%s: its doc tag does not read (struct tag %s)", typ.Name(), f.Name, f.Tag)
				}
				if key == "" || key == "-" || !f.IsExported() {
					t.Errorf("%s.%s: a doc tag on a field with no TOML key", typ.Name(), f.Name)
				}
			}
			if key != "" && key != "-" && f.IsExported() {
				walk(f.Type)
			}
		}
	}
	for _, k := range Kinds() {
		walk(k.Type)
	}
	if len(seen) < 20 {
		t.Errorf("walked %d types, want the catalog's", len(seen))
	}
}

func TestDirective(t *testing.T) {
	tests := []struct {
		rel, want string
		ok        bool
	}{
		{"data/gpus/h100-sxm5-80gb.toml", "#:schema ../../schema/gpu.json", true},
		{"data/providers/aws.toml", "#:schema ../../schema/provider.json", true},
		{"data/offers/aws.toml", "#:schema ../../schema/offers.json", true},
		{"data/models/llama-3-8b.toml", "#:schema ../../schema/model.json", true},
		{"data/fx.toml", "#:schema ../schema/fx.json", true},
		{"data/site.toml", "#:schema ../schema/site.json", true},
		{"data/gpus/readme.md", "", false},
		{"data/other.toml", "", false},
		{"content/guides/x.md", "", false},
	}
	for _, tt := range tests {
		got, ok := Directive(tt.rel)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Directive(%q) = %q, %v; want %q, %v", tt.rel, got, ok, tt.want, tt.ok)
		}
	}
}

// dataFiles lists every .toml file under root/data as slash paths
// relative to root.
func dataFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(filepath.Join(root, "data"), func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && filepath.Base(p) == "captures" && filepath.Base(filepath.Dir(p)) == "data" {
			return filepath.SkipDir // data/captures: the capture command's queries and the captures, not catalog files
		}
		if !e.IsDir() && strings.HasSuffix(p, ".toml") {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	if len(out) == 0 {
		t.Fatal("no data files found")
	}
	return out
}

func TestDataFilesNameTheirSchema(t *testing.T) {
	root := repoRoot(t)
	for _, rel := range dataFiles(t, root) {
		want, ok := Directive(rel)
		if !ok {
			t.Errorf("%s: not a known kind of data file", rel)
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(string(src), "\n")
		if strings.TrimRight(first, "\r") != want {
			t.Errorf("%s:1: first line is %q, want %q", rel, first, want)
		}
	}
}

// TestDataValidates checks that the schemas accept every data file of the
// repository (an editor must not flag valid data).
func TestDataValidates(t *testing.T) {
	root := repoRoot(t)
	schemas := loadSchemas(t)
	for _, rel := range dataFiles(t, root) {
		line, ok := Directive(rel)
		if !ok {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(line), ".json")
		var doc map[string]any
		if _, err := toml.DecodeFile(filepath.Join(root, rel), &doc); err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		for _, e := range validate(schemas[name], doc, "") {
			t.Errorf("%s: %s", rel, e)
		}
	}
}

// TestSchemaRejects checks that the schemas flag what check flags.
func TestSchemaRejects(t *testing.T) {
	schemas := loadSchemas(t)
	const gpu = `name = "X"
vendor = "NVIDIA"
architecture = "Hopper"
release_year = 2022
form_factor = "SXM"
segment = "datacenter"
memory_gb = 80
memory_type = "HBM3"
memory_bandwidth_gbs = 3350
[interconnect]
kind = "NVLink"
[[sources]]
url = "https://example.com/"
title = "t"
accessed = 2025-04-21
`
	tests := []struct {
		name, kind, src, want string
	}{
		{"valid gpu", "gpu", gpu, ""},
		{"bad enum", "gpu", strings.Replace(gpu, `"SXM"`, `"SMX"`, 1), `form_factor: "SMX" is not one of`},
		{"unknown key", "gpu", gpu + "[extra]\nx = 1\n", `unknown key "extra"`},
		{"missing required", "gpu", strings.Replace(gpu, "vendor = \"NVIDIA\"\n", "", 1), `missing required key "vendor"`},
		{"empty name", "gpu", strings.Replace(gpu, `name = "X"`, `name = ""`, 1), `name: shorter than 1`},
		{"quoted date", "gpu", strings.Replace(gpu, "2025-04-21", `"2025-04-21"`, 1), `sources.0.accessed: want a date`},
		{"string for number", "gpu", strings.Replace(gpu, "memory_gb = 80", `memory_gb = "80"`, 1), `memory_gb: want number`},
		{"float for integer", "model", "name = \"m\"\nlayers = 1.5\n", `layers: want integer`},
		{"bad rdma", "provider", "[network]\nrdma = \"IB\"\n", `network.rdma: "IB" is not one of`},
		{"bad billing", "offers", "[[offers]]\ninstance = \"i\"\n[[offers.prices]]\nbilling = \"monthly\"\n", `offers.0.prices.0.billing: "monthly" is not one of`},
		{"bad rate key", "fx", "base = \"USD\"\nas_of = 2025-01-01\nsource = \"s\"\n[rates]\neuro = 0.9\n", `rates: key "euro" does not match`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var doc map[string]any
			if _, err := toml.Decode(tt.src, &doc); err != nil {
				t.Fatal(err)
			}
			errs := strings.Join(validate(schemas[tt.kind], doc, ""), "\n")
			if tt.want == "" && errs != "" {
				t.Fatalf("unexpected errors:\n%s", errs)
			}
			if !strings.Contains(errs, tt.want) {
				t.Fatalf("errors do not contain %q:\n%s", tt.want, errs)
			}
		})
	}
}

func loadSchemas(t *testing.T) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, k := range Kinds() {
		b, err := Generate(k)
		if err != nil {
			t.Fatal(err)
		}
		var s map[string]any
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		out[k.Name] = s
	}
	return out
}

// validate is a small JSON Schema validator for the keywords the
// generator emits, applied to a decoded TOML document.
func validate(s map[string]any, v any, at string) []string {
	var errs []string
	fail := func(format string, args ...any) {
		errs = append(errs, at+": "+fmt.Sprintf(format, args...))
	}
	if s["format"] == "date" {
		if _, ok := v.(time.Time); !ok {
			fail("want a date, got %T", v)
		}
		return errs
	}
	switch s["type"] {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			fail("want table, got %T", v)
			return errs
		}
		props, _ := s["properties"].(map[string]any)
		for _, r := range list(s["required"]) {
			if _, ok := m[r.(string)]; !ok {
				fail("missing required key %q", r)
			}
		}
		for _, k := range sortedKeys(m) {
			sub := join(at, k)
			if pn, ok := s["propertyNames"].(map[string]any); ok {
				if !regexp.MustCompile(pn["pattern"].(string)).MatchString(k) {
					fail("key %q does not match %s", k, pn["pattern"])
				}
			}
			if ps, ok := props[k].(map[string]any); ok {
				errs = append(errs, validate(ps, m[k], sub)...)
			} else if ap, ok := s["additionalProperties"].(map[string]any); ok {
				errs = append(errs, validate(ap, m[k], sub)...)
			} else if s["additionalProperties"] == false {
				fail("unknown key %q", k)
			}
		}
	case "array":
		items := arrayItems(v)
		if items == nil {
			if _, ok := v.([]any); !ok {
				fail("want array, got %T", v)
				return errs
			}
		}
		if min, ok := s["minItems"].(float64); ok && float64(len(items)) < min {
			fail("fewer than %v items", min)
		}
		for i, it := range items {
			errs = append(errs, validate(s["items"].(map[string]any), it, join(at, fmt.Sprint(i)))...)
		}
	case "string":
		str, ok := v.(string)
		if !ok {
			fail("want string, got %T", v)
			return errs
		}
		if min, ok := s["minLength"].(float64); ok && float64(len(str)) < min {
			fail("shorter than %v", min)
		}
		if e := list(s["enum"]); e != nil && !contains(e, str) {
			fail("%q is not one of %v", str, e)
		}
		if p, ok := s["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(str) {
			fail("%q does not match %s", str, p)
		}
	case "integer":
		if _, ok := v.(int64); !ok {
			fail("want integer, got %T", v)
		}
	case "number":
		switch v.(type) {
		case int64, float64:
		default:
			fail("want number, got %T", v)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			fail("want boolean, got %T", v)
		}
	default:
		fail("schema has no type")
	}
	return errs
}

func arrayItems(v any) []any {
	switch a := v.(type) {
	case []any:
		return a
	case []map[string]any:
		out := make([]any, len(a))
		for i, m := range a {
			out[i] = m
		}
		return out
	}
	return nil
}

func list(v any) []any { l, _ := v.([]any); return l }

func contains(l []any, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}
