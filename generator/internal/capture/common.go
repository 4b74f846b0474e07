package capture

import (
	"fmt"
	"sort"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/importer"
)

// eachAnswer reads the observation of every exchange of c with one,
// which reads one exchange or says what is wrong with it: a problem is
// prefixed with the capture and the exchange, and that exchange yields
// nothing. The observation gets what every one of a capture shares
// (fillObserved).
func eachAnswer(c *Capture, one func(e Exchange) (importer.Observed, string)) ([]importer.Observed, []string) {
	var out []importer.Observed
	var problems []string
	for i, e := range c.Exchanges {
		ob, msg := one(e)
		if msg != "" {
			problems = append(problems, problem(c, i, "%s", msg))
			continue
		}
		fillObserved(&ob, c, i, e)
		out = append(out, ob)
	}
	return out, problems
}

// apiError words an error answer: its code and message, with a hint when
// the code says the caller was throttled.
func apiError(code, message string, throttled bool) string {
	msg := fmt.Sprintf("error %s: %s", code, message)
	if throttled {
		msg += " (throttled: capture again later)"
	}
	return msg
}

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
