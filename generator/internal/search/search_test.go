package search

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/content"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

func TestFixtureEntries(t *testing.T) {
	in := Input{Catalog: testcat.Fixture(t), Pages: testcat.Pages(t, testcat.FixtureRoot()),
		Extra: []Entry{{Title: "Calculator", URL: "calculator/", Kind: "page"}}, Now: time.Date(2025, 11, 1, 0, 0, 0, 0, time.UTC)}
	got := map[string]Entry{}
	for _, e := range Entries(in) {
		got[e.Kind+" "+e.Title] = e
	}
	for _, want := range []Entry{
		{"Alpha 80GB", "gpus/alpha-80gb/", "gpu", "ExampleCorp First · 80 GB HBM3 · SXM · 2022", "datacenter nvlink", "", "", "", ""},
		{"Beta 24GB", "gpus/beta-24gb/", "gpu", "ExampleCorp Second · 24 GB GDDR6 · PCIe · 2023", "datacenter alpha 80gb", "", "", "", ""},
		{"Acme Cloud", "providers/acme/", "provider", "A fixture provider.", "gpu us ashburn dublin ie", "", "", "", ""},
		{"Acme Cloud alpha.8x", "providers/acme/", "offer", "8× Alpha 80GB · 640 GB · on-demand 40 USD/h (2025-06-01)", "spot", "", "", "", ""},
		{"Acme Cloud beta.1x", "providers/acme/", "offer", "1× Beta 24GB · 24 GB · on-demand 0.75 USD/h (2023-03-01)", "", "", "", "", ""},
		{"Tiny 7B", "models/tiny-7b/", "model", "Tiny · 6.74B parameters · 4096 context", "", "", "", "", ""},
		{"A first guide", "guides/first-guide/", "guide", "Shows shortcodes and escaping.", "memory basics", "", "", "", "gpu has cheapest see link use alpha training"},
		{"Calculator", "calculator/", "page", "", "", "", "", "", ""},
	} {
		if g, ok := got[want.Kind+" "+want.Title]; !ok || g != want {
			t.Errorf("got  %+v\nwant %+v", g, want)
		}
	}
	c := in.Catalog
	if n := len(c.GPUs) + len(c.Providers) + len(c.Offers) + len(c.Models) + len(in.Pages) + 1; len(Entries(in)) != n {
		t.Errorf("%d entries, want %d", len(Entries(in)), n)
	}
}

func TestGuidePathCallback(t *testing.T) {
	pages := []*content.Page{{Slug: "faq", FrontMatter: content.FrontMatter{Title: "FAQ", Section: "faq"}}, {Slug: "x", FrontMatter: content.FrontMatter{Title: "X", Section: "cost"}}}
	var urls []string
	for _, e := range Entries(Input{Pages: pages}) {
		urls = append(urls, e.URL)
	}
	if !slices.Equal(urls, []string{"faq/", "guides/x/"}) {
		t.Errorf("default paths %q", urls)
	}
	urls = nil
	for _, e := range Entries(Input{Pages: pages, GuidePath: func(p *content.Page) string { return "g/" + p.Slug }}) {
		urls = append(urls, e.URL)
	}
	if !slices.Equal(urls, []string{"g/faq", "g/x"}) {
		t.Errorf("callback paths %q", urls)
	}
	if b, err := Index(Input{}); err != nil || string(b) != "[]" {
		t.Errorf("empty index %q, %v", b, err)
	}
}

// TestRepoIndex checks the real index: valid JSON with only the short
// keys, relative URLs, keywords that repeat no title or summary word, and
// a size budget (it is fetched on the first focus of the search box).
func TestRepoIndex(t *testing.T) {
	in := Input{Catalog: testcat.Repo(t), Pages: testcat.Pages(t, testcat.RepoRoot())}
	b, err := Index(in)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Index(in)
	if !bytes.Equal(b, again) {
		t.Error("not deterministic")
	}
	var raw []map[string]string
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	c := in.Catalog
	if n := len(c.GPUs) + len(c.Providers) + len(c.Offers) + len(c.Models) + len(in.Pages); len(raw) != n {
		t.Errorf("%d entries, want %d", len(raw), n)
	}
	kinds := map[string]int{}
	for _, e := range raw {
		for k := range e {
			if !strings.Contains("tuksxb", k) || len(k) != 1 {
				t.Errorf("key %q", k)
			}
		}
		kinds[e["k"]]++
		if e["t"] == "" || e["u"] == "" || strings.HasPrefix(e["u"], "/") || !strings.HasSuffix(e["u"], "/") {
			t.Errorf("entry %v", e)
		}
		seen := map[string]bool{}
		for _, w := range Words(e["t"] + " " + e["s"]) {
			seen[w] = true
		}
		for _, w := range strings.Fields(e["x"]) {
			if seen[w] {
				t.Errorf("%s: keyword %q repeats the title or summary or itself", e["t"], w)
			}
			seen[w] = true
		}
	}
	if kinds["gpu"] != len(c.GPUs) || kinds["provider"] != len(c.Providers) || kinds["offer"] != len(c.Offers) || kinds["model"] != len(c.Models) || kinds["guide"] != len(in.Pages) {
		t.Errorf("kinds %v", kinds)
	}
	var z bytes.Buffer
	w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	w.Write(b)
	w.Close()
	t.Logf("search index: %d entries, %d bytes raw, %d bytes gzip", len(raw), len(b), z.Len())
	// The guides' text is indexed (a reader finds "vLLM" or "AutoDL" in
	// what a guide says), which most of the size is.
	if len(b) > 200_000 || z.Len() > 45_000 {
		t.Errorf("index is %d bytes (%d gzip): over budget", len(b), z.Len())
	}
}

func TestWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"gpu_8x_h100_sxm5", []string{"gpu", "8x", "h100", "sxm5"}},
		{"H100 SXM5 80GB · NVIDIA", []string{"h100", "sxm5", "80gb", "nvidia"}},
		{"Région: Île-de-France", []string{"région", "île", "de", "france"}},
		{"  ", nil},
	} {
		if got := Words(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("Words(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParamsAndShort(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{{46702792704, "46.7B"}, {6738415616, "6.74B"}, {1557611200, "1.56B"}, {405e9, "405B"}, {340000000, "340M"}, {124439808, "124M"}, {7e6, "7.00M"}, {999, "999"}} {
		if got := Params(tc.n); got != tc.want {
			t.Errorf("Params(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"GPU cloud selling on-demand NVIDIA instances", 20, "GPU cloud selling…"},
		{"abcdefghijklmnop", 5, "abcde…"},
	} {
		if got := short(tc.s, tc.n); got != tc.want {
			t.Errorf("short(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

// TestPricesAndGuideText: an offer's summary is its current price with
// its date (a stale one only when nothing is current), a provider with no
// offers is not tagged with prices, and a guide is found by its text.
func TestPricesAndGuideText(t *testing.T) {
	c := testcat.Fixture(t)
	c.Providers = append(c.Providers, &catalog.Provider{ID: "empty", Name: "Empty Cloud"})
	kw := map[string]string{KindProvider: "prices regions", UnpricedProvider: "regions"}
	for _, tc := range []struct {
		now  time.Time
		want string // the summary of drachen's gpu.a1
	}{
		{time.Date(2025, 11, 1, 0, 0, 0, 0, time.UTC), "on-demand 28 CNY/h (2025-09-01)"},
		{time.Date(2027, 11, 1, 0, 0, 0, 0, time.UTC), "on-demand 28 CNY/h (2025-09-01)"},
	} {
		in := Input{Catalog: c, Pages: testcat.Pages(t, testcat.FixtureRoot()), Now: tc.now, KindKeywords: kw}
		for _, e := range Entries(in) {
			switch {
			case e.Kind == KindOffer && strings.HasSuffix(e.Title, "gpu.a1") && !strings.HasSuffix(e.Summary, tc.want):
				t.Errorf("%s: %q, want it to end %q", e.Title, e.Summary, tc.want)
			case e.Kind == KindProvider && e.URL == "providers/empty/" && strings.Contains(e.Keywords, "prices"):
				t.Errorf("a provider with no offers is tagged with prices: %q", e.Keywords)
			case e.Kind == KindProvider && e.URL == "providers/acme/" && !strings.Contains(e.Keywords, "prices"):
				t.Errorf("a provider with offers lacks the prices keyword: %q", e.Keywords)
			case e.Kind == KindGuide && e.URL == "guides/first-guide/" && !strings.Contains(" "+e.Body+" ", " cheapest "):
				t.Errorf("guide %s: its text is not indexed: %q", e.Title, e.Body)
			}
		}
	}
}
