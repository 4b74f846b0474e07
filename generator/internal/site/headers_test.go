package site

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/fixture"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/preview"
)

// TestHeadersOneCacheControl: hosts apply every _headers rule that
// matches a path and join the values of a header two rules set, so every
// file of the output (and a page's directory URL) must match exactly one
// rule that sets Cache-Control: immutable for the hashed assets, short
// for the rest; and the CSP applies to every path. Checked at the root
// and under a base path.
func TestHeadersOneCacheControl(t *testing.T) {
	root := fixture.Site(t)
	for _, base := range []string{"", "https://intranet.example/gpu/"} {
		res := buildAt(t, root, filepath.Join(t.TempDir(), "public"), base)
		prefix := "/"
		if base != "" {
			prefix = "/gpu/"
		}
		h, ok := res.Tree.Get("_headers")
		if !ok {
			t.Fatal("no _headers")
		}
		rules := preview.ParseHeaders(h)
		match := func(pattern, p string) bool {
			if s, ok := strings.CutSuffix(pattern, "*"); ok {
				return strings.HasPrefix(p, s)
			}
			return pattern == p
		}
		checked := 0
		for _, f := range res.Tree.Paths() {
			if f == "_headers" {
				continue
			}
			urls := []string{prefix + f}
			if d, ok := strings.CutSuffix(f, "index.html"); ok {
				// The directory, and without its slash (the host redirects).
				urls = append(urls, prefix+d)
				if d != "" {
					urls = append(urls, prefix+strings.TrimSuffix(d, "/"))
				}
			}
			for _, u := range urls {
				var cache []string
				csp := false
				for _, r := range rules {
					if !match(r.Pattern, u) {
						continue
					}
					if v := r.Headers.Get("Cache-Control"); v != "" {
						cache = append(cache, r.Pattern+": "+v)
					}
					csp = csp || r.Headers.Get("Content-Security-Policy") != ""
				}
				immutable := strings.HasPrefix(f, "assets/")
				if len(cache) != 1 || strings.Contains(cache[0], "immutable") != immutable {
					t.Errorf("%s: Cache-Control from %d rules %q, want one (immutable: %v)", u, len(cache), cache, immutable)
				}
				if !csp {
					t.Errorf("%s: no Content-Security-Policy", u)
				}
				checked++
			}
		}
		if checked < 100 {
			t.Errorf("only %d paths checked", checked)
		}
	}
}
