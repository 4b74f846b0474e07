package derive

import (
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
