package browsertest

import (
	"strings"
	"testing"
)

// TestSectionNavigation, in every edition: the site's navigation marks
// the section a page belongs to (aria-current on exactly one link, the
// page's own section: FAQ in the header, methodology in the footer, a
// guide under Guides), and a guide links to the previous and the next
// guide of its section in the order the guides index lists them, with no
// previous link on a section's first guide and no next link on its last.
func TestSectionNavigation(t *testing.T) {
	t.Parallel()
	base := Site(t)
	b := New(t, base)
	type marks struct {
		Current []string `json:"current"` // hrefs of the links marked aria-current
		Where   []string `json:"where"`   // "header" or "footer" for each
		Prev    string   `json:"prev"`
		Next    string   `json:"next"`
	}
	read := func() marks {
		var m marks
		b.Eval(`(() => {
			const cur = [...document.querySelectorAll("header a[aria-current], footer a[aria-current]")];
			const a = (sel) => { const e = document.querySelector(sel); return e ? e.getAttribute("href") : ""; };
			return {current: cur.map((e) => e.getAttribute("href")), where: cur.map((e) => e.closest("header") ? "header" : "footer"),
				prev: a("nav.prevnext a[rel=prev]"), next: a("nav.prevnext a[rel=next]")};
		})()`, &m)
		return m
	}
	for _, ed := range []string{"", "zh/"} {
		t.Run("edition /"+ed, func(t *testing.T) {
			b := b.For(t)
			for _, c := range []struct{ page, where string }{{"faq/", "header"}, {"methodology/", "footer"}, {"gpus/h100-sxm5-80gb/", "header"}} {
				b.Navigate(ed + c.page)
				m := read()
				want := "/" + ed + strings.SplitAfter(c.page, "/")[0]
				if len(m.Current) != 1 || m.Current[0] != want || m.Where[0] != c.where {
					t.Errorf("/%s%s marks %q in %q, want %s alone, in the %s", ed, c.page, m.Current, m.Where, want, c.where)
				}
			}
			b.Navigate(ed + "guides/")
			var sections [][]string
			b.Eval(`[...document.querySelectorAll("main section ul.guides")].map((u) => [...u.querySelectorAll("li > a")].map((a) => a.getAttribute("href")))`, &sections)
			long := 0
			for _, s := range sections {
				if len(s) < 2 {
					continue
				}
				long++
				for i, href := range s {
					b.Navigate(href)
					m := read()
					var prev, next string
					if i > 0 {
						prev = s[i-1]
					}
					if i < len(s)-1 {
						next = s[i+1]
					}
					if m.Prev != prev || m.Next != next {
						t.Errorf("%s links previous %q and next %q, want %q and %q", href, m.Prev, m.Next, prev, next)
					}
					if len(m.Current) != 1 || m.Current[0] != "/"+ed+"guides/" {
						t.Errorf("%s marks %q, want /%sguides/", href, m.Current, ed)
					}
				}
			}
			if long == 0 {
				t.Errorf("/%sguides/ lists no section with two guides or more: %q", ed, sections)
			}
		})
	}
}
