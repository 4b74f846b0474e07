package site

import (
	"encoding/json"
	"fmt"
	"html"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

// englishRun is English prose: three or more words in a row, two of them
// lower-case words of three or more letters ("shown on the provider's
// page", "Tensor figures are dense"), not a name ("RTX A6000", "Capacity
// Blocks for ML") or a unit. A gloss is not prose: an English term in
// parentheses or quotation marks after Chinese text (连续批处理（continuous
// batching）, “clocks event reasons”).
var (
	englishRun = regexp.MustCompile(`[A-Za-z][A-Za-z'’-]*(?:[ ,/]+[A-Za-z][A-Za-z'’-]*){2,}`)
	lowerLong  = regexp.MustCompile(`\b[a-z]{3,}\b`)
	gloss      = regexp.MustCompile(`(\p{Han}[*_]*)\s*(?:（[^（）\p{Han}]*）|\([^()\p{Han}]*\))|“[^“”\p{Han}]*”`)
)

// englishProse returns the runs of English prose in text.
func englishProse(text string) []string {
	text = gloss.ReplaceAllString(text, "$1 ")
	var runs []string
	for _, r := range englishRun.FindAllString(text, -1) {
		if len(lowerLong.FindAllString(r, 2)) == 2 {
			runs = append(runs, r)
		}
	}
	return runs
}

// pageShape names the kind of page a path is ("gpus/*", "providers/*",
// "guides/*", "pricing"), for counts per kind.
func pageShape(p string) string {
	parts := strings.Split(strings.TrimPrefix(p, "zh/"), "/")
	switch {
	case len(parts) <= 1:
		return "home"
	case len(parts) == 2:
		return parts[0]
	}
	return parts[0] + "/*"
}

// namesReplacer removes the catalog's names from page text: providers,
// GPUs, instances, models, regions, datasets and sources are named as
// their owners name them, in any edition, and a dataset's attribution is
// its licence's words.
func namesReplacer(t *testing.T) *strings.Replacer {
	t.Helper()
	c := testcat.Repo(t)
	var names []string
	for _, p := range c.Providers {
		names = append(names, p.Name, p.LocalName("zh"))
		for _, r := range p.Regions {
			names = append(names, r.Name, r.City, r.ID)
		}
		for _, s := range p.Sources {
			names = append(names, s.Title)
		}
	}
	for _, g := range c.GPUs {
		names = append(names, g.Name)
		for _, s := range g.Sources {
			names = append(names, s.Title)
		}
	}
	for _, o := range c.Offers {
		names = append(names, o.Instance)
	}
	for _, m := range c.Models {
		names = append(names, m.Name)
		for _, s := range m.Sources {
			names = append(names, s.Title)
		}
	}
	// A dataset's attribution is legal text, kept as its licence words it.
	for _, d := range c.Site.Datasets {
		names = append(names, d.Title, d.Attribution)
	}
	slices.SortFunc(names, func(a, b string) int { return len(b) - len(a) })
	pairs := make([]string, 0, 2*len(names))
	for _, n := range slices.Compact(names) {
		// A short id ("us", "io") would be cut out of words.
		if len(n) >= 4 || strings.ContainsAny(n, " 0123456789") {
			pairs = append(pairs, n, " ")
		}
	}
	return strings.NewReplacer(pairs...)
}

// TestNoEnglishProseInChinesePages: a Chinese page has no English prose
// outside elements marked lang="en" (a data text without its Chinese
// version yet, a quotation) and code; names (providers, GPUs, instances,
// models, regions, sources) are allowed. The counts per page shape are
// logged, with those of pages that show a data text in English (marked,
// awaiting its Chinese version), and every page with a run is an error.
func TestNoEnglishProseInChinesePages(t *testing.T) {
	files, _ := repoSite(t)
	names := namesReplacer(t)
	perShape := map[string][3]int{} // pages, with English prose, with English data text marked lang="en"
	var bad []string
	for _, p := range slices.Sorted(maps.Keys(files)) {
		body := files[p]
		if !strings.HasPrefix(p, "zh/") || !strings.HasSuffix(p, ".html") {
			continue
		}
		marked := 0
		for _, m := range langEnRE.FindAllString(body, -1) {
			if len(englishProse(names.Replace(html.UnescapeString(tagRE2.ReplaceAllString(m, " "))))) > 0 {
				marked = 1
				break
			}
		}
		text := langEnRE.ReplaceAllString(body, " ")
		text = skipBlocks.ReplaceAllString(text, " ")
		var attrs []string
		for _, m := range uiAttr.FindAllStringSubmatch(text, -1) {
			attrs = append(attrs, html.UnescapeString(m[1]))
		}
		text = html.UnescapeString(tagRE2.ReplaceAllString(inlineTag.ReplaceAllString(text, ""), "\n"))
		text = names.Replace(text + "\n" + strings.Join(attrs, "\n"))
		runs := englishProse(text)
		shape := pageShape(p)
		n := perShape[shape]
		n[0]++
		n[2] += marked
		if len(runs) > 0 {
			n[1]++
			if len(bad) < 40 {
				bad = append(bad, fmt.Sprintf("%s: %q", p, slices.Compact(runs)[:min(3, len(slices.Compact(runs)))]))
			}
		}
		perShape[shape] = n
	}
	// The search index's titles and summaries, which the search page shows.
	var index []struct{ T, S, L string }
	if err := json.Unmarshal([]byte(files["zh/search/index.json"]), &index); err != nil {
		t.Fatalf("zh/search/index.json: %v", err)
	}
	n := [3]int{}
	for _, e := range index {
		n[0]++
		if e.L == "en" {
			if len(englishProse(e.S)) > 0 {
				n[2]++
			}
			e.S = "" // marked: search.js sets its lang
		}
		if runs := englishProse(names.Replace(e.T + "\n" + e.S)); len(runs) > 0 {
			n[1]++
			if len(bad) < 60 {
				bad = append(bad, fmt.Sprintf("zh/search/index.json %q: %q", e.T, runs))
			}
		}
	}
	perShape["search index entries"] = n
	total := 0
	for _, s := range slices.Sorted(maps.Keys(perShape)) {
		n := perShape[s]
		total += n[1]
		t.Logf("%-22s %5d, %4d with English prose, %4d with English data text marked lang=en (no Chinese version yet)", s, n[0], n[1], n[2])
	}
	for _, b := range bad {
		t.Error(b)
	}
	if total > 0 {
		t.Errorf("%d Chinese pages with English prose outside lang=\"en\"", total)
	}
}

// TestEnglishProse: the detector finds prose, and leaves names, units,
// glosses and quoted terms alone.
func TestEnglishProse(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"Tensor figures are dense (NVIDIA's datasheet lists sparse ones)", 2},
		{"按量计费: the same figure is listed for every region", 1},
		{"RTX A6000 · 48 GB GDDR6 · PCIe", 0},
		{"AWS 的 EC2 Capacity Blocks for ML", 0},
		{"连续批处理（continuous / in-flight batching）：由 Orca 论文提出", 0},
		{"频率限制原因（“clocks event reasons”，旧版驱动里叫“throttle reasons”）", 0},
		{"14.7B parameters · 16384 context", 0}, // two words a run: a label, found by the UI-string tests
		{"GPU virtual machines come in the N family", 1},
	} {
		if got := len(englishProse(tc.text)); got != tc.want {
			t.Errorf("%q: %d runs %q, want %d", tc.text, got, englishProse(tc.text), tc.want)
		}
	}
}
