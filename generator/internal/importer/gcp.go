package importer

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
)

// gcpGPUs maps the accelerator keys of pricing.yml's machine types to GPU
// aliases (settled by the machine family where a key is ambiguous).
func gcpGPUs() map[string]gpuAlias {
	return map[string]gpuAlias{
		"a100": {candidates: []string{"a100-sxm4-40gb", "a100-pcie-40gb"}, rules: []instanceRule{
			{"gcp", "a2-highgpu-", "a100-sxm4-40gb"},
			{"gcp", "a2-megagpu-", "a100-sxm4-40gb"},
		}},
		"a100-80gb": {candidates: []string{"a100-sxm4-80gb", "a100-pcie-80gb"}, rules: []instanceRule{
			{"gcp", "a2-ultragpu-", "a100-sxm4-80gb"},
		}},
		"h100-80gb": {candidates: []string{"h100-sxm5-80gb", "h100-pcie-80gb"}, rules: []instanceRule{
			{"gcp", "a3-highgpu-", "h100-sxm5-80gb"},
		}},
		"h100-80gb-mega": {candidates: []string{"h100-sxm5-80gb", "h100-pcie-80gb"}, rules: []instanceRule{
			{"gcp", "a3-megagpu-", "h100-sxm5-80gb"},
		}},
		"l4": plain("l4"),
		// g4-standard-*: Google's G4 machine series (RTX PRO 6000 Blackwell
		// Server Edition, 96 GB per GPU).
		"rtx6000": plain("rtx-pro-6000-blackwell-server"),
	}
}

// gcpMachineKeys are a machine type's keys that are not accelerators.
var gcpMachineKeys = []string{"cost", "cpu", "ram", "local-ssd", "type"}

// gcpNotOnDemand lists machine families whose on-demand prices the file
// carries although they cannot be rented on demand, with the source.
func gcpNotOnDemand() map[string]string {
	return map[string]string{
		"a3-highgpu-1g": "gpuhunt PR #176 (2025-09-13) removed A3 High 1g/2g/4g on-demand prices: they \"are not actually available on demand, even if the API returns on-demand prices\"",
		"a3-highgpu-2g": "gpuhunt PR #176 (2025-09-13) removed A3 High 1g/2g/4g on-demand prices: they \"are not actually available on demand, even if the API returns on-demand prices\"",
		"a3-highgpu-4g": "gpuhunt PR #176 (2025-09-13) removed A3 High 1g/2g/4g on-demand prices: they \"are not actually available on demand, even if the API returns on-demand prices\"",
	}
}

// gcp imports pricing.yml: compute.instance.<machine> with an accelerator
// count key and cost.<region>.{hour, hour_spot, month_1y, month_3y}
// (month and month_spot are the compile's monthly derivations of hour and
// hour_spot, skipped), and the network and storage charges under
// compute.network and compute.storage as [[extra_costs]].
func (im *importer) gcp(src string, prov *catalog.Provider) ([]*offer, error) {
	root, err := parseYAML(src)
	if err != nil {
		return nil, fmt.Errorf("%s:%v", im.file, err)
	}
	inst := root.path("compute", "instance")
	if inst == nil || inst.kind != 'o' {
		return nil, fmt.Errorf("%s:1:1: not a pricing.yml: no compute.instance mapping", im.file)
	}
	asOf, basis := im.o.AsOf, im.o.DateBasis
	if asOf.IsZero() {
		g := root.path("about", "generated")
		d, err := time.Parse("Mon Jan _2 15:04:05 2006", g.str())
		if err != nil {
			return nil, &UsageError{fmt.Sprintf("%s has no readable about.generated date (%q): give -as-of YYYY-MM-DD", im.file, g.str())}
		}
		asOf, basis = time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC), "page-date"
	}
	pv, err := im.provenanceOf(asOf, basis) // USD without -currency: the compile lists Cloud Billing prices in USD
	if err != nil {
		return nil, err
	}
	var out []*offer
	for _, name := range inst.keys {
		if m := inst.kv[name]; m.kind == 'o' {
			if of := im.gcpMachine(name, m, prov, pv); of != nil {
				out = append(out, of)
			}
		}
	}
	im.gcpCosts(root, prov, pv)
	for _, id := range root.get("region").keysOrNil() {
		im.regionDecls = append(im.regionDecls, RegionDecl{Provider: prov.ID, ID: id, Name: root.path("region", id, "location").str()})
	}
	return out, nil
}

// gcpMachine imports one machine type: its accelerator and shape, and its
// prices per region (nil for a CPU-only machine type or when no price is
// left).
func (im *importer) gcpMachine(name string, m *node, prov *catalog.Provider, pv provenance) *offer {
	var gpuKeys []string
	for _, k := range m.keys {
		if !slices.Contains(gcpMachineKeys, k) {
			gpuKeys = append(gpuKeys, k)
		}
	}
	cost := m.get("cost")
	if len(gpuKeys) == 0 {
		for range countGCPValues(cost) {
			im.skip("CPU-only machine type")
		}
		return nil
	}
	mf := &fault{im: im}
	g, count := im.gcpAccelerator(mf, m, name, gpuKeys, prov)
	of := &offer{provider: prov.ID, instance: name, gpu: g, count: count, currency: pv.currency,
		note: fmt.Sprintf("Imported from pricing.yml (%s, machine type at line %d): compile of Google Cloud Billing SKUs by Cyclenerd/google-cloud-pricing-cost-calculator.", im.file, m.line)}
	if v, ok := m.get("cpu").num(); ok && v == math.Trunc(v) && v > 0 {
		of.vcpu = numText(v)
	}
	if v, ok := m.get("ram").num(); ok && v > 0 {
		of.ramGB = numText(v)
	}
	if cost == nil || cost.kind != 'o' {
		mf.report(m, "machine type %q has no cost mapping", name)
	}
	return im.build(of, im.gcpPrices(mf, cost, name, prov, pv))
}

// gcpAccelerator resolves a machine type's accelerator (one key) to a GPU
// and checks its count, reporting what does not hold.
func (im *importer) gcpAccelerator(mf *fault, m *node, name string, gpuKeys []string, prov *catalog.Provider) (*catalog.GPU, int) {
	if len(gpuKeys) > 1 {
		mf.report(m.get(gpuKeys[1]), "machine type %q names more than one accelerator (%s): the catalog holds one GPU per offer", name, strings.Join(gpuKeys, ", "))
	}
	key := gpuKeys[0]
	gn := m.get(key)
	var g *catalog.GPU
	if id, err := resolveGPU(gcpGPUs(), key, prov.ID, name); err != nil {
		mf.report(gn, "accelerator %v", err)
	} else if !catalog.ValidID(id) {
		mf.report(gn, "accelerator %q is %s", key, id)
	} else if g = im.o.Catalog.GPU(id); g == nil {
		mf.report(gn, "accelerator %q maps to GPU %q, which is not in data/gpus", key, id)
	}
	count := 0
	if c, ok := gn.num(); !ok || c <= 0 {
		mf.report(gn, "accelerator count %q is not a positive number", gn.str())
	} else if c != math.Trunc(c) {
		mf.report(gn, "accelerator count %s is a fractional GPU; fractional GPUs are not offers", gn.str())
	} else {
		count = int(c)
	}
	return g, count
}

// gcpPrices checks a machine type's prices, cost.<region>.<key>; a value
// with a fault (or of a machine type or region with one) is reported.
func (im *importer) gcpPrices(mf *fault, cost *node, name string, prov *catalog.Provider, pv provenance) []priced {
	var vals []priced
	for _, region := range cost.keysOrNil() {
		rn := cost.kv[region]
		rf := &fault{im: im}
		regionCheck(rf, rn, region, prov)
		for _, pk := range rn.keysOrNil() {
			v := rn.kv[pk]
			mode, known := gcpPriceModes()[pk]
			switch {
			case pk == "month" || pk == "month_spot":
				im.skip("monthly figure the compile derives from an hourly price (month = hour with sustained-use discount, month_spot = hour_spot x 730)")
				continue
			case !known:
				f := &fault{im: im}
				f.report(v, "unknown price key %q (want hour, hour_spot, month_1y, month_3y)", pk)
				im.reportedValues++
				continue
			}
			f := &fault{im: im}
			val, ok := positive(f, v, name+" "+region+" "+pk)
			if ok && (pk == "month_1y" || pk == "month_3y") {
				if month, ok2 := rn.get("month").num(); ok2 && month == val {
					f.report(v, "%s %s equals month: the compile's fallback when no commitment SKU was found, not a committed price", pk, v.str())
				}
			}
			if pk == "hour" {
				if why, ok := gcpNotOnDemand()[name]; ok {
					f.report(v, "on-demand price of %s left out: %s", name, why)
				}
			}
			if !mf.ok() || !rf.ok() || !f.ok() {
				im.reportedValues++
				continue
			}
			vals = append(vals, priced{mode: pv.stamp(mode, im.o), region: region, value: val, at: v})
		}
	}
	return vals
}

// gcpPriceModes are the price keys of a region's cost mapping imported,
// with their billing modes.
func gcpPriceModes() map[string]price {
	return map[string]price{
		"hour":      {billing: "on-demand", unit: "hour"},
		"hour_spot": {billing: "spot", unit: "hour"},
		"month_1y":  {billing: "committed", unit: "month", term: 12, commitment: "committed-use-discount"},
		"month_3y":  {billing: "committed", unit: "month", term: 36, commitment: "committed-use-discount"},
	}
}

// keysOrNil returns an object's keys (nil for nil or a non-object).
func (n *node) keysOrNil() []string {
	if n == nil || n.kind != 'o' {
		return nil
	}
	return n.keys
}

// countGCPValues counts the price values under a cost mapping.
func countGCPValues(cost *node) []struct{} {
	var out []struct{}
	for _, r := range cost.keysOrNil() {
		for range cost.kv[r].keysOrNil() {
			out = append(out, struct{}{})
		}
	}
	return out
}

// gcpCosts reads the hidden costs: internet egress (premium tier,
// worldwide destinations other than China and Australia) by volume tier,
// external IPv4 addresses in use and unused, and persistent disk
// capacity (balanced, SSD, standard).
func (im *importer) gcpCosts(root *node, prov *catalog.Provider, pv provenance) {
	base := cost{provider: prov.ID, currency: pv.currency, asOf: pv.asOf, dateBasis: pv.basis, source: im.o.Source, evidence: im.o.Evidence}
	declared := map[string]bool{}
	for _, r := range prov.Regions {
		declared[r.ID] = true
	}
	im.gcpEgress(root, base, declared)
	// External IPv4: ip.vm (in use on a standard VM), ip.unused (reserved, unattached).
	for _, ip := range []struct{ key, name string }{{"vm", "in use on a standard VM"}, {"unused", "static, reserved but unused"}} {
		regions, byRegion := gcpRegionValues(root.path("compute", "network", "ip", ip.key, "cost"), declared, "hour")
		if len(regions) == 0 {
			continue
		}
		b := base
		b.kind, b.name, b.unit = "public-ipv4", ip.name, "hour"
		im.costs = append(im.costs, costsFromRegions(b, regions, byRegion)...)
	}
	// Persistent disk capacity.
	for _, d := range []struct{ key, name string }{{"balanced", "pd-balanced"}, {"ssd", "pd-ssd"}, {"hdd", "pd-standard"}} {
		regions, byRegion := gcpRegionValues(root.path("compute", "storage", d.key, "cost"), declared, "month")
		if len(regions) == 0 {
			continue
		}
		b := base
		b.kind, b.name, b.unit = "block-storage", d.name, "gib-month"
		b.notes = "Zonal persistent disk capacity; Google's disk SKUs are priced per GiB-month."
		im.costs = append(im.costs, costsFromRegions(b, regions, byRegion)...)
	}
}

// gcpEgress adds the internet egress cost, from
// cost.<tier>.<region>.month with tiers 0-1, 1-10 and 10n (TiB), as
// tiered entries (costsFromRegions) over the declared regions that have
// all three tiers. It adds nothing when the file has no 0-1 tier.
func (im *importer) gcpEgress(root *node, base cost, declared map[string]bool) {
	eg := root.path("compute", "network", "traffic", "egress", "internet", "cost")
	t0 := eg.get("0-1")
	if t0 == nil {
		return
	}
	byRegion := map[string]string{}
	var regions []string
	for _, r := range gcpDeclared(t0, declared) {
		var parts []string
		ok := true
		for _, tier := range []string{"0-1", "1-10", "10n"} {
			v, good := eg.path(tier, r, "month").num()
			if !good {
				ok = false
				break
			}
			parts = append(parts, numText(v))
		}
		if ok {
			regions = append(regions, r)
			byRegion[r] = strings.Join(parts, " ")
		}
	}
	b := base
	b.kind, b.name, b.unit = "egress", "premium tier, worldwide destinations except China and Australia", "gib"
	b.notes = "Google's Network Internet Data Transfer Out SKUs are priced per GiB with monthly volume tiers from 0, 1024 and 10240 GiB (pricing.yml keys 0-1, 1-10, 10n: TiB)."
	for _, c := range costsFromRegions(b, regions, byRegion) {
		p := strings.Fields(c.price)
		c.price = ""
		c.tiers = [][2]string{{"1024", p[0]}, {"10240", p[1]}, {"", p[2]}}
		im.costs = append(im.costs, c)
	}
}

// gcpRegionValues returns the declared regions, in n's key order, whose
// value n.<region>.<leaf> is a number, and that number's text by region.
func gcpRegionValues(n *node, declared map[string]bool, leaf string) ([]string, map[string]string) {
	byRegion := map[string]string{}
	var regions []string
	for _, r := range gcpDeclared(n, declared) {
		if v, ok := n.path(r, leaf).num(); ok {
			regions = append(regions, r)
			byRegion[r] = numText(v)
		}
	}
	return regions, byRegion
}

// gcpDeclared returns the keys of object n (none when n is nil or not an
// object) that are declared regions, in n's order.
func gcpDeclared(n *node, declared map[string]bool) []string {
	var rs []string
	for _, r := range n.keysOrNil() {
		if declared[r] {
			rs = append(rs, r)
		}
	}
	return rs
}
