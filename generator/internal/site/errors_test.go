package site

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/fixture"
)

func edit(t *testing.T, root, file, old, new string) {
	t.Helper()
	p := filepath.Join(root, file)
	if old == "" { // create or overwrite
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(new), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s does not contain %q", file, old)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFixtureIsClean(t *testing.T) {
	root := fixture.Site(t)
	d := Check(Options{Root: root, Now: fixture.Now})
	var got []string
	for _, x := range d.Sorted() {
		got = append(got, x.String())
	}
	// The fixture's one old price (2023-03-01) is older than warn_days;
	// acme's and drachen's source titles have no zh version (a line for
	// one would move the lines other tests count in those files).
	want := []string{
		"data/offers/acme.toml:37:9: warning: price is 976 days old (older than warn_days = 730 in data/site.toml): check it against https://acme.example/pricing",
		"data/providers/acme.toml:34:9: warning: 1 text(s) shown on zh pages have no zh version (pages show the original, marked with its language): sources.0.title; add them under i18n.zh (see CONTRIBUTING.md, Texts in other languages)",
		"data/providers/drachen.toml:17:9: warning: 1 text(s) shown on zh pages have no zh version (pages show the original, marked with its language): sources.0.title; add them under i18n.zh (see CONTRIBUTING.md, Texts in other languages)",
	}
	if d.HasErrors() || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("fixture diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestBrokenInputs breaks the fixture one way at a time and asserts the
// exact positioned message.
func TestBrokenInputs(t *testing.T) {
	tests := []struct {
		name, file, old, new string
		want                 string
	}{
		{"unknown key with did-you-mean", "data/gpus/alpha-80gb.toml", "memory_gb = 80", "memory_gbs = 80",
			`data/gpus/alpha-80gb.toml:7:1: unknown key "memory_gbs" (did you mean "memory_gb"?)`},
		{"missing required key after a misspelling", "data/gpus/alpha-80gb.toml", "memory_gb = 80", "memory_gbs = 80",
			`data/gpus/alpha-80gb.toml:1:1: missing required key "memory_gb" in file`},
		{"misspelt GPU id", "data/offers/acme.toml", `gpu = "alpha-80gb"`, `gpu = "alpha-80"`,
			`data/offers/acme.toml:3:7: unknown GPU "alpha-80" (did you mean "alpha-80gb"?)`},
		{"wrong type: quoted number", "data/gpus/alpha-80gb.toml", "memory_gb = 80", `memory_gb = "80"`,
			`data/gpus/alpha-80gb.toml:7:13: key "memory_gb": TOML value has type string; destination has type float (write numbers without quotes)`},
		{"wrong type: quoted date", "data/offers/acme.toml", "as_of = 2025-06-01", `as_of = "2025-06-01"`,
			`data/offers/acme.toml:15:9: key "offers.prices.as_of": a date must not be quoted (write as_of = 2025-04-21)`},
		{"bad date", "data/offers/acme.toml", "as_of = 2025-06-01", "as_of = 2025-13-01",
			`data/offers/acme.toml:15:9: invalid datetime: "2025-13-01"`},
		{"date in the future", "data/offers/acme.toml", "as_of = 2025-06-01", "as_of = 2026-01-01",
			`data/offers/acme.toml:15:9: as_of 2026-01-01 is in the future (today is 2025-11-01)`},
		{"dangling region", "data/offers/acme.toml", `regions = ["us-east", "eu-west"]`, `regions = ["us-east", "eu-wst"]`,
			`data/offers/acme.toml:9:23: unknown region "eu-wst" of provider acme (did you mean "eu-west"?)`},
		{"broken TOML syntax", "data/providers/acme.toml", `name = "Acme Cloud"`, `name = "Acme Cloud`,
			`data/providers/acme.toml:1:19: strings cannot contain newlines`},
		{"negative price", "data/offers/acme.toml", "price = 0.75", "price = -0.75",
			`data/offers/acme.toml:36:9: price must be greater than 0, got -0.75`},
		{"spot above on-demand", "data/offers/acme.toml", "price = 16.0", "price = 46.0",
			`data/offers/acme.toml:20:9: spot price 46 is above the on-demand price 40`},
		{"total VRAM mismatch", "data/offers/acme.toml", "vram_total_gb = 640", "vram_total_gb = 600",
			`data/offers/acme.toml:6:17: vram_total_gb 600 != gpu_count 8 x vram_per_gpu_gb 80 = 640`},
		{"VRAM per GPU does not match the GPU", "data/offers/drachen.toml", "vram_per_gpu_gb = 80\nvram_total_gb = 80", "vram_per_gpu_gb = 40\nvram_total_gb = 40",
			`data/offers/drachen.toml:5:19: vram_per_gpu_gb 40 does not match alpha-80gb's memory_gb 80 (wrong GPU id?)`},
		{"unknown currency", "data/offers/drachen.toml", `currency = "CNY"`, `currency = "CYN"`,
			`data/offers/drachen.toml:8:12: currency "CYN" is not in data/fx.toml (did you mean "CNY"?)`},
		{"year 1850", "data/gpus/beta-24gb.toml", "release_year = 2023", "release_year = 1850",
			`data/gpus/beta-24gb.toml:4:16: release_year 1850 is out of range (2010..2025)`},
		{"zero memory", "data/gpus/beta-24gb.toml", "memory_gb = 24", "memory_gb = 0",
			`data/gpus/beta-24gb.toml:8:13: memory_gb must be greater than 0, got 0`},
		{"missing sources", "data/models/tiny-7b.toml", "[[sources]]\nurl = \"https://example.org/tiny/config.json\"\ntitle = \"Tiny 7B config.json\"\naccessed = 2025-01-02\n", "",
			`data/models/tiny-7b.toml:1:1: missing required key "sources" in file`},
		{"unknown dataset", "data/offers/acme.toml", `dataset = "demo-set"`, `dataset = "demo-sets"`,
			`data/offers/acme.toml:23:11: unknown dataset "demo-sets" (declare it under [[datasets]] in data/site.toml) (did you mean "demo-set"?)`},
		{"a price observed twice on one date", "data/offers/acme.toml", "billing = \"spot\"\nprice = 16.0\nas_of = 2024-01-10", "billing = \"on-demand\"\nprice = 16.0\nas_of = 2025-06-01",
			`data/offers/acme.toml:21:9: price "on-demand" is observed twice on 2025-06-01 (first at line 12): give each observation its own as_of date`},
		{"unknown billing mode", "data/offers/acme.toml", `billing = "spot"`, `billing = "spto"`,
			`data/offers/acme.toml:19:11: billing "spto" is not one of: on-demand, committed, spot, reserved-1y, reserved-3y (did you mean "spot"?)`},
		{"unknown key in the second offer's price", "data/offers/acme.toml", "price = 0.75", "price = 0.75\ncurency = \"USD\"",
			`data/offers/acme.toml:37:1: unknown key "curency" (valid keys here: as_of, billing, capture, capture_sha256, commitment, computed_from, dataset, date_basis, evidence, i18n, payment, price, region, source, term_months, unit)`},
		{"offers file without a provider", "data/offers/acmee.toml", "", "[[offers]]\ninstance = \"x\"\n",
			`data/offers/acmee.toml:1:1: no provider "acmee": an offers file is named after its provider (data/providers/acmee.toml) (did you mean "acme"?)`},
		{"provider kind misspelt", "data/providers/acme.toml", `kind = "gpu-cloud"`, `kind = "gpucloud"`,
			`data/providers/acme.toml:4:8: kind "gpucloud" is not one of: hyperscaler, gpu-cloud, marketplace, regional-cloud (did you mean "gpu-cloud"?)`},
		{"kv heads do not divide heads", "data/models/tiny-7b.toml", "kv_heads = 32", "kv_heads = 5",
			`data/models/tiny-7b.toml:7:12: kv heads 5 must divide heads 32`},
		{"required key left commented out (as new writes it)", "data/offers/drachen.toml", "as_of = 2025-09-01", "# as_of = YYYY-MM-DD",
			`data/offers/drachen.toml:13:1: missing required key "as_of" in [offers.prices] (uncomment this line and fill it in)`},
		{"bad file name", "data/gpus/Bad_Name.toml", "", "name = \"x\"\n",
			`data/gpus/Bad_Name.toml:1:1: file name "Bad_Name" is not a valid id: use lowercase letters, digits and single dashes`},
		{"front matter: unknown key", "content/guides/first-guide.md", "weight = 10", "wieght = 10",
			`content/guides/first-guide.md:5:1: front matter: unknown key "wieght" (did you mean "weight"?)`},
		{"front matter: bad section", "content/guides/first-guide.md", `section = "basics"`, `section = "basic"`,
			`content/guides/first-guide.md:4:11: front matter: section "basic" is not one of: basics, selection, scenarios, cost, pitfalls, trends, faq, about (did you mean "basics"?)`},
		{"front matter: broken TOML", "content/guides/first-guide.md", `title = "A first guide"`, `title = "A first guide`,
			`content/guides/first-guide.md:2:23: front matter: strings cannot contain newlines`},
		{"front matter missing", "content/faq.md", "+++\ntitle", "title",
			`content/faq.md:1:1: missing front matter: start the file with a line +++, the TOML keys (title, description, section, weight, updated), and a closing +++`},
		{"shortcode: unknown GPU", "content/guides/first-guide.md", `{{< gpu "alpha-80gb" "name" >}}`, `{{< gpu "alpha-08gb" "name" >}}`,
			`content/guides/first-guide.md:11:5: shortcode "gpu": unknown GPU "alpha-08gb" (did you mean "alpha-80gb"?)`},
		{"shortcode: malformed", "content/guides/first-guide.md", `{{< link guide="faq" >}}`, `{{< link guide=faq >}}`,
			`content/guides/first-guide.md:14:68: malformed shortcode: write {{< name "arg" key="value" >}}`},
		{"template error", "templates/gpus.html", `{{define "main"}}`, `{{define "main"}}{{.Nope`,
			`templates/gpus.html:2:1: unexpected "<" in operand`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := fixture.Site(t)
			edit(t, root, tt.file, tt.old, tt.new)
			d := Check(Options{Root: root, Now: fixture.Now})
			var got []string
			for _, e := range d.Sorted() {
				got = append(got, e.String())
			}
			for _, g := range got {
				if g == tt.want || (strings.HasSuffix(tt.want, ":") && strings.HasPrefix(g, tt.want)) {
					return
				}
			}
			t.Errorf("want diagnostic\n  %s\ngot\n  %s", tt.want, strings.Join(got, "\n  "))
		})
	}
}

func TestStrayFilesWarn(t *testing.T) {
	root := fixture.Site(t)
	edit(t, root, "data/gpus/.DS_Store", "", "\x00\x01junk")
	edit(t, root, "data/gpus/alpha-80gb.toml~", "", "name = ")
	d := Check(Options{Root: root, Now: fixture.Now})
	if d.HasErrors() {
		t.Fatalf("stray files caused errors: %v", d.Errors())
	}
	want := map[string]bool{
		"data/gpus/.DS_Store:1:1: warning: skipped: not a .toml file":        false,
		"data/gpus/alpha-80gb.toml~:1:1: warning: skipped: not a .toml file": false,
	}
	for _, x := range d.Sorted() {
		if _, ok := want[x.String()]; ok {
			want[x.String()] = true
		}
	}
	for w, seen := range want {
		if !seen {
			t.Errorf("missing warning %q", w)
		}
	}
}

func TestErrorsSortedAndAllReported(t *testing.T) {
	root := fixture.Site(t)
	edit(t, root, "data/offers/acme.toml", "price = 0.75", "price = -1")
	edit(t, root, "data/gpus/beta-24gb.toml", "memory_gb = 24", "memory_gb = 0")
	edit(t, root, "data/gpus/alpha-80gb.toml", "tdp_w = 700", "tdp = 700")
	d := Check(Options{Root: root, Now: fixture.Now})
	errs := d.Errors()
	if len(errs) < 3 {
		t.Fatalf("want at least 3 errors reported at once, got %v", errs)
	}
	for i := 1; i < len(errs); i++ {
		a, b := errs[i-1], errs[i]
		if a.Path > b.Path || (a.Path == b.Path && a.Line > b.Line) {
			t.Errorf("not sorted: %s before %s", a, b)
		}
	}
}
