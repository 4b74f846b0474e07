package capture

import (
	"sort"
)

// catalogPart returns the "catalog" part of an exchange's request: what
// the query said about the instance (region, gpu, gpu_count).
func catalogPart(e Exchange) map[string]any {
	m, _ := e.Request["catalog"].(map[string]any)
	if m == nil {
		return map[string]any{}
	}
	return m
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// number reads a JSON number from a decoded value (float64 after
// encoding/json, or an int from a query).
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	}
	return 0, false
}
