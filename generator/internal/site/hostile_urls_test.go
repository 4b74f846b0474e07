package site

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/fixture"
)

// hostileURLs are link targets that run script or embed content, spelt
// the ways filters miss them.
func hostileURLs() []string {
	return []string{
		"javascript:alert(1)",
		"JaVaScRiPt:alert(1)",
		" javascript:alert(1)",
		"javascript&#58;alert(1)",
		"vbscript:msgbox(1)",
		"data:text/html,<script>alert(1)</script>",
		"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
		"file:///etc/passwd",
		"//evil.example/x",
		"https://exa mple.com/",
		"https:",
		"not a url",
	}
}

// TestHostileURLsRejected places every hostile URL in every URL field of
// the data format and in guide links and images: each is rejected at
// load with an error at the field's own line and column.
func TestHostileURLsRejected(t *testing.T) {
	type field struct {
		name, file, old, tmpl, pos string // tmpl has %s for the URL (TOML-quoted in data files)
	}
	fields := []field{
		{"price source", "data/offers/acme.toml", `source = "https://acme.example/spot"`, `source = %s`, "data/offers/acme.toml:22:10: "},
		{"GPU source url", "data/gpus/alpha-80gb.toml", `url = "https://example.org/alpha"`, `url = %s`, "data/gpus/alpha-80gb.toml:21:7: "},
		{"provider homepage", "data/providers/acme.toml", `homepage = "https://acme.example/"`, `homepage = %s`, "data/providers/acme.toml:2:12: "},
		{"provider source url", "data/providers/acme.toml", `url = "https://acme.example/pricing"`, `url = %s`, "data/providers/acme.toml:33:7: "},
		{"model source url", "data/models/tiny-7b.toml", `url = "https://example.org/tiny/config.json"`, `url = %s`, "data/models/tiny-7b.toml:13:7: "},
		{"fx source", "data/fx.toml", `source = "https://example.org/fx"`, `source = %s`, "data/fx.toml:3:10: "},
		{"dataset url", "data/site.toml", `url = "https://example.org/demo"`, `url = %s`, "data/site.toml:16:7: "},
		{"site repo_url", "data/site.toml", `repo_url = "https://example.org/atlas"`, `repo_url = %s`, "data/site.toml:4:12: "},
		{"guide link", "content/guides/first-guide.md", "## Memory", "## Memory\n\n[here](%s)", "content/guides/first-guide.md:11:"},
		{"guide image", "content/guides/first-guide.md", "## Memory", "## Memory\n\n![chart](%s)", "content/guides/first-guide.md:11:"},
	}
	tried, rejected := 0, 0
	for _, f := range fields {
		for _, u := range hostileURLs() {
			md := strings.HasPrefix(f.file, "content/")
			if md && (strings.HasPrefix(u, "//") || strings.HasPrefix(u, "https") || u == "not a url") {
				continue // relative or http(s) links are allowed in guides; the link check judges internal ones
			}
			if md && strings.Contains(u, "&#58;") {
				continue // an entity is text in a link destination: the link is relative and harmless
			}
			tried++
			t.Run(f.name+"/"+u, func(t *testing.T) {
				root := fixture.Site(t)
				v := fmt.Sprintf("%q", u)
				if md {
					v = u
					if strings.Contains(u, " ") {
						v = "<" + u + ">"
					}
				}
				edit(t, root, f.file, f.old, fmt.Sprintf(f.tmpl, v))
				d := Check(Options{Root: root, Now: fixture.Now})
				for _, e := range d.Errors() {
					if strings.HasPrefix(e.String(), f.pos) {
						rejected++
						return
					}
				}
				t.Errorf("%s = %q: want an error at %s, got %v", f.name, u, f.pos, d.Errors())
			})
		}
	}
	t.Logf("%d hostile URLs placed, %d rejected at their field's position", tried, rejected)
}

// TestRawHTMLGuideEscapesCatalogValues: a guide that opts into raw HTML
// passes its author's HTML through, but a GPU, provider or model name that
// holds markup arrives through a shortcode as text.
func TestRawHTMLGuideEscapesCatalogValues(t *testing.T) {
	root := fixture.Site(t)
	edit(t, root, "data/gpus/alpha-80gb.toml", `name = "Alpha 80GB"`, `name = "<script>gpu()</script>[x](javascript:y)"`)
	edit(t, root, "data/providers/acme.toml", `name = "Acme Cloud"`, `name = "<img src=x onerror=provider()>"`)
	edit(t, root, "data/models/tiny-7b.toml", `name = "Tiny 7B"`, `name = "\"><svg onload=model()>"`)
	edit(t, root, "content/guides/first-guide.md", "updated = 2025-06-01\n", "updated = 2025-06-01\nraw_html = true\n")
	edit(t, root, "content/guides/first-guide.md", "## Memory", `## Memory

<div class="author">{{< gpu "alpha-80gb" "name" >}} {{< link model="tiny-7b" >}}</div>`)
	res := buildAt(t, root, t.TempDir()+"/public", "")
	b, _ := res.Tree.Get("guides/first-guide/index.html")
	page := string(b)
	if !strings.Contains(page, `<div class="author">`) || !strings.Contains(page, `<script>alert("raw html is not passed through")</script>`) {
		t.Fatal("the author's raw HTML did not pass through")
	}
	for _, bad := range []string{"<script>gpu()", "<img src=x", "<svg onload", `href="javascript:`} {
		if strings.Contains(page, bad) {
			t.Errorf("the guide holds %q from a catalog value", bad)
		}
	}
	// As text (the minifier leaves ">" unescaped where HTML allows it).
	for _, shown := range []string{"&lt;script>gpu()&lt;/script>[x](javascript:y)", "&lt;img src=x onerror=provider()>"} {
		if !strings.Contains(page, shown) {
			t.Errorf("the guide does not show %q as text", shown)
		}
	}
}
