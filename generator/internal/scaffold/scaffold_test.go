package scaffold

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/content"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/schema"
)

var testNow = time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)

// site writes a minimal valid site (one GPU, one provider, no offers)
// into a temporary directory.
func site(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"data/site.toml": `title = "T"
base_url = "/"
repo_url = "https://example.com/repo"
[staleness]
fresh_days = 90
stale_days = 365
`,
		"data/fx.toml": `base = "USD"
as_of = 2025-01-01
source = "https://example.com/fx"
[rates]
EUR = 0.9
`,
		"data/gpus/g1.toml": `name = "G1"
vendor = "V"
architecture = "A"
release_year = 2020
form_factor = "PCIe"
segment = "datacenter"
memory_gb = 24
memory_type = "GDDR6"
memory_bandwidth_gbs = 600
[interconnect]
kind = "PCIe"
[[sources]]
url = "https://example.com/g1"
title = "G1 sheet"
accessed = 2025-01-01
`,
		"data/providers/acme.toml": `name = "Acme"
homepage = "https://acme.example/"
kind = "gpu-cloud"
[[regions]]
id = "us-east"
[[regions]]
id = "eu-west"
[billing]
on_demand = true
[[sources]]
url = "https://acme.example/pricing"
title = "Acme pricing"
accessed = 2025-01-01
`,
	}
	for rel, text := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if c, d := catalog.Load(root, testNow); c == nil {
		t.Fatalf("fixture site does not load:\n%s", errText(d))
	}
	return root
}

func errText(d *diag.List) string {
	var b strings.Builder
	for _, e := range d.Errors() {
		b.WriteString(e.String() + "\n")
	}
	return b.String()
}

func TestNewWritesEachKind(t *testing.T) {
	tests := []struct {
		kind, id, rel string
		wantErrs      []string // substrings of the errors check reports for the unedited template
	}{
		{"gpu", "new-gpu", "data/gpus/new-gpu.toml", []string{
			`required key "name" is empty`, `required key "vendor" is empty`, `release_year 0 is out of range`,
			`required key "form_factor" is empty`, `memory_gb must be greater than 0`, `required key "kind" is empty`,
			`missing required key "accessed" in [sources]`, `required key "url" is empty`,
		}},
		{"provider", "new-cloud", "data/providers/new-cloud.toml", []string{
			`required key "name" is empty`, `required key "homepage" is empty`, `required key "kind" is empty`,
			`required key "id" is empty`, `missing required key "on_demand" in [billing]`,
			`missing required key "accessed" in [sources]`,
		}},
		{"offer", "acme", "data/offers/acme.toml", []string{
			`required key "instance" is empty`, `required key "gpu" is empty`, `gpu_count 0 is out of range`,
			`vram_per_gpu_gb must be greater than 0`, `regions is empty`, `required key "currency" is empty`,
			`required key "billing" is empty`, `price must be greater than 0`, `missing required key "as_of"`,
			`required key "source" is empty`, `required key "evidence" is empty`,
		}},
		{"model", "new-model", "data/models/new-model.toml", []string{
			`required key "name" is empty`, `params must be greater than 0`, `layers must be greater than 0`,
			`kv_heads must be greater than 0`, `missing required key "accessed" in [sources]`,
		}},
		{"guide", "new-guide", "content/guides/new-guide.md", []string{`section "" is not one of`}},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			root := site(t)
			rel, err := New(root, tt.kind, tt.id)
			if err != nil {
				t.Fatal(err)
			}
			if rel != tt.rel {
				t.Errorf("wrote %s, want %s", rel, tt.rel)
			}
			src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(tt.rel)))
			if err != nil {
				t.Fatalf("the file did not appear: %v", err)
			}
			first, _, _ := strings.Cut(string(src), "\n")
			if want, ok := schema.Directive(tt.rel); ok && first != want {
				t.Errorf("first line %q, want %q", first, want)
			}

			var errs string
			if tt.kind == "guide" {
				d := &diag.List{}
				if p := content.Parse(tt.rel, src, content.Options{}, d); p != nil {
					t.Error("the unedited guide template parsed without errors")
				}
				errs = errText(d)
			} else {
				c, d := catalog.Load(root, testNow)
				if c != nil {
					t.Fatal("the unedited template passes check; it must fail until edited")
				}
				errs = errText(d)
			}
			for _, w := range tt.wantErrs {
				if !strings.Contains(errs, w) {
					t.Errorf("check does not report %q; it reports:\n%s", w, errs)
				}
			}
			seen := map[string]bool{}
			for _, line := range strings.Split(strings.TrimSpace(errs), "\n") {
				if at := strings.Join(strings.SplitN(line, ":", 4)[:3], ":"); seen[at] {
					t.Errorf("two errors at %s (one problem, one message)", at)
				} else {
					seen[at] = true
				}
				if !strings.HasPrefix(line, tt.rel+":") {
					t.Errorf("error outside the new file: %s", line)
				}
				if strings.Contains(line, "unknown key") {
					t.Errorf("the template has a key the catalog does not know: %s", line)
				}
			}

			_, err = New(root, tt.kind, tt.id)
			var exists *ExistsError
			if !errors.As(err, &exists) {
				t.Fatalf("second new: got %v, want a refusal", err)
			}
			after, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(tt.rel)))
			if string(after) != string(src) {
				t.Error("the refused second new changed the file")
			}
		})
	}
}

// TestFilledTemplatesPass fills in each data template's placeholders and
// requires a clean load: the template's structure and keys are right.
func TestFilledTemplatesPass(t *testing.T) {
	tests := []struct {
		kind, id string
		fill     []string // old, new pairs
	}{
		{"gpu", "new-gpu", []string{
			`name = ""`, `name = "N"`, `vendor = ""`, `vendor = "V"`, `architecture = ""`, `architecture = "A"`,
			`release_year = 0`, `release_year = 2020`, `form_factor = ""`, `form_factor = "PCIe"`,
			`segment = ""`, `segment = "consumer"`, `memory_gb = 0`, `memory_gb = 8`, `memory_type = ""`, `memory_type = "GDDR6"`,
			`memory_bandwidth_gbs = 0`, `memory_bandwidth_gbs = 1`, `kind = ""`, `kind = "PCIe"`,
			`url = ""`, `url = "https://example.com/"`, `title = ""`, `title = "T"`, `# accessed = YYYY-MM-DD`, `accessed = 2025-01-01`,
		}},
		{"provider", "new-cloud", []string{
			`name = ""`, `name = "N"`, `homepage = ""`, `homepage = "https://example.com/"`, `kind = ""`, `kind = "gpu-cloud"`,
			`id = ""`, `id = "r1"`, `# on_demand = true`, `on_demand = true`,
			`url = ""`, `url = "https://example.com/"`, `title = ""`, `title = "T"`, `# accessed = YYYY-MM-DD`, `accessed = 2025-01-01`,
		}},
		{"offer", "acme", []string{
			`instance = ""`, `instance = "i1"`, `gpu = ""`, `gpu = "g1"`, `gpu_count = 0`, `gpu_count = 2`,
			`vram_per_gpu_gb = 0`, `vram_per_gpu_gb = 24`, `vram_total_gb = 0`, `vram_total_gb = 48`,
			`regions = []`, `regions = ["us-east"]`, `currency = ""`, `currency = "EUR"`,
			`billing = ""`, `billing = "on-demand"`, `price = 0`, `price = 1`, `# as_of = YYYY-MM-DD`, `as_of = 2025-01-01`,
			`source = ""`, `source = "https://acme.example/pricing"`, `evidence = ""`, `evidence = "first-party"`,
		}},
		{"model", "new-model", []string{
			`name = ""`, `name = "N"`, `family = ""`, `family = "F"`, `params = 0`, `params = 1000`, `layers = 0`, `layers = 2`,
			`hidden_size = 0`, `hidden_size = 64`, `heads = 0`, `heads = 4`, `kv_heads = 0`, `kv_heads = 4`,
			`ffn_size = 0`, `ffn_size = 256`, `vocab_size = 0`, `vocab_size = 100`, `max_context = 0`, `max_context = 512`,
			`url = ""`, `url = "https://example.com/"`, `title = ""`, `title = "T"`, `# accessed = YYYY-MM-DD`, `accessed = 2025-01-01`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			root := site(t)
			rel, err := New(root, tt.kind, tt.id)
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(root, filepath.FromSlash(rel))
			src, _ := os.ReadFile(p)
			text := string(src)
			for i := 0; i < len(tt.fill); i += 2 {
				if !strings.Contains(text, tt.fill[i]) {
					t.Fatalf("template lacks %q", tt.fill[i])
				}
				text = strings.Replace(text, tt.fill[i], tt.fill[i+1], 1)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			if c, d := catalog.Load(root, testNow); c == nil {
				t.Fatalf("the filled-in template does not load:\n%s\n%s", errText(d), text)
			}
		})
	}
}

func TestNewRefuses(t *testing.T) {
	tests := []struct {
		name, kind, id string
		usage          bool
		want           string
	}{
		{"invalid id", "gpu", "H100_SXM", true, "not a valid id"},
		{"id with double dash", "model", "a--b", true, "not a valid id"},
		{"empty id", "guide", "", true, "not a valid id"},
		{"unknown kind", "cpu", "x", true, `unknown kind "cpu"`},
		{"offer of unknown provider", "offer", "nope", false, `no provider "nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := site(t)
			_, err := New(root, tt.kind, tt.id)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error containing %q", err, tt.want)
			}
			var u *UsageError
			if errors.As(err, &u) != tt.usage {
				t.Errorf("usage error = %v, want %v", !tt.usage, tt.usage)
			}
			if _, err := os.Stat(filepath.Join(root, "data", "offers")); err == nil {
				t.Error("a refused new created data/offers")
			}
		})
	}
}

func TestNewOfferAppends(t *testing.T) {
	root := site(t)
	existing := "#:schema ../../schema/offers.json\n[[offers]]\ninstance = \"i0\"\ngpu = \"g1\"\ngpu_count = 1\nvram_per_gpu_gb = 24\nvram_total_gb = 24\nregions = [\"us-east\"]\ncurrency = \"USD\"\n[[offers.prices]]\nbilling = \"on-demand\"\nprice = 1\nas_of = 2025-01-01\nsource = \"https://acme.example/pricing\"" // no final newline
	p := filepath.Join(root, "data", "offers", "acme.toml")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(existing), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := New(root, "offer", "acme"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	if !strings.HasPrefix(string(got), existing+"\n") {
		t.Fatal("appending changed the existing offers")
	}
	if !strings.Contains(string(got), `region ids of acme: "us-east", "eu-west"`) || !strings.Contains(string(got), "USD, EUR") {
		t.Errorf("the template does not list the provider's regions and the currencies:\n%s", got)
	}
	_, d := catalog.Load(root, testNow)
	if len(d.Errors()) == 0 {
		t.Fatal("the unedited appended offer passes check")
	}
	for _, e := range d.Errors() {
		if e.Path != "data/offers/acme.toml" || e.Line <= strings.Count(existing, "\n")+1 {
			t.Errorf("want errors in the appended block only: %s", e)
		}
	}
	var exists *ExistsError
	if _, err := New(root, "offer", "acme"); !errors.As(err, &exists) {
		t.Fatalf("a second unfinished offer: got %v, want a refusal", err)
	}
}
