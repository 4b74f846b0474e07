package importer

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
)

// azureSize is what an Azure VM size holds: its ARM name, GPU and count.
type azureSize struct {
	arm   string
	gpu   string // a data/gpus id, or a description of a part the catalog lacks
	count int    // 0: a partial GPU
}

// azureSizes maps Azure VM sizes, keyed by azureKey of the ARM name or of
// the meter's compact spelling, to their GPUs. Sources: the size pages of
// MicrosoftDocs/azure-docs (articles/virtual-machines/sizes/gpu-accelerated:
// NC A100 v4, ND A100 v4, NDm A100 v4, NC H100 v5, ND H100 v5, ND H200 v5,
// ND MI300X v5, NCasT4 v3, NDv2, NV A10 v5) and of
// MicrosoftDocs/azure-compute-docs (NCCads H100 v5), which give each size's
// GPU model and count. Left out on purpose: NCv3 (retired 2025-09-30) and
// NVv3 (retired 2026-09-30) per their size pages, and the NC RTX PRO 6000
// BSE v6 sizes, whose pages give no GPU count per size (some are partial).
func azureSizes() map[string]azureSize {
	m := map[string]azureSize{}
	add := func(arm, gpu string, count int, aliases ...string) {
		s := azureSize{arm: arm, gpu: gpu, count: count}
		m[azureKey(arm)] = s
		for _, a := range aliases {
			m[azureKey(a)] = s
		}
	}
	add("Standard_NC24ads_A100_v4", "a100-pcie-80gb", 1)
	add("Standard_NC48ads_A100_v4", "a100-pcie-80gb", 2)
	add("Standard_NC96ads_A100_v4", "a100-pcie-80gb", 4)
	add("Standard_ND96amsr_A100_v4", "a100-sxm4-80gb", 8, "ND96amsr A100 v4")
	add("Standard_ND96asr_v4", "a100-sxm4-40gb", 8, "ND96asr_A100_v4")
	add("Standard_NC40ads_H100_v5", "h100-nvl-94gb", 1)
	add("Standard_NC80adis_H100_v5", "h100-nvl-94gb", 2)
	// Confidential: NCCads_H100_v5 page, "1 GPU, Nvidia H100 GPU (94GB)".
	add("Standard_NCC40ads_H100_v5", "h100-nvl-94gb", 1)
	add("Standard_ND96isr_H100_v5", "h100-sxm5-80gb", 8)
	add("Standard_ND96isr_H200_v5", "h200-sxm-141gb", 8)
	add("Standard_ND96isr_MI300X_v5", "mi300x", 8)
	add("Standard_NC4as_T4_v3", "t4", 1)
	add("Standard_NC8as_T4_v3", "t4", 1)
	add("Standard_NC16as_T4_v3", "t4", 1)
	add("Standard_NC64as_T4_v3", "t4", 4)
	add("Standard_ND40rs_v2", "v100-sxm2-32gb", 8)
	add("Standard_NV36ads_A10_v5", "a10", 1)
	add("Standard_NV36adms_A10_v5", "a10", 1)
	add("Standard_NV72ads_A10_v5", "a10", 2)
	for _, partial := range []string{"Standard_NV6ads_A10_v5", "Standard_NV12ads_A10_v5", "Standard_NV18ads_A10_v5"} {
		add(partial, "a10", 0) // "starting at 1/6th of a GPU" (NV A10 v5-series page)
	}
	return m
}

// azureKey is a size name without "Standard_", spaces, underscores and
// case: "Standard_NC4as_T4_v3" and "NC4as T4 v3" are both "nc4ast4v3".
func azureKey(s string) string {
	s = strings.TrimPrefix(s, "Standard_")
	return strings.ToLower(strings.NewReplacer(" ", "", "_", "").Replace(s))
}

// azureGPUFamily matches the N-series (GPU) size names, whose rows must
// map to a size of the table or be reported.
var azureGPUFamily = regexp.MustCompile(`^(Standard_)?N`)

// azure imports Azure Retail Prices API items: either an API response
// ({"Items": [...]}) or a snapshot keyed by meter that keeps the items'
// armRegionName, meterName, productName, retailPrice, skuName,
// unitOfMeasure and the one-year savingsPlanPrice (azure-pricing-radar's
// data/latest/vm-*.json and storage-*.json). Linux consumption prices of
// GPU sizes become on-demand, spot (" Spot" sizes) and one- and three-year
// savings-plan prices; Windows, Low Priority and Dev/Test prices are
// skipped; reservation prices (per term, not per hour) are reported. From
// storage items, Premium SSD v2 capacity becomes a block-storage charge.
func (im *importer) azure(src string, prov *catalog.Provider) ([]*offer, error) {
	items, err := im.azureItems(src)
	if err != nil {
		return nil, err
	}
	if im.o.AsOf.IsZero() {
		return nil, &UsageError{"-as-of YYYY-MM-DD is required for -format azure: the date the prices were read (the API returns no such date)"}
	}
	a := &azureImport{im: im, prov: prov, sizes: azureSizes(), seen: map[azureMeterKey]*node{},
		offers: map[string]*offer{}, vals: map[string][]priced{}, storage: map[string]string{}}
	for _, it := range items {
		a.item(it)
	}
	out := a.buildOffers()
	a.storageCosts()
	return out, nil
}

// azureItems parses the file and returns its items: the API response's
// Items, or the values of a snapshot keyed by meter.
func (im *importer) azureItems(src string) ([]*node, error) {
	root, err := parseJSON(src, 0)
	if err != nil {
		return nil, fmt.Errorf("%s:%v", im.file, err)
	}
	if it := root.get("Items"); it != nil && it.kind == 'a' {
		return it.items, nil
	}
	if root.kind != 'o' {
		return nil, fmt.Errorf("%s:1:1: not Azure Retail Prices items: want {\"Items\": [...]} or a keyed snapshot", im.file)
	}
	var items []*node
	for _, k := range root.keys {
		items = append(items, root.kv[k])
	}
	return items, nil
}

// azureImport is one Azure import under way: the offers by VM size in
// first-seen order with their price values, and the Premium SSD v2
// capacity price by region.
type azureImport struct {
	im             *importer
	prov           *catalog.Provider
	sizes          map[string]azureSize
	seen           map[azureMeterKey]*node // the first price of a size, region and billing
	offers         map[string]*offer       // by ARM size name
	vals           map[string][]priced
	order          []string
	storage        map[string]string
	storageRegions []string
}

type azureMeterKey struct{ size, region, billing string }

// azureItem is what one item of the file says.
type azureItem struct {
	n                                    *node
	product, meter, sku, region, service string
	price                                *node
}

// item imports one item: a storage meter or a VM meter.
func (a *azureImport) item(n *node) {
	if n.kind != 'o' {
		f := &fault{im: a.im}
		f.report(n, "an item that is not an object")
		a.im.reportedValues++
		return
	}
	it := azureItem{n: n, product: n.get("productName").str(), meter: n.get("meterName").str(), sku: n.get("skuName").str(),
		region: n.get("armRegionName").str(), service: n.get("serviceName").str(), price: n.get("retailPrice")}
	if it.service == "Storage" || strings.Contains(it.product, "SSD") || strings.Contains(it.product, "Disk") || strings.Contains(it.product, "Storage") {
		a.storageMeter(it)
		return
	}
	if size, billing, ok := a.gpuVMMeter(it); ok {
		a.vmPrice(it, size, billing)
	}
}

// storageMeter imports a Premium SSD v2 capacity price and skips every
// other storage meter.
func (a *azureImport) storageMeter(it azureItem) {
	if it.product != "Azure Premium SSD v2" || it.meter != "Premium LRS Provisioned Capacity" || it.n.get("unitOfMeasure").str() != "1 GiB/Hour" {
		a.im.skip("storage meter other than Premium SSD v2 capacity (per-disk and transaction prices)")
		return
	}
	f := &fault{im: a.im}
	v, ok := positive(f, it.price, "Premium SSD v2 capacity "+it.region)
	if ok && regionCheck(f, it.n, it.region, a.prov) {
		if _, dup := a.storage[it.region]; !dup {
			a.storageRegions = append(a.storageRegions, it.region)
		}
		a.storage[it.region] = numText(v)
		a.im.importedValues++
	} else {
		a.im.reportedValues++
	}
	a.im.declare(a.prov, it.region)
}

// gpuVMMeter says whether a meter is a Linux consumption price of a GPU
// (N-series) size, skipping or reporting it otherwise, and gives the
// size and the billing (on-demand, or spot for a " Spot" size).
func (a *azureImport) gpuVMMeter(it azureItem) (size, billing string, ok bool) {
	im := a.im
	switch {
	case it.service != "" && it.service != "Virtual Machines":
		im.skip("service other than Virtual Machines")
		return "", "", false
	case strings.Contains(it.product, "Windows") || strings.Contains(it.product, " Win"):
		im.skip("Windows price (the catalog lists Linux prices)")
		return "", "", false
	case strings.HasSuffix(it.sku, " Low Priority") || strings.HasSuffix(it.meter, " Low Priority"):
		im.skip("Low Priority VM (a retired billing model the catalog does not list)")
		return "", "", false
	}
	switch it.n.get("type").str() {
	case "DevTestConsumption":
		im.skip("Dev/Test price")
		return "", "", false
	case "Reservation":
		f := &fault{im: im}
		f.report(it.n.get("type"), "reservation price %s is for the whole %s term, not per hour: not imported", it.price.str(), it.n.get("reservationTerm").str())
		im.reportedValues++
		return "", "", false
	}
	size = it.n.get("armSkuName").str()
	if size == "" {
		size = it.sku
	}
	billing = "on-demand"
	if strings.HasSuffix(size, " Spot") || strings.HasSuffix(it.sku, " Spot") {
		billing, size = "spot", strings.TrimSuffix(size, " Spot")
	}
	if !azureGPUFamily.MatchString(size) || strings.HasSuffix(size, " Type1") || strings.Contains(it.product, "Dedicated Host") {
		im.skip("not a VM price of a GPU (N-series) size")
		return "", "", false
	}
	return size, billing, true
}

// vmPrice checks a GPU size's price and adds it, and for an on-demand
// price its savings plans, to the size's offer; a price with a fault is
// reported, counting its savings plans with it.
func (a *azureImport) vmPrice(it azureItem, size, billing string) {
	nvals := 1 + len(it.n.get("savingsPlan").itemsOrNil())
	if it.n.get("savingsPlanPrice") != nil {
		nvals++
	}
	f := &fault{im: a.im}
	sz, known, g := a.sizeGPU(f, it, size)
	if u := it.n.get("unitOfMeasure").str(); u != "1 Hour" {
		f.report(it.n.get("unitOfMeasure"), "unit %q is not \"1 Hour\"", u)
	}
	regionCheck(f, it.n.get("armRegionName"), it.region, a.prov)
	v, ok := positive(f, it.price, size+" "+it.region)
	if ok && v > 10000 {
		f.report(it.price, "%s per instance-hour is implausible", it.price.str())
	}
	if known {
		if a.secondMeter(f, sz, it, billing, v) {
			a.im.skip("a second meter of the same size, region and price")
			return
		}
		if sz.count > 0 {
			a.im.declare(a.prov, it.region)
		}
	}
	if !f.ok() {
		a.im.reportedValues += nvals
		return
	}
	of := a.offerOf(it, sz, g)
	base := price{unit: "hour", asOf: a.im.o.AsOf, dateBasis: a.im.o.DateBasis, source: a.im.o.Source, evidence: a.im.o.Evidence,
		capture: a.im.o.Capture, captureSHA: a.im.o.CaptureSHA}
	p := base
	p.billing = billing
	a.vals[of.instance] = append(a.vals[of.instance], priced{mode: p, region: it.region, value: v, at: it.price})
	if billing == "on-demand" {
		a.savingsPlans(it, size, of.instance, base)
	}
}

// sizeGPU looks a size up in the size table and its GPU up in the
// catalog, reporting an unknown size, a partial GPU and a GPU the catalog
// lacks.
func (a *azureImport) sizeGPU(f *fault, it azureItem, size string) (azureSize, bool, *catalog.GPU) {
	sz, known := a.sizes[azureKey(size)]
	var g *catalog.GPU
	switch {
	case !known:
		f.report(it.n.get("skuName"), "unknown GPU size %q (not in the importer's Azure size table)", size)
	case sz.count == 0:
		f.report(it.n.get("skuName"), "%s has a partial %s GPU; fractional GPUs are not offers", sz.arm, sz.gpu)
	default:
		if g = a.im.o.Catalog.GPU(sz.gpu); g == nil {
			f.report(it.n.get("skuName"), "size %s maps to GPU %q, which is not in data/gpus", sz.arm, sz.gpu)
		}
	}
	return sz, known, g
}

// secondMeter says whether a size, region and billing was priced by an
// earlier meter at the same price (the caller skips the meter); a
// different price is reported.
func (a *azureImport) secondMeter(f *fault, sz azureSize, it azureItem, billing string, v float64) bool {
	k := azureMeterKey{sz.arm, it.region, billing}
	if first, dup := a.seen[k]; dup {
		if fv, _ := first.num(); fv == v {
			return true
		}
		f.report(it.price, "%s %s in %s is %s here and %s at line %d: two meters of one size disagree", sz.arm, billing, it.region, it.price.str(), first.str(), first.line)
	}
	a.seen[k] = it.price
	return false
}

// offerOf returns the size's offer, made at its first price.
func (a *azureImport) offerOf(it azureItem, sz azureSize, g *catalog.GPU) *offer {
	if of := a.offers[sz.arm]; of != nil {
		return of
	}
	cur := it.n.get("currencyCode").str()
	if cur == "" {
		cur = a.im.o.Currency
	}
	if cur == "" {
		cur = "USD" // the API's default currency
	}
	of := &offer{provider: a.prov.ID, instance: sz.arm, gpu: g, count: sz.count, currency: cur,
		note: fmt.Sprintf("Imported from Azure Retail Prices API items (%s, first at line %d): Linux consumption prices; committed prices are savings plans.", a.im.file, it.n.line)}
	a.offers[sz.arm] = of
	a.order = append(a.order, sz.arm)
	return of
}

// savingsPlans adds an on-demand price's savings plans: the API's
// savingsPlan list, or the snapshot's one-year savingsPlanPrice.
func (a *azureImport) savingsPlans(it azureItem, size, arm string, base price) {
	type plan struct {
		n    *node
		term int
	}
	var plans []plan
	if sp := it.n.get("savingsPlanPrice"); sp != nil {
		plans = append(plans, plan{sp, 12})
	}
	for _, s := range it.n.get("savingsPlan").itemsOrNil() {
		switch s.get("term").str() {
		case "1 Year":
			plans = append(plans, plan{s.get("retailPrice"), 12})
		case "3 Years":
			plans = append(plans, plan{s.get("retailPrice"), 36})
		default:
			pf := &fault{im: a.im}
			pf.report(s, "savings plan term %q is not 1 Year or 3 Years", s.get("term").str())
			a.im.reportedValues++
		}
	}
	for _, pl := range plans {
		pf := &fault{im: a.im}
		sv, ok := positive(pf, pl.n, size+" "+it.region+" savings plan")
		if !ok {
			a.im.reportedValues++
			continue
		}
		c := base
		c.billing, c.term, c.commitment = "committed", pl.term, "savings-plan"
		a.vals[arm] = append(a.vals[arm], priced{mode: c, region: it.region, value: sv, at: pl.n})
	}
}

// buildOffers builds the sizes' offers in first-seen order.
func (a *azureImport) buildOffers() []*offer {
	var out []*offer
	for _, arm := range a.order {
		if built := a.im.build(a.offers[arm], a.vals[arm]); built != nil {
			out = append(out, built)
		}
	}
	return out
}

// storageCosts adds the Premium SSD v2 capacity prices as block-storage
// [[extra_costs]].
func (a *azureImport) storageCosts() {
	if len(a.storageRegions) == 0 {
		return
	}
	o := a.im.o
	base := cost{provider: a.prov.ID, kind: "block-storage", name: "Premium SSD v2, LRS (capacity)", currency: "USD", unit: "gib-hour",
		asOf: o.AsOf, dateBasis: o.DateBasis, source: o.Source, evidence: o.Evidence,
		notes: "Azure Retail Prices meter \"Premium LRS Provisioned Capacity\" of Azure Premium SSD v2, per GiB-hour; IOPS and throughput above the free baseline are billed separately."}
	if o.Currency != "" {
		base.currency = o.Currency
	}
	for _, r := range a.storageRegions {
		c := base
		c.region, c.price = r, a.storage[r]
		a.im.costs = append(a.im.costs, c)
	}
}

// itemsOrNil returns an array's items (nil for nil or a non-array).
func (n *node) itemsOrNil() []*node {
	if n == nil || n.kind != 'a' {
		return nil
	}
	return n.items
}

// declare records a region the file names for the provider file.
func (im *importer) declare(prov *catalog.Provider, region string) {
	if region != "" && !contains(im.regionDecls, region) {
		im.regionDecls = append(im.regionDecls, RegionDecl{Provider: prov.ID, ID: region})
	}
}
