package site

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

// Page weight budgets (brotli bytes of a page's HTML plus the CSS and JS it
// loads): 35 KB for every page; the calculator's WebAssembly engine is
// budgeted separately (2.05 MB raw, issue 34's limit, and 500 KB brotli).
// The raw budget was 2.0 MB until the engine took over the offer plan from
// the script and gained the expected speeds (issue 21): 1,987,752 ->
// 2,024,276 raw bytes, 456,933 -> 463,565 brotli. What fits the reader's
// GPUs and the plan for a load (issue 36) then fitted only once the
// config.json parser moved to a module of its own (generator/wasmextra,
// loaded when a reader gives the page a config, reported here without a
// budget): 2,049,905 -> 2,049,697 raw bytes with both answers and the
// optimizer inputs of issue 34 (adamw-bf16, the step in backward). The
// ways to pay (sizing.PayWays) joined the second module, loaded when a
// reader opens them (TestSubPath holds it to the same raw limit).
// Activation offload and speculative decoding (issue 34) grew the engine
// and the second module past it: the models that fit the reader's GPUs
// (sizing.RankFits) moved to the second module, loaded when their list is
// opened, and the config.json parser to a third (generator/wasmconfig).
// Engine 2,049,951 -> 2,046,956 raw bytes with both; second module
// 2,045,478 -> 2,019,657; the config module 1,900,281.
const (
	pageBudget    = 35 * 1000
	wasmRawBudget = 2050 * 1000
	wasmBrBudget  = 500 * 1000
)

var assetRef = regexp.MustCompile(`(?:<script src|<link rel="stylesheet" href)="([^"]+)"`)

// repoBuild builds the real site once for a benchmark.
func repoBuild(b *testing.B) string {
	b.Helper()
	out := filepath.Join(b.TempDir(), "public")
	res, d := Run(Options{Root: filepath.Join("..", "..", ".."), Out: out, Precompress: true, Now: testcat.Today(b)})
	if res == nil {
		b.Fatalf("build failed: %v", d.Errors())
	}
	return out
}

func brSize(b *testing.B, out, p string) int {
	st, err := os.Stat(filepath.Join(out, p+".br"))
	if err != nil {
		raw, err2 := os.Stat(filepath.Join(out, p))
		if err2 != nil {
			b.Fatalf("%s: %v", p, err)
		}
		return int(raw.Size()) // under 256 bytes: not precompressed
	}
	return int(st.Size())
}

// BenchmarkPageWeight reports, per page template, the brotli bytes a first
// visit downloads (HTML + CSS + JS it loads) and fails when a page is over
// budget. It is a size check, so it runs once whatever -benchtime says.
func BenchmarkPageWeight(b *testing.B) {
	out := repoBuild(b)
	pages := map[string]string{
		"home": "index.html", "gpu-index": "gpus/index.html", "gpu": "gpus/h100-sxm5-80gb/index.html",
		"providers": "providers/index.html", "provider": "providers/aws/index.html", "pricing": "pricing/index.html", "pricing-all": "pricing/all/index.html",
		"guides": "guides/index.html", "guide": "guides/scenario-llm-fine-tuning/index.html", "faq": "faq/index.html",
		"methodology": "methodology/index.html", "models": "models/index.html", "model": "models/llama-3-8b/index.html",
		"compare-pair": "compare/a100-sxm4-80gb-vs-h100-sxm5-80gb/index.html", "compare": "compare/index.html",
		"calculator": "calculator/index.html", "tco": "tco/index.html", "charts": "charts/index.html", "api": "api/index.html",
		"404": "404.html",
	}
	names := make([]string, 0, len(pages))
	for k := range pages {
		names = append(names, k)
	}
	sort.Strings(names)
	for i := 0; i < b.N; i++ {
		if i > 0 {
			continue
		}
		for _, name := range names {
			p := pages[name]
			html, err := os.ReadFile(filepath.Join(out, p))
			if err != nil {
				b.Fatal(err)
			}
			total := brSize(b, out, p)
			for _, m := range assetRef.FindAllStringSubmatch(string(html), -1) {
				total += brSize(b, out, strings.TrimPrefix(m[1], "/"))
			}
			b.ReportMetric(float64(total), name+"-br-bytes")
			b.Logf("%-12s %6d brotli bytes (HTML + CSS + JS)", name, total)
			if total > pageBudget {
				b.Errorf("%s (%s): %d brotli bytes, over the %d budget", name, p, total, pageBudget)
			}
		}
		wasm, _ := filepath.Glob(filepath.Join(out, "assets", "size.*.wasm"))
		if len(wasm) != 1 {
			b.Fatalf("want one wasm file, got %v", wasm)
		}
		st, _ := os.Stat(wasm[0])
		br := brSize(b, out, strings.TrimPrefix(wasm[0], out+"/"))
		b.ReportMetric(float64(st.Size()), "wasm-raw-bytes")
		b.ReportMetric(float64(br), "wasm-br-bytes")
		for _, name := range [...]string{"extra", "config"} {
			if m, _ := filepath.Glob(filepath.Join(out, "assets", name+".*.wasm")); len(m) == 1 {
				mst, _ := os.Stat(m[0])
				b.ReportMetric(float64(mst.Size()), name+"-wasm-raw-bytes")
				b.ReportMetric(float64(brSize(b, out, strings.TrimPrefix(m[0], out+"/"))), name+"-wasm-br-bytes")
			} else {
				b.Errorf("want one %s wasm file, got %v", name, m)
			}
		}
		if st.Size() > wasmRawBudget || br > wasmBrBudget {
			b.Errorf("wasm: %d raw / %d brotli bytes, budget %d / %d", st.Size(), br, wasmRawBudget, wasmBrBudget)
		}
	}
}

// BenchmarkLoad is the baseline of BenchmarkBuild: loading and validating
// the real catalog, the first stage of every build.
func BenchmarkLoad(b *testing.B) {
	now := testcat.Today(b)
	for i := 0; i < b.N; i++ {
		if c, d := catalog.Load(filepath.Join("..", "..", ".."), now); c == nil {
			b.Fatal(d.Errors())
		}
	}
}

// BenchmarkBuild times a whole build of the real site (WebAssembly from
// Go's build cache, no precompression); compare it with BenchmarkLoad in
// the same run.
func BenchmarkBuild(b *testing.B) {
	root := filepath.Join("..", "..", "..")
	out := filepath.Join(b.TempDir(), "public")
	now := testcat.Today(b)
	for i := 0; i < b.N; i++ {
		if res, d := Run(Options{Root: root, Out: out, Now: now}); res == nil {
			b.Fatal(d.Errors())
		}
	}
}
