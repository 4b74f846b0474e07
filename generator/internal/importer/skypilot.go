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
	if im.o.AsOf.IsZero() {
		return nil, &UsageError{"-as-of YYYY-MM-DD is required for -format skypilot: the date the catalog's prices were true"}
	}
	if !strings.HasPrefix(im.o.Source, "https://") && !strings.HasPrefix(im.o.Source, "http://") {
		return nil, &UsageError{"-source URL is required for -format skypilot: where the vms.csv was read (a pinned commit of skypilot-catalog)"}
	}
	provider := im.o.Provider
	if provider == "" {
		dir := filepath.Base(filepath.Dir(im.o.File))
		p, ok := skypilotClouds()[dir]
		if !ok {
			return nil, &UsageError{fmt.Sprintf("cannot tell the provider of %s from its directory %q: give -provider ID", im.o.File, dir)}
		}
		provider = p
	}
	prov := im.o.Catalog.Provider(provider)
	if prov == nil {
		return nil, &UsageError{fmt.Sprintf("provider %q has no data/providers/%s.toml", provider, provider)}
	}
	known := map[string]bool{}
	for _, r := range prov.Regions {
		known[r.ID] = true
	}

	type skyRow struct {
		line                   int
		instance, region, gpu  string
		count                  int
		vcpu, ram, price, spot string // as normalised numbers ("8", "61.5"); "" when blank
	}
	seen := map[string]int{}
	var order []string
	groups := map[string][]skyRow{}
	for _, row := range im.t.rows {
		line := row.line
		if len(row.fields) != len(im.t.header) {
			im.report(line, column{}, "the row has %d fields, the header %d", len(row.fields), len(im.t.header))
			continue
		}
		if row.get(cols["AcceleratorName"]) == "" {
			im.skip("CPU-only instance") // not a GPU offer
			continue
		}
		key := strings.Join(row.fields, "\x00")
		if first, dup := seen[key]; dup {
			im.report(line, cols["InstanceType"], "duplicate of row %d (the same values)", first)
			continue
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
		p, priceText, priceOK := im.parseNumber(row, cols["Price"], true)
		if priceOK && p > 10000 {
			im.report(line, cols["Price"], "%s per instance-hour is implausible", row.get(cols["Price"]))
		}
		spot, spotText, spotOK := im.parseNumber(row, cols["SpotPrice"], false)
		if priceOK && spotOK && spotText != "" && spot > p {
			im.report(line, cols["SpotPrice"], "spot price %s is above the on-demand price %s", row.get(cols["SpotPrice"]), row.get(cols["Price"]))
		}
		region := row.get(cols["Region"])
		if !known[region] {
			im.report(line, cols["Region"], "region %q is not declared in data/providers/%s.toml%s", region, provider, declareHint(region))
		}
		if im.reported[line] || g == nil || !countOK {
			continue
		}
		r := skyRow{line: line, instance: instance, region: region, gpu: g.ID, count: int(countF), vcpu: vcpuText, ram: ram, price: priceText, spot: spotText}
		if groups[instance] == nil {
			order = append(order, instance)
		}
		groups[instance] = append(groups[instance], r)
	}
	var out []*offer
	for _, inst := range order {
		rows := groups[inst]
		first := rows[0]
		type check struct {
			col       column
			get       func(skyRow) string
			fieldName string
		}
		// The instance's own figures must agree across its rows; every
		// disagreeing field is reported.
		checks := []check{
			{cols["AcceleratorName"], func(r skyRow) string { return r.gpu }, "GPU"},
			{cols["AcceleratorCount"], func(r skyRow) string { return strconv.Itoa(r.count) }, "GPU count"},
			{cols["vCPUs"], func(r skyRow) string { return r.vcpu }, "vCPUs"},
			{cols["MemoryGiB"], func(r skyRow) string { return r.ram }, "memory"},
		}
		conflict := false
		for _, c := range checks {
			if msg, bad := disagreement(rows, c.get, func(r skyRow) int { return r.line }); bad {
				conflict = true
				for _, r := range rows {
					im.report(r.line, c.col, "instance %q has a different %s across its rows (%s); the catalog holds one offer per instance with one %s", inst, c.fieldName, msg, c.fieldName)
				}
			}
		}
		// Prices may differ by region (they become regional prices), not
		// between the zones of one region.
		byRegion := map[string][]skyRow{}
		var regions []string
		for _, r := range rows {
			if byRegion[r.region] == nil {
				regions = append(regions, r.region)
			}
			byRegion[r.region] = append(byRegion[r.region], r)
		}
		for _, reg := range regions {
			rs := byRegion[reg]
			for _, c := range []check{{cols["Price"], func(r skyRow) string { return r.price }, "price"}, {cols["SpotPrice"], func(r skyRow) string { return r.spot }, "spot price"}} {
				if msg, bad := disagreement(rs, c.get, func(r skyRow) int { return r.line }); bad {
					conflict = true
					for _, r := range rs {
						im.report(r.line, c.col, "instance %q has a different %s across the rows of region %s (%s); a region has one price", inst, c.fieldName, reg, msg)
					}
				}
			}
		}
		if conflict {
			continue
		}
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
		out = append(out, of)
	}
	return out, nil
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
