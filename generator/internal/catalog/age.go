package catalog

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

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

// Today returns the date prices are aged on: SOURCE_DATE_EPOCH when set
// (reproducible builds, and tests run on another day), else the current
// UTC date; only the date is kept.
func Today() (time.Time, error) {
	now := time.Now().UTC()
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		sec, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH %q is not a Unix time", s)
		}
		now = time.Unix(sec, 0).UTC()
	}
	return time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC), nil
}
