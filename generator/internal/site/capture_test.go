package site

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/fixture"
)

// TestCaptureReady: a provider page with no current price says, in both
// editions, that the catalog's capture is set up for it (its API, or the
// pages it keeps), when data/captures/queries.toml names it; a provider
// with a current price, or one the capture does not ask, says nothing of
// it; a queries file with an unknown key fails the build at its line.
func TestCaptureReady(t *testing.T) {
	const queries = "[acme]\npages = [\"https://acme.example/pricing\"]\n\n[drachen]\nregions = [\"fra\"]\n"
	later := fixture.Now.AddDate(3, 0, 0) // every fixture price stale
	cases := []struct {
		name    string
		queries string
		now     bool // build on fixture.Now (current prices) instead of three years later
		want    map[string]string
	}{
		{"pages and API", queries, false, map[string]string{
			"providers/acme/index.html":       `capture command (generator capture) keeps its page on <a href="https://acme.example/pricing"><code>acme.example</code></a> as served`,
			"zh/providers/acme/index.html":    `采集已就绪：本目录的采集命令（generator capture）会原样保存其在 <a href="https://acme.example/pricing"><code>acme.example</code></a> 上的页面`,
			"providers/drachen/index.html":    `Capture ready: the catalog&#39;s capture command (generator capture) asks this provider&#39;s own price API`,
			"zh/providers/drachen/index.html": `采集已就绪：本目录的采集命令（generator capture）会查询该服务商自己的价格 API`,
		}},
		{"current prices", queries, true, map[string]string{"providers/drachen/index.html": "", "zh/providers/drachen/index.html": ""}},
		{"no queries file", "", false, map[string]string{"providers/acme/index.html": "", "providers/drachen/index.html": ""}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := fixture.Site(t)
			if c.queries != "" {
				os.MkdirAll(filepath.Join(root, "data", "captures"), 0o755)
				if err := os.WriteFile(filepath.Join(root, "data", "captures", "queries.toml"), []byte(c.queries), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			now := later
			if c.now {
				now = fixture.Now
			}
			out := filepath.Join(t.TempDir(), "public")
			buildOpts(t, Options{Root: root, Out: out, Now: now, NoMinify: true})
			for page, want := range c.want {
				b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(page)))
				if err != nil {
					t.Fatal(err)
				}
				body := string(b)
				has := strings.Contains(body, "Capture ready") || strings.Contains(body, "采集已就绪")
				switch {
				case want == "" && has:
					t.Errorf("%s: says its capture is ready, want no such line", page)
				case want != "" && !strings.Contains(body, want):
					i := strings.Index(body, "banner stale")
					t.Errorf("%s: lacks %q\n%s", page, want, body[max(i, 0):min(len(body), max(i, 0)+900)])
				}
			}
		})
	}
	t.Run("unknown key", func(t *testing.T) {
		root := fixture.Site(t)
		os.MkdirAll(filepath.Join(root, "data", "captures"), 0o755)
		os.WriteFile(filepath.Join(root, "data", "captures", "queries.toml"), []byte("[acme]\npage = [\"https://acme.example/\"]\n"), 0o644)
		res, d := Run(Options{Root: root, Out: filepath.Join(t.TempDir(), "public"), Now: fixture.Now})
		var b strings.Builder
		d.Print(&b)
		if res != nil || !strings.Contains(b.String(), `data/captures/queries.toml:2:1: unknown key "acme.page"`) {
			t.Errorf("build with an unknown key in the queries file: result %v, diagnostics:\n%s", res != nil, b.String())
		}
	})
}
