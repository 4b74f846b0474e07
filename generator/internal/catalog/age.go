package catalog

import "time"

// AgeDays is the number of whole calendar days from asOf to now, in UTC
// (never negative).
func AgeDays(asOf, now time.Time) int {
	a := time.Date(asOf.Year(), asOf.Month(), asOf.Day(), 0, 0, 0, 0, time.UTC)
	n := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	if days := int(n.Sub(a).Hours() / 24); days > 0 {
		return days
	}
	return 0
}

// Current is the site's one rule for whether a price may answer a
// question (a cheapest price, a cost per token, a ranking, a default): it
// is current when it is at most StaleDays old on the day it is read.
// Every page, export and the calculator pick prices with it; where only
// older prices exist, they are shown as such, never as the answer. The
// pages' script (static/js/_age.mjs) applies the same rule on the day a
// page is read.
func (s Staleness) Current(ageDays int) bool { return ageDays <= s.StaleDays }

// CurrentAt is Current for a price dated asOf, read on now.
func (s Staleness) CurrentAt(asOf, now time.Time) bool { return s.Current(AgeDays(asOf, now)) }
