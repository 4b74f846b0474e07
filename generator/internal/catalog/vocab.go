package catalog

import "reflect"

// This file is the one place that lists the values an enumerated field may
// take and the keys each table must have. The loader's checks and the JSON
// Schema generator (package schema) both read them, so the two cannot drift.

// FormFactors returns the allowed values of a GPU's form_factor.
func FormFactors() []string { return []string{"SXM", "PCIe", "NVL", "OAM", "Module", "TPU"} }

// Precisions returns the allowed values of a GPU's precisions: the
// matrix formats the sizing engine tells apart.
func Precisions() []string { return []string{"fp16", "bf16", "fp8", "fp4", "int8"} }

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

// BillingModes returns the billing modes of a price, in display order:
// pay-as-you-go, a commitment for a term (reserved instances, savings
// plans, committed-use discounts, monthly subscriptions), and spot.
func BillingModes() []string { return []string{"on-demand", "committed", "spot"} }

// LegacyBillingModes returns the billing modes of the first data format,
// still accepted: reserved-1y and reserved-3y mean committed with
// term_months 12 and 36.
func LegacyBillingModes() []string { return []string{"reserved-1y", "reserved-3y"} }

// legacyTerm returns a legacy billing mode's term in months; ok is false
// for any other mode.
func legacyTerm(billing string) (months int, ok bool) {
	switch billing {
	case "reserved-1y":
		return 12, true
	case "reserved-3y":
		return 36, true
	}
	return 0, false
}

// PriceUnits returns the units a price may be quoted per, with the hours
// each stands for (an hourly equivalent is price / hours).
func PriceUnits() []string { return []string{"hour", "day", "week", "month"} }

// UnitHours returns the hours in a price unit (day 24, week 168, month
// 730, the average month of 365 x 24 / 12 hours), or 0 for an unknown
// unit. The empty unit is an hour.
func UnitHours(unit string) float64 {
	switch unit {
	case "", "hour":
		return 1
	case "day":
		return 24
	case "week":
		return 168
	case "month":
		return 730
	}
	return 0
}

// PaymentOptions returns the allowed values of a committed price's payment.
func PaymentOptions() []string { return []string{"no-upfront", "partial-upfront", "all-upfront"} }

// CommitmentKinds returns the allowed values of a committed price's
// commitment.
func CommitmentKinds() []string {
	return []string{"reserved-instance", "savings-plan", "committed-use-discount", "subscription"}
}

// EvidenceKinds returns the allowed values of a price's evidence: the
// provider's own page, document or API; the provider's own documentation
// repository; a third party's transcription of the provider's figure; a
// community dataset.
func EvidenceKinds() []string {
	return []string{"first-party", "first-party-docs-repo", "third-party", "community-dataset"}
}

// DateBases returns the allowed values of date_basis: how an as_of date
// was established.
func DateBases() []string {
	return []string{"page-date", "commit-date", "accessed", "dataset-row-date", "api-retrieved", "page-captured"}
}

// ExtraCostKinds returns the allowed values of an extra_costs entry's kind.
func ExtraCostKinds() []string {
	return []string{"egress", "public-ipv4", "block-storage", "stopped-instance"}
}

// AddressStates returns the conditions a public-ipv4 charge may apply in:
// bound (attached to a running instance) and idle (unattached, or its
// instance stopped).
func AddressStates() []string { return []string{"bound", "idle"} }

// ExtraCostUnits returns the units an extra_costs entry of a kind may be
// priced per: egress per GB (or GiB) moved out to the internet, a public
// IPv4 address per hour or month, block storage per GB-month, GiB-month,
// GB-hour or GiB-hour, and a stopped instance's own charge per hour, month or
// GB-month.
func ExtraCostUnits(kind string) []string {
	switch kind {
	case "egress":
		return []string{"gb", "gib"}
	case "public-ipv4":
		return []string{"hour", "month"}
	case "block-storage":
		return []string{"gb-month", "gib-month", "gb-hour", "gib-hour"}
	case "stopped-instance":
		return []string{"hour", "month", "gb-month"}
	}
	return nil
}

// LanguagePattern returns the regular expression of a language code key
// of an i18n table (BCP 47 primary language, optionally a script or
// region subtag: zh, zh-Hant, pt-BR).
func LanguagePattern() string { return `^[a-z]{2,3}(-[A-Z][a-z]{3})?(-[A-Z]{2})?$` }

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
	case reflect.TypeFor[Term]():
		return []string{"en", "zh"}
	case reflect.TypeFor[Language]():
		return []string{"code", "lang", "name"}
	case reflect.TypeFor[Staleness]():
		return []string{"fresh_days", "stale_days"}
	case reflect.TypeFor[Dataset]():
		return []string{"id", "title", "url", "licence", "attribution"}
	case reflect.TypeFor[FX]():
		return []string{"base", "as_of", "source", "rates"}
	case reflect.TypeFor[FXRates]():
		return []string{"as_of", "source", "rates"}
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
	case reflect.TypeFor[ExtraCost]():
		return []string{"kind", "currency", "as_of", "source", "evidence"}
	case reflect.TypeFor[Tier]():
		return []string{"price"}
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
