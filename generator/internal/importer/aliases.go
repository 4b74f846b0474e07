package importer

import (
	"fmt"
	"strings"
)

// The alias tables are explicit and small on purpose: a name that is not
// listed is reported, never guessed. Extend them only with mappings a
// source settles.

// fsdlClouds maps the FSDL table's "Cloud" values to provider ids. Clouds
// without a provider in the catalog (CR8DL, FluidStack, Latitude.sh) are
// left out and reported as unknown.
func fsdlClouds() map[string]string {
	return map[string]string{
		"AWS":           "aws",
		"Azure":         "azure",
		"Cudo Compute":  "cudo-compute",
		"Datacrunch":    "datacrunch",
		"Dataoorts":     "dataoorts",
		"Exoscale":      "exoscale",
		"GCP":           "gcp",
		"Jarvislabs":    "jarvislabs",
		"Lambda":        "lambda",
		"NovoNimbus":    "novonimbus",
		"Oblivus Cloud": "oblivus",
		"OVHcloud":      "ovhcloud",
		"Oracle Cloud":  "oracle-cloud",
		"Paperspace":    "paperspace",
		"RunPod":        "runpod",
	}
}

// skypilotClouds maps the directory names of the SkyPilot catalog
// (skypilot-catalog/catalogs/<version>/<cloud>/vms.csv) to provider ids.
func skypilotClouds() map[string]string {
	return map[string]string{
		"aws":        "aws",
		"azure":      "azure",
		"cudo":       "cudo-compute",
		"gcp":        "gcp",
		"lambda":     "lambda",
		"oci":        "oracle-cloud",
		"paperspace": "paperspace",
		"runpod":     "runpod",
	}
}

// gpuAlias is what a source's GPU name means. One candidate is a plain
// mapping (a GPU id). Several candidates (GPU ids, or a description of a
// part the catalog lacks) make the name ambiguous, because the form
// factor is not named: only a rule for the provider and instance settles
// it.
type gpuAlias struct {
	candidates []string
	rules      []instanceRule
}

// instanceRule settles an ambiguous GPU name for the instances of one
// provider whose name starts with prefix (the provider documents the
// part those instance families carry).
type instanceRule struct {
	provider, prefix, gpu string
}

func plain(id string) gpuAlias { return gpuAlias{candidates: []string{id}} }

// fsdlGPUs maps the FSDL table's "GPU Type" values to GPU ids.
func fsdlGPUs() map[string]gpuAlias {
	return map[string]gpuAlias{
		"A100 (80 GB)": {candidates: []string{"a100-sxm4-80gb", "a100-pcie-80gb"}, rules: []instanceRule{
			{"aws", "p4de.", "a100-sxm4-80gb"},
			{"azure", "ND96amsr A100 v4", "a100-sxm4-80gb"},
			{"azure", "NC24ads A100 v4", "a100-pcie-80gb"},
			{"azure", "NC48ads A100 v4", "a100-pcie-80gb"},
			{"azure", "NC96ads A100 v4", "a100-pcie-80gb"},
		}},
		"A100 (40 GB)": {candidates: []string{"a100-sxm4-40gb", "a100-pcie-40gb"}, rules: []instanceRule{
			{"aws", "p4d.", "a100-sxm4-40gb"},
			{"gcp", "a2-highgpu-", "a100-sxm4-40gb"},
			{"gcp", "a2-megagpu-", "a100-sxm4-40gb"},
		}},
		"H100 (80 GB)": {candidates: []string{"h100-sxm5-80gb", "h100-pcie-80gb"}, rules: []instanceRule{
			{"oracle-cloud", "BM.GPU.H100.", "h100-sxm5-80gb"},
		}},
		"V100 (16 GB)": {candidates: []string{"v100-sxm2-16gb", "a V100 PCIe 16GB, which data/gpus lacks"}, rules: []instanceRule{
			{"aws", "p3.", "v100-sxm2-16gb"},
		}},
		"V100 (32 GB)": {candidates: []string{"v100-sxm2-32gb", "a V100 PCIe 32GB, which data/gpus lacks"}, rules: []instanceRule{
			{"aws", "p3dn.", "v100-sxm2-32gb"},
		}},
		"H100 HGX (80GB)":         plain("h100-sxm5-80gb"),
		"H100 PCIe (80GB)":        plain("h100-pcie-80gb"),
		"GH200 (96 GB)":           plain("gh200-96gb"),
		"A10G (24 GB)":            plain("a10g"),
		"A10 (24 GB)":             plain("a10"),
		"A10":                     plain("a10"),
		"A40 (48 GB)":             plain("a40"),
		"L4 (24 GB)":              plain("l4"),
		"T4 (16 GB)":              plain("t4"),
		"K80 (12 GB)":             plain("k80"),
		"P100 (16 GB)":            plain("p100-16gb"),
		"P4 (8 GB)":               plain("p4"),
		"A6000 (48 GB)":           plain("rtx-a6000"),
		"RTX A6000 (48 GB)":       plain("rtx-a6000"),
		"A5000 (24 GB)":           plain("rtx-a5000"),
		"A4000 (16 GB)":           plain("rtx-a4000"),
		"RTX5000 (16 GB)":         plain("quadro-rtx-5000"),
		"RTX4000 (8 GB)":          plain("quadro-rtx-4000"),
		"Quadro RTX 6000 (24 GB)": plain("quadro-rtx-6000"),
		"3080Ti (12 GB)":          plain("rtx-3080-ti"),
	}
}

// skypilotGPUs maps SkyPilot's AcceleratorName values to GPU ids.
func skypilotGPUs() map[string]gpuAlias {
	return map[string]gpuAlias{
		"A100": {candidates: []string{"a100-sxm4-40gb", "a100-pcie-40gb"}, rules: []instanceRule{
			{"aws", "p4d.", "a100-sxm4-40gb"},
			{"gcp", "a2-highgpu-", "a100-sxm4-40gb"},
			{"gcp", "a2-megagpu-", "a100-sxm4-40gb"},
		}},
		"A100-80GB": {candidates: []string{"a100-sxm4-80gb", "a100-pcie-80gb"}, rules: []instanceRule{
			{"aws", "p4de.", "a100-sxm4-80gb"},
			{"gcp", "a2-ultragpu-", "a100-sxm4-80gb"},
		}},
		"H100": {candidates: []string{"h100-sxm5-80gb", "h100-pcie-80gb"}, rules: []instanceRule{
			{"aws", "p5.", "h100-sxm5-80gb"},
			{"gcp", "a3-highgpu-", "h100-sxm5-80gb"},
		}},
		"V100": {candidates: []string{"v100-sxm2-16gb", "a V100 PCIe 16GB, which data/gpus lacks"}, rules: []instanceRule{
			{"aws", "p3.", "v100-sxm2-16gb"},
		}},
		"V100-32GB": {candidates: []string{"v100-sxm2-32gb", "a V100 PCIe 32GB, which data/gpus lacks"}, rules: []instanceRule{
			{"aws", "p3dn.", "v100-sxm2-32gb"},
		}},
		"A10G": plain("a10g"),
		"A10":  plain("a10"),
		"L4":   plain("l4"),
		"L40S": plain("l40s"),
		"T4":   plain("t4"),
		"K80":  plain("k80"),
		"P100": plain("p100-16gb"),
		"P4":   plain("p4"),
	}
}

// resolveGPU maps a GPU name to an id for an instance of a provider, or
// explains why it cannot.
func resolveGPU(table map[string]gpuAlias, name, provider, instance string) (string, error) {
	a, ok := table[name]
	if !ok {
		return "", fmt.Errorf("unknown GPU %q (not in the importer's GPU table)", name)
	}
	if len(a.candidates) == 1 {
		return a.candidates[0], nil
	}
	for _, r := range a.rules {
		if r.provider == provider && instance != "" && strings.HasPrefix(instance, r.prefix) {
			return r.gpu, nil
		}
	}
	why := "the row names no instance a rule could settle it by"
	if instance != "" {
		subject := fmt.Sprintf("instance %q of this cloud", instance)
		if provider != "" {
			subject = fmt.Sprintf("%s instance %q", provider, instance)
		}
		why = "the importer has no rule naming the part of " + subject
	}
	return "", fmt.Errorf("%q is ambiguous (%s): %s", name, strings.Join(a.candidates, " or "), why)
}
