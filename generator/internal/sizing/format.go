package sizing

import "strconv"

var (
	binaryUnits  = [...]string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	decimalUnits = [...]string{"B", "kB", "MB", "GB", "TB", "PB", "EB"}
)

// FormatBytes renders a byte count with one decimal and a named unit:
// binary (powers of 1024: "12.6 GiB") or decimal (powers of 1000:
// "13.5 GB"). Counts under one kilo/kibibyte are printed whole ("512 B").
func FormatBytes(b int64, binary bool) string {
	if b < 0 {
		if b == -b { // math.MinInt64
			b++
		}
		return "-" + FormatBytes(-b, binary)
	}
	base := 1000.0
	units := decimalUnits[:]
	if binary {
		base = 1024
		units = binaryUnits[:]
	}
	if float64(b) < base {
		return strconv.FormatInt(b, 10) + " B"
	}
	v := float64(b)
	i := 0
	for v >= base && i < len(units)-1 {
		v /= base
		i++
	}
	// Rounding to one decimal may reach the next unit (1023.96 KiB).
	if v >= base-0.05 && i < len(units)-1 {
		v /= base
		i++
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + " " + units[i]
}
