package content

import (
	"path/filepath"
	"strings"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

// Overlay is a team's overlay directory: its content/ holds extra guides
// and replacements, in the same formats as the site's content/ (slug.md,
// slug.<code>.md). A page with the slug and language of a public page
// replaces that page in that language's edition only; the other editions
// keep the public text unless the overlay has their file too (check warns
// about each edition left public). A slug the public site does not have
// is a new page, with the usual fallback for a missing translation.
type Overlay struct {
	Dir   string // the overlay directory (holding content/); "" for none
	Label string // prefix of its files' paths in Page.File and messages (default: Dir + "/")
}

func (o Overlay) label() string {
	if o.Label != "" {
		return o.Label
	}
	return filepath.ToSlash(filepath.Clean(o.Dir)) + "/"
}

// replacement is a public page an overlay page replaced.
type replacement struct{ public, overlay *Page }

// warnPartial warns, for every overlay page that replaced a public one,
// about each edition in which the public text of that page stays because
// the overlay has no file for it.
func warnPartial(pages []*Page, replaced []replacement, o Options, d *diag.List) {
	type key struct{ slug, lang string }
	have := map[key]*Page{}
	for _, p := range pages {
		have[key{p.Slug, p.Lang}] = p
	}
	for _, r := range replaced {
		for _, l := range o.langs() {
			p := have[key{r.overlay.Slug, l}]
			if l == r.overlay.Lang || p == nil || p.FromOverlay {
				continue
			}
			want := strings.TrimSuffix(filepath.Base(r.overlay.File), ".md")
			if r.overlay.Lang != o.langs()[0] {
				want = strings.TrimSuffix(want, "."+r.overlay.Lang)
			}
			if l != o.langs()[0] {
				want += "." + l
			}
			d.Warnf(r.overlay.File, 1, 1, "replaces %s in the %s edition only: the %s edition keeps the public text (%s) until the overlay has %s.md too",
				r.public.File, r.overlay.Lang, l, p.File, want)
		}
	}
}
