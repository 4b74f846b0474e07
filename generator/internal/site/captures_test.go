package site

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/fixture"
)

// TestCapturesPublished: a price read from a capture links to the
// capture, which the site publishes byte for byte (the hash the catalog
// cites holds for the published copy), in both editions.
func TestCapturesPublished(t *testing.T) {
	root := fixture.Site(t)
	capture := []byte("{\n  \"format\": 1,\n  \"note\": \"a capture is published as it is, <never> minified\"\n}\n")
	p := filepath.Join(root, "data", "captures", "drachen", "2025-10-20-page.json")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, capture, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(capture)
	offers := filepath.Join(root, "data", "offers", "drachen.toml")
	src, err := os.ReadFile(offers)
	if err != nil {
		t.Fatal(err)
	}
	added := string(src) + `
[[offers.prices]]
billing = "on-demand"
price = 27.5
as_of = 2025-10-20
date_basis = "page-captured"
source = "https://drachen.example/price"
capture = "drachen/2025-10-20-page.json"
capture_sha256 = "` + hex.EncodeToString(sum[:]) + `"
evidence = "first-party"
`
	if err := os.WriteFile(offers, []byte(added), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	res, d := Run(Options{Root: root, Out: out, Now: fixture.Now})
	if res == nil {
		t.Fatalf("build: %v", d.Errors())
	}
	got, err := os.ReadFile(filepath.Join(out, "captures", "drachen", "2025-10-20-page.json"))
	if err != nil || string(got) != string(capture) {
		t.Fatalf("published capture %q (%v), want the file byte for byte", got, err)
	}
	if _, err := os.Stat(filepath.Join(out, "captures", "queries.toml")); err == nil {
		t.Errorf("queries.toml was published")
	}
	for _, page := range []string{"gpus/alpha-80gb/index.html", "zh/gpus/alpha-80gb/index.html"} {
		b, err := os.ReadFile(filepath.Join(out, page))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `/captures/drachen/2025-10-20-page.json`) {
			t.Errorf("%s does not link the capture", page)
		}
	}
}
