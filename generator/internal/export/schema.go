package export

import (
	"encoding/json"
	"path"
	"reflect"
	"strings"
)

// SchemaDir is where the JSON Schemas of the documents are written,
// relative to the site root: one per document, named as it is
// (api/v1/schema/offers.json describes api/v1/offers.json).
const SchemaDir = "api/v1/schema/"

// SchemaPath is the path of the schema of the document at p.
func SchemaPath(p string) string { return SchemaDir + path.Base(p) }

// Schemas returns the JSON Schemas (draft 2020-12) of the documents,
// made from the Go types that write them, so that they cannot drift: every
// key a document has is a property, a key written even when empty is
// required, a pointer may be null, and no other key is allowed.
func Schemas() ([]File, error) {
	var out []File
	for _, d := range []struct {
		path string
		t    reflect.Type
	}{
		{GPUsPath, reflect.TypeFor[Document[GPU]]()},
		{ProvidersPath, reflect.TypeFor[Document[Provider]]()},
		{OffersPath, reflect.TypeFor[Document[Offer]]()},
		{ModelsPath, reflect.TypeFor[Document[Model]]()},
		{UsagePath, reflect.TypeFor[Document[Usage]]()},
	} {
		s := jsonSchema(d.t)
		s["$schema"] = "https://json-schema.org/draft/2020-12/schema"
		s["title"] = "GPU Atlas " + path.Base(d.path)
		b, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			return nil, err
		}
		out = append(out, File{Path: SchemaPath(d.path), Data: append(b, '\n')})
	}
	return out, nil
}

// jsonSchema is the schema of values of Go type t as encoding/json writes
// them.
func jsonSchema(t reflect.Type) map[string]any {
	switch t.Kind() {
	case reflect.Pointer:
		s := jsonSchema(t.Elem())
		s["type"] = []any{s["type"], "null"}
		return s
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice, reflect.Array:
		// A nil slice is written as null.
		return map[string]any{"type": []any{"array", "null"}, "items": jsonSchema(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": jsonSchema(t.Elem())}
	case reflect.Struct:
		props, req := map[string]any{}, []string{}
		for _, f := range reflect.VisibleFields(t) {
			if !f.IsExported() || f.Anonymous {
				continue
			}
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			props[name] = jsonSchema(f.Type)
			if !strings.Contains(opts, "omitempty") {
				req = append(req, name)
			}
		}
		return map[string]any{"type": "object", "properties": props, "required": req, "additionalProperties": false}
	}
	return map[string]any{} // an interface: any value
}
