package catalog

import (
	"fmt"
	"maps"
	"slices"
	"time"
)

// FXRates is one older, dated set of exchange rates in data/fx.toml's
// [[history]]: units of each currency per one unit of the file's base.
// The top-level rates are the current set; history entries must be older.
type FXRates struct {
	AsOf      time.Time          `toml:"as_of" doc:"The date these rates were true; before the current as_of."`
	DateBasis string             `toml:"date_basis" doc:"How as_of was established."`
	Source    string             `toml:"source" doc:"Where these rates were read."`
	Rates     map[string]float64 `toml:"rates" doc:"Units of each currency per 1 unit of base, on that date."`
}

// Series returns every dated set of rates, the current one included,
// oldest first.
func (fx *FX) Series() []FXRates {
	out := append([]FXRates(nil), fx.History...)
	out = append(out, FXRates{AsOf: fx.AsOf, DateBasis: fx.DateBasis, Source: fx.Source, Rates: fx.Rates})
	slices.SortStableFunc(out, func(a, b FXRates) int { return a.AsOf.Compare(b.AsOf) })
	return out
}

// checkFXHistory validates data/fx.toml's [[history]]: each entry dated,
// sourced, older than the current rates and on its own date, with valid
// currency codes and positive rates.
func checkFXHistory(c checker, fx *FX) {
	c.oneOf("date_basis", fx.DateBasis, DateBases()...)
	seen := map[string]int{}
	for i, h := range fx.History {
		pre := fmt.Sprintf("history.%d", i)
		c.require(pre, requiredOf[FXRates]()...)
		c.date(pre+".as_of", h.AsOf)
		c.oneOf(pre+".date_basis", h.DateBasis, DateBases()...)
		if c.has(pre+".as_of") && !fx.AsOf.IsZero() && !h.AsOf.Before(fx.AsOf) {
			c.errorf(pre+".as_of", "history entry of %s is not older than the current rates (as_of = %s): the top-level rates are the newest; move this set up and the current one into [[history]]",
				h.AsOf.Format(time.DateOnly), fx.AsOf.Format(time.DateOnly))
		}
		if c.has(pre + ".as_of") {
			d := h.AsOf.Format(time.DateOnly)
			if first, dup := seen[d]; dup {
				c.errorf(pre+".as_of", "two history entries are dated %s (first at line %d)", d, first)
			}
			seen[d], _ = c.pos(pre)
		}
		for _, cur := range slices.Sorted(maps.Keys(h.Rates)) {
			if !currencyPattern.MatchString(cur) {
				c.errorf(pre+".rates."+cur, "%q is not an ISO 4217 currency code", cur)
			}
			c.positive(pre+".rates."+cur, h.Rates[cur])
		}
	}
}
