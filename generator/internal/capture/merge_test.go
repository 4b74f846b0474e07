package capture

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/fixture"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/importer"
)

// tencentSite is the fixture site with a Tencent Cloud provider and one
// offer, GN7.2XLARGE32, priced once by hand.
func tencentSite(t *testing.T) string {
	t.Helper()
	root := fixture.Site(t)
	write := func(rel, text string) {
		if err := os.WriteFile(filepath.Join(root, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("data/providers/tencent-cloud.toml", `name = "Tencent Cloud"
homepage = "https://cloud.tencent.com/"
country = "CN"
kind = "hyperscaler"

[[regions]]
id = "ap-guangzhou"
city = "Guangzhou"
country = "CN"
i18n = { zh = { name = "广州" } }

[billing]
on_demand = true

[[sources]]
url = "https://cloud.tencent.com/document/product/560/8025"
title = "GPU price overview"
accessed = 2025-06-01

[i18n.zh]
name = "腾讯云"
`)
	write("data/offers/tencent-cloud.toml", `[[offers]]
instance = "GN7.2XLARGE32"
gpu = "beta-24gb"
gpu_count = 1
vram_per_gpu_gb = 24
vram_total_gb = 24
regions = ["ap-guangzhou"]
currency = "CNY"

[[offers.prices]]
billing = "on-demand"
price = 9.0
as_of = 2025-06-01
date_basis = "accessed"
source = "https://cloud.tencent.com/document/product/560/8025"
evidence = "first-party"
`)
	return root
}

func tencentCapture(at time.Time, file string) *Capture {
	req := map[string]any{"Region": "ap-guangzhou", "InstanceType": "GN7.2XLARGE32", "InstanceChargeType": "POSTPAID_BY_HOUR", "catalog": map[string]any{"region": "ap-guangzhou"}}
	b, _ := os.ReadFile(filepath.Join("testdata", file))
	return &Capture{Format: Format, Provider: "tencent-cloud", API: "tencent-cvm-inquiry-price", Endpoint: "cvm.tencentcloudapi.com", Retrieved: at,
		Exchanges: []Exchange{NewExchange(req, 200, b, nil)}}
}

// captureAndMerge writes a capture and merges what it yields, as the
// capture command does.
func captureAndMerge(t *testing.T, root string, c *Capture) (*importer.MergeReport, Written) {
	t.Helper()
	name, sha, err := Write(root, c)
	if err != nil {
		t.Fatal(err)
	}
	cat, d := catalog.Load(root, fixture.Now)
	if cat == nil {
		t.Fatal(d.Errors())
	}
	w := Written{Name: name, SHA256: sha, Capture: c}
	results, problems := Observe(cat, []Written{w}, fixture.Now)
	if len(problems) > 0 || len(results) != 1 {
		t.Fatalf("Observe: %d results, problems %q", len(results), problems)
	}
	rep, err := importer.MergeInto(root, results[0])
	if err != nil {
		t.Fatal(err)
	}
	return rep, w
}

func loadErrors(t *testing.T, root string) string {
	t.Helper()
	_, d := catalog.Load(root, fixture.Now)
	var msgs []string
	for _, e := range d.Errors() {
		msgs = append(msgs, e.String())
	}
	return strings.Join(msgs, "\n")
}

func TestMergeKeepsHistoryAndCheckVerifiesCaptures(t *testing.T) {
	root := tencentSite(t)
	first := time.Date(2025, 10, 20, 6, 0, 0, 0, time.UTC)
	rep, w1 := captureAndMerge(t, root, tencentCapture(first, "tencent-postpaid.json"))
	if rep.Prices != 1 || rep.Offers != 0 || len(rep.Conflicts) != 0 {
		t.Fatalf("first merge: %+v", rep)
	}
	if e := loadErrors(t, root); e != "" {
		t.Fatalf("the merged catalog does not load cleanly:\n%s", e)
	}
	// The same capture again: nothing new, nothing changed.
	before, _ := os.ReadFile(filepath.Join(root, "data/offers/tencent-cloud.toml"))
	rep, _ = captureAndMerge(t, root, tencentCapture(first, "tencent-postpaid.json"))
	after, _ := os.ReadFile(filepath.Join(root, "data/offers/tencent-cloud.toml"))
	if rep.Prices != 0 || rep.Kept != 1 || string(before) != string(after) {
		t.Fatalf("a repeated capture changed the file: %+v", rep)
	}
	// A second capture a week later with another price: history grows.
	second := tencentCapture(first.AddDate(0, 0, 7), "tencent-postpaid.json")
	second.Exchanges[0] = NewExchange(second.Exchanges[0].Request, 200, []byte(strings.Replace(second.Exchanges[0].Body, `"UnitPrice":8.68`, `"UnitPrice":8.5`, 1)), nil)
	rep, w2 := captureAndMerge(t, root, second)
	if rep.Prices != 1 {
		t.Fatalf("second merge: %+v", rep)
	}
	cat, d := catalog.Load(root, fixture.Now)
	if cat == nil || len(d.Errors()) > 0 {
		t.Fatalf("load: %v", d.Errors())
	}
	var got []string
	for _, p := range cat.Provider("tencent-cloud").Offers[0].Prices {
		got = append(got, p.AsOf.Format(time.DateOnly)+" "+trimFloat(p.Price)+" "+p.Evidence+" "+p.DateBasis+" "+p.Capture)
	}
	want := []string{
		"2025-06-01 9 first-party accessed ",
		"2025-10-20 8.68 first-party api-retrieved " + w1.Name,
		"2025-10-27 8.5 first-party api-retrieved " + w2.Name,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("prices:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	offers, _ := os.ReadFile(filepath.Join(root, "data/offers/tencent-cloud.toml"))
	if !strings.Contains(string(offers), `capture_sha256 = "`+w1.SHA256+`"`) {
		t.Errorf("the offers file does not cite the first capture's hash:\n%s", offers)
	}

	// A capture changed after its prices were read: check fails, at the price.
	p1 := filepath.Join(root, catalog.CaptureDir, filepath.FromSlash(w1.Name))
	raw, _ := os.ReadFile(p1)
	if err := os.WriteFile(p1, append(raw, ' '), 0o644); err != nil {
		t.Fatal(err)
	}
	if e := loadErrors(t, root); !strings.Contains(e, "data/offers/tencent-cloud.toml:") || !strings.Contains(e, "the capture was changed after the price was read from it") {
		t.Errorf("an edited capture: errors\n%s", e)
	}
	// A capture that is gone.
	os.Remove(p1)
	if e := loadErrors(t, root); !strings.Contains(e, "capture data/captures/"+w1.Name+" does not exist") {
		t.Errorf("a missing capture: errors\n%s", e)
	}
}

func TestCheckRefusesMalformedCaptureCitations(t *testing.T) {
	for _, tc := range []struct{ fields, want string }{
		{`capture = "tencent-cloud/x.json"`, "has no capture_sha256"},
		{`capture_sha256 = "` + strings.Repeat("a", 64) + `"`, "capture_sha256 without capture"},
		{`capture = "../x.json"` + "\ncapture_sha256 = \"" + strings.Repeat("a", 64) + `"`, "is not a capture path"},
		{`capture = "aws/x.json"` + "\ncapture_sha256 = \"" + strings.Repeat("a", 64) + `"`, "is another provider's (aws)"},
		{`capture = "tencent-cloud/x.json"` + "\ncapture_sha256 = \"ABC\"", "is not a SHA-256 in lowercase hex"},
	} {
		root := tencentSite(t)
		p := filepath.Join(root, "data/offers/tencent-cloud.toml")
		src, _ := os.ReadFile(p)
		text := strings.Replace(string(src), `evidence = "first-party"`, `evidence = "first-party"`+"\n"+tc.fields, 1)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if e := loadErrors(t, root); !strings.Contains(e, tc.want) {
			t.Errorf("%s: errors\n%s\nwant one with %q", tc.fields, e, tc.want)
		}
	}
}
