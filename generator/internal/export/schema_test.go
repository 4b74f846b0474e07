package export

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"testing"
)

// TestDocumentsMatchSchemas: every document, of the fixture and of the
// repository's catalog, is valid under its schema (the draft 2020-12
// keywords the schemas use: type with null, properties, required,
// additionalProperties, items), and a document with an unknown key or a
// missing one is not, so the check can fail.
func TestDocumentsMatchSchemas(t *testing.T) {
	schemas, err := Schemas()
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]map[string]any{}
	for _, s := range schemas {
		var m map[string]any
		if err := json.Unmarshal(s.Data, &m); err != nil {
			t.Fatalf("%s: %v", s.Path, err)
		}
		byPath[s.Path] = m
	}
	for _, c := range catalogs(t) {
		for p, b := range files(t, c.cat) {
			s := byPath[SchemaPath(p)]
			if s == nil {
				t.Fatalf("%s: no schema at %s", p, SchemaPath(p))
			}
			var doc any
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			if err := validate(s, doc, p); err != nil {
				t.Errorf("%s (%s): %v", p, c.name, err)
			}
		}
	}
	s := byPath[SchemaPath(OffersPath)]
	bad := map[string]any{"schema_version": 1.0, "generated": "2025-11-01", "licence": "x", "attribution": []any{}, "source": "x", "data": []any{}, "extra": 1.0}
	if validate(s, bad, "bad") == nil {
		t.Error("a document with an unknown key is valid")
	}
	delete(bad, "extra")
	delete(bad, "source")
	if validate(s, bad, "bad") == nil {
		t.Error("a document without source is valid")
	}
}

// validate checks v against schema s.
func validate(s map[string]any, v any, at string) error {
	if t, ok := s["type"]; ok && !typeOK(t, v) {
		return fmt.Errorf("%s: %T is not %v", at, v, t)
	}
	switch x := v.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		req, _ := s["required"].([]any)
		for _, r := range req {
			if _, ok := x[r.(string)]; !ok {
				return fmt.Errorf("%s: %s is missing", at, r)
			}
		}
		for k, e := range x {
			if ps, ok := props[k].(map[string]any); ok {
				if err := validate(ps, e, at+"."+k); err != nil {
					return err
				}
				continue
			}
			switch ap := s["additionalProperties"].(type) {
			case bool:
				if !ap {
					return fmt.Errorf("%s: %s is not allowed", at, k)
				}
			case map[string]any:
				if err := validate(ap, e, at+"."+k); err != nil {
					return err
				}
			}
		}
	case []any:
		if items, ok := s["items"].(map[string]any); ok {
			for i, e := range x {
				if err := validate(items, e, fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func typeOK(t, v any) bool {
	var ts []string
	switch x := t.(type) {
	case string:
		ts = []string{x}
	case []any:
		for _, y := range x {
			ts = append(ts, y.(string))
		}
	}
	switch x := v.(type) {
	case nil:
		return slices.Contains(ts, "null")
	case string:
		return slices.Contains(ts, "string")
	case bool:
		return slices.Contains(ts, "boolean")
	case float64:
		return slices.Contains(ts, "number") || slices.Contains(ts, "integer") && x == math.Trunc(x)
	case []any:
		return slices.Contains(ts, "array")
	case map[string]any:
		return slices.Contains(ts, "object")
	}
	return false
}
