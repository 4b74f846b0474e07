package site

import (
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var (
	hrefRE = regexp.MustCompile(`\shref="([^"]*#[^"]+)"`)
	idRE   = regexp.MustCompile(`\sid="([^"]+)"`)
)

// TestAnchorsAcrossEditions: every fragment a page links to on another
// page names an element of the target page in every edition, so a link or
// a shared URL keeps its place whatever the edition (a fragment of the
// page itself, as a guide's contents, is checked in its own edition): /zh/methodology/#inference-speed, linked from the Chinese model
// and GPU pages, once named no heading (the Chinese heading's id was 推理速度).
func TestAnchorsAcrossEditions(t *testing.T) {
	files, _ := repoSite(t)
	ids := map[string]map[string]bool{} // page path -> ids
	idsOf := func(p string) map[string]bool {
		if m, ok := ids[p]; ok {
			return m
		}
		m := map[string]bool{}
		for _, x := range idRE.FindAllStringSubmatch(files[p], -1) {
			m[x[1]] = true
		}
		ids[p] = m
		return m
	}
	// editions maps an edition-neutral path ("methodology/index.html")
	// to the prefixes it exists under ("", "zh/").
	prefixes := []string{"", "zh/"}
	neutral := func(p string) string { return strings.TrimPrefix(p, "zh/") }
	type miss struct{ from, to, frag string }
	var bad []miss
	checked := 0
	for _, p := range slices.Sorted(maps.Keys(files)) {
		if !strings.HasSuffix(p, ".html") {
			continue
		}
		for _, m := range hrefRE.FindAllStringSubmatch(files[p], -1) {
			link := strings.ReplaceAll(m[1], "&amp;", "&")
			target, frag, _ := strings.Cut(link, "#")
			if f, err := url.PathUnescape(frag); err == nil {
				frag = f
			}
			var page string
			editions := prefixes
			switch {
			case target == "":
				// A fragment of the page itself: a guide's contents name
				// its own headings, which differ between editions.
				page, editions = p, []string{p[:len(p)-len(neutral(p))]}
			case strings.HasPrefix(target, "/"):
				page = strings.TrimPrefix(target, "/")
				if i := strings.IndexByte(page, '?'); i >= 0 {
					page = page[:i]
				}
				if page == "" || strings.HasSuffix(page, "/") {
					page += "index.html"
				}
			default:
				continue // another site
			}
			if _, ok := files[page]; !ok {
				continue // linkcheck reports a missing page
			}
			for _, pre := range editions {
				other := pre + neutral(page)
				if _, ok := files[other]; !ok {
					continue
				}
				checked++
				if !idsOf(other)[frag] {
					bad = append(bad, miss{p, other, frag})
				}
			}
		}
	}
	seen := map[string]bool{}
	for _, b := range bad {
		k := b.to + "#" + b.frag
		if seen[k] {
			continue
		}
		seen[k] = true
		t.Errorf("%s links #%s; %s has no element with that id", b.from, b.frag, b.to)
	}
	if checked == 0 {
		t.Fatal("no fragment links found: the test reads no pages")
	}
	t.Logf("%d fragment links checked in every edition, %d missing", checked, len(bad))
}
