package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/fixture"
)

// positioned matches a diagnostic that names its file, line and column.
var positioned = regexp.MustCompile(`^[^:]+:[1-9][0-9]*:[1-9][0-9]*: `)

var (
	goodOnce sync.Once
	goodOut  string // a successful build of the fixture, copied as each case's previous output
	goodErr  string
)

// previousOutput returns a fresh copy of a successful fixture build.
func previousOutput(t *testing.T) string {
	t.Helper()
	goodOnce.Do(func() {
		dir, err := os.MkdirTemp("", "atlas-good-")
		if err != nil {
			goodErr = err.Error()
			return
		}
		site := filepath.Join(dir, "site")
		if err := fixture.Copy(site); err != nil {
			goodErr = err.Error()
			return
		}
		goodOut = filepath.Join(dir, "public")
		var stdout, stderr bytes.Buffer
		if code := run([]string{"build", "-root", site, "-out", goodOut, "-no-precompress"}, &stdout, &stderr); code != 0 {
			goodErr = stderr.String()
		}
	})
	if goodErr != "" {
		t.Fatalf("the fixture does not build:\n%s", goodErr)
	}
	out := filepath.Join(t.TempDir(), "public")
	if err := os.CopyFS(out, os.DirFS(goodOut)); err != nil {
		t.Fatal(err)
	}
	return out
}

func snapshotDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if e.IsDir() {
			m[rel+"/"] = ""
			return nil
		}
		b, err := os.ReadFile(p)
		m[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// brokenCase is one mistake a contributor could plausibly make: an edit of
// the fixture and the diagnostic it must produce. want is the exact
// "path:line:col: " position followed by a phrase of the message.
type brokenCase struct {
	name, file, old, new string
	want                 string
}

func brokenCases() []brokenCase {
	return []brokenCase{
		// data/offers
		{"unterminated string", "data/offers/acme.toml", `instance = "alpha.8x"`, `instance = "alpha.8x`, "data/offers/acme.toml:2:21: strings cannot contain newlines"},
		{"misspelt key", "data/offers/acme.toml", "vcpu = 192", "vcpus = 192", `data/offers/acme.toml:7:1: unknown key "vcpus" (did you mean "vcpu"?)`},
		{"fractional gpu_count in the second offer", "data/offers/acme.toml", "gpu_count = 1\n", "gpu_count = 1.5\n", "data/offers/acme.toml:28:13: key \"offers.gpu_count\": TOML value has type float64; destination has type integer"},
		{"negative price", "data/offers/acme.toml", "price = 0.75", "price = -1", "data/offers/acme.toml:36:9: price must be greater than 0"},
		{"javascript: price source", "data/offers/acme.toml", `source = "https://acme.example/spot"`, `source = "javascript:alert(1)"`, `data/offers/acme.toml:22:10: source "javascript:alert(1)" has scheme "javascript"`},
		{"document name as price source", "data/offers/acme.toml", `source = "https://acme.example/spot"`, `source = "Acme price list (PDF)"`, `data/offers/acme.toml:22:10: source "Acme price list (PDF)" is not an absolute http(s) URL`},
		{"space in a price source", "data/offers/acme.toml", `source = "https://acme.example/spot"`, `source = "https://acme.example/spot prices"`, "data/offers/acme.toml:22:10: source \"https://acme.example/spot prices\" holds whitespace"},
		{"price source without host", "data/offers/acme.toml", `source = "https://acme.example/spot"`, `source = "https:///spot"`, "data/offers/acme.toml:22:10: source \"https:///spot\" has no host"},
		{"quoted date", "data/offers/acme.toml", "as_of = 2025-06-01", `as_of = "2025-06-01"`, `data/offers/acme.toml:15:9: key "offers.prices.as_of": a date must not be quoted`},
		{"future price date", "data/offers/acme.toml", "as_of = 2025-06-01", "as_of = 2099-06-01", "data/offers/acme.toml:15:9: as_of 2099-06-01 is in the future"},
		{"unknown GPU", "data/offers/acme.toml", `gpu = "beta-24gb"`, `gpu = "beta-42gb"`, `data/offers/acme.toml:27:7: unknown GPU "beta-42gb" (did you mean "beta-24gb"?)`},
		{"unknown region", "data/offers/acme.toml", `regions = ["us-east"]`, `regions = ["us-eats"]`, `data/offers/acme.toml:31:12: unknown region "us-eats" of provider acme (did you mean "us-east"?)`},
		{"VRAM total mismatch", "data/offers/acme.toml", "vram_total_gb = 640", "vram_total_gb = 600", "data/offers/acme.toml:6:17: vram_total_gb 600 != gpu_count 8 x vram_per_gpu_gb 80"},
		{"unknown currency", "data/offers/acme.toml", `currency = "USD"`, `currency = "USX"`, `data/offers/acme.toml:10:12: currency "USX" is not in data/fx.toml`},
		{"misspelt billing mode", "data/offers/acme.toml", `billing = "spot"`, `billing = "spto"`, `data/offers/acme.toml:19:11: billing "spto" is not one of`},
		{"on-demand quoted per day", "data/offers/acme.toml", "price = 40.0\n", "price = 40.0\nunit = \"day\"\n", `data/offers/acme.toml:15:8: billing "on-demand" is paid by the hour: a price per day is a prepaid period`},
		{"spot above on-demand", "data/offers/acme.toml", "price = 16.0", "price = 60.0", "data/offers/acme.toml:20:9: spot price 60 is above the on-demand price 40"},
		{"duplicate instance", "data/offers/acme.toml", `instance = "beta.1x"`, `instance = "alpha.8x"`, `data/offers/acme.toml:26:12: instance "alpha.8x" is listed twice`},
		{"NUL in an instance name", "data/offers/acme.toml", `instance = "beta.1x"`, `instance = "beta\u0000.1x"`, "data/offers/acme.toml:26:12: instance holds the character U+0000"},
		// data/providers
		{"hidden cost currency unknown", "data/providers/acme.toml", "currency = \"USD\"\negress_per_gb", "currency = \"USQ\"\negress_per_gb", `data/providers/acme.toml:29:12: hidden_costs.currency "USQ" is not in data/fx.toml`},
		{"region country not ISO", "data/providers/acme.toml", `country = "IE"`, `country = "Ireland"`, `data/providers/acme.toml:15:11: country "Ireland" is not an ISO 3166-1 alpha-2 code`},
		{"provider country not ISO", "data/providers/acme.toml", `country = "US"`, `country = "USA"`, `data/providers/acme.toml:3:11: country "USA" is not an ISO 3166-1 alpha-2 code`},
		{"data: homepage", "data/providers/acme.toml", `homepage = "https://acme.example/"`, `homepage = "data:text/html,<script>alert(1)</script>"`, `data/providers/acme.toml:2:12: homepage "data:text/html,<script>alert(1)</script>" has scheme "data"`},
		{"bidi override in a description", "data/providers/acme.toml", `description = "A fixture provider."`, `description = "A fixture \u202eprovider."`, "data/providers/acme.toml:5:15: description holds the character U+202E"},
		{"misspelt billing increment", "data/providers/acme.toml", `increment = "per-second"`, `increment = "per-sec"`, `data/providers/acme.toml:19:13: increment "per-sec" is not one of`},
		// data/gpus, models, fx, site
		{"NUL in a GPU name", "data/gpus/alpha-80gb.toml", `name = "Alpha 80GB"`, `name = "Alpha\u0000 80GB"`, "data/gpus/alpha-80gb.toml:1:8: name holds the character U+0000"},
		{"escape character in GPU notes", "data/gpus/alpha-80gb.toml", `tdp_w = 700`, "tdp_w = 700\nnotes = \"red \\u001b[31m\"", "data/gpus/alpha-80gb.toml:14:9: notes holds the character U+001B"},
		{"ftp spec source", "data/gpus/alpha-80gb.toml", `url = "https://example.org/alpha"`, `url = "ftp://example.org/alpha"`, `data/gpus/alpha-80gb.toml:21:7: url "ftp://example.org/alpha" has scheme "ftp"`},
		{"sparse-looking tf32", "data/gpus/alpha-80gb.toml", "bf16_tflops = 900", "bf16_tflops = 900\ntf32_tflops = 1000", "data/gpus/alpha-80gb.toml:12:15: tf32_tflops 1000 exceeds bf16_tflops 900"},
		{"misspelt precision", "data/gpus/alpha-80gb.toml", "bf16_tflops = 900", "bf16_tflops = 900\nprecisions = [\"fp16\", \"bf61\", \"fp8\"]", `data/gpus/alpha-80gb.toml:12:23: precision "bf61" is not one of: fp16, bf16, fp8, fp4, int8 (did you mean "bf16"?)`},
		{"release year in the future", "data/gpus/alpha-80gb.toml", "release_year = 2022", "release_year = 2031", "data/gpus/alpha-80gb.toml:4:16: release_year 2031 is out of range"},
		{"kv_heads not dividing heads", "data/models/tiny-7b.toml", "kv_heads = 32", "kv_heads = 5", "data/models/tiny-7b.toml:7:12: kv heads 5 must divide heads 32"},
		{"javascript: fx source", "data/fx.toml", `source = "https://example.org/fx"`, `source = "javascript:alert(document.domain)"`, `data/fx.toml:3:10: source "javascript:alert(document.domain)" has scheme "javascript"`},
		{"fx rate as a string", "data/fx.toml", "CNY = 7.0", `CNY = "7.0"`, `data/fx.toml:6:7: key "rates.CNY": TOML value has type string; destination has type float (write numbers without quotes)`},
		{"dataset url javascript", "data/site.toml", `url = "https://example.org/demo"`, `url = "javascript:void(0)"`, `data/site.toml:16:7: url "javascript:void(0)" has scheme "javascript"`},
		{"calculator model unknown", "data/site.toml", `date_style = "cjk"`, "date_style = \"cjk\"\n\n[calculator]\nmodel = \"tiny-8b\"\ngpu = \"alpha-80gb\"", `data/site.toml:39:9: calculator model "tiny-8b" is not a model preset id (did you mean "tiny-7b"?)`},
		{"calculator gpu unknown", "data/site.toml", `date_style = "cjk"`, "date_style = \"cjk\"\n\n[calculator]\ngpu = \"alpha-40gb\"", `data/site.toml:39:7: calculator gpu "alpha-40gb" is not a GPU id (did you mean "alpha-80gb"?)`},
		// content
		{"weight as a string", "content/guides/first-guide.md", "weight = 10", `weight = "ten"`, `content/guides/first-guide.md:5:10: front matter: key "weight"`},
		{"future updated date", "content/guides/first-guide.md", "updated = 2025-06-01", "updated = 2099-01-01", "content/guides/first-guide.md:6:11: front matter: updated 2099-01-01 is in the future"},
		{"control character in a title", "content/guides/first-guide.md", `title = "A first guide"`, `title = "A first\u0007 guide"`, "content/guides/first-guide.md:2:9: front matter: title holds the character U+0007"},
		{"misspelt front matter key", "content/guides/first-guide.md", `section = "basics"`, `sectoin = "basics"`, `content/guides/first-guide.md:4:1: front matter: unknown key "sectoin" (did you mean "section"?)`},
		{"unknown section", "content/guides/first-guide.md", `section = "basics"`, `section = "basic"`, `content/guides/first-guide.md:4:11: front matter: section "basic" is not one of`},
		{"javascript: link", "content/guides/first-guide.md", "## Memory", "## Memory\n\nClick [here](javascript:alert(1)).", `content/guides/first-guide.md:11:14: link to "javascript:alert(1)"`},
		{"VBScript link in mixed case", "content/guides/first-guide.md", "## Memory", "## Memory\n\n[x](VBScript:msgbox)", `content/guides/first-guide.md:11:5: link to "VBScript:msgbox"`},
		{"data: image", "content/guides/first-guide.md", "## Memory", "## Memory\n\n![chart](data:image/svg+xml;base64,PHN2Zz4=)", `content/guides/first-guide.md:11:10: image to "data:image/svg+xml;base64,PHN2Zz4="`},
		{"javascript: autolink", "content/guides/first-guide.md", "## Memory", "## Memory\n\n<javascript:alert(1)>", "content/guides/first-guide.md:11:"},
		{"unknown shortcode", "content/guides/first-guide.md", `{{< link provider="acme" >}}`, `{{< lnk provider="acme" >}}`, `content/guides/first-guide.md:14:35: shortcode "lnk": unknown shortcode`},
		{"unknown guide in a link", "content/guides/first-guide.md", `{{< link guide="faq" >}}`, `{{< link guide="fqa" >}}`, `content/guides/first-guide.md:14:68: shortcode "link": unknown guide "fqa"`},
		{"duplicate slug in another folder", "content/first-guide.md", "", "+++\ntitle = \"Again\"\ndescription = \"x\"\nsection = \"basics\"\n+++\nbody\n", `content/guides/first-guide.md:1:1: slug "first-guide" is also the slug of content/first-guide.md`},
		{"unknown language suffix", "content/guides/first-guide.xx.md", "", "+++\ntitle = \"x\"\ndescription = \"x\"\nsection = \"basics\"\n+++\nbody\n", `content/guides/first-guide.xx.md:1:1: file name names language "xx"`},
		{"file name not a slug", "content/guides/First Guide.md", "", "+++\ntitle = \"x\"\ndescription = \"x\"\nsection = \"basics\"\n+++\nbody\n", `content/guides/First Guide.md:1:1: file name "First Guide" is not a valid slug`},
		{"no front matter", "content/guides/second.md", "", "# Just a heading\n", "content/guides/second.md:1:1: missing front matter"},
		// templates
		{"template syntax error", "templates/gpus.html", `{{define "main"}}`, `{{define "main"}}{{.Nope`, "templates/gpus.html:"},
		{"template execution error", "templates/gpus.html", `{{define "main"}}`, `{{define "main"}}{{index .Site.Datasets 99}}`, "templates/gpus.html:1:"},
	}
}

// TestBrokenInputsCLI runs `build` on each plausible mistake: the exit
// status is 1, the diagnostic is printed at its exact position, and the
// previous output is left byte-identical.
func TestBrokenInputsCLI(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", fixture.Epoch)
	cases := brokenCases()
	if len(cases) < 40 {
		t.Fatalf("only %d broken-input cases", len(cases))
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			root := fixture.Site(t)
			out := previousOutput(t)
			before := snapshotDir(t, out)
			p := filepath.Join(root, tt.file)
			if tt.old == "" {
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(tt.new), 0o644); err != nil {
					t.Fatal(err)
				}
			} else {
				b, err := os.ReadFile(p)
				if err != nil || !strings.Contains(string(b), tt.old) {
					t.Fatalf("%s does not contain %q (%v)", tt.file, tt.old, err)
				}
				os.WriteFile(p, []byte(strings.Replace(string(b), tt.old, tt.new, 1)), 0o644)
			}
			var stdout, stderr bytes.Buffer
			code := run([]string{"build", "-root", root, "-out", out, "-no-precompress"}, &stdout, &stderr)
			if code != 1 {
				t.Errorf("exit status %d, want 1; stderr:\n%s", code, stderr.String())
			}
			found := false
			for _, l := range strings.Split(stderr.String(), "\n") {
				if strings.HasPrefix(l, tt.want) {
					found = true
				}
				if (strings.HasPrefix(l, "data/") || strings.HasPrefix(l, "content/") || strings.HasPrefix(l, "templates/")) && !positioned.MatchString(l) {
					t.Errorf("diagnostic without a position: %s", l)
				}
			}
			if !found {
				t.Errorf("want a line starting with\n  %s\ngot\n%s", tt.want, stderr.String())
			}
			after := snapshotDir(t, out)
			if len(after) != len(before) {
				t.Errorf("output has %d entries after the failed build, had %d", len(after), len(before))
			}
			for k, v := range before {
				if after[k] != v {
					t.Errorf("%s changed", k)
				}
			}
		})
	}
}

// TestOutRefusals: -out naming the site's own folders, the root, a
// foreign directory or a file is refused before anything is written.
func TestOutRefusals(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", fixture.Epoch)
	root := fixture.Site(t)
	foreign := filepath.Join(t.TempDir(), "documents")
	os.MkdirAll(foreign, 0o755)
	os.WriteFile(filepath.Join(foreign, "letter.txt"), []byte("keep me"), 0o644)
	file := filepath.Join(t.TempDir(), "report.pdf")
	os.WriteFile(file, []byte("%PDF"), 0o644)
	dataBefore := snapshotDir(t, filepath.Join(root, "data"))
	contentBefore := snapshotDir(t, filepath.Join(root, "content"))
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"data", []string{"-out", filepath.Join(root, "data")}, "it is the site's source folder data/"},
		{"data with force", []string{"-out", filepath.Join(root, "data"), "-force"}, "it is the site's source folder data/"},
		{"content", []string{"-out", filepath.Join(root, "content")}, "source folder content/"},
		{"templates subfolder", []string{"-out", filepath.Join(root, "templates", "x")}, "inside the site's source folder templates/"},
		{"the root", []string{"-out", root, "-force"}, "it is the site root"},
		{"the root's parent", []string{"-out", filepath.Dir(root), "-force"}, "it contains the site root"},
		{"a foreign directory", []string{"-out", foreign}, "non-empty directory the generator did not write"},
		{"a file", []string{"-out", file}, "exists and is not a directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"build", "-root", root, "-no-precompress"}, c.args...), &stdout, &stderr)
			if code != 1 || !strings.Contains(stderr.String(), c.want) {
				t.Errorf("exit %d, want 1 with %q; stderr:\n%s", code, c.want, stderr.String())
			}
		})
	}
	for name, want := range map[string]map[string]string{"data": dataBefore, "content": contentBefore} {
		got := snapshotDir(t, filepath.Join(root, name))
		if len(got) != len(want) {
			t.Errorf("%s/ changed: %d entries, had %d", name, len(got), len(want))
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s/%s changed", name, k)
			}
		}
	}
	if b, _ := os.ReadFile(filepath.Join(foreign, "letter.txt")); string(b) != "keep me" {
		t.Error("the foreign directory was changed")
	}
	if b, _ := os.ReadFile(file); string(b) != "%PDF" {
		t.Error("the file was changed")
	}
	// With -force the foreign directory is replaced by the site.
	var stdout, stderr bytes.Buffer
	if code := run([]string{"build", "-root", root, "-no-precompress", "-out", foreign, "-force"}, &stdout, &stderr); code != 0 {
		t.Fatalf("-force: exit %d\n%s", code, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(foreign, "index.html")); err != nil {
		t.Errorf("-force did not write the site: %v", err)
	}
}
