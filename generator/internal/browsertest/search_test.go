package browsertest

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/chromedp/chromedp/kb"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/search"
)

// searchShown is the state of the search box and its result list.
type searchShown struct {
	Focused  bool     `json:"focused"`
	Value    string   `json:"value"`
	Open     bool     `json:"open"`     // the list is rendered
	Expanded string   `json:"expanded"` // aria-expanded of the box
	Active   string   `json:"active"`   // aria-activedescendant of the box
	Hrefs    []string `json:"hrefs"`    // the results' links, in order
	Titles   []string `json:"titles"`
	Selected []string `json:"selected"` // ids of the options with aria-selected=true and class active
	Status   string   `json:"status"`
}

func readSearch(b *Browser) searchShown {
	b.t.Helper()
	var s searchShown
	b.Eval(`(() => {
		const input = document.getElementById("search-input"), list = document.getElementById("search-results");
		const opts = [...list.querySelectorAll("[role=option] a")];
		return {
			focused: document.activeElement === input,
			value: input.value,
			open: !list.hidden && list.getClientRects().length > 0,
			expanded: input.getAttribute("aria-expanded") || "",
			active: input.getAttribute("aria-activedescendant") || "",
			hrefs: opts.map((a) => a.getAttribute("href")),
			titles: opts.map((a) => a.querySelector(".search-title").textContent),
			selected: [...list.querySelectorAll('[role=option][aria-selected="true"].active')].map((li) => li.id),
			status: (document.getElementById("search-status") || {}).textContent || "",
		};
	})()`, &s)
	return s
}

// TestSearch drives the search box from the keyboard: "/" focuses it,
// typing lists matches, Escape closes the list, ArrowDown reopens it on
// the first result and Enter opens that result; Escape twice clears the
// box.
func TestSearch(t *testing.T) {
	t.Parallel()
	base := Site(t)
	raw, err := os.ReadFile(filepath.Join(SiteDir(base), filepath.FromSlash(search.IndexPath)))
	if err != nil {
		t.Fatal(err)
	}
	var entries []search.Entry
	if err := json.Unmarshal(raw, &entries); err != nil {
		t.Fatalf("%s: %v", search.IndexPath, err)
	}
	var gz, br bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(raw)
	zw.Close()
	bw := brotli.NewWriterLevel(&br, brotli.BestCompression)
	bw.Write(raw)
	bw.Close()
	t.Logf("search index /%s: %d bytes raw, %d gzip, %d brotli; %d entries", search.IndexPath, len(raw), gz.Len(), br.Len(), len(entries))

	// The GPU pages whose name holds "h100": the best matches for "h100".
	var h100 []string
	for _, e := range entries {
		if e.Kind == search.KindGPU && slices.Contains(search.Words(e.Title), "h100") {
			h100 = append(h100, "/"+e.URL)
		}
	}
	if !slices.Contains(h100, "/gpus/h100-sxm5-80gb/") || len(h100) > 8 {
		t.Fatalf("the index's H100 GPU pages are %q", h100)
	}

	b := New(t, base)
	b.Navigate("")
	var loaded bool
	b.Eval(`performance.getEntriesByType("resource").some((e) => e.name.endsWith("/`+search.IndexPath+`"))`, &loaded)
	if loaded {
		t.Error("the search index loaded before any use of the search box")
	}
	b.Press("/")
	b.Poll(`document.activeElement === document.getElementById("search-input")`, "document.activeElement.outerHTML")
	if s := readSearch(b); s.Value != "" || s.Open {
		t.Errorf(`after "/": the box holds %q and the list is open=%v; want an empty box, no list`, s.Value, s.Open)
	}
	b.Press("h100")
	b.Poll(`document.querySelectorAll("#search-results [role=option] a").length > 0 && document.getElementById("search-input").value === "h100"`,
		`document.getElementById("search-results").innerHTML`)
	s := readSearch(b)
	if !s.Focused || !s.Open || s.Expanded != "true" || s.Active != "" || len(s.Selected) != 0 {
		t.Errorf("after typing: focused %v, list open %v, aria-expanded %q, active %q, selected %q", s.Focused, s.Open, s.Expanded, s.Active, s.Selected)
	}
	if len(s.Hrefs) < len(h100) || len(s.Hrefs) > 8 {
		t.Fatalf("results %q: want the %d H100 GPU pages first, at most 8 results", s.Hrefs, len(h100))
	}
	if first := slices.Sorted(slices.Values(s.Hrefs[:len(h100)])); !slices.Equal(first, slices.Sorted(slices.Values(h100))) {
		t.Errorf("the first results are %q, want the H100 GPU pages %q", s.Hrefs[:len(h100)], h100)
	}
	for i, title := range s.Titles {
		if !strings.Contains(strings.ToLower(title), "h100") && !strings.Contains(strings.ToLower(s.Hrefs[i]), "h100") {
			t.Errorf("result %d %q (%s) does not name an H100", i+1, title, s.Hrefs[i])
		}
	}
	if s.Status == "" {
		t.Error("#search-status announces nothing")
	}

	b.Press(kb.Escape)
	if s := readSearch(b); s.Open || s.Expanded != "false" || s.Value != "h100" || !s.Focused {
		t.Errorf("after Escape: list open %v, aria-expanded %q, box %q, focused %v; want the list closed, the query kept", s.Open, s.Expanded, s.Value, s.Focused)
	}
	b.Press(kb.ArrowDown)
	s = readSearch(b)
	if !s.Open || s.Active != "search-results-0" || !slices.Equal(s.Selected, []string{"search-results-0"}) {
		t.Fatalf("after ArrowDown: list open %v, aria-activedescendant %q, selected %q; want the first result highlighted", s.Open, s.Active, s.Selected)
	}
	first := s.Hrefs[0]
	b.Follow(0, func() { b.Press(kb.Enter) })
	if got := b.Location(); got != strings.TrimSuffix(base, "/")+first {
		t.Errorf("Enter on the first result opened %s, want %s", got, first)
	}

	// Escape closes the list, a second Escape clears the box.
	b.Press("/")
	b.Poll(`document.activeElement === document.getElementById("search-input")`, "document.activeElement.outerHTML")
	b.Press("rtx")
	b.Poll(`!document.getElementById("search-results").hidden`, `document.getElementById("search-results").outerHTML`)
	b.Press(kb.Escape)
	b.Press(kb.Escape)
	if s := readSearch(b); s.Open || s.Value != "" {
		t.Errorf("after Escape twice: list open %v, box %q; want closed and empty", s.Open, s.Value)
	}
}

// TestSearchPage drives the results page: /search/?q=h100 lists the H100
// GPU pages first, each with its kind and a snippet whose matching words
// are marked, while the header's list stays closed; ArrowDown moves from
// the page's box into the results and between them, ArrowUp back to the
// box; typing a new query updates the list and the URL; Enter on a result
// opens it; a query without matches says so.
func TestSearchPage(t *testing.T) {
	t.Parallel()
	base := Site(t)
	raw, err := os.ReadFile(filepath.Join(SiteDir(base), filepath.FromSlash(search.IndexPath)))
	if err != nil {
		t.Fatal(err)
	}
	var entries []search.Entry
	if err := json.Unmarshal(raw, &entries); err != nil {
		t.Fatal(err)
	}
	var h100 []string
	for _, e := range entries {
		if e.Kind == search.KindGPU && slices.Contains(search.Words(e.Title), "h100") {
			h100 = append(h100, "/"+e.URL)
		}
	}
	b := New(t, base)
	type pageState struct {
		Value   string   `json:"value"`
		Hrefs   []string `json:"hrefs"`
		Kinds   []string `json:"kinds"`
		Marks   int      `json:"marks"`
		Status  string   `json:"status"`
		Open    bool     `json:"open"`
		Focused string   `json:"focused"`
		Search  string   `json:"search"`
	}
	read := func() pageState {
		var s pageState
		b.Eval(`(() => {
			const hits = [...document.querySelectorAll("#search-page-results li")];
			const a = document.activeElement;
			return {
				value: document.getElementById("search-q").value,
				hrefs: hits.map((li) => li.querySelector("a").getAttribute("href")),
				kinds: hits.map((li) => li.querySelector(".search-kind").textContent),
				marks: document.querySelectorAll("#search-page-results .search-snippet mark, #search-page-results a mark").length,
				status: document.getElementById("search-page-status").textContent,
				open: !document.getElementById("search-results").hidden,
				focused: a.id || a.getAttribute("href") || a.tagName,
				search: location.search,
			};
		})()`, &s)
		return s
	}
	b.Navigate("search/?q=h100")
	b.Poll(`document.querySelectorAll("#search-page-results li").length > 0`, `document.getElementById("search-page-status").textContent`)
	s := read()
	if s.Value != "h100" || s.Open {
		t.Errorf("the page's box holds %q, the header list open=%v; want h100 and closed", s.Value, s.Open)
	}
	if len(s.Hrefs) < len(h100) {
		t.Fatalf("results %q: want the %d H100 GPU pages first", s.Hrefs, len(h100))
	}
	if first := slices.Sorted(slices.Values(s.Hrefs[:len(h100)])); !slices.Equal(first, slices.Sorted(slices.Values(h100))) {
		t.Errorf("the first results are %q, want the H100 GPU pages %q", s.Hrefs[:len(h100)], h100)
	}
	if s.Kinds[0] != "GPU" || s.Marks < len(h100) {
		t.Errorf("first kind %q, %d marked words; want GPU and every H100 title marked", s.Kinds[0], s.Marks)
	}
	if want := fmt.Sprintf("%d results", len(s.Hrefs)); s.Status != want {
		t.Errorf("status %q, want %q", s.Status, want)
	}
	b.Click("#search-q")
	b.Press(kb.ArrowDown)
	if f := read().Focused; f != s.Hrefs[0] {
		t.Errorf("ArrowDown from the box focused %q, want the first result %q", f, s.Hrefs[0])
	}
	b.Press(kb.ArrowDown)
	if f := read().Focused; f != s.Hrefs[1] {
		t.Errorf("a second ArrowDown focused %q, want the second result %q", f, s.Hrefs[1])
	}
	b.Press(kb.ArrowUp)
	b.Press(kb.ArrowUp)
	if f := read().Focused; f != "search-q" {
		t.Errorf("ArrowUp from the first result focused %q, want the box", f)
	}
	// A new query: the list and the URL follow.
	b.SetValue("#search-q", "mi300x")
	b.Poll(`location.search === "?q=mi300x"`, "location.search")
	s = read()
	if len(s.Hrefs) == 0 || !strings.Contains(s.Hrefs[0], "mi300x") {
		t.Errorf("results for mi300x: %q", s.Hrefs)
	}
	b.Click("#search-q")
	b.Press(kb.ArrowDown)
	b.Follow(0, func() { b.Press(kb.Enter) })
	if got := b.Location(); got != strings.TrimSuffix(base, "/")+s.Hrefs[0] {
		t.Errorf("Enter on the first result opened %s, want %s", got, s.Hrefs[0])
	}
	b.Navigate("search/?q=zzqqxx")
	b.Poll(`document.getElementById("search-page-status").textContent !== ""`, `document.getElementById("search-page-status").textContent`)
	if s := read(); s.Status != "No matches" || len(s.Hrefs) != 0 {
		t.Errorf("a query without matches: status %q, %d results", s.Status, len(s.Hrefs))
	}
}

// TestSearchGuideText: a word only guides use (vLLM) finds a guide in the
// English edition: the index holds guide text as well as catalog entries.
func TestSearchGuideText(t *testing.T) {
	t.Parallel()
	b := New(t, Site(t))
	b.Navigate("")
	for _, c := range []struct {
		query string
		first []string
	}{
		{"vLLM", []string{"/guides/scenario-realtime-inference/", "/guides/five-dimensions/", "/guides/future-trends/", "/methodology/"}},
	} {
		b.SetValue("#search-input", c.query)
		b.Poll(`document.querySelectorAll("#search-results [role=option] a").length > 0`, `document.getElementById("search-results").outerHTML`)
		s := readSearch(b)
		if len(s.Hrefs) == 0 || !slices.Contains(c.first, s.Hrefs[0]) {
			t.Errorf("%q: results %q (%q), want first one of %q", c.query, s.Hrefs, s.Titles, c.first)
		}
	}
}
