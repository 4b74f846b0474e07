package importer

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
)

// skypilot imports a SkyPilot catalog vms.csv: one row per instance type
// and region (or zone), columns InstanceType, AcceleratorName,
// AcceleratorCount, vCPUs, MemoryGiB, Price, SpotPrice, Region and others.
// Rows of one instance type become one offer listing their regions, with
// one price per billing mode when every region has the same price and
// one regional price per region otherwise; an instance whose rows
// disagree on its own figures (GPU, count, vCPUs, memory), or whose zones
// of one region disagree on a price, is reported, not averaged or picked.
func (im *importer) skypilot() ([]*offer, error) {
	cols, err := im.t.require("skypilot", "InstanceType", "AcceleratorName", "AcceleratorCount", "vCPUs", "MemoryGiB", "Price", "SpotPrice", "Region")
	if err != nil {
		return nil, err
	}
	provider, known, err := im.skypilotProvider()
	if err != nil {
		return nil, err
	}
	order, groups := im.skypilotRows(cols, provider, known)
	var out []*offer
	for _, inst := range order {
		if of := im.skypilotOffer(inst, groups[inst], cols, provider); of != nil {
			out = append(out, of)
		}
	}
	return out, nil
}

// skyRow is a usable row of a SkyPilot vms.csv, with its figures as
// normalised numbers ("8", "61.5"), "" when blank.
type skyRow struct {
	line                   int
	instance, region, gpu  string
	count                  int
	vcpu, ram, price, spot string
}

// skyRowLine returns the line of a row, for disagreement.
func skyRowLine(r skyRow) int { return r.line }

// skyField is a field that must agree across a group of rows: its
// column, how to read it from a row, and its name in reports.
type skyField struct {
	col       column
	get       func(skyRow) string
	fieldName string
}

// skypilotProvider checks the options -format skypilot needs (-as-of,
// -source) and returns the provider the file is for, given by -provider
// or told by the file's directory, and the set of regions it declares.
// Its errors are UsageErrors.
func (im *importer) skypilotProvider() (string, map[string]bool, error) {
	if im.o.AsOf.IsZero() {
		return "", nil, &UsageError{"-as-of YYYY-MM-DD is required for -format skypilot: the date the catalog's prices were true"}
	}
	if !strings.HasPrefix(im.o.Source, "https://") && !strings.HasPrefix(im.o.Source, "http://") {
		return "", nil, &UsageError{"-source URL is required for -format skypilot: where the vms.csv was read (a pinned commit of skypilot-catalog)"}
	}
	provider := im.o.Provider
	if provider == "" {
		dir := filepath.Base(filepath.Dir(im.o.File))
		p, ok := skypilotClouds()[dir]
		if !ok {
			return "", nil, &UsageError{fmt.Sprintf("cannot tell the provider of %s from its directory %q: give -provider ID", im.o.File, dir)}
		}
		provider = p
	}
	prov := im.o.Catalog.Provider(provider)
	if prov == nil {
		return "", nil, &UsageError{fmt.Sprintf("provider %q has no data/providers/%s.toml", provider, provider)}
	}
	known := map[string]bool{}
	for _, r := range prov.Regions {
		known[r.ID] = true
	}
	return provider, known, nil
}

// skypilotRows reads the table's rows and groups the usable ones by
// instance type; it returns the instance types in the order of their
// first row. Unusable rows are reported or skipped.
func (im *importer) skypilotRows(cols map[string]column, provider string, known map[string]bool) ([]string, map[string][]skyRow) {
	seen := map[string]int{}
	var order []string
	groups := map[string][]skyRow{}
	for _, row := range im.t.rows {
		r, ok := im.skypilotRow(row, cols, provider, known, seen)
		if !ok {
			continue
		}
		if groups[r.instance] == nil {
			order = append(order, r.instance)
		}
		groups[r.instance] = append(groups[r.instance], r)
	}
	return order, groups
}

// skypilotRow reads one row, reporting every problem it has. It returns
// false for a row that is not imported: one with the wrong number of
// fields, a CPU-only row (skipped), a duplicate, or one with a report.
// seen maps the rows read so far (their fields joined) to their lines;
// the row is added to it unless it is one of the first three kinds.
func (im *importer) skypilotRow(row csvRow, cols map[string]column, provider string, known map[string]bool, seen map[string]int) (skyRow, bool) {
	line := row.line
	if len(row.fields) != len(im.t.header) {
		im.report(line, column{}, "the row has %d fields, the header %d", len(row.fields), len(im.t.header))
		return skyRow{}, false
	}
	if row.get(cols["AcceleratorName"]) == "" {
		im.skip("CPU-only instance") // not a GPU offer
		return skyRow{}, false
	}
	key := strings.Join(row.fields, "\x00")
	if first, dup := seen[key]; dup {
		im.report(line, cols["InstanceType"], "duplicate of row %d (the same values)", first)
		return skyRow{}, false
	}
	seen[key] = line
	instance := row.get(cols["InstanceType"])
	if instance == "" {
		im.report(line, cols["InstanceType"], "blank; an offer needs the instance type")
	}
	g := im.gpu(row, cols["AcceleratorName"], skypilotGPUs(), provider, instance)
	countF, _, countOK := im.parseNumber(row, cols["AcceleratorCount"], true)
	if countOK && countF != math.Trunc(countF) {
		im.report(line, cols["AcceleratorCount"], "%s is a fractional GPU; fractional GPUs are not offers", row.get(cols["AcceleratorCount"]))
		countOK = false
	}
	vcpuF, vcpuText, vcpuOK := im.parseNumber(row, cols["vCPUs"], false)
	if vcpuOK && vcpuText != "" && vcpuF != math.Trunc(vcpuF) {
		im.report(line, cols["vCPUs"], "%s is not a whole number", row.get(cols["vCPUs"]))
	}
	_, ram, _ := im.parseNumber(row, cols["MemoryGiB"], false)
	priceText, spotText := im.skypilotPrices(row, cols)
	region := row.get(cols["Region"])
	if !known[region] {
		im.report(line, cols["Region"], "region %q is not declared in data/providers/%s.toml%s", region, provider, declareHint(region))
	}
	if im.reported[line] || g == nil || !countOK {
		return skyRow{}, false
	}
	return skyRow{line: line, instance: instance, region: region, gpu: g.ID, count: int(countF), vcpu: vcpuText, ram: ram, price: priceText, spot: spotText}, true
}

// skypilotPrices reads a row's on-demand and spot prices as normalised
// numbers ("" when blank or bad), reporting bad values, an implausible
// price and a spot price above the on-demand one.
func (im *importer) skypilotPrices(row csvRow, cols map[string]column) (priceText, spotText string) {
	p, priceText, priceOK := im.parseNumber(row, cols["Price"], true)
	if priceOK && p > 10000 {
		im.report(row.line, cols["Price"], "%s per instance-hour is implausible", row.get(cols["Price"]))
	}
	spot, spotText, spotOK := im.parseNumber(row, cols["SpotPrice"], false)
	if priceOK && spotOK && spotText != "" && spot > p {
		im.report(row.line, cols["SpotPrice"], "spot price %s is above the on-demand price %s", row.get(cols["SpotPrice"]), row.get(cols["Price"]))
	}
	return priceText, spotText
}

// skypilotOffer builds the offer of instance type inst from its rows, or
// returns nil when the rows conflict (every conflict is reported).
func (im *importer) skypilotOffer(inst string, rows []skyRow, cols map[string]column, provider string) *offer {
	conflict := im.skypilotFiguresDisagree(inst, rows, cols)
	regions, byRegion := skypilotRegions(rows)
	if im.skypilotPricesDisagree(inst, regions, byRegion, cols) {
		conflict = true
	}
	if conflict {
		return nil
	}
	first := rows[0]
	g := im.o.Catalog.GPU(first.gpu)
	of := &offer{provider: provider, instance: inst, gpu: g, count: first.count, vcpu: first.vcpu, ramGB: first.ram, currency: "USD", regions: regions}
	od, spot := map[string]string{}, map[string]string{}
	for _, r := range rows {
		of.rows = append(of.rows, r.line)
		od[r.region] = r.price
		if r.spot != "" {
			spot[r.region] = r.spot
		}
	}
	of.note = fmt.Sprintf("Imported from the SkyPilot catalog (%s, %s).", filepath.Base(im.o.File), lines(of.rows))
	base := price{asOf: im.o.AsOf, dateBasis: im.o.DateBasis, source: im.o.Source, evidence: im.o.Evidence}
	base.billing = "on-demand"
	of.prices = append(of.prices, collapse(base, regions, od)...)
	base.billing = "spot"
	of.prices = append(of.prices, collapse(base, regions, spot)...)
	return of
}

// skypilotFiguresDisagree reports, on each of its rows, every figure of
// instance inst (GPU, count, vCPUs, memory) that differs across its rows,
// and reports whether any did.
func (im *importer) skypilotFiguresDisagree(inst string, rows []skyRow, cols map[string]column) bool {
	fields := []skyField{
		{cols["AcceleratorName"], func(r skyRow) string { return r.gpu }, "GPU"},
		{cols["AcceleratorCount"], func(r skyRow) string { return strconv.Itoa(r.count) }, "GPU count"},
		{cols["vCPUs"], func(r skyRow) string { return r.vcpu }, "vCPUs"},
		{cols["MemoryGiB"], func(r skyRow) string { return r.ram }, "memory"},
	}
	conflict := false
	for _, c := range fields {
		if msg, bad := disagreement(rows, c.get, skyRowLine); bad {
			conflict = true
			for _, r := range rows {
				im.report(r.line, c.col, "instance %q has a different %s across its rows (%s); the catalog holds one offer per instance with one %s", inst, c.fieldName, msg, c.fieldName)
			}
		}
	}
	return conflict
}

// skypilotRegions groups rows by region; it returns the regions in the
// order of their first row.
func skypilotRegions(rows []skyRow) ([]string, map[string][]skyRow) {
	byRegion := map[string][]skyRow{}
	var regions []string
	for _, r := range rows {
		if byRegion[r.region] == nil {
			regions = append(regions, r.region)
		}
		byRegion[r.region] = append(byRegion[r.region], r)
	}
	return regions, byRegion
}

// skypilotPricesDisagree reports, on each of its rows, every price of
// instance inst that differs between the rows (zones) of one region, and
// reports whether any did. Prices may differ between regions: they
// become regional prices.
func (im *importer) skypilotPricesDisagree(inst string, regions []string, byRegion map[string][]skyRow, cols map[string]column) bool {
	fields := []skyField{
		{cols["Price"], func(r skyRow) string { return r.price }, "price"},
		{cols["SpotPrice"], func(r skyRow) string { return r.spot }, "spot price"},
	}
	conflict := false
	for _, reg := range regions {
		rs := byRegion[reg]
		for _, c := range fields {
			if msg, bad := disagreement(rs, c.get, skyRowLine); bad {
				conflict = true
				for _, r := range rs {
					im.report(r.line, c.col, "instance %q has a different %s across the rows of region %s (%s); a region has one price", inst, c.fieldName, reg, msg)
				}
			}
		}
	}
	return conflict
}

// disagreement describes the values a field takes across rows ("0.526 on
// row 2; 0.6 on row 3") and reports whether there is more than one.
func disagreement[R any](rows []R, get func(R) string, line func(R) int) (string, bool) {
	values := map[string][]int{}
	var order []string
	for _, r := range rows {
		v := get(r)
		if values[v] == nil {
			order = append(order, v)
		}
		values[v] = append(values[v], line(r))
	}
	if len(values) < 2 {
		return "", false
	}
	var parts []string
	for _, v := range order {
		label := v
		if label == "" {
			label = "(blank)"
		}
		parts = append(parts, fmt.Sprintf("%s on %s", label, lines(values[v])))
	}
	return strings.Join(parts, "; "), true
}

func declareHint(region string) string {
	if region == "" {
		return " (the row names no region)"
	}
	return " (declare it there if the provider runs it)"
}
