package importer

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
)

var update = flag.Bool("update", false, "rewrite testdata/fsdl-report.golden")

// now is the date the tests judge dates against; the repository's data
// is never dated after the day the tests run.
func now() time.Time {
	t, err := catalog.Today()
	if err != nil {
		panic(err)
	}
	return t
}

func repoRoot(t *testing.T) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the test file")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// repoCatalog loads the repository's catalog, which imports are checked
// against.
func repoCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	c, d := catalog.Load(repoRoot(t), now())
	if c == nil {
		var b strings.Builder
		for _, e := range d.Errors() {
			b.WriteString(e.String() + "\n")
		}
		t.Fatalf("the repository's catalog does not load:\n%s", b.String())
	}
	return c
}

func reportLines(res *Result) []string {
	var out []string
	for _, d := range res.Reports.Sorted() {
		out = append(out, d.String())
	}
	return out
}

const fsdlFile = "testdata/cloud-gpus.with-dates.csv"

func importFSDL(t *testing.T, cat *catalog.Catalog) *Result {
	t.Helper()
	f, err := os.Open(fsdlFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := Import(f, Options{Format: "fsdl", File: fsdlFile, Catalog: cat, Now: now()})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestFSDLTable imports the shared FSDL table and compares the exact list
// of reported rows with the golden file.
func TestFSDLTable(t *testing.T) {
	cat := repoCatalog(t)
	res := importFSDL(t, cat)
	got := strings.Join(reportLines(res), "\n") + "\n"
	golden := filepath.Join("testdata", "fsdl-report.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("reports differ from %s (go test -run TestFSDLTable -update rewrites it); got:\n%s", golden, got)
	}

	src, _ := os.ReadFile(fsdlFile)
	dataRows := strings.Count(strings.TrimRight(string(src), "\n"), "\n")
	if res.Imported+res.Reported != dataRows {
		t.Errorf("%d imported + %d reported != %d data rows: a row was dropped silently", res.Imported, res.Reported, dataRows)
	}
	rowsInGolden := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(string(want)), "\n") {
		m := regexp.MustCompile(`^testdata/cloud-gpus\.with-dates\.csv:(\d+):(\d+): column "[^"]+": `).FindStringSubmatch(l)
		if m == nil {
			t.Errorf("report not in the form FILE:ROW:COL: column \"NAME\": message: %s", l)
			continue
		}
		rowsInGolden[m[1]] = true
	}
	if len(rowsInGolden) != res.Reported {
		t.Errorf("%d rows in the golden file, %d reported", len(rowsInGolden), res.Reported)
	}
	t.Logf("%d rows imported, %d rows reported", res.Imported, res.Reported)

	again := importFSDL(t, cat)
	for i := range res.Files {
		if string(res.Files[i].Text) != string(again.Files[i].Text) {
			t.Errorf("%s: two imports differ", res.Files[i].Provider)
		}
	}
}

// TestFSDLOutputLoads puts the generated offers files into a copy of the
// repository's data (in place of its offers) and loads it with the
// catalog loader: the only errors may be the regions a reviewer must fill
// in, and with those filled in the catalog must load cleanly (GPU ids,
// memory, prices, dates, dataset and currency all check).
func TestFSDLOutputLoads(t *testing.T) {
	cat := repoCatalog(t)
	res := importFSDL(t, cat)
	if len(res.Files) == 0 {
		t.Fatal("nothing imported")
	}
	site := t.TempDir()
	for _, name := range []string{"site.toml", "fx.toml", "gpus", "providers", "models"} {
		src := filepath.Join(repoRoot(t), "data", name)
		dst := filepath.Join(site, "data", name)
		if st, err := os.Stat(src); err == nil && st.IsDir() {
			if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
				t.Fatal(err)
			}
			continue
		}
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	paths, err := WriteDir(filepath.Join(site, "data", "offers"), res)
	if err != nil {
		t.Fatal(err)
	}
	offers := 0
	for _, f := range res.Files {
		offers += f.Offers
	}
	_, d := catalog.Load(site, now())
	errs := d.Errors()
	if len(errs) != offers {
		t.Errorf("%d errors for %d offers; want one (empty regions) per offer", len(errs), offers)
	}
	for _, e := range errs {
		if !strings.Contains(e.Msg, "regions is empty") {
			t.Errorf("unexpected error in the generated TOML: %s", e)
		}
	}

	for _, p := range paths {
		provider := strings.TrimSuffix(filepath.Base(p), ".toml")
		region := cat.Provider(provider).Regions[0].ID
		b, _ := os.ReadFile(p)
		filled := regexp.MustCompile(`regions = \[\].*`).ReplaceAllString(string(b), `regions = ["`+region+`"]`)
		if err := os.WriteFile(p, []byte(filled), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, d := catalog.Load(site, now())
	if c == nil {
		for _, e := range d.Errors() {
			t.Error(e)
		}
		t.Fatal("with regions filled in, the imported offers do not load")
	}
	if len(c.Offers) != res.Imported {
		t.Errorf("%d offers loaded, %d rows imported", len(c.Offers), res.Imported)
	}
	for _, o := range c.Offers {
		p, ok := o.Price("on-demand")
		if !ok || p.Dataset != FSDLDataset || p.Source != FSDLSource {
			t.Errorf("%s: on-demand price without the FSDL dataset and source", o.ID)
		}
	}
}

const fsdlHeader = "Row Last Changed,Cloud,GPU Type,GPU Arch,GPUs,GPU RAM,vCPUs,RAM,On-demand,Per-GPU,Spot,Name\n"

func TestFSDLRows(t *testing.T) {
	cat := repoCatalog(t)
	tests := []struct {
		name     string
		csv      string // rows after the header
		asOf     string
		imported int
		want     []string // reports, without the "f.csv:" prefix
	}{
		{"a good row", "2023-08-16,AWS,V100 (16 GB),Volta,1,16,8,61,3.06,3.06,0.92,p3.2xlarge\n", "", 1, nil},
		{"plain alias", "2023-08-16,NovoNimbus,H100 HGX (80GB),Hopper,8,640,96,1000,38.24,4.78,,8x h100\n", "", 1, nil},
		{"A6000 alias", "2023-08-16,Datacrunch,A6000 (48 GB),Ampere,1,48,10,60,1.25,1.25,,1A6000.10V\n", "", 1, nil},
		{"blank price", "2023-08-16,AWS,T4 (16 GB),Turing,1,16,4,16,,0.53,,g4dn.xlarge\n", "", 0,
			[]string{`2:9: column "On-demand": blank; the value is required`}},
		{"per-GPU mismatch", "2023-08-16,AWS,T4 (16 GB),Turing,4,64,48,192,3.91,1.20,,g4dn.12xlarge\n", "", 0,
			[]string{`2:10: column "Per-GPU": 1.20 is not On-demand 3.91 / GPUs 4 = 0.9775 (off by more than 0.01)`}},
		{"per-GPU within 0.01", "2023-08-16,AWS,T4 (16 GB),Turing,4,64,48,192,3.91,0.98,,g4dn.12xlarge\n", "", 1, nil},
		{"GPU RAM mismatch", "2023-08-16,AWS,T4 (16 GB),Turing,4,16,48,192,3.91,0.98,,g4dn.12xlarge\n", "", 0,
			[]string{`2:6: column "GPU RAM": 16 GB is not GPUs 4 x 16 GB (t4's memory_gb) = 64 GB`}},
		{"ranges", "2024-02-27,Dataoorts,T4 (16 GB),Turing,1,16,4-6,12-16,0.34,0.34,,gc2.t4-16-1\n", "", 0,
			[]string{`2:7: column "vCPUs": range "4-6" is not one value; the catalog takes a single figure`,
				`2:8: column "RAM": range "12-16" is not one value; the catalog takes a single figure`}},
		{"range GPU count", "2024-02-27,Dataoorts,T4 (16 GB),Turing,8-16,16,4,12,0.34,0.34,,gc2.t4\n", "", 0,
			[]string{`2:5: column "GPUs": range "8-16" is not one value; the catalog takes a single figure`}},
		{"unknown cloud", "2023-10-31,FluidStack,A10 (24 GB),Ampere,1,24,8,32,1,1,,fs.a10\n", "", 0,
			[]string{`2:2: column "Cloud": unknown cloud "FluidStack" (not in the importer's cloud table)`}},
		{"ambiguous GPU", "2023-08-16,Datacrunch,A100 (80 GB),Ampere,1,80,22,120,1.85,1.85,,1A100.22V\n", "", 0,
			[]string{`2:3: column "GPU Type": "A100 (80 GB)" is ambiguous (a100-sxm4-80gb or a100-pcie-80gb): the importer has no rule naming the part of datacrunch instance "1A100.22V"`}},
		{"ambiguous GPU and a GPU RAM wrong for every candidate", "2023-08-16,Datacrunch,A100 (80 GB),Ampere,2,80,22,120,3.70,1.85,,2A100.44V\n", "", 0,
			[]string{`2:3: column "GPU Type": "A100 (80 GB)" is ambiguous (a100-sxm4-80gb or a100-pcie-80gb): the importer has no rule naming the part of datacrunch instance "2A100.44V"`,
				`2:6: column "GPU RAM": 80 GB is not GPUs 2 x the memory of any candidate GPU (160 GB for a100-sxm4-80gb or a100-pcie-80gb)`}},
		{"unknown cloud, ambiguous GPU and a blank price", "2023-10-31,FluidStack,A100 (40 GB),Ampere,1,40,8,32,,1,,fs.a100\n", "", 0,
			[]string{`2:2: column "Cloud": unknown cloud "FluidStack" (not in the importer's cloud table)`,
				`2:3: column "GPU Type": "A100 (40 GB)" is ambiguous (a100-sxm4-40gb or a100-pcie-40gb): the importer has no rule naming the part of instance "fs.a100" of this cloud`,
				`2:9: column "On-demand": blank; the value is required`}},
		{"V100 on AWS p3", "2023-08-16,AWS,V100 (16 GB),Volta,4,64,32,244,12.24,3.06,3.67,p3.8xlarge\n", "", 1, nil},
		{"V100 elsewhere", "2023-08-16,Azure,V100 (16 GB),Volta,1,16,6,112,3.06,3.06,1.35,NC6s v3\n", "", 0,
			[]string{`2:3: column "GPU Type": "V100 (16 GB)" is ambiguous (v100-sxm2-16gb or a V100 PCIe 16GB, which data/gpus lacks): the importer has no rule naming the part of azure instance "NC6s v3"`}},
		{"unknown GPU", "2023-08-16,AWS,X9 (8 GB),Future,1,8,4,16,1,1,,x9.large\n", "", 0,
			[]string{`2:3: column "GPU Type": unknown GPU "X9 (8 GB)" (not in the importer's GPU table)`}},
		{"blank name", "2023-08-16,Lambda,A6000 (48 GB),Ampere,1,48,14,100,0.80,0.80,,\n", "", 0,
			[]string{`2:12: column "Name": blank; an offer needs the provider's instance name`}},
		{"identical duplicates", "2023-08-16,AWS,T4 (16 GB),Turing,1,16,4,16,0.53,0.53,0.16,g4dn.xlarge\n2023-08-16,AWS,T4 (16 GB),Turing,1,16,4,16,0.53,0.53,0.16,g4dn.xlarge\n", "", 1,
			[]string{`3:12: column "Name": duplicate of row 2 (the same values); only row 2 is imported`}},
		{"conflicting duplicates", "2023-08-16,GCP,T4 (16 GB),Turing,1,16,8,52,0.82,0.82,0.21,n1-highmem-8\n2023-08-16,GCP,P100 (16 GB),Pascal,1,16,8,52,1.93,1.93,0.53,n1-highmem-8\n", "", 0,
			[]string{`2:12: column "Name": instance "n1-highmem-8" of GCP is also on row 3 with different values; the catalog holds one offer per instance`,
				`3:12: column "Name": instance "n1-highmem-8" of GCP is also on row 2 with different values; the catalog holds one offer per instance`}},
		{"spot above on-demand", "2023-08-16,AWS,T4 (16 GB),Turing,1,16,4,16,0.53,0.53,0.60,g4dn.xlarge\n", "", 0,
			[]string{`2:11: column "Spot": spot price 0.60 is above the on-demand price 0.53`}},
		{"bad date", "2023-13-01,AWS,T4 (16 GB),Turing,1,16,4,16,0.53,0.53,,g4dn.xlarge\n", "", 0,
			[]string{`2:1: column "Row Last Changed": "2023-13-01" is not a date (YYYY-MM-DD)`}},
		{"future date", "2999-01-01,AWS,T4 (16 GB),Turing,1,16,4,16,0.53,0.53,,g4dn.xlarge\n", "", 0,
			[]string{`2:1: column "Row Last Changed": 2999-01-01 is in the future (today is ` + now().Format(time.DateOnly) + `)`}},
		{"blank date", ",AWS,T4 (16 GB),Turing,1,16,4,16,0.53,0.53,,g4dn.xlarge\n", "", 0,
			[]string{`2:1: column "Row Last Changed": blank, and no -as-of was given; the prices need the date they were true`}},
		{"blank date with -as-of", ",AWS,T4 (16 GB),Turing,1,16,4,16,0.53,0.53,,g4dn.xlarge\n", "2023-08-16", 1, nil},
		{"text for a number", "2023-08-16,AWS,T4 (16 GB),Turing,one,16,4,16,0.53,0.53,,g4dn.xlarge\n", "", 0,
			[]string{`2:5: column "GPUs": "one" is not a number`}},
		{"field count", "2023-08-16,AWS,T4 (16 GB),Turing,1,16,4,16,0.53,0.53\n", "", 0,
			[]string{`2:1: the row has 10 fields, the header 12`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := Options{Format: "fsdl", File: "f.csv", Catalog: cat, Now: now()}
			if tt.asOf != "" {
				o.AsOf, _ = time.Parse(time.DateOnly, tt.asOf)
			}
			res, err := Import(strings.NewReader(fsdlHeader+tt.csv), o)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, w := range tt.want {
				want = append(want, "f.csv:"+w)
			}
			if got := reportLines(res); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("reports:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if res.Imported != tt.imported {
				t.Errorf("imported %d rows, want %d", res.Imported, tt.imported)
			}
		})
	}
}

func TestFSDLWithoutDates(t *testing.T) {
	cat := repoCatalog(t)
	const table = "Cloud,GPU Type,GPU Arch,GPUs,GPU RAM,vCPUs,RAM,On-demand,Per-GPU,Spot,Name\nAWS,T4 (16 GB),Turing,1,16,4,16,0.53,0.53,0.16,g4dn.xlarge\n"
	_, err := Import(strings.NewReader(table), Options{Format: "fsdl", File: "f.csv", Catalog: cat, Now: now()})
	var u *UsageError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "-as-of") {
		t.Fatalf("without dates or -as-of: got %v, want a usage error naming -as-of", err)
	}
	asOf := time.Date(2023, 8, 16, 0, 0, 0, 0, time.UTC)
	res, err := Import(strings.NewReader(table), Options{Format: "fsdl", File: "f.csv", Catalog: cat, Now: now(), AsOf: asOf})
	if err != nil {
		t.Fatal(err)
	}
	if res.Imported != 1 || len(res.Files) != 1 {
		t.Fatalf("imported %d rows into %d files", res.Imported, len(res.Files))
	}
	text := string(res.Files[0].Text)
	for _, want := range []string{
		"#:schema ../../schema/offers.json\n",
		"instance = \"g4dn.xlarge\"\ngpu = \"t4\"\ngpu_count = 1\nvram_per_gpu_gb = 16\nvram_total_gb = 16\nvcpu = 4\nram_gb = 16\n",
		"billing = \"on-demand\"\nprice = 0.53\nas_of = 2023-08-16\nsource = \"" + FSDLSource + "\"\ndataset = \"fsdl-cloud-gpus\"\n",
		"billing = \"spot\"\nprice = 0.16\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
}

func TestBadTables(t *testing.T) {
	cat := repoCatalog(t)
	tests := []struct {
		name, format, csv, want string
		usage                   bool
	}{
		{"missing columns", "fsdl", "Cloud,GPU Type\nAWS,T4\n", `f.csv:1:1: not a fsdl table: missing column(s) "GPU Arch"`, false},
		{"empty file", "fsdl", "", "cannot read the header row", false},
		{"unknown format", "csv", fsdlHeader, `unknown -format "csv"`, true},
		{"skypilot without -as-of", "skypilot", skyHeader, "-as-of", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Import(strings.NewReader(tt.csv), Options{Format: tt.format, File: "f.csv", Catalog: cat, Now: now()})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error containing %q", err, tt.want)
			}
			var u *UsageError
			if errors.As(err, &u) != tt.usage {
				t.Errorf("usage error: %v, want %v", !tt.usage, tt.usage)
			}
		})
	}
}

const skyHeader = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region,AvailabilityZone\n"

func TestSkyPilotRows(t *testing.T) {
	cat := repoCatalog(t)
	aws := cat.Provider("aws")
	if aws == nil || len(aws.Regions) == 0 {
		t.Skip("the repository has no aws provider with regions")
	}
	r1 := aws.Regions[0].ID
	tests := []struct {
		name     string
		rows     string
		imported int
		skipped  int
		want     []string
		output   []string
	}{
		{"zones of a region merge", "g4dn.xlarge,T4,1.0,4.0,16.0,0.526,0.1578," + r1 + ",a\ng4dn.xlarge,T4,1.0,4.0,16.0,0.526,0.1578," + r1 + ",b\n", 2, 0, nil,
			[]string{`instance = "g4dn.xlarge"`, `gpu = "t4"`, `vcpu = 4`, `regions = ["` + r1 + `"]`, `price = 0.526`, `price = 0.1578`, `as_of = 2025-01-02`, `source = "https://example.com/vms.csv"`}},
		{"CPU-only rows are skipped", "m5.large,,,2.0,8.0,0.096,0.03," + r1 + ",a\n", 0, 1, nil, nil},
		{"fractional GPU", "g4ad.xlarge,T4,0.5,4.0,16.0,0.3,," + r1 + ",a\n", 0, 0,
			[]string{`2:3: column "AcceleratorCount": 0.5 is a fractional GPU; fractional GPUs are not offers`}, nil},
		{"undeclared region", "g4dn.xlarge,T4,1.0,4.0,16.0,0.526,,xx-nowhere-1,a\n", 0, 0,
			[]string{`2:8: column "Region": region "xx-nowhere-1" is not declared in data/providers/aws.toml (declare it there if the provider runs it)`}, nil},
		{"price differs between the zones of a region", "g4dn.xlarge,T4,1.0,4.0,16.0,0.526,," + r1 + ",a\ng4dn.xlarge,T4,1.0,4.0,16.0,0.6,," + r1 + ",b\n", 0, 0,
			[]string{`2:6: column "Price": instance "g4dn.xlarge" has a different price across the rows of region ` + r1 + ` (0.526 on row 2; 0.6 on row 3); a region has one price`,
				`3:6: column "Price": instance "g4dn.xlarge" has a different price across the rows of region ` + r1 + ` (0.526 on row 2; 0.6 on row 3); a region has one price`}, nil},
		{"every disagreeing field is reported", "g4dn.xlarge,T4,1.0,4.0,16.0,0.526,," + r1 + ",a\ng4dn.xlarge,T4,2.0,8.0,16.0,0.526,," + r1 + ",b\n", 0, 0,
			[]string{`2:3: column "AcceleratorCount": instance "g4dn.xlarge" has a different GPU count across its rows (1 on row 2; 2 on row 3); the catalog holds one offer per instance with one GPU count`,
				`2:4: column "vCPUs": instance "g4dn.xlarge" has a different vCPUs across its rows (4 on row 2; 8 on row 3); the catalog holds one offer per instance with one vCPUs`,
				`3:3: column "AcceleratorCount": instance "g4dn.xlarge" has a different GPU count across its rows (1 on row 2; 2 on row 3); the catalog holds one offer per instance with one GPU count`,
				`3:4: column "vCPUs": instance "g4dn.xlarge" has a different vCPUs across its rows (4 on row 2; 8 on row 3); the catalog holds one offer per instance with one vCPUs`}, nil},
		{"exact duplicate", "g4dn.xlarge,T4,1.0,4.0,16.0,0.526,," + r1 + ",a\ng4dn.xlarge,T4,1.0,4.0,16.0,0.526,," + r1 + ",a\n", 1, 0,
			[]string{`3:1: column "InstanceType": duplicate of row 2 (the same values)`}, nil},
		{"blank price", "g4dn.xlarge,T4,1.0,4.0,16.0,,," + r1 + ",a\n", 0, 0,
			[]string{`2:6: column "Price": blank; the value is required`}, nil},
		{"ambiguous A100", "a2x.big,A100,8,96,1152,30,," + r1 + ",a\n", 0, 0,
			[]string{`2:2: column "AcceleratorName": "A100" is ambiguous (a100-sxm4-40gb or a100-pcie-40gb): the importer has no rule naming the part of aws instance "a2x.big"`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := Options{Format: "skypilot", File: "catalogs/v7/aws/vms.csv", Catalog: cat, Now: now(),
				AsOf: time.Date(2025, 1, 2, 0, 0, 0, 0, time.UTC), Source: "https://example.com/vms.csv"}
			res, err := Import(strings.NewReader(skyHeader+tt.rows), o)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, w := range tt.want {
				want = append(want, o.File+":"+w)
			}
			if got := reportLines(res); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("reports:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if res.Imported != tt.imported || res.Skipped != tt.skipped {
				t.Errorf("imported %d, skipped %d; want %d, %d", res.Imported, res.Skipped, tt.imported, tt.skipped)
			}
			for _, w := range tt.output {
				if len(res.Files) != 1 || !strings.Contains(string(res.Files[0].Text), w+"\n") {
					t.Errorf("output lacks %q", w)
				}
			}
		})
	}

	// The provider comes from -provider or the directory name.
	o := Options{Format: "skypilot", File: "somewhere/vms.csv", Catalog: cat, Now: now(), AsOf: time.Date(2025, 1, 2, 0, 0, 0, 0, time.UTC), Source: "https://example.com/vms.csv"}
	var u *UsageError
	if _, err := Import(strings.NewReader(skyHeader), o); !errors.As(err, &u) || !strings.Contains(err.Error(), "-provider") {
		t.Errorf("unknown directory: got %v, want a usage error naming -provider", err)
	}
	o.Provider = "aws"
	if _, err := Import(strings.NewReader(skyHeader), o); err != nil {
		t.Errorf("with -provider: %v", err)
	}
	o.Source = ""
	if _, err := Import(strings.NewReader(skyHeader), o); !errors.As(err, &u) || !strings.Contains(err.Error(), "-source") {
		t.Errorf("without -source: got %v, want a usage error naming -source", err)
	}
}

func TestResolveGPU(t *testing.T) {
	tests := []struct {
		name, provider, instance, want, err string
	}{
		{"H100 HGX (80GB)", "novonimbus", "x", "h100-sxm5-80gb", ""},
		{"A6000 (48 GB)", "cudo-compute", "", "rtx-a6000", ""},
		{"A100 (80 GB)", "aws", "p4de.24xlarge", "a100-sxm4-80gb", ""},
		{"A100 (80 GB)", "azure", "ND96amsr A100 v4", "a100-sxm4-80gb", ""},
		{"A100 (80 GB)", "azure", "NC24ads A100 v4", "a100-pcie-80gb", ""},
		{"A100 (80 GB)", "datacrunch", "1A100.22V", "", "ambiguous"},
		{"A100 (80 GB)", "aws", "", "", "the row names no instance"},
		{"V100 (16 GB)", "aws", "p3.2xlarge", "v100-sxm2-16gb", ""},
		{"V100 (16 GB)", "aws", "p3dn.24xlarge", "", "ambiguous"},
		{"V100 (32 GB)", "aws", "p3dn.24xlarge", "v100-sxm2-32gb", ""},
		{"V100 (16 GB)", "gcp", "p3.2xlarge", "", "ambiguous"},
		{"B300 (288 GB)", "aws", "p6", "", "unknown GPU"},
	}
	for _, tt := range tests {
		got, err := resolveGPU(fsdlGPUs(), tt.name, tt.provider, tt.instance)
		if got != tt.want || (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("resolveGPU(%q, %q, %q) = %q, %v; want %q, %q", tt.name, tt.provider, tt.instance, got, err, tt.want, tt.err)
		}
	}
}

// TestAliasTargetsExist checks every GPU id the alias tables name is in
// the repository's catalog, and every provider id too.
func TestAliasTargetsExist(t *testing.T) {
	cat := repoCatalog(t)
	for name, table := range map[string]map[string]gpuAlias{"fsdl": fsdlGPUs(), "skypilot": skypilotGPUs(), "gcp": gcpGPUs(), "aws": awsGPUs()} {
		for alias, a := range table {
			ids := 0
			for _, c := range a.candidates {
				if catalog.ValidID(c) {
					ids++
					if cat.GPU(c) == nil {
						t.Errorf("%s %q: GPU %q is not in data/gpus", name, alias, c)
					}
				}
			}
			if ids == 0 && len(a.candidates) > 1 {
				t.Errorf("%s %q: no candidate is a GPU id", name, alias)
			}
			for _, r := range a.rules {
				if cat.GPU(r.gpu) == nil || cat.Provider(r.provider) == nil {
					t.Errorf("%s %q: rule %+v names an unknown GPU or provider", name, alias, r)
				}
			}
		}
	}
	for arm, sz := range azureSizes() {
		if sz.count > 0 && cat.GPU(sz.gpu) == nil {
			t.Errorf("azure size %s (%s): GPU %q is not in data/gpus", arm, sz.arm, sz.gpu)
		}
	}
	for name, table := range map[string]map[string]string{"fsdl": fsdlClouds(), "skypilot": skypilotClouds()} {
		for cloud, id := range table {
			if cat.Provider(id) == nil {
				t.Errorf("%s cloud %q: provider %q is not in data/providers", name, cloud, id)
			}
		}
	}
}

func TestWriteDir(t *testing.T) {
	dir := t.TempDir()
	res := &Result{Files: []File{{Provider: "aws", Text: []byte("#:schema ../../schema/offers.json\n" + generatedMarker + " -format fsdl\" from f.csv.\n")}}}
	if _, err := WriteDir(dir, res); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteDir(dir, res); err != nil {
		t.Errorf("rewriting an imported file: %v", err)
	}
	hand := filepath.Join(dir, "aws.toml")
	if err := os.WriteFile(hand, []byte("[[offers]]\ninstance = \"hand-made\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteDir(dir, res); err == nil || !strings.Contains(err.Error(), "not written by import") {
		t.Errorf("overwriting a hand-made file: got %v", err)
	}
	if b, _ := os.ReadFile(hand); !strings.Contains(string(b), "hand-made") {
		t.Error("the hand-made file was changed")
	}
}
