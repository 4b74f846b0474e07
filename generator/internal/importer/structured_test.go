package importer

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
)

// siteCopy copies the repository's data into a temporary site root, so a
// test may declare regions and merge without touching the repository.
func siteCopy(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if err := os.CopyFS(filepath.Join(root, "data"), os.DirFS(filepath.Join(repoRoot(t), "data"))); err != nil {
		t.Fatal(err)
	}
	return root
}

func loadSite(t *testing.T, root string) *catalog.Catalog {
	t.Helper()
	c, d := catalog.Load(root, now())
	if c == nil {
		var b strings.Builder
		for _, e := range d.Errors() {
			b.WriteString(e.String() + "\n")
		}
		t.Fatalf("the site does not load:\n%s", b.String())
	}
	return c
}

type structuredCase struct {
	name, format, file string
	opts               Options
}

func structuredCases() []structuredCase {
	return []structuredCase{
		{"gcp", "gcp", "testdata/gcp/pricing.excerpt.yml", Options{
			Source: "https://github.com/Cyclenerd/google-cloud-pricing-cost-calculator/blob/fd66b26ff84fee5cdd94f341ea89206e76c06b99/pricing.yml", Evidence: "third-party"}},
		{"azure-vm", "azure", "testdata/azure/vm-eu-west.excerpt.json", Options{
			Source:   "https://github.com/andy-diericks/azure-pricing-radar/blob/1b7f55446201ecb7bd3df5a9875afce68a27e6f7/data/latest/vm-eu-west.json",
			Evidence: "third-party", AsOf: time.Date(2026, 8, 20, 0, 0, 0, 0, time.UTC), DateBasis: "commit-date"}},
		{"azure-storage", "azure", "testdata/azure/storage-eu-west.excerpt.json", Options{
			Source:   "https://github.com/andy-diericks/azure-pricing-radar/blob/25ddcc86e253f69d7799875d4e5e123f88e9d95a/data/latest/storage-eu-west.json",
			Evidence: "third-party", AsOf: time.Date(2026, 7, 15, 0, 0, 0, 0, time.UTC), DateBasis: "commit-date"}},
		{"aws", "aws", "testdata/aws/all_gpu_instances.excerpt.js", Options{
			Source: "https://github.com/tsaol/aws-gpu/blob/7412fd256c5eda04a70a17742a68e8e44824b2cb/data/all_gpu_instances.js", Evidence: "third-party"}},
	}
}

func runStructured(t *testing.T, c structuredCase, cat *catalog.Catalog) *Result {
	t.Helper()
	f, err := os.Open(c.file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	o := c.opts
	o.Format, o.File, o.Catalog, o.Now = c.format, c.file, cat, now()
	res, err := Import(f, o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestStructuredGolden imports each excerpt into a copy of the
// repository's data (declaring the regions it names first) and compares
// the reports, the counts and the files written with the golden files;
// then merges the result and loads the catalog: it must load without an
// error, and merging again adds nothing.
func TestStructuredGolden(t *testing.T) {
	for _, c := range structuredCases() {
		t.Run(c.name, func(t *testing.T) {
			root := siteCopy(t)
			first := runStructured(t, c, loadSite(t, root))
			if _, _, err := DeclareRegions(root, first.Regions()); err != nil {
				t.Fatal(err)
			}
			cat := loadSite(t, root)
			res := runStructured(t, c, cat)
			var b strings.Builder
			for _, d := range res.Reports.Sorted() {
				b.WriteString(d.String() + "\n")
			}
			b.WriteString("-- counts\n")
			b.WriteString(counts(res))
			for _, f := range res.Files {
				b.WriteString("-- data/offers/" + f.Provider + ".toml\n")
				b.Write(f.Text)
			}
			for _, f := range res.Costs {
				b.WriteString("-- data/providers/" + f.Provider + ".toml ([[extra_costs]])\n")
				b.Write(f.Text)
			}
			golden := strings.TrimSuffix(c.file, filepath.Ext(c.file)) + ".golden"
			golden = strings.Replace(golden, ".excerpt", "", 1)
			if *update {
				if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if b.String() != string(want) {
				t.Errorf("differs from %s (go test -run TestStructuredGolden -update rewrites it); got:\n%s", golden, b.String())
			}
			for _, l := range reportLines(res) {
				if !regexp.MustCompile(`^testdata/[a-z]+/[^:]+:\d+:\d+: `).MatchString(l) {
					t.Errorf("report not positioned FILE:LINE:COL: %s", l)
				}
			}
			rep, err := MergeInto(root, res)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Conflicts) > 0 {
				t.Errorf("conflicts merging into the repository's data: %v", rep.Conflicts)
			}
			merged := loadSite(t, root)
			again := runStructured(t, c, merged)
			rep2, err := MergeInto(root, again)
			if err != nil {
				t.Fatal(err)
			}
			if rep2.Prices != 0 || rep2.Offers != 0 || rep2.Costs != 0 || rep2.Regions != 0 {
				t.Errorf("merging the same file twice added %+v", rep2)
			}
		})
	}
}

func counts(res *Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "imported %d, reported %d, skipped %d\n", res.Imported, res.Reported, res.Skipped)
	for _, k := range slices.Sorted(maps.Keys(res.SkipReasons)) {
		fmt.Fprintf(&b, "  skipped %d: %s\n", res.SkipReasons[k], k)
	}
	return b.String()
}

func TestStructuredBadInput(t *testing.T) {
	cat := repoCatalog(t)
	gcpHead := "about:\n  generated: Thu Jul 30 06:13:17 2026\ncompute:\n  instance:\n"
	tests := []struct {
		name, format, src string
		opts              Options
		want              []string // reports (without the "f:" prefix), or an error substring for err
		err               string
		usage             bool
	}{
		{"gcp: YAML syntax", "gcp", "about:\n  a: 1\n b: 2\n", Options{}, nil, "f:3:2: did not find expected key (while parsing a block mapping at 1:1)", false},
		{"gcp: YAML tab in the indentation", "gcp", gcpHead + "    g2:\n\t  l4: 1\n", Options{}, nil, "f:6:1: found character that cannot start any token: a tab (YAML indents with spaces)", false},
		{"gcp: YAML key repeated", "gcp", gcpHead + "    g2:\n      l4: 1\n      l4: 2\n", Options{}, nil, `f:7:7: key "l4" repeated in one mapping`, false},
		{"gcp: not pricing.yml", "gcp", "about:\n  a: 1\n", Options{}, nil, "no compute.instance mapping", false},
		{"gcp: every fault of a value", "gcp", gcpHead + "    a2-x:\n      a100: 1\n      cost:\n        us-central1:\n          hour: -3\n          hour_daily: 2\n", Options{},
			[]string{`6:13: accelerator "a100" is ambiguous (a100-sxm4-40gb or a100-pcie-40gb): the importer has no rule naming the part of gcp instance "a2-x"`,
				`9:17: a2-x us-central1 hour: -3 must be greater than 0`,
				`10:23: unknown price key "hour_daily" (want hour, hour_spot, month_1y, month_3y)`}, "", false},
		{"gcp: undeclared region and fractional GPU", "gcp", gcpHead + "    g2-standard-4:\n      l4: 0.5\n      cost:\n        mars-north1:\n          hour: 1\n", Options{},
			[]string{`6:11: accelerator count 0.5 is a fractional GPU; fractional GPUs are not offers`,
				`8:9: region "mars-north1" is not declared in data/providers/gcp.toml (declare it there if the provider runs it)`}, "", false},
		{"gcp: spot above on-demand", "gcp", gcpHead + "    g2-standard-4:\n      l4: 1\n      cost:\n        us-central1:\n          hour: 1\n          hour_spot: 2\n", Options{},
			[]string{`10:22: spot price 2 (2 per hour) in us-central1 is above the on-demand price 1 there`}, "", false},
		{"gcp: wrong type at a key", "gcp", gcpHead + "    g2-standard-4:\n      l4: one\n      cost:\n        us-central1:\n          hour: [1]\n          hour_spot: '0.5'\n", Options{},
			[]string{`6:11: accelerator count "one" is not a positive number`,
				`9:17: g2-standard-4 us-central1 hour: a list, not a number`,
				`10:22: g2-standard-4 us-central1 hour_spot: "0.5" is not a number`}, "", false},
		{"gcp: cost not a mapping", "gcp", gcpHead + "    g2-standard-4:\n      l4: 1\n      cost: 3\n", Options{},
			[]string{`5:5: machine type "g2-standard-4" has no cost mapping`}, "", false},
		{"gcp: no -evidence", "gcp", gcpHead, Options{Evidence: "-"}, nil, "-evidence is required", true},
		{"azure: reservation, unit, two meters", "azure", `{"Items": [
{"armRegionName": "eastus", "productName": "Virtual Machines NCasT4 v3 Series", "skuName": "NC4as T4 v3", "retailPrice": 0.526, "unitOfMeasure": "1 Hour", "type": "Consumption"},
{"armRegionName": "eastus", "productName": "Virtual Machines NCasT4 v3 Series", "armSkuName": "Standard_NC4as_T4_v3", "skuName": "NC4as T4 v3", "retailPrice": 0.6, "unitOfMeasure": "1 Hour", "type": "Consumption"},
{"armRegionName": "eastus", "productName": "Virtual Machines NCasT4 v3 Series", "skuName": "NC4as T4 v3", "retailPrice": 2900, "unitOfMeasure": "1 Hour", "type": "Reservation", "reservationTerm": "1 Year"},
{"armRegionName": "eastus", "productName": "Virtual Machines NCasT4 v3 Series", "skuName": "NC8as T4 v3", "retailPrice": 0.7, "unitOfMeasure": "1 Day", "type": "Consumption"},
{"armRegionName": "eastus", "productName": "Virtual Machines NDv9 Series", "skuName": "ND999v9", "retailPrice": 9, "unitOfMeasure": "1 Hour", "type": "Consumption"}
]}`, Options{AsOf: time.Date(2026, 8, 20, 0, 0, 0, 0, time.UTC)},
			[]string{`3:160: Standard_NC4as_T4_v3 on-demand in eastus is 0.6 here and 0.526 at line 2: two meters of one size disagree`,
				`4:163: reservation price 2900 is for the whole 1 Year term, not per hour: not imported`,
				`5:144: unit "1 Day" is not "1 Hour"`,
				`6:87: unknown GPU size "ND999v9" (not in the importer's Azure size table)`}, "", false},
		{"azure: no -as-of", "azure", `{"Items": []}`, Options{}, nil, "-as-of YYYY-MM-DD is required", true},
		{"azure: JSON syntax", "azure", `{"Items": [1,]}`, Options{AsOf: time.Date(2026, 8, 20, 0, 0, 0, 0, time.UTC)}, nil, "f:1:14: invalid character ']' looking for beginning of value", false},
		{"azure: JSON syntax on a later line", "azure", "{\"Items\": [\n{\"armRegionName\": \"eastus\" \"x\": 1}\n]}", Options{AsOf: time.Date(2026, 8, 20, 0, 0, 0, 0, time.UTC)}, nil, `f:2:28: invalid character '"' after object key:value pair`, false},
		{"azure: JSON key repeated", "azure", `{"Items": [{"type": "Consumption", "type": "Reservation"}]}`, Options{AsOf: time.Date(2026, 8, 20, 0, 0, 0, 0, time.UTC)}, nil, `f:1:36: key "type" repeated in one object`, false},
		{"azure: JSON truncated", "azure", "{\"Items\": [\n{\"armRegionName\": ", Options{AsOf: time.Date(2026, 8, 20, 0, 0, 0, 0, time.UTC)}, nil, "f:2:19: unexpected end of input", false},
		{"azure: wrong type at a key", "azure", `{"Items": [
{"armRegionName": "eastus", "productName": "Virtual Machines NCasT4 v3 Series", "skuName": "NC4as T4 v3", "retailPrice": "0.526", "unitOfMeasure": "1 Hour", "type": "Consumption"},
7]}`, Options{AsOf: time.Date(2026, 8, 20, 0, 0, 0, 0, time.UTC)},
			[]string{`2:122: NC4as T4 v3 eastus: "0.526" is not a number`,
				`3:1: an item that is not an object`}, "", false},
		{"aws: every fault of an instance", "aws", "// Last updated: 2026-01-21\nconst x = [\n{\"name\": \"p4d.24xlarge\", \"gpu\": \"NVIDIA A100\", \"gpuCount\": 8, \"gpuMemory\": \"300 GB HBM2\",\n \"pricing\": {\"us-east-1\": {\"onDemand\": \"x\", \"reserved\": 1}}},\n{\"name\": \"p4d.24xlarge\", \"gpu\": \"NVIDIA A100\", \"gpuCount\": 8, \"pricing\": {}}\n];\n", Options{},
			[]string{`3:76: gpuMemory "300 GB HBM2" is neither a100-sxm4-40gb's memory_gb 40 nor 8 x that`,
				`4:40: p4d.24xlarge us-east-1 onDemand: "x" is not a number`,
				`5:10: instance "p4d.24xlarge" is listed twice (first at line 3)`}, "", false},
		{"aws: K80 boards counted as GPUs", "aws", "// Last updated: 2026-01-21\nconst x = [\n{\"name\": \"p2.8xlarge\", \"gpu\": \"NVIDIA K80\", \"gpuCount\": 4, \"gpuMemory\": \"12 GB GDDR5\",\n \"pricing\": {\"us-east-1\": {\"onDemand\": 7.2}}}\n];\n", Options{},
			[]string{`3:57: gpuCount 4 for p2.8xlarge counts K80 boards; AWS counts 8 GPUs (GK210, as data/gpus does)`}, "", false},
		{"aws: JSON syntax after the header", "aws", "// Last updated: 2026-01-21\nconst x = [\n{\"name\": \"p4d.24xlarge\",}\n];\n", Options{}, nil, "f:3:25: invalid character '}' looking for beginning of object key string", false},
		{"aws: wrong type at a key", "aws", "// Last updated: 2026-01-21\nconst x = [\n{\"name\": \"g4dn.xlarge\", \"gpu\": \"NVIDIA T4\", \"gpuCount\": \"1\",\n \"pricing\": {\"us-east-1\": {\"onDemand\": {\"price\": 0.5}}}}\n];\n", Options{},
			[]string{`3:57: gpuCount "1" is not a positive number`,
				`4:40: g4dn.xlarge us-east-1 onDemand: an object, not a number`}, "", false},
		{"aws: no date", "aws", "const x = [];\n", Options{}, nil, `no "// Last updated: YYYY-MM-DD" line`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := tt.opts
			o.Format, o.File, o.Catalog, o.Now = tt.format, "f", cat, now()
			o.Source = "https://example.com/src"
			if o.Evidence == "" {
				o.Evidence = "third-party"
			} else if o.Evidence == "-" {
				o.Evidence = ""
			}
			res, err := Import(strings.NewReader(tt.src), o)
			if tt.err != "" {
				var u *UsageError
				if err == nil || !strings.Contains(err.Error(), tt.err) || errors.As(err, &u) != tt.usage {
					t.Fatalf("got %v, want an error containing %q (usage error %v)", err, tt.err, tt.usage)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, w := range tt.want {
				want = append(want, "f:"+w)
			}
			got := reportLines(res)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("reports:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}
