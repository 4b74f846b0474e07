package importer

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"time"
)

// fsdl imports the Full Stack Deep Learning cloud GPU table: one row per
// instance, columns Cloud, GPU Type, GPU Arch, GPUs, GPU RAM, vCPUs, RAM,
// On-demand, Per-GPU, Spot, Name, and in the .with-dates variant a first
// column "Row Last Changed" that dates each row's prices.
func (im *importer) fsdl() ([]*offer, error) {
	cols, err := im.t.require("fsdl", "Cloud", "GPU Type", "GPU Arch", "GPUs", "GPU RAM", "vCPUs", "RAM", "On-demand", "Per-GPU", "Spot", "Name")
	if err != nil {
		return nil, err
	}
	date := im.t.col("Row Last Changed")
	if date.idx < 0 && im.o.AsOf.IsZero() {
		return nil, &UsageError{fmt.Sprintf("%s has no \"Row Last Changed\" column: give the date its prices were true with -as-of YYYY-MM-DD", im.o.File)}
	}
	im.fsdlDuplicates(cols)
	var out []*offer
	for _, row := range im.t.rows {
		if len(row.fields) != len(im.t.header) {
			im.report(row.line, column{}, "the row has %d fields, the header %d", len(row.fields), len(im.t.header))
			continue
		}
		if of := im.fsdlRow(row, cols, date); of != nil && !im.reported[row.line] {
			out = append(out, of)
		}
	}
	return out, nil
}

// fsdlDuplicates reports rows naming the same instance of the same cloud.
// When the rows are identical the first stands and the others are
// reported; when they differ none can be chosen and all are reported.
func (im *importer) fsdlDuplicates(cols map[string]column) {
	groups := map[string][]csvRow{}
	var order []string
	for _, row := range im.t.rows {
		cloud, name := row.get(cols["Cloud"]), row.get(cols["Name"])
		if cloud == "" || name == "" || len(row.fields) != len(im.t.header) {
			continue
		}
		k := cloud + "\x00" + name
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], row)
	}
	for _, k := range order {
		rows := groups[k]
		if len(rows) < 2 {
			continue
		}
		identical := true
		for _, r := range rows[1:] {
			if strings.Join(r.fields, "\x00") != strings.Join(rows[0].fields, "\x00") {
				identical = false
			}
		}
		for i, r := range rows {
			switch {
			case identical && i > 0:
				im.report(r.line, cols["Name"], "duplicate of row %d (the same values); only row %d is imported", rows[0].line, rows[0].line)
			case !identical:
				var others []int
				for _, o := range rows {
					if o.line != r.line {
						others = append(others, o.line)
					}
				}
				im.report(r.line, cols["Name"], "instance %q of %s is also on %s with different values; the catalog holds one offer per instance", r.get(cols["Name"]), r.get(cols["Cloud"]), lines(others))
			}
		}
	}
}

// fsdlRow checks one row and returns its offer (nil when it cannot be
// built; every reason is reported).
func (im *importer) fsdlRow(row csvRow, cols map[string]column, date column) *offer {
	line := row.line
	provider := im.fsdlProvider(row, cols["Cloud"])
	name := row.get(cols["Name"])
	if name == "" {
		im.report(line, cols["Name"], "blank; an offer needs the provider's instance name")
	}
	g := im.gpu(row, cols["GPU Type"], fsdlGPUs(), provider, name)
	count, _, countOK := im.parseCount(row, cols["GPUs"], true)
	vram, _, vramOK := im.parseNumber(row, cols["GPU RAM"], true)
	switch {
	case g != nil && countOK && vramOK && math.Abs(vram-float64(count)*g.MemoryGB) > 0.01:
		im.report(line, cols["GPU RAM"], "%s GB is not GPUs %d x %s GB (%s's memory_gb) = %s GB",
			row.get(cols["GPU RAM"]), count, num(g.MemoryGB), g.ID, num(float64(count)*g.MemoryGB))
	case g == nil && countOK && vramOK:
		// The GPU could not be settled (ambiguous): the total is still
		// checked against every candidate the catalog has.
		im.fsdlCandidateVRAM(row, cols, count, vram)
	}
	_, vcpu, _ := im.parseCount(row, cols["vCPUs"], false)
	_, ram, _ := im.parseNumber(row, cols["RAM"], false)
	od, odText, odOK := im.parseNumber(row, cols["On-demand"], true)
	if odOK && od > 10000 {
		im.report(line, cols["On-demand"], "%s per instance-hour is implausible", row.get(cols["On-demand"]))
	}
	perGPU, perText, perOK := im.parseNumber(row, cols["Per-GPU"], false)
	if odOK && countOK && perOK && perText != "" && math.Abs(perGPU-od/float64(count)) > 0.01+1e-9 {
		im.report(line, cols["Per-GPU"], "%s is not On-demand %s / GPUs %d = %s (off by more than 0.01)", row.get(cols["Per-GPU"]), row.get(cols["On-demand"]), count, num(math.Round(od/float64(count)*1e4)/1e4))
	}
	spot, spotText, spotOK := im.parseNumber(row, cols["Spot"], false)
	if odOK && spotOK && spotText != "" && spot > od {
		im.report(line, cols["Spot"], "spot price %s is above the on-demand price %s", row.get(cols["Spot"]), row.get(cols["On-demand"]))
	}
	asOf, basis := im.fsdlDate(row, date)
	if im.reported[line] || g == nil || provider == "" {
		return nil
	}
	of := &offer{
		provider: provider, instance: name, gpu: g, count: count, vcpu: vcpu, ramGB: ram, currency: "USD",
		rows: []int{line},
		note: fmt.Sprintf("Imported from the FSDL cloud GPU table (%s, line %d).", filepath.Base(im.o.File), line),
	}
	of.prices = append(of.prices, price{billing: "on-demand", value: odText, asOf: asOf, dateBasis: basis, source: FSDLSource, dataset: FSDLDataset})
	if spotText != "" {
		of.prices = append(of.prices, price{billing: "spot", value: spotText, asOf: asOf, dateBasis: basis, source: FSDLSource, dataset: FSDLDataset})
	}
	return of
}

// fsdlProvider returns the catalog provider of a row's cloud (column c),
// or "" after reporting a cloud the importer does not know or one whose
// provider has no file.
func (im *importer) fsdlProvider(row csvRow, c column) string {
	cloud := row.get(c)
	p, ok := fsdlClouds()[cloud]
	if !ok {
		im.report(row.line, c, "unknown cloud %q (not in the importer's cloud table)", cloud)
		return ""
	}
	if im.o.Catalog.Provider(p) == nil {
		im.report(row.line, c, "cloud %q maps to provider %q, which has no data/providers/%s.toml", cloud, p, p)
		return ""
	}
	return p
}

// fsdlCandidateVRAM checks a row's total GPU memory (vram, for count
// GPUs) when its GPU name is ambiguous: it reports the row when the total
// fits none of the candidate GPUs the catalog has, listing the total each
// would give. With no candidate in the catalog it reports nothing.
func (im *importer) fsdlCandidateVRAM(row csvRow, cols map[string]column, count int, vram float64) {
	cands := im.candidates(fsdlGPUs(), row.get(cols["GPU Type"]))
	var totals []string
	ids := map[string][]string{}
	fits := false
	for _, c := range cands {
		if math.Abs(vram-float64(count)*c.MemoryGB) <= 0.01 {
			fits = true
		}
		t := num(float64(count) * c.MemoryGB)
		if ids[t] == nil {
			totals = append(totals, t)
		}
		ids[t] = append(ids[t], c.ID)
	}
	var parts []string
	for _, t := range totals {
		parts = append(parts, fmt.Sprintf("%s GB for %s", t, strings.Join(ids[t], " or ")))
	}
	if len(cands) > 0 && !fits {
		im.report(row.line, cols["GPU RAM"], "%s GB is not GPUs %d x the memory of any candidate GPU (%s)", row.get(cols["GPU RAM"]), count, strings.Join(parts, ", "))
	}
}

// fsdlDate returns the date a row's prices were true and its basis: the
// row's own date (column date, when the table has it and the row fills
// it in), else -as-of. A bad row date is reported and gives the zero
// time; a blank one with no -as-of is reported.
func (im *importer) fsdlDate(row csvRow, date column) (time.Time, string) {
	asOf, basis := im.o.AsOf, im.o.DateBasis
	if date.idx >= 0 {
		switch {
		case row.get(date) != "":
			asOf, _ = im.parseDate(row, date)
			basis = "dataset-row-date"
		case asOf.IsZero():
			im.report(row.line, date, "blank, and no -as-of was given; the prices need the date they were true")
		}
	}
	return asOf, basis
}
