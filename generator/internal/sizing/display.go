package sizing

import (
	"math"
	"strconv"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/message"
)

// The display helpers below are used by the site's pages at build time and
// by the WebAssembly calculator, so both print identical text.

// Quantity is a figure as the pages show it: its number, formatted, and
// the key of the unit message that places it (UnitKeyPrefix + "gib":
// "{0} GiB"), so that each language writes the unit its own way. A figure
// that is unknown or zero has the unit "none" (a dash) and no number.
type Quantity struct {
	Num  string
	Unit string
}

// English renders q with the engine's English unit messages.
func (q Quantity) English() string {
	return message.Fill(lookupMessage("unit."+q.Unit[len(UnitKeyPrefix):]), []string{"", q.Num}, nil)
}

// Name is the unit's name without UnitKeyPrefix ("gib", "rate", "ms",
// "none"), for templates that print the number and a translated unit.
func (q Quantity) Name() string {
	if len(q.Unit) < len(UnitKeyPrefix) {
		return "none"
	}
	return q.Unit[len(UnitKeyPrefix):]
}

func quantity(num, unit string) Quantity { return Quantity{Num: num, Unit: UnitKeyPrefix + unit} }

func none() Quantity { return quantity("", "none") }

// GiBQuantity is a byte count in GiB with two decimals ("15.23 GiB"). The
// calculator and the pages print every memory figure with it, so a
// breakdown never mixes units.
func GiBQuantity(b int64) Quantity {
	return quantity(strconv.FormatFloat(float64(b)/(1<<30), 'f', 2, 64), "gib")
}

// FLOPsQuantity is a FLOP count in scientific notation ("5.88e+23 FLOPs").
func FLOPsQuantity(f float64) Quantity { return measure(f, 'e', 2, "flops") }

// RateQuantity is a decode speed ("41.3 tokens/s").
func RateQuantity(tps float64) Quantity { return measure(tps, 'f', 1, "rate") }

// DurationQuantity is a duration in hours up to 48 hours, else in days
// ("12.5 h", "3.2 days").
func DurationQuantity(seconds float64) Quantity {
	h := seconds / 3600
	if h <= 48 {
		return measure(h, 'f', 1, "hours")
	}
	return measure(h/24, 'f', 1, "days")
}

// LatencyQuantity is a latency in milliseconds with one decimal under one
// second, else in seconds with two decimals ("41.7 ms", "1.25 s").
func LatencyQuantity(seconds float64) Quantity {
	if seconds < 1 {
		return measure(seconds*1000, 'f', 1, "ms")
	}
	return measure(seconds, 'f', 2, "s")
}

// measure is x formatted as strconv.FormatFloat(x, f, prec) in unit, or
// none when x is zero, negative, NaN or infinite. One function for every
// unit: in the WebAssembly build each inlined FormatFloat adds code.
//
//go:noinline
func measure(x float64, f byte, prec int, unit string) Quantity {
	if !(x > 0) || math.IsInf(x, 0) {
		return none()
	}
	return quantity(strconv.FormatFloat(x, f, prec, 64), unit)
}

// FormatGiB prints GiBQuantity in English.
func FormatGiB(b int64) string { return GiBQuantity(b).English() }

// FormatFLOPs prints FLOPsQuantity in English; zero prints as "–".
func FormatFLOPs(f float64) string { return FLOPsQuantity(f).English() }

// FormatRate prints RateQuantity in English; zero prints as "–".
func FormatRate(tps float64) string { return RateQuantity(tps).English() }

// FormatDuration prints DurationQuantity in English; zero prints as "–".
func FormatDuration(seconds float64) string { return DurationQuantity(seconds).English() }

// FormatLatency prints LatencyQuantity in English; zero prints as "–".
func FormatLatency(seconds float64) string { return LatencyQuantity(seconds).English() }

// Round3 rounds v to three significant digits (166,026 -> 166,000), for
// figures that are estimates, such as a break-even volume.
func Round3(v float64) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	p := math.Pow(10, math.Floor(math.Log10(math.Abs(v)))-2)
	return math.Round(v/p) * p
}

// FormatLabel names a weight format (with its int4 scheme) and a KV-cache
// format as every serving table writes them: "int4 (awq) / bf16".
func FormatLabel(d DType, q Quant, kv DType) string {
	w := string(d)
	if q != "" {
		w += " (" + string(q) + ")"
	}
	return w + " / " + string(kv)
}

// Group writes a count with thousands separators ("131,072"), as the
// serving tables of the pages, the CLI and the calculator print tokens and
// sequences.
func Group(n int) string {
	s := strconv.Itoa(n)
	b := make([]byte, 0, len(s)+len(s)/3)
	for i := 0; i < len(s); i++ {
		if i > 0 && s[i-1] != '-' && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	return string(b)
}
