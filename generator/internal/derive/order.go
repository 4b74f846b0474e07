package derive

import (
	"golang.org/x/text/collate"
	"golang.org/x/text/language"

	"cmp"
	"slices"
	"strings"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
)

// GPUsByVendor returns the GPUs in reading order for an index: by vendor
// name, then newest generation first (release year), then the larger
// memory, then the name. It does not change gs.
func GPUsByVendor(gs []*catalog.GPU) []*catalog.GPU {
	out := slices.Clone(gs)
	slices.SortStableFunc(out, func(a, b *catalog.GPU) int {
		return cmp.Or(
			cmp.Compare(strings.ToLower(a.Vendor), strings.ToLower(b.Vendor)),
			cmp.Compare(b.ReleaseYear, a.ReleaseYear),
			cmp.Compare(b.MemoryGB, a.MemoryGB),
			cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)),
			cmp.Compare(a.ID, b.ID))
	})
	return out
}

// ProvidersByName returns the providers sorted by name, ignoring case. It
// does not change ps.
func ProvidersByName(ps []*catalog.Provider) []*catalog.Provider {
	out := slices.Clone(ps)
	slices.SortStableFunc(out, func(a, b *catalog.Provider) int {
		return cmp.Or(cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), cmp.Compare(a.ID, b.ID))
	})
	return out
}

// ProvidersByLocalName returns the providers by their name in a language
// (Provider.LocalName), in that language's collation: Chinese names in
// pinyin order (阿里云, 百度智能云, 华为云, 火山引擎, 腾讯云), Latin names
// before them. It does not change ps.
func ProvidersByLocalName(ps []*catalog.Provider, lang string) []*catalog.Provider {
	out := slices.Clone(ps)
	tag, err := language.Parse(lang)
	if err != nil {
		tag = language.English
	}
	c := collate.New(tag, collate.IgnoreCase)
	slices.SortStableFunc(out, func(a, b *catalog.Provider) int {
		return cmp.Or(c.CompareString(a.LocalName(lang), b.LocalName(lang)), cmp.Compare(a.ID, b.ID))
	})
	return out
}

// ModelsByFamily returns the model presets by family name, then size
// (parameters), then name. It does not change ms.
func ModelsByFamily(ms []*catalog.Model) []*catalog.Model {
	out := slices.Clone(ms)
	slices.SortStableFunc(out, func(a, b *catalog.Model) int {
		return cmp.Or(cmp.Compare(strings.ToLower(a.Family), strings.ToLower(b.Family)), cmp.Compare(a.Params, b.Params),
			cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), cmp.Compare(a.ID, b.ID))
	})
	return out
}
