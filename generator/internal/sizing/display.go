package sizing

import (
	"math"
	"strconv"
)

// The display helpers below are used by the site's pages at build time and
// by the WebAssembly calculator, so both print identical text.

// FormatGiB prints a byte count in GiB with two decimals ("15.23 GiB"). The
// calculator and the pages print every memory figure with it, so a
// breakdown never mixes units.
func FormatGiB(b int64) string {
	return strconv.FormatFloat(float64(b)/(1<<30), 'f', 2, 64) + " GiB"
}

// FormatFLOPs prints a FLOP count in scientific notation ("5.88e+23 FLOPs");
// zero prints as "–".
func FormatFLOPs(f float64) string {
	if !(f > 0) || math.IsInf(f, 0) {
		return "–"
	}
	return strconv.FormatFloat(f, 'e', 2, 64) + " FLOPs"
}

// FormatRate prints a decode speed ("41.3 tokens/s"); zero prints as "–".
func FormatRate(tps float64) string {
	if !(tps > 0) || math.IsInf(tps, 0) {
		return "–"
	}
	return strconv.FormatFloat(tps, 'f', 1, 64) + " tokens/s"
}

// FormatDuration prints a duration in hours up to 48 hours, else in days
// ("12.5 h", "3.2 days"); zero prints as "–".
func FormatDuration(seconds float64) string {
	if !(seconds > 0) || math.IsInf(seconds, 0) {
		return "–"
	}
	h := seconds / 3600
	if h <= 48 {
		return strconv.FormatFloat(h, 'f', 1, 64) + " h"
	}
	return strconv.FormatFloat(h/24, 'f', 1, 64) + " days"
}
