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
	root, _, err := parseJSON(src, 0)
	if err != nil {
		return nil, fmt.Errorf("%s:%v", im.file, err)
	}
	var items []*node
	if it := root.get("Items"); it != nil && it.kind == 'a' {
		items = it.items
	} else if root.kind == 'o' {
		for _, k := range root.keys {
			items = append(items, root.kv[k])
		}
	} else {
		return nil, fmt.Errorf("%s:1:1: not Azure Retail Prices items: want {\"Items\": [...]} or a keyed snapshot", im.file)
	}
	if im.o.AsOf.IsZero() {
		return nil, &UsageError{"-as-of YYYY-MM-DD is required for -format azure: the date the prices were read (the API returns no such date)"}
	}
	sizes := azureSizes()
	type key struct{ size, region, billing string }
	seen := map[key]*node{}
	offers := map[string]*offer{}
	vals := map[string][]priced{}
	var order []string
	storage := map[string]string{}
	var storageRegions []string
	for _, it := range items {
		if it.kind != 'o' {
			f := &fault{im: im}
			f.report(it, "an item that is not an object")
			im.reportedValues++
			continue
		}
		product, meter, sku := it.get("productName").str(), it.get("meterName").str(), it.get("skuName").str()
		region := it.get("armRegionName").str()
		priceNode := it.get("retailPrice")
		cur := it.get("currencyCode").str()
		if cur == "" {
			cur = im.o.Currency
		}
		if cur == "" {
			cur = "USD" // the API's default currency
		}
		service := it.get("serviceName").str()
		if service == "Storage" || strings.Contains(product, "SSD") || strings.Contains(product, "Disk") || strings.Contains(product, "Storage") {
			if product == "Azure Premium SSD v2" && meter == "Premium LRS Provisioned Capacity" && it.get("unitOfMeasure").str() == "1 GiB/Hour" {
				f := &fault{im: im}
				v, ok := positive(f, priceNode, "Premium SSD v2 capacity "+region)
				if ok && regionCheck(f, it, region, prov) {
					if _, dup := storage[region]; !dup {
						storageRegions = append(storageRegions, region)
					}
					storage[region] = numText(v)
					im.importedValues++
				} else {
					im.reportedValues++
				}
				im.declare(prov, region)
				continue
			}
			im.skip("storage meter other than Premium SSD v2 capacity (per-disk and transaction prices)")
			continue
		}
		if service != "" && service != "Virtual Machines" {
			im.skip("service other than Virtual Machines")
			continue
		}
		if strings.Contains(product, "Windows") || strings.Contains(product, " Win") {
			im.skip("Windows price (the catalog lists Linux prices)")
			continue
		}
		if strings.HasSuffix(sku, " Low Priority") || strings.HasSuffix(meter, " Low Priority") {
			im.skip("Low Priority VM (a retired billing model the catalog does not list)")
			continue
		}
		switch it.get("type").str() {
		case "DevTestConsumption":
			im.skip("Dev/Test price")
			continue
		case "Reservation":
			f := &fault{im: im}
			f.report(it.get("type"), "reservation price %s is for the whole %s term, not per hour: not imported", priceNode.str(), it.get("reservationTerm").str())
			im.reportedValues++
			continue
		}
		size := it.get("armSkuName").str()
		if size == "" {
			size = sku
		}
		billing := "on-demand"
		if strings.HasSuffix(size, " Spot") || strings.HasSuffix(sku, " Spot") {
			billing, size = "spot", strings.TrimSuffix(size, " Spot")
		}
		if !azureGPUFamily.MatchString(size) || strings.HasSuffix(size, " Type1") || strings.Contains(product, "Dedicated Host") {
			im.skip("not a VM price of a GPU (N-series) size")
			continue
		}
		nvals := 1 + len(it.get("savingsPlan").itemsOrNil())
		if it.get("savingsPlanPrice") != nil {
			nvals++
		}
		f := &fault{im: im}
		sz, known := sizes[azureKey(size)]
		var g *catalog.GPU
		switch {
		case !known:
			f.report(it.get("skuName"), "unknown GPU size %q (not in the importer's Azure size table)", size)
		case sz.count == 0:
			f.report(it.get("skuName"), "%s has a partial %s GPU; fractional GPUs are not offers", sz.arm, sz.gpu)
		default:
			if g = im.o.Catalog.GPU(sz.gpu); g == nil {
				f.report(it.get("skuName"), "size %s maps to GPU %q, which is not in data/gpus", sz.arm, sz.gpu)
			}
		}
		if u := it.get("unitOfMeasure").str(); u != "1 Hour" {
			f.report(it.get("unitOfMeasure"), "unit %q is not \"1 Hour\"", u)
		}
		regionCheck(f, it.get("armRegionName"), region, prov)
		v, ok := positive(f, priceNode, size+" "+region)
		if ok && v > 10000 {
			f.report(priceNode, "%s per instance-hour is implausible", priceNode.str())
		}
		if known {
			k := key{sz.arm, region, billing}
			if first, dup := seen[k]; dup {
				fv, _ := first.num()
				if fv == v {
					im.skip("a second meter of the same size, region and price")
					continue
				}
				f.report(priceNode, "%s %s in %s is %s here and %s at line %d: two meters of one size disagree", sz.arm, billing, region, priceNode.str(), first.str(), first.line)
			}
			seen[k] = priceNode
		}
		if known && sz.count > 0 {
			im.declare(prov, region)
		}
		if !f.ok() {
			im.reportedValues += nvals
			continue
		}
		of := offers[sz.arm]
		if of == nil {
			of = &offer{provider: prov.ID, instance: sz.arm, gpu: g, count: sz.count, currency: cur,
				note: fmt.Sprintf("Imported from Azure Retail Prices API items (%s, first at line %d): Linux consumption prices; committed prices are savings plans.", im.file, it.line)}
			offers[sz.arm] = of
			order = append(order, sz.arm)
		}
		base := price{unit: "hour", asOf: im.o.AsOf, dateBasis: im.o.DateBasis, source: im.o.Source, evidence: im.o.Evidence}
		p := base
		p.billing = billing
		vals[sz.arm] = append(vals[sz.arm], priced{mode: p, region: region, value: v, at: priceNode})
		if billing != "on-demand" {
			continue
		}
		// Savings plans: the API's savingsPlan list, or the snapshot's one-year price.
		type plan struct {
			n    *node
			term int
		}
		var plans []plan
		if sp := it.get("savingsPlanPrice"); sp != nil {
			plans = append(plans, plan{sp, 12})
		}
		for _, s := range it.get("savingsPlan").itemsOrNil() {
			switch s.get("term").str() {
			case "1 Year":
				plans = append(plans, plan{s.get("retailPrice"), 12})
			case "3 Years":
				plans = append(plans, plan{s.get("retailPrice"), 36})
			default:
				pf := &fault{im: im}
				pf.report(s, "savings plan term %q is not 1 Year or 3 Years", s.get("term").str())
				im.reportedValues++
			}
		}
		for _, pl := range plans {
			pf := &fault{im: im}
			sv, ok := positive(pf, pl.n, size+" "+region+" savings plan")
			if !ok {
				im.reportedValues++
				continue
			}
			c := base
			c.billing, c.term, c.commitment = "committed", pl.term, "savings-plan"
			vals[sz.arm] = append(vals[sz.arm], priced{mode: c, region: region, value: sv, at: pl.n})
		}
	}
	var out []*offer
	for _, arm := range order {
		if built := im.build(offers[arm], vals[arm]); built != nil {
			out = append(out, built)
		}
	}
	if len(storageRegions) > 0 {
		base := cost{provider: prov.ID, kind: "block-storage", name: "Premium SSD v2, LRS (capacity)", currency: "USD", unit: "gib-hour",
			asOf: im.o.AsOf, dateBasis: im.o.DateBasis, source: im.o.Source, evidence: im.o.Evidence,
			notes: "Azure Retail Prices meter \"Premium LRS Provisioned Capacity\" of Azure Premium SSD v2, per GiB-hour; IOPS and throughput above the free baseline are billed separately."}
		if im.o.Currency != "" {
			base.currency = im.o.Currency
		}
		for _, r := range storageRegions {
			c := base
			c.region, c.price = r, storage[r]
			im.costs = append(im.costs, c)
		}
	}
	return out, nil
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
