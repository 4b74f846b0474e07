// Package schema generates JSON Schemas (draft 2020-12) for GPU Atlas's
// data files from the Go types in package catalog, so editors that read a
// `#:schema` line (taplo, Even Better TOML) can complete keys, show field
// docs and flag mistakes as they are typed.
//
// The schemas are derived by reflection: a struct field's toml tag is the
// key and its doc tag the key's description, a pointer is optional, the
// required keys and the allowed values of enumerated fields come from
// package catalog (the lists its checks use), and dates are strings of
// format "date" (how taplo reads TOML local dates). `check` remains the
// authority: the schemas do not encode cross-file rules (references, vram
// totals, price ordering).
package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/tomlpos"
)

// Draft is the JSON Schema dialect of the generated documents.
const Draft = "https://json-schema.org/draft/2020-12/schema"

// Kind is one kind of data file.
type Kind struct {
	Name        string       // schema file name without .json: gpu, provider, offers, model, fx, site
	Type        reflect.Type // the catalog type a file of this kind decodes into
	Dir         string       // the directory under the site root holding files of this kind ("data/gpus"), or "" for a single file
	Path        string       // for a single file: its path under the site root ("data/fx.toml")
	Title       string
	Description string
}

// File returns the schema's file name, e.g. "gpu.json".
func (k Kind) File() string { return k.Name + ".json" }

// Kinds returns every kind of data file, in a fixed order.
func Kinds() []Kind {
	return []Kind{
		{Name: "gpu", Type: reflect.TypeFor[catalog.GPU](), Dir: "data/gpus", Title: "GPU Atlas: data/gpus/<id>.toml",
			Description: "One accelerator's specifications. Every figure carries a source; dense tensor figures only."},
		{Name: "provider", Type: reflect.TypeFor[catalog.Provider](), Dir: "data/providers", Title: "GPU Atlas: data/providers/<id>.toml",
			Description: "One cloud provider: regions, billing, networking, hidden costs and sources."},
		{Name: "offers", Type: reflect.TypeFor[catalog.OfferFile](), Dir: "data/offers", Title: "GPU Atlas: data/offers/<provider-id>.toml",
			Description: "The priced instances of one provider; the file name is the provider id."},
		{Name: "model", Type: reflect.TypeFor[catalog.Model](), Dir: "data/models", Title: "GPU Atlas: data/models/<id>.toml",
			Description: "A model preset for the sizing calculator."},
		{Name: "calibration", Type: reflect.TypeFor[catalog.CalibrationFile](), Dir: catalog.CalibrationDir, Title: "GPU Atlas: data/calibration/<name>.toml",
			Description: "Published measurements of real runs that the sizing engine is checked against; each with its setup and source."},
		{Name: "usage", Type: reflect.TypeFor[catalog.Platform](), Dir: catalog.UsageDir, Title: "GPU Atlas: data/usage/<id>.toml",
			Description: "A usage-priced platform: hosted API prices of open models per million tokens, and serverless GPU prices per GPU-second; each dated and sourced."},
		{Name: "fx", Type: reflect.TypeFor[catalog.FX](), Path: "data/fx.toml", Title: "GPU Atlas: data/fx.toml",
			Description: "Exchange rates (with date and source) for the display currency."},
		{Name: "site", Type: reflect.TypeFor[catalog.Site](), Path: "data/site.toml", Title: "GPU Atlas: data/site.toml",
			Description: "Site configuration: title, base URL, repository URL, staleness thresholds, datasets."},
		{Name: "glossary", Type: reflect.TypeFor[catalog.GlossaryFile](), Path: "data/glossary.toml", Title: "GPU Atlas: data/glossary.toml",
			Description: "The one Chinese rendering of each English term, which the guides, the UI strings and the Chinese search index follow."},
	}
}

// Directive returns the `#:schema` line a data file must start with, for
// its path relative to the site root in slash form ("data/gpus/a10.toml").
// It returns false for paths that are not data files.
func Directive(rel string) (string, bool) {
	rel = path.Clean(filepath.ToSlash(rel))
	for _, k := range Kinds() {
		switch {
		case k.Path != "" && rel == k.Path,
			k.Dir != "" && path.Dir(rel) == k.Dir && strings.HasSuffix(rel, ".toml"):
			up := strings.Repeat("../", strings.Count(path.Dir(rel), "/")+1)
			return "#:schema " + up + "schema/" + k.File(), true
		}
	}
	return "", false
}

// Generate returns the schema of a kind as indented JSON with sorted keys
// and a trailing newline.
func Generate(k Kind) ([]byte, error) {
	doc := object(k.Type)
	doc["$schema"] = Draft
	doc["title"] = k.Title
	doc["description"] = k.Description
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("schema %s: %w", k.Name, err)
	}
	return b.Bytes(), nil
}

// Write generates every schema into dir (created if needed) and returns
// the paths written.
func Write(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var out []string
	for _, k := range Kinds() {
		b, err := Generate(k)
		if err != nil {
			return out, err
		}
		p := filepath.Join(dir, k.File())
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return out, err
		}
		out = append(out, p)
	}
	return out, nil
}

// typeSchema returns the schema of a Go type.
func typeSchema(t reflect.Type) map[string]any {
	if t == reflect.TypeFor[time.Time]() {
		return map[string]any{"type": "string", "format": "date"}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return typeSchema(t.Elem())
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
		return map[string]any{"type": "array", "items": typeSchema(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": typeSchema(t.Elem())}
	case reflect.Struct:
		return object(t)
	}
	panic(fmt.Sprintf("schema: no JSON Schema for Go type %s", t))
}

// object returns the schema of a struct: its toml-tagged fields as
// properties, catalog's required keys, and no other keys.
func object(t reflect.Type) map[string]any {
	props := map[string]any{}
	for _, f := range tomlpos.Fields(t) {
		name := tomlpos.KeyOf(f)
		s := typeSchema(f.Type)
		key := t.Name() + "." + name
		if d := f.Tag.Get("doc"); d != "" {
			s["description"] = d
		} else if len(f.Index) > 1 {
			s["description"] = modelDocs()[name] // a figure of the embedded sizing.Model
		}
		for k, v := range constraints(key) {
			s[k] = v
		}
		props[name] = s
	}
	o := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if req := catalog.RequiredKeys(t); len(req) > 0 {
		for _, k := range req {
			p, ok := props[k].(map[string]any)
			if !ok {
				panic(fmt.Sprintf("schema: catalog requires key %q that %s has no field for", k, t.Name()))
			}
			if p["type"] == "string" && p["format"] == nil && p["enum"] == nil {
				p["minLength"] = 1 // catalog reports an empty required string
			}
		}
		sorted := slices.Clone(req)
		slices.Sort(sorted)
		o["required"] = sorted
	}
	return o
}

// modelDocs maps each preset key of a model's shape to its description
// (sizing.ModelFields, the shape's one declaration).
func modelDocs() map[string]string {
	out := map[string]string{}
	for _, f := range sizing.ModelFields() {
		out[f.Key()] = strings.ToUpper(f.Doc()[:1]) + f.Doc()[1:] + "."
	}
	return out
}

// constraints returns the schema keywords beyond the type for a field,
// keyed "Type.toml_key": the enumerations, patterns and minimum counts the
// catalog's checks enforce, drawn from package catalog.
func constraints(key string) map[string]any {
	switch key {
	case "GPU.form_factor":
		return enum(catalog.FormFactors())
	case "GPU.segment":
		return enum(catalog.Segments())
	case "Interconnect.kind":
		return enum(catalog.InterconnectKinds())
	case "Provider.kind":
		return enum(catalog.ProviderKinds())
	case "Billing.increment":
		return enum(catalog.BillingIncrements())
	case "Network.rdma":
		return enum(catalog.RDMAKinds())
	case "Price.billing":
		return enum(append(catalog.BillingModes(), catalog.LegacyBillingModes()...))
	case "Price.unit":
		return enum(catalog.PriceUnits())
	case "Price.payment":
		return enum(catalog.PaymentOptions())
	case "Price.commitment":
		return enum(catalog.CommitmentKinds())
	case "Price.evidence", "ExtraCost.evidence":
		return enum(catalog.EvidenceKinds())
	case "Price.date_basis", "ExtraCost.date_basis", "FX.date_basis", "FXRates.date_basis":
		return enum(catalog.DateBases())
	case "Price.term_months":
		return map[string]any{"minimum": 1, "maximum": 60}
	case "ExtraCost.kind":
		return enum(catalog.ExtraCostKinds())
	case "ExtraCost.unit":
		var units []string
		for _, k := range catalog.ExtraCostKinds() {
			for _, u := range catalog.ExtraCostUnits(k) {
				if !slices.Contains(units, u) {
					units = append(units, u)
				}
			}
		}
		return enum(units)
	case "Provider.i18n", "Region.i18n":
		return map[string]any{"propertyNames": map[string]any{"pattern": catalog.LanguagePattern()}}
	case "FXRates.rates":
		return map[string]any{"propertyNames": map[string]any{"pattern": catalog.CurrencyPattern()}}
	case "ExtraCost.currency":
		return map[string]any{"pattern": catalog.CurrencyPattern()}
	case "GPU.export_variant_of", "Offer.gpu":
		return map[string]any{"pattern": catalog.IDPattern()}
	case "Offer.currency", "HiddenCosts.currency":
		return map[string]any{"pattern": catalog.CurrencyPattern()}
	case "FX.rates":
		return map[string]any{"propertyNames": map[string]any{"pattern": catalog.CurrencyPattern()}}
	case "Provider.country":
		return map[string]any{"pattern": catalog.CountryPattern()}
	case "GPU.sources", "Provider.sources", "Model.sources", "Offer.regions", "Offer.prices":
		return map[string]any{"minItems": 1}
	}
	return nil
}

func enum(values []string) map[string]any {
	return map[string]any{"enum": values}
}
