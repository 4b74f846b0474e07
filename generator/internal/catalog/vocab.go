package catalog

import "reflect"

// This file is the one place that lists the values an enumerated field may
// take and the keys each table must have. The loader's checks and the JSON
// Schema generator (package schema) both read them, so the two cannot drift.

// FormFactors returns the allowed values of a GPU's form_factor.
func FormFactors() []string { return []string{"SXM", "PCIe", "NVL", "OAM", "Module", "TPU"} }

// Segments returns the allowed values of a GPU's segment.
func Segments() []string { return []string{"datacenter", "workstation", "consumer"} }

// InterconnectKinds returns the allowed values of a GPU's interconnect.kind.
func InterconnectKinds() []string {
	return []string{"NVLink", "PCIe", "Infinity Fabric", "HCCS", "ICI", "RoCE"}
}

// ProviderKinds returns the allowed values of a provider's kind.
func ProviderKinds() []string {
	return []string{"hyperscaler", "gpu-cloud", "marketplace", "regional-cloud"}
}

// BillingIncrements returns the allowed values of a provider's
// billing.increment.
func BillingIncrements() []string { return []string{"per-second", "per-minute", "per-hour"} }

// RDMAKinds returns the allowed values of a provider's network.rdma.
func RDMAKinds() []string { return []string{"InfiniBand", "RoCE", "EFA", "none", "unknown"} }

// IDPattern returns the regular expression (RE2 and ECMA-262 alike) every
// catalog id matches: the file names under data/ and guide slugs.
func IDPattern() string { return `^[a-z0-9]+(-[a-z0-9]+)*$` }

// CurrencyPattern returns the regular expression of an ISO 4217 currency code.
func CurrencyPattern() string { return `^[A-Z]{3}$` }

// CountryPattern returns the regular expression of an ISO 3166-1 alpha-2
// country code.
func CountryPattern() string { return `^[A-Z]{2}$` }

// ValidID reports whether s is a valid catalog id: lowercase ASCII letters
// and digits in groups joined by single dashes ("h100-sxm5-80gb").
func ValidID(s string) bool { return idPattern.MatchString(s) }

// RequiredKeys returns the TOML keys a table decoded into a value of type t
// must contain, in the order the loader checks them; nil when the table
// has no required keys. t is one of the catalog's struct types (Site, FX,
// GPU, Provider, Offer, Model and the types they contain).
func RequiredKeys(t reflect.Type) []string {
	switch t {
	case reflect.TypeFor[Site]():
		return []string{"title", "base_url", "repo_url", "staleness"}
	case reflect.TypeFor[Staleness]():
		return []string{"fresh_days", "stale_days"}
	case reflect.TypeFor[Dataset]():
		return []string{"id", "title", "url", "licence", "attribution"}
	case reflect.TypeFor[FX]():
		return []string{"base", "as_of", "source", "rates"}
	case reflect.TypeFor[GPU]():
		return []string{"name", "vendor", "architecture", "release_year", "form_factor", "segment", "memory_gb", "memory_type", "memory_bandwidth_gbs", "interconnect", "sources"}
	case reflect.TypeFor[Interconnect]():
		return []string{"kind"}
	case reflect.TypeFor[Source]():
		return []string{"url", "title", "accessed"}
	case reflect.TypeFor[Provider]():
		return []string{"name", "homepage", "kind", "regions", "billing", "sources"}
	case reflect.TypeFor[Region]():
		return []string{"id"}
	case reflect.TypeFor[Billing]():
		return []string{"on_demand"}
	case reflect.TypeFor[Reserved]():
		return []string{"term_months"}
	case reflect.TypeFor[HiddenCosts]():
		return []string{"currency"}
	case reflect.TypeFor[Offer]():
		return []string{"instance", "gpu", "gpu_count", "vram_per_gpu_gb", "vram_total_gb", "regions", "currency", "prices"}
	case reflect.TypeFor[Price]():
		return []string{"billing", "price", "as_of", "source"}
	case reflect.TypeFor[Model]():
		return []string{"name", "family", "params", "layers", "hidden_size", "heads", "kv_heads", "ffn_size", "vocab_size", "max_context", "sources"}
	}
	return nil
}

// requiredOf is RequiredKeys for the type parameter.
func requiredOf[T any]() []string { return RequiredKeys(reflect.TypeFor[T]()) }
