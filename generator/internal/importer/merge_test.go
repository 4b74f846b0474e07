package importer

import (
	"strings"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
)

const existingOffers = `#:schema ../../schema/offers.json
# A hand-made file.

[[offers]]
instance = "g6.xlarge"
gpu = "l4"
gpu_count = 1
vram_per_gpu_gb = 24
vram_total_gb = 24
regions = ["us-east-1"]
currency = "USD"
notes = "Hand-made."

[[offers.prices]]
billing = "on-demand"
price = 0.8048
as_of = 2026-08-26
source = "https://example.com/aug"
evidence = "third-party"

[[offers]]
instance = "p4d.24xlarge"
gpu = "a100-sxm4-40gb"
gpu_count = 8
vram_per_gpu_gb = 40
vram_total_gb = 320
regions = ["us-east-1", "us-west-2"]
currency = "USD"

[[offers.prices]]
billing = "on-demand"
price = 21.957642
as_of = 2026-08-26
source = "https://example.com/aug"
evidence = "third-party"
`

func TestMergeOffers(t *testing.T) {
	l4 := &catalog.GPU{ID: "l4", MemoryGB: 24}
	a100 := &catalog.GPU{ID: "a100-sxm4-40gb", MemoryGB: 40}
	jan := time.Date(2026, 1, 21, 0, 0, 0, 0, time.UTC)
	aug := time.Date(2026, 8, 26, 0, 0, 0, 0, time.UTC)
	p := func(billing, region, value string, at time.Time) price {
		return price{billing: billing, unit: "hour", region: region, value: value, asOf: at, source: "https://example.com/jan", evidence: "third-party"}
	}
	f := File{Provider: "aws", offers: []*offer{
		{instance: "g6.xlarge", gpu: l4, count: 1, currency: "USD", regions: []string{"us-east-1", "eu-west-1"}, prices: []price{
			p("on-demand", "us-east-1", "0.8048", jan), p("on-demand", "eu-west-1", "0.89", jan), p("on-demand", "us-east-1", "0.8048", aug)}},
		{instance: "p4d.24xlarge", gpu: a100, count: 8, currency: "USD", regions: []string{"eu-west-1"}, prices: []price{p("on-demand", "eu-west-1", "24", jan)}},
		{instance: "g5.xlarge", gpu: &catalog.GPU{ID: "a10g", MemoryGB: 24}, count: 1, currency: "USD", regions: []string{"us-east-1"}, note: "New.", prices: []price{p("on-demand", "us-east-1", "1.006", jan)}},
	}}
	rep := &MergeReport{}
	out, err := MergeOffers([]byte(existingOffers), f, rep)
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	for _, want := range []string{
		// The region-less price is pinned to the one former region, the regions widened.
		"regions = [\"us-east-1\", \"eu-west-1\"]\ncurrency = \"USD\"\nnotes = \"Hand-made.\"\n\n[[offers.prices]]\nbilling = \"on-demand\"\nregion = \"us-east-1\"\nprice = 0.8048\nas_of = 2026-08-26\n",
		// The January observations are appended to the offer as history.
		"evidence = \"third-party\"\n\n[[offers.prices]]\nbilling = \"on-demand\"\nprice = 0.8048\nregion = \"us-east-1\"\nas_of = 2026-01-21\nsource = \"https://example.com/jan\"\nevidence = \"third-party\"\n\n[[offers.prices]]\nbilling = \"on-demand\"\nprice = 0.89\nregion = \"eu-west-1\"\n",
		// A new offer goes at the end.
		"[[offers]]\ninstance = \"g5.xlarge\"\ngpu = \"a10g\"\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("merged file lacks\n%s\n--- got:\n%s", want, got)
		}
	}
	if rep.Prices != 3 || rep.Offers != 1 || rep.Kept != 1 || len(rep.Conflicts) != 1 ||
		!strings.Contains(rep.Conflicts[0], "p4d.24xlarge has prices naming no region and 2 regions") {
		t.Errorf("report %+v", rep)
	}
	if strings.Contains(got, "price = 24\n") {
		t.Error("the conflicting offer was merged")
	}
	// The result loads as TOML with the old observation kept, and merging
	// again adds nothing.
	rep2 := &MergeReport{}
	again, err := MergeOffers(out, f, rep2)
	if err != nil {
		t.Fatal(err)
	}
	if rep2.Prices != 0 || rep2.Offers != 0 || string(again) != got {
		t.Errorf("second merge changed the file (%+v)", rep2)
	}

	// A different GPU or count, and another value on the same date, are conflicts.
	bad := File{Provider: "aws", offers: []*offer{
		{instance: "g6.xlarge", gpu: l4, count: 2, currency: "USD", regions: []string{"us-east-1"}, prices: []price{p("on-demand", "us-east-1", "1", jan)}},
	}}
	rep3 := &MergeReport{}
	if _, err := MergeOffers(out, bad, rep3); err != nil || len(rep3.Conflicts) != 1 || !strings.Contains(rep3.Conflicts[0], "is 1x l4 in the file, 2x l4 in the import") {
		t.Errorf("count conflict: %v %+v", err, rep3)
	}
	other := File{Provider: "aws", offers: []*offer{
		{instance: "g6.xlarge", gpu: l4, count: 1, currency: "USD", regions: []string{"us-east-1"}, prices: []price{p("on-demand", "us-east-1", "0.9", aug)}},
	}}
	rep4 := &MergeReport{}
	if _, err := MergeOffers(out, other, rep4); err != nil || len(rep4.Conflicts) != 1 || !strings.Contains(rep4.Conflicts[0], "0.8048 in the file, 0.9 in the import; the file's kept") {
		t.Errorf("value conflict: %v %+v", err, rep4)
	}
}

func TestAddRegions(t *testing.T) {
	src := "name = \"X\"\n\n[[regions]]\nid = \"a\"\n\n[billing]\non_demand = true\n"
	out, n, err := AddRegions([]byte(src), []RegionDecl{{ID: "a"}, {ID: "b", Name: "Bee"}, {ID: "b"}})
	if err != nil || n != 1 {
		t.Fatalf("%v, %d added", err, n)
	}
	want := "name = \"X\"\n\n[[regions]]\nid = \"a\"\n\n[[regions]]\nid = \"b\"\nname = \"Bee\"\n\n[billing]\non_demand = true\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// TestMergeOffersRegionsOnSeveralLines: an offer whose regions list spans
// lines is a conflict, and the offer is not edited at all (its region-less
// price is not pinned either).
func TestMergeOffersRegionsOnSeveralLines(t *testing.T) {
	src := strings.Replace(existingOffers, `regions = ["us-east-1"]`, "regions = [\n  \"us-east-1\",\n]", 1)
	l4 := &catalog.GPU{ID: "l4", MemoryGB: 24}
	jan := time.Date(2026, 1, 21, 0, 0, 0, 0, time.UTC)
	f := File{Provider: "aws", offers: []*offer{
		{instance: "g6.xlarge", gpu: l4, count: 1, currency: "USD", regions: []string{"eu-west-1"}, prices: []price{
			{billing: "on-demand", unit: "hour", region: "eu-west-1", value: "0.89", asOf: jan, source: "https://example.com/jan", evidence: "third-party"}}},
	}}
	rep := &MergeReport{}
	out, err := MergeOffers([]byte(src), f, rep)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Conflicts) != 1 || !strings.Contains(rep.Conflicts[0], "its regions are not written on one line; not merged") {
		t.Errorf("report %+v", rep)
	}
	if string(out) != src {
		t.Errorf("the offer was edited:\n%s", out)
	}
}
