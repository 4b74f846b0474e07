package derive

import (
	"slices"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

func TestGPUsByVendor(t *testing.T) {
	in := []*catalog.GPU{
		{ID: "k80", Name: "Tesla K80", Vendor: "NVIDIA", ReleaseYear: 2014, MemoryGB: 24},
		{ID: "mi300x", Name: "Instinct MI300X", Vendor: "AMD", ReleaseYear: 2023, MemoryGB: 192},
		{ID: "h100-pcie", Name: "H100 PCIe", Vendor: "NVIDIA", ReleaseYear: 2022, MemoryGB: 80},
		{ID: "h200", Name: "H200", Vendor: "NVIDIA", ReleaseYear: 2024, MemoryGB: 141},
		{ID: "h100-sxm", Name: "H100 SXM", Vendor: "NVIDIA", ReleaseYear: 2022, MemoryGB: 80},
		{ID: "mi250", Name: "Instinct MI250", Vendor: "AMD", ReleaseYear: 2021, MemoryGB: 128},
		{ID: "h100-nvl", Name: "H100 NVL", Vendor: "NVIDIA", ReleaseYear: 2022, MemoryGB: 94},
	}
	var got []string
	for _, g := range GPUsByVendor(in) {
		got = append(got, g.ID)
	}
	want := []string{"mi300x", "mi250", "h200", "h100-nvl", "h100-pcie", "h100-sxm", "k80"}
	if !slices.Equal(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
	if in[0].ID != "k80" {
		t.Error("the input was reordered")
	}
}

func TestProvidersByName(t *testing.T) {
	in := []*catalog.Provider{{ID: "microsoft", Name: "Microsoft Azure"}, {ID: "aws", Name: "Amazon Web Services"}, {ID: "baidu", Name: "Baidu AI Cloud"}, {ID: "cudo", Name: "cudo compute"}}
	var got []string
	for _, p := range ProvidersByName(in) {
		got = append(got, p.Name)
	}
	if want := []string{"Amazon Web Services", "Baidu AI Cloud", "cudo compute", "Microsoft Azure"}; !slices.Equal(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
}

func TestModelsByFamily(t *testing.T) {
	in := []*catalog.Model{
		{ID: "llama-2-70b", Name: "Llama 2 70B", Family: "Llama 2", Model: sizing.Model{Params: 68_976_648_192}},
		{ID: "bert-large", Name: "BERT-Large", Family: "BERT", Model: sizing.Model{Params: 335_141_888}},
		{ID: "llama-2-7b", Name: "Llama 2 7B", Family: "Llama 2", Model: sizing.Model{Params: 6_738_415_616}},
		{ID: "bert-base", Name: "BERT-Base", Family: "BERT", Model: sizing.Model{Params: 109_482_240}},
		{ID: "llama-2-13b", Name: "Llama 2 13B", Family: "Llama 2", Model: sizing.Model{Params: 13_015_864_320}},
	}
	var got []string
	for _, m := range ModelsByFamily(in) {
		got = append(got, m.ID)
	}
	if want := []string{"bert-base", "bert-large", "llama-2-7b", "llama-2-13b", "llama-2-70b"}; !slices.Equal(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
}
