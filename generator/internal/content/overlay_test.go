package content

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

func page(title string) string {
	return "+++\ntitle = \"" + title + "\"\ndescription = \"D\"\nsection = \"basics\"\n+++\n\nText of " + title + ".\n"
}

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLoadOverlay: an overlay page replaces the public page of its slug
// in its own language's edition only; a new overlay page gets the usual
// fallback, read from the overlay; overlay errors are positioned in the
// overlay's files.
func TestLoadOverlay(t *testing.T) {
	public := map[string]string{
		"content/guides/both.md":    page("Both public"),
		"content/guides/both.zh.md": page("Both public zh"),
		"content/guides/en.md":      page("En public"),
		"content/guides/en.zh.md":   page("En public zh"),
		"content/guides/zh.md":      page("Zh public"),
		"content/guides/zh.zh.md":   page("Zh public zh"),
		"content/guides/plain.md":   page("Plain public"),
	}
	tests := []struct {
		name    string
		overlay map[string]string
		want    []string // lang/slug=title (fallback marked *) of every page
		warns   []string // warnings about overlay files, exactly
		err     string   // an error, exactly ("" for none)
	}{
		{
			name: "both editions replaced, one edition each, a new page",
			overlay: map[string]string{
				"content/guides/both.md": page("Both team"), "content/both.zh.md": page("Both team zh"),
				"content/guides/en.md":    page("En team"),
				"content/zh.zh.md":        page("Zh team zh"),
				"content/guides/new.md":   page("New team"),
				"content/guides/plain.md": page("Plain team"),
			},
			want: []string{"en/both=Both team", "en/en=En team", "en/new=New team", "en/plain=Plain team", "en/zh=Zh public",
				"zh/both=Both team zh", "zh/en=En public zh", "zh/new=New team*", "zh/plain=Plain team*", "zh/zh=Zh team zh"},
			warns: []string{
				"team/content/guides/en.md:1:1: warning: replaces content/guides/en.md in the en edition only: the zh edition keeps the public text (content/guides/en.zh.md) until the overlay has en.zh.md too",
				"team/content/guides/new.md:1:1: warning: no zh text of this page (team/content/guides/new.zh.md): the zh edition shows it in en until it is written",
				"team/content/guides/plain.md:1:1: warning: no zh text of this page (team/content/guides/plain.zh.md): the zh edition shows it in en until it is written",
				"team/content/zh.zh.md:1:1: warning: replaces content/guides/zh.zh.md in the zh edition only: the en edition keeps the public text (content/guides/zh.md) until the overlay has zh.md too",
			},
		},
		{
			name:    "front matter error in the overlay",
			overlay: map[string]string{"content/guides/q.md": "+++\ntitle = \"Q\"\ndescrption = \"D\"\nsection = \"basics\"\n+++\n"},
			err:     `team/content/guides/q.md:3:1: front matter: unknown key "descrption" (did you mean "description"?)`,
		},
		{
			name:    "shortcode error in the overlay",
			overlay: map[string]string{"content/guides/q.md": page("Q") + "\n{{< gpu \"y\" \"name\" >}}\n"},
			err:     `team/content/guides/q.md:9:1: shortcode "gpu": unknown`,
		},
		{
			name:    "one slug twice in the overlay",
			overlay: map[string]string{"content/guides/q.md": page("Q"), "content/q.md": page("Q2")},
			err:     `team/content/q.md:1:1: slug "q" is also the slug of team/content/guides/q.md: both would be served at the same URL; rename one of the files`,
		},
		{
			name:    "unknown language in the overlay",
			overlay: map[string]string{"content/guides/q.fr.md": page("Q")},
			err:     `team/content/guides/q.fr.md:1:1: file name names language "fr", which data/site.toml does not declare (languages: en, zh): name it q.md for en, or declare the language`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, ov := t.TempDir(), t.TempDir()
			writeTree(t, root, public)
			writeTree(t, ov, tt.overlay)
			d := &diag.List{}
			o := Options{Resolver: stub{}, Languages: []string{"en", "zh"}, Overlay: Overlay{Dir: ov, Label: "team/"}}
			pages := Load(root, o, d)
			if tt.err != "" {
				errs := d.Errors()
				if !slices.ContainsFunc(errs, func(e diag.Diagnostic) bool { return e.String() == tt.err }) {
					t.Fatalf("errors %v, want %q", errs, tt.err)
				}
				return
			}
			if d.HasErrors() {
				t.Fatalf("errors: %v", d.Errors())
			}
			var got []string
			for _, p := range pages {
				s := p.Lang + "/" + p.Slug + "=" + p.Title
				if p.Fallback {
					s += "*"
				}
				if p.FromOverlay != strings.Contains(p.Title, "team") {
					t.Errorf("%s: FromOverlay %v", s, p.FromOverlay)
				}
				if p.FromOverlay && !strings.HasPrefix(p.File, "team/content/") {
					t.Errorf("%s: File %q", s, p.File)
				}
				got = append(got, s)
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("pages\n%v\nwant\n%v", got, tt.want)
			}
			var warns []string
			for _, w := range d.Sorted() {
				if strings.HasPrefix(w.Path, "team/") {
					warns = append(warns, w.String())
				}
			}
			if !slices.Equal(warns, tt.warns) {
				t.Errorf("warnings\n%s\nwant\n%s", strings.Join(warns, "\n"), strings.Join(tt.warns, "\n"))
			}
			titles, _ := TitlesLayered(root, o.Overlay, o.Languages)
			for _, s := range tt.want {
				lang, rest, _ := strings.Cut(s, "/")
				slug, title, _ := strings.Cut(strings.TrimSuffix(rest, "*"), "=")
				if strings.HasSuffix(rest, "*") {
					continue
				}
				if titles[lang][slug] != title {
					t.Errorf("title of %s/%s: %q, want %q", lang, slug, titles[lang][slug], title)
				}
			}
		})
	}
}
