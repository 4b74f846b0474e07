package linkcheck

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

func TestResolve(t *testing.T) {
	c := New("/gpu/", nil)
	for _, tc := range []struct {
		raw, target string
		kind        int
	}{
		{"/gpu/", "index.html", internal},
		{"/gpu/gpus/a10/", "gpus/a10/index.html", internal},
		{"/gpu/gpus/a10/?x=1#top", "gpus/a10/index.html", internal},
		{"/gpu/assets/site.css", "assets/site.css", internal},
		{"/gpu/zh/%E6%8C%87%E5%8D%97/", "zh/指南/index.html", internal},
		{"/gpu/a/../b/", "b/index.html", internal},
		{"/gpu/pricing/?gpu=a&amp;mode=spot", "pricing/index.html", internal},
		{"#top", "", external},
		{"https://example.com/", "", external},
		{"mailto:a@example.com", "", external},
		{"data:image/png;base64,AAAA", "", external},
		{"/other/", "", outside},
		{"", "", outside},
		{"gpus/a10/", "", outside},
	} {
		target, kind := c.resolve(tc.raw)
		if target != tc.target || kind != tc.kind {
			t.Errorf("resolve(%q) = %q, %d; want %q, %d", tc.raw, target, kind, tc.target, tc.kind)
		}
	}
}

// Links to files that exist are settled at once; a link outside the base
// path is reported against the page's source; a link to a file made later
// is kept until Finish, which reports it only if it is still missing.
func TestCollectAndFinish(t *testing.T) {
	files := map[string]bool{"index.html": true, "gpus/a10/index.html": true}
	c := New("/", func(p string) bool { return files[p] })
	links := []string{"/", "/gpus/a10/", "https://x.example/", "/later/", "/missing/", "javascript:alert(1)"}
	if got, want := c.Unsettled(links), []string{"/later/", "/missing/", "javascript:alert(1)"}; !slices.Equal(got, want) {
		t.Errorf("Unsettled = %q, want %q", got, want)
	}
	d := &diag.List{}
	c.Collect("guides/x/index.html", "content/guides/x.md", c.Unsettled(links), d)
	files["later/index.html"] = true // made after the pages
	c.Finish(d)
	var b strings.Builder
	d.Print(&b)
	want := "content/guides/x.md: error: link \"javascript:alert(1)\" on /guides/x/index.html is outside the site's base path /\n" +
		"content/guides/x.md: error: broken internal link \"/missing/\" on /guides/x/index.html\n"
	if got := b.String(); !strings.Contains(got, "outside the site's base path") || !strings.Contains(got, `broken internal link "/missing/"`) || strings.Contains(got, "/later/") {
		t.Errorf("diagnostics:\n%s\nwant the equivalent of:\n%s", got, want)
	}
}

func TestLinks(t *testing.T) {
	page := []byte(`<a href="/a/">x</a><img src="/b.png" alt="y"><p title="no">"quoted"</p><link rel=x href="/c.css">`)
	if got, want := Links(page), []string{"/a/", "/b.png", "/c.css"}; !slices.Equal(got, want) {
		t.Errorf("Links = %q, want %q", got, want)
	}
}

// A link's fragment must name an element of its target page, whichever
// edition the page is in and whether it was rendered before or after the
// linking page; a fragment of the page itself is checked at once.
func TestFragments(t *testing.T) {
	files := map[string]bool{"methodology/index.html": true, "zh/methodology/index.html": true, "zh/gpus/a10/index.html": true}
	c := New("/", func(p string) bool { return files[p] })
	c.AddIDs("methodology/index.html", IDs([]byte(`<h3 id="inference-speed">Inference speed</h3><h3 id="a&amp;b">x</h3>`)))
	c.AddIDs("zh/gpus/a10/index.html", IDs([]byte(`<a href="#main">skip</a><main id="main">`)))
	d := &diag.List{}
	c.Collect("gpus/a10/index.html", "templates (page /gpus/a10/index.html)", c.Unsettled([]string{"/methodology/#inference-speed", "/methodology/#a&amp;b"}), d)
	c.Collect("zh/gpus/a10/index.html", "templates (page /zh/gpus/a10/index.html)",
		c.Unsettled([]string{"/zh/methodology/#inference-speed", "/zh/methodology/#%E6%8E%A8%E7%90%86%E9%80%9F%E5%BA%A6", "#main", "#nowhere"}), d)
	// The Chinese methodology page is rendered after the pages linking it.
	c.AddIDs("zh/methodology/index.html", IDs([]byte(`<h3 id="推理速度">推理速度</h3>`)))
	c.Finish(d)
	var b strings.Builder
	d.Print(&b)
	got := b.String()
	for _, want := range []string{
		`link "#nowhere" on /zh/gpus/a10/index.html names no element of the page`,
		`link "/zh/methodology/#inference-speed" on /zh/gpus/a10/index.html names a fragment /zh/methodology/index.html does not have (no id="inference-speed"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("diagnostics lack %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "\n"); n != 2 {
		t.Errorf("%d errors, want 2 (the English links, the encoded Chinese id and #main are fine):\n%s", n, got)
	}
}
