package browsertest

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/preview"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/site"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

// lighthousePages are the pages issue 35 names: home, pricing, a GPU, a
// model, the calculator and a guide, in both editions.
var lighthousePages = []string{"", "pricing/", "gpus/h100-sxm5-80gb/", "models/llama-3-1-8b/", "calculator/", "guides/scenario-llm-fine-tuning/"}

// TestLighthouse runs Lighthouse (npm lighthouse, pinned by package.json,
// on Debian's chromium, mobile profile) on the key pages of both
// editions, served as a static host serves them (`generator preview`:
// precompressed files, _headers) from a build whose base URL is the
// address it is served from (hreflang and canonical links are absolute).
// Accessibility, best practices and SEO must score 100; performance,
// which depends on the machine's load, is logged with the others. With
// GPU_ATLAS_LIGHTHOUSE_OUT set (make lighthouse), each page's JSON report
// is kept in that directory.
func TestLighthouse(t *testing.T) {
	chromium := Chromium(t)
	lh := filepath.Join(testcat.RepoRoot(), "node_modules", ".bin", "lighthouse")
	if _, err := os.Stat(lh); err != nil {
		t.Fatalf("%s is missing: run npm ci --ignore-scripts in %s (lighthouse is pinned in package.json)", lh, testcat.RepoRoot())
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String() + "/"
	now, err := site.Today()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	if _, d := site.Run(site.Options{Root: testcat.RepoRoot(), Out: out, BaseURL: base, Now: now, Precompress: true}); d.HasErrors() {
		var b strings.Builder
		d.Print(&b)
		t.Fatalf("building the site:\n%s", b.String())
	}
	h, err := preview.Handler(out)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	for _, ed := range []string{"", "zh/"} {
		for _, p := range lighthousePages {
			page := ed + p
			t.Run("/"+page, func(t *testing.T) {
				dir := t.TempDir()
				if keep := os.Getenv("GPU_ATLAS_LIGHTHOUSE_OUT"); keep != "" {
					if err := os.MkdirAll(keep, 0o755); err != nil {
						t.Fatal(err)
					}
					dir = keep
				}
				report := filepath.Join(dir, "lh"+strings.ReplaceAll("/"+page, "/", "_")+".json")
				cmd := exec.Command(lh, base+page, "--quiet", "--output=json", "--output-path="+report,
					"--only-categories=performance,accessibility,best-practices,seo",
					"--chrome-flags=--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync --user-data-dir="+t.TempDir())
				cmd.Env = append(os.Environ(), "CHROME_PATH="+chromium)
				if msg, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("lighthouse: %v\n%s", err, msg)
				}
				b, err := os.ReadFile(report)
				if err != nil {
					t.Fatal(err)
				}
				var r struct {
					Categories map[string]struct {
						Score     *float64
						AuditRefs []struct{ ID string } `json:"auditRefs"`
					}
					Audits map[string]struct {
						Title string
						Score *float64
					}
				}
				if err := json.Unmarshal(b, &r); err != nil {
					t.Fatalf("the report: %v", err)
				}
				var scores []string
				for _, c := range []string{"performance", "accessibility", "best-practices", "seo"} {
					cat, ok := r.Categories[c]
					if !ok || cat.Score == nil {
						t.Errorf("%s: no score", c)
						continue
					}
					scores = append(scores, fmt.Sprintf("%s %.0f", c, *cat.Score*100))
					if c == "performance" || *cat.Score == 1 {
						continue
					}
					t.Errorf("%s scores %.0f, want 100", c, *cat.Score*100)
					for _, ref := range cat.AuditRefs {
						if a := r.Audits[ref.ID]; a.Score != nil && *a.Score < 1 {
							t.Errorf("  %s: %s (score %.2f)", ref.ID, a.Title, *a.Score)
						}
					}
				}
				t.Logf("/%s: %s", page, strings.Join(scores, ", "))
			})
		}
	}
}
