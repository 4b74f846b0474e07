package importer

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
)

// awsGPUs maps tsaol/aws-gpu's "gpu" names to GPU ids, settled by
// instance family where a name covers two parts. The rules hold for the
// AWS Regions (aws) and for the China Regions (aws-china, the same
// instance types; tsaol/aws-gpu's data/*_instances_cn.js).
func awsGPUs() map[string]gpuAlias {
	return map[string]gpuAlias{
		"NVIDIA A100": {candidates: []string{"a100-sxm4-40gb", "a100-sxm4-80gb"}, rules: []instanceRule{
			{"aws", "p4d.", "a100-sxm4-40gb"},
			{"aws", "p4de.", "a100-sxm4-80gb"},
			{"aws-china", "p4d.", "a100-sxm4-40gb"},
		}},
		"NVIDIA V100": {candidates: []string{"v100-sxm2-16gb", "v100-sxm2-32gb"}, rules: []instanceRule{
			{"aws", "p3.", "v100-sxm2-16gb"},
			{"aws", "p3dn.", "v100-sxm2-32gb"},
			{"aws-china", "p3.", "v100-sxm2-16gb"},
		}},
		"NVIDIA H100": {candidates: []string{"h100-sxm5-80gb", "h100-pcie-80gb"}, rules: []instanceRule{
			{"aws", "p5.", "h100-sxm5-80gb"},
		}},
		"NVIDIA H200":           plain("h200-sxm-141gb"),
		"NVIDIA B200 Blackwell": plain("b200-sxm-180gb"),
		"NVIDIA T4":             plain("t4"),
		"NVIDIA A10G":           plain("a10g"),
		"NVIDIA L4":             plain("l4"),
		"NVIDIA L40S":           plain("l40s"),
		"NVIDIA L40":            plain("l40"),
		"NVIDIA K80":            plain("k80"),
		// g7e: AWS's G7e page and Microsoft's NCv6 page name the Server
		// Edition; tsaol/aws-gpu gives 96 GB GDDR7 per GPU.
		"NVIDIA RTX PRO 6000 Blackwell": plain("rtx-pro-6000-blackwell-server"),
		// g3/g3s: one "GPU" is one GM204 of the dual-GPU M60 board (8 GB).
		"NVIDIA M60": plain("m60"),
	}
}

// awsGPUCounts are instances whose GPU count tsaol/aws-gpu gives as
// boards where AWS counts GPUs: the EC2 user guide lists p2.8xlarge with
// 8 and p2.16xlarge with 16 GPUs (GK210, two per K80 board, as data/gpus
// counts them); the file says 4 and 8. Such a row is reported, not
// imported with the board count.
func awsGPUCounts() map[string]int {
	return map[string]int{"p2.8xlarge": 8, "p2.16xlarge": 16}
}

// awsRegionID matches an AWS Region id (us-east-1, us-gov-west-1), not a
// Local Zone or Wavelength Zone (us-east-1-atl-1, us-east-1-wl1-bos1).
var awsRegionID = regexp.MustCompile(`^[a-z]{2}(-gov)?-[a-z]+-\d+$`)

var awsUpdated = regexp.MustCompile(`(?m)^// Last updated: (\d{4}-\d{2}-\d{2})\s*$`)

// aws imports a tsaol/aws-gpu data file (data/*_instances*.js): a
// JavaScript array literal in JSON syntax of instances with name, gpu,
// gpuCount, gpuMemory, vcpu, memory and pricing.<region>.{onDemand,
// reserved}; reserved is the effective hourly price of a one-year
// Standard Reserved Instance with no upfront payment (the repository's
// scripts/utils.py reads yrTerm1Standard.noUpfront). The date is the
// file's "Last updated" line unless -as-of is given.
func (im *importer) aws(src string, prov *catalog.Provider) ([]*offer, error) {
	start := strings.Index(src, "[")
	if start < 0 {
		return nil, fmt.Errorf("%s:1:1: not a tsaol/aws-gpu data file: no array literal", im.file)
	}
	root, err := parseJSON(src, start)
	if err != nil {
		return nil, fmt.Errorf("%s:%v", im.file, err)
	}
	asOf, basis := im.o.AsOf, im.o.DateBasis
	if asOf.IsZero() {
		m := awsUpdated.FindStringSubmatch(src)
		if m == nil {
			return nil, &UsageError{fmt.Sprintf("%s has no \"// Last updated: YYYY-MM-DD\" line: give -as-of YYYY-MM-DD", im.file)}
		}
		asOf, _ = time.Parse(time.DateOnly, m[1])
		basis = "page-date"
	}
	pv, err := im.provenanceOf(asOf, basis)
	if err != nil {
		return nil, err
	}
	seen := map[string]int{}
	var out []*offer
	for _, it := range root.items {
		if of := im.awsInstance(it, prov, seen, pv); of != nil {
			out = append(out, of)
		}
	}
	return out, nil
}

// awsInstance imports one instance: its GPU and shape, and its prices
// per region (nil when it has none left).
func (im *importer) awsInstance(it *node, prov *catalog.Provider, seen map[string]int, pv provenance) *offer {
	name := it.get("name").str()
	mf := &fault{im: im}
	if name == "" {
		mf.report(it, "an instance without a name")
	} else if first, dup := seen[name]; dup {
		mf.report(it.get("name"), "instance %q is listed twice (first at line %d)", name, first)
	}
	seen[name] = it.line
	g, count := im.awsGPU(mf, it, prov, name)
	of := &offer{provider: prov.ID, instance: name, gpu: g, count: count, currency: pv.currency,
		note: fmt.Sprintf("Imported from tsaol/aws-gpu %s (instance at line %d), generated from instances.vantage.sh data; committed prices are one-year Standard Reserved Instances, no upfront.", im.file, it.line)}
	if v, ok := it.get("vcpu").num(); ok && v > 0 && v == math.Trunc(v) {
		of.vcpu = numText(v)
	}
	if f := strings.Fields(it.get("memory").str()); len(f) == 2 && (f[1] == "GB" || f[1] == "GiB") {
		if v, err := strconv.ParseFloat(f[0], 64); err == nil && v > 0 {
			of.ramGB = numText(v)
		}
	}
	pricing := it.get("pricing")
	vals := im.awsPrices(mf, pricing, name, prov, pv)
	nvals := 0
	for _, r := range pricing.keysOrNil() {
		nvals += len(pricing.kv[r].keysOrNil())
	}
	if nvals == 0 {
		return nil
	}
	return im.build(of, vals)
}

// awsGPU resolves an instance's GPU and checks its GPU count and memory,
// reporting what does not hold.
func (im *importer) awsGPU(mf *fault, it *node, prov *catalog.Provider, name string) (*catalog.GPU, int) {
	gpuName := it.get("gpu").str()
	var g *catalog.GPU
	if id, err := resolveGPU(awsGPUs(), gpuName, prov.ID, name); err != nil {
		mf.report(it.get("gpu"), "%v", err)
	} else if g = im.o.Catalog.GPU(id); g == nil {
		mf.report(it.get("gpu"), "%q maps to GPU %q, which is not in data/gpus", gpuName, id)
	}
	count := 0
	cn := it.get("gpuCount")
	if c, ok := cn.num(); !ok || c <= 0 {
		mf.report(cn, "gpuCount %q is not a positive number", cn.str())
	} else if c != math.Trunc(c) {
		mf.report(cn, "gpuCount %s is a fractional GPU; fractional GPUs are not offers", cn.str())
	} else if want, ok := awsGPUCounts()[name]; ok && int(c) != want {
		mf.report(cn, "gpuCount %s for %s counts K80 boards; AWS counts %d GPUs (GK210, as data/gpus does)", cn.str(), name, want)
	} else {
		count = int(c)
	}
	if gm := it.get("gpuMemory"); g != nil && count > 0 && gm.str() != "Unknown" {
		if f := strings.Fields(gm.str()); len(f) > 0 {
			v, err := strconv.ParseFloat(f[0], 64)
			if err != nil || (v != g.MemoryGB && v != g.MemoryGB*float64(count)) {
				mf.report(gm, "gpuMemory %q is neither %s's memory_gb %s nor %d x that", gm.str(), g.ID, numText(g.MemoryGB), count)
			}
		}
	}
	return g, count
}

// awsPrices checks an instance's prices, pricing.<region>.{onDemand,
// reserved}: Local Zones and Wavelength Zones are skipped, the AWS
// Regions declared; a value with a fault (or of an instance with one) is
// reported.
func (im *importer) awsPrices(mf *fault, pricing *node, name string, prov *catalog.Provider, pv provenance) []priced {
	var vals []priced
	for _, region := range pricing.keysOrNil() {
		rn := pricing.kv[region]
		if !awsRegionID.MatchString(region) {
			for range rn.keysOrNil() {
				im.skip("Local Zone or Wavelength Zone price (the catalog lists AWS Regions)")
			}
			continue
		}
		if mf.ok() && !contains(im.regionDecls, region) {
			im.regionDecls = append(im.regionDecls, RegionDecl{Provider: prov.ID, ID: region})
		}
		rf := &fault{im: im}
		regionCheck(rf, rn, region, prov)
		for _, pk := range rn.keysOrNil() {
			v := rn.kv[pk]
			var mode price
			switch pk {
			case "onDemand":
				mode = price{billing: "on-demand", unit: "hour"}
			case "reserved":
				mode = price{billing: "committed", unit: "hour", term: 12, payment: "no-upfront", commitment: "reserved-instance"}
			default:
				f := &fault{im: im}
				f.report(v, "unknown price key %q (want onDemand, reserved)", pk)
				im.reportedValues++
				continue
			}
			f := &fault{im: im}
			val, ok := positive(f, v, name+" "+region+" "+pk)
			if ok && val > 10000 {
				f.report(v, "%s per instance-hour is implausible", v.str())
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

func contains(rs []RegionDecl, id string) bool {
	for _, r := range rs {
		if r.ID == id {
			return true
		}
	}
	return false
}
