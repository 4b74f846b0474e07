package derive

import (
	"html/template"
	"math"
	"strconv"
	"strings"
)

// PerGBDC is the row's price per GB of GPU memory per hour in the display
// currency (per GPU-hour divided by the GB of one GPU), 0 if unknown.
func (r *Row) PerGBDC() float64 {
	if r.Offer.VRAMPerGPUGB <= 0 {
		return 0
	}
	return r.PerGPUDC / r.Offer.VRAMPerGPUGB
}

// Compact writes a large count with a magnitude suffix, one decimal under
// 100 of the unit and none above, a trailing ".0" dropped: 7615616512 ->
// "7.6B", 70553706496 -> "70.6B", 8030261248 -> "8B", 124439808 ->
// "124M"; under 1000 it is the number itself.
func Compact(n int64) string {
	v := math.Abs(float64(n))
	sign := ""
	if n < 0 {
		sign = "-"
	}
	units := []struct {
		div    float64
		suffix string
	}{{1e3, "K"}, {1e6, "M"}, {1e9, "B"}, {1e12, "T"}}
	for i := len(units) - 1; i >= 0; i-- {
		if v < units[i].div {
			continue
		}
		x := v / units[i].div
		d := 0 // one decimal under 100
		if x < 99.95 {
			d = 1
		}
		r := math.Round(x*math.Pow(10, float64(d))) / math.Pow(10, float64(d))
		if r >= 1000 && i+1 < len(units) { // 999.6M rounds to 1000M: 1B
			i++
			r, d = r/1000, 1
		}
		s := strconv.FormatFloat(r, 'f', d, 64)
		if strings.Contains(s, ".") {
			s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
		}
		return sign + s + units[i].suffix
	}
	return strconv.FormatInt(n, 10)
}

// Group writes an integer with a comma between groups of three digits:
// 131072 -> "131,072".
func Group(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Breakable escapes s for HTML and adds a line-break opportunity (<wbr>)
// after each "_", ".", "/", "," and "-" followed by more of the word, so
// a long identifier such as an instance name wraps at its parts instead
// of mid-word.
func Breakable(s string) template.HTML {
	var b strings.Builder
	r := []rune(s)
	for i, c := range r {
		b.WriteString(template.HTMLEscapeString(string(c)))
		if strings.ContainsRune("_./,-", c) && i+1 < len(r) && r[i+1] != ' ' {
			b.WriteString("<wbr>")
		}
	}
	return template.HTML(b.String())
}

// InstanceHTML is the offer's instance name with break opportunities
// (Breakable).
func (r *Row) InstanceHTML() template.HTML { return Breakable(r.Offer.Instance) }

// RegionsHTML is the ids of the regions the row applies to,
// comma-separated, with break opportunities.
func (r *Row) RegionsHTML() template.HTML { return Breakable(strings.Join(r.Regions, ", ")) }

// DatasetHTML is the price's dataset id with break opportunities.
func (r *Row) DatasetHTML() template.HTML { return Breakable(r.Price.Dataset) }

// Round4 rounds to four decimals, for figures a script compares.
func Round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }
