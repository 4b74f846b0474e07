package browsertest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/search"
)

// TestSearchChinese types Chinese and mixed queries into the search box of
// the Chinese edition and checks that the page a reader means comes first:
// the index splits Han text into character pairs in the browser, and the
// glossary adds each term's Chinese renderings and synonyms to the
// entries that name it.
func TestSearchChinese(t *testing.T) {
	t.Parallel()
	base := Site(t)
	raw, err := os.ReadFile(filepath.Join(SiteDir(base), "zh", filepath.FromSlash(search.IndexPath)))
	if err != nil {
		t.Fatal(err)
	}
	var entries []search.Entry
	if err := json.Unmarshal(raw, &entries); err != nil {
		t.Fatal(err)
	}
	var br bytes.Buffer
	bw := brotli.NewWriterLevel(&br, brotli.BestCompression)
	bw.Write(raw)
	bw.Close()
	t.Logf("zh search index: %d bytes raw, %d brotli; %d entries", len(raw), br.Len(), len(entries))

	cases := []struct {
		query string
		first []string // acceptable first results (paths under /zh/)
	}{
		{"显存", []string{"calculator/"}},
		{"昇腾", []string{"gpus/ascend-910b/"}},
		{"按量计费", []string{"pricing/", "guides/cost-optimisation/"}},
		{"按需计费", []string{"pricing/", "guides/cost-optimisation/"}},
		{"推理延迟", []string{"guides/scenario-realtime-inference/"}},
		{"多卡训练", []string{"faq/", "guides/scenario-hpc-large-models/", "guides/scenario-llm-fine-tuning/"}}, // the FAQ asks 多卡训练是怎么工作的？
		{"H100 价格", []string{"gpus/h100-sxm5-80gb/", "gpus/h100-pcie-80gb/", "gpus/h100-nvl-94gb/"}},
		{"隐性成本", []string{"guides/pitfall-hidden-costs/"}},
		{"伪弹性", []string{"guides/pitfall-fake-elasticity/"}},
		{"阿里云", []string{"providers/alibaba-cloud/"}},
		{"腾讯云 价格", []string{"providers/tencent-cloud/"}},
		// Words only guides use: the index holds guide text too.
		{"AutoDL", []string{"providers/autodl/", "guides/why-cloud-gpus/", "guides/scenario-cv-training/", "guides/scenario-general-ai/", "guides/scenario-llm-fine-tuning/", "guides/future-trends/"}},
		{"vLLM", []string{"guides/scenario-realtime-inference/", "guides/five-dimensions/", "guides/future-trends/", "methodology/"}},
	}
	b := New(t, base)
	b.Navigate("zh/")
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			b := b.For(t)
			b.SetValue("#search-input", c.query)
			b.Poll(`document.querySelectorAll("#search-results [role=option] a").length > 0`, `document.getElementById("search-results").outerHTML`)
			s := readSearch(b)
			var got []string
			for _, h := range s.Hrefs {
				got = append(got, strings.TrimPrefix(h, "/zh/"))
			}
			if len(got) == 0 || !slices.Contains(c.first, got[0]) {
				t.Errorf("%q: results %q (%q), want first one of %q", c.query, got, s.Titles, c.first)
			}
			for _, h := range s.Hrefs {
				if !strings.HasPrefix(h, "/zh/") {
					t.Errorf("%q: result %s is outside the Chinese edition", c.query, h)
				}
			}
		})
	}
	b.SetValue("#search-input", "不存在的词语组合")
	b.Poll(`document.getElementById("search-status").textContent !== ""`, `document.getElementById("search-status").outerHTML`)
	if s := readSearch(b); s.Status != "没有匹配的结果" {
		t.Errorf("no-match status %q, want the Chinese text", s.Status)
	}
}
