package pages

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/accuracy"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
)

// accuracyShortcode expands {{< accuracy "summary" >}} and
// {{< accuracy "measurements" >}}: the sizing engine's estimates of the
// calibration set (package accuracy), as Markdown tables in the
// edition's words. The page that shows them is built from the same set
// and the same engine as the calculator, so it cannot drift from either.
func accuracyShortcode(r *accuracy.Report, c *catalog.Catalog, t func(string) string, args []string) (string, error) {
	if len(args) != 1 || (args[0] != "summary" && args[0] != "measurements") {
		return "", fmt.Errorf(`want {{< accuracy "summary" >}} or {{< accuracy "measurements" >}}`)
	}
	if len(r.Rows) == 0 {
		return t("accuracy.none"), nil
	}
	var b strings.Builder
	row := func(cells ...string) { b.WriteString("| " + strings.Join(cells, " | ") + " |\n") }
	if args[0] == "summary" {
		row(t("accuracy.col.kind"), t("accuracy.part.fit"), t("accuracy.part.held-out"), t("accuracy.col.geomean"), t("accuracy.col.spread"))
		row("---", "--:", "--:", "--:", "--:")
		share := func(kind, part string) string {
			s, ok := r.Summary(kind, part)
			if !ok {
				return "–"
			}
			return fmt.Sprintf("%d/%d · %d%%", s.Within, s.N, int(math.Round(100*s.Share)))
		}
		for _, kind := range append(catalog.MeasurementKinds(), "") {
			all, ok := r.Summary(kind, "all")
			if !ok {
				continue
			}
			name := "**" + t("accuracy.kind.all") + "**"
			if kind != "" {
				lo, hi := accuracy.Band(kind)
				name = render.Format(t("accuracy.kind.band"), t("accuracy.kind."+kind), ratio(lo), ratio(hi))
			}
			row(name, share(kind, "fit"), share(kind, "held-out"), ratio(all.GeoMean), fmt.Sprintf("±%d%%", int(math.Round(100*all.Spread))))
		}
		return b.String(), nil
	}
	row(t("accuracy.col.measurement"), t("accuracy.col.setup"), t("accuracy.col.measured"), t("accuracy.col.estimate"), t("accuracy.col.ratio"), t("accuracy.col.source"))
	row("---", "---", "--:", "--:", "--:", "---")
	for _, kind := range catalog.MeasurementKinds() {
		for _, x := range r.Rows {
			m := x.M
			if m.Kind != kind {
				continue
			}
			name := mdText(m.ID)
			if m.HeldOut {
				name += " " + t("accuracy.heldout.mark")
			}
			mark := "✓"
			if !x.Within {
				mark = "✗"
			}
			unit := " " + t("accuracy.unit."+m.Unit)
			// The citation is the source's own words (English): marked so,
			// for screen readers and translation tools, on every edition.
			row(name, setup(c, m, t), sig3(m.Measured)+unit, sig3(x.Estimate)+unit, mark+" "+ratio(x.Ratio),
				fmt.Sprintf(`<span lang="en">[%s](%s)</span>`, mdText(m.Citation), mdURL(m.URL)))
		}
	}
	return b.String(), nil
}

// setup is a measurement's setup in a few words, in the edition's
// words: model, GPUs, engine, workload, precision and the shape of the
// run.
func setup(c *catalog.Catalog, m *catalog.Measurement, t func(string) string) string {
	parts := []string{mdText(c.Model(m.Model).Name), mdText(fmt.Sprintf("%d × %s", m.GPUs, c.GPU(m.GPU).Name))}
	if m.Engine != "" {
		parts = append(parts, "`"+m.Engine+"`")
	}
	if m.Workload != "" && m.Workload != "inference" {
		parts = append(parts, mdText(t("calc.workload."+m.Workload)))
	}
	if m.DType != "" {
		d := m.DType
		if m.Quant != "" {
			d += "/" + m.Quant
		}
		if m.BitsPerWeight > 0 {
			d += " " + render.Format(t("accuracy.setup.bpw"), strconv.FormatFloat(m.BitsPerWeight, 'f', -1, 64))
		}
		parts = append(parts, mdText(d))
	}
	for _, kv := range []struct {
		k string
		v int
	}{{"TP", m.TP}, {"PP", m.PP}, {"CP", m.CP}, {t("accuracy.setup.batch"), m.Batch}, {t("accuracy.setup.seq"), m.Seq}, {t("accuracy.setup.in"), m.Prompt}, {t("accuracy.setup.out"), m.Output}} {
		if kv.v > 0 {
			parts = append(parts, mdText(kv.k+" "+strconv.Itoa(kv.v)))
		}
	}
	return strings.Join(parts, t("accuracy.setup.sep"))
}

// ratio formats a ratio with two decimals.
func ratio(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }

// sig3 formats x to three significant figures, grouped as render.Num
// groups.
func sig3(x float64) string {
	if x == 0 {
		return "0"
	}
	e := math.Floor(math.Log10(math.Abs(x)))
	p := math.Pow(10, e-2)
	v := math.Round(x/p) * p
	if e >= 2 {
		return render.Num(math.Round(v))
	}
	return strconv.FormatFloat(v, 'f', int(2-e), 64)
}

// mdURL makes a checked source URL safe as a Markdown link target:
// parentheses and spaces percent-encoded.
func mdURL(u string) string {
	return strings.NewReplacer("(", "%28", ")", "%29", " ", "%20", "<", "%3C", ">", "%3E").Replace(u)
}
