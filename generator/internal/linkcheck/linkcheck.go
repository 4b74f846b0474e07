// Package linkcheck checks the internal links of a site's rendered pages:
// every href and src that points into the site must name a file the build
// makes, and none may leave the site's base path. Pages are checked as they
// are rendered, so only the few links to files not made yet are kept.
package linkcheck

import (
	"bytes"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

// Checker checks the links of a build's pages. Unsettled is safe for
// concurrent use; Collect and Finish are called from one goroutine.
type Checker struct {
	base string
	// exists reports whether an output file is made or will be.
	exists  func(target string) bool
	pending []pending
}

// pending is a link whose target did not exist yet when its page was
// rendered.
type pending struct{ file, raw, target, source string }

// New returns a checker for a site served under base ("/", "/gpu/");
// exists reports whether an output file ("gpus/a10/index.html") is made or
// queued; it must be safe for concurrent use while pages render.
func New(base string, exists func(target string) bool) *Checker {
	return &Checker{base: base, exists: exists}
}

// The kinds of link resolve tells apart.
const (
	external = iota // another site, a fragment, mailto:, data:
	outside         // a path outside the site's base path
	internal        // a file of the site
)

// resolve returns a link's kind and, for an internal one, the output file
// it points at.
func (c *Checker) resolve(raw string) (target string, kind int) {
	link := strings.ReplaceAll(raw, "&amp;", "&")
	if strings.HasPrefix(link, "#") || strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") || strings.HasPrefix(link, "data:") {
		return "", external
	}
	if !strings.HasPrefix(link, c.base) {
		return "", outside
	}
	target = strings.TrimPrefix(link, c.base)
	if i := strings.IndexAny(target, "?#"); i >= 0 {
		target = target[:i]
	}
	if target == "" || strings.HasSuffix(target, "/") {
		target += "index.html"
	}
	target, _ = url.PathUnescape(target)
	return path.Clean(target), internal
}

// Unsettled returns the links of a page Collect would keep or report:
// those not to an existing file. It only reads, so render workers call it,
// and a page holds only these few links until its errors are reported in
// order.
func (c *Checker) Unsettled(links []string) []string {
	var out []string
	for _, raw := range links {
		if target, kind := c.resolve(raw); kind == external || kind == internal && c.exists(target) {
			continue
		}
		out = append(out, raw)
	}
	return out
}

// Collect checks the links of one rendered page, the output file file,
// made from source (a guide's path, or the templates that rendered it), as
// far as it can now: a link to a file already made or queued is fine and
// forgotten, a link outside the base path is reported against source, and
// the rest (pages of a later edition, files made after the pages) wait for
// Finish.
func (c *Checker) Collect(file, source string, links []string, d *diag.List) {
	for _, raw := range links {
		target, kind := c.resolve(raw)
		switch {
		case kind == outside:
			d.Errorf(source, 0, 0, "link %q on /%s is outside the site's base path %s", strings.ReplaceAll(raw, "&amp;", "&"), file, c.base)
		case kind == internal && !c.exists(target):
			c.pending = append(c.pending, pending{file: file, raw: raw, target: target, source: source})
		}
	}
}

// Finish reports every internal link Collect kept whose target still does
// not exist, in the order of the pages' files.
func (c *Checker) Finish(d *diag.List) {
	slices.SortStableFunc(c.pending, func(a, b pending) int { return strings.Compare(a.file, b.file) })
	for _, l := range c.pending {
		if !c.exists(l.target) {
			d.Errorf(l.source, 0, 0, "broken internal link %q on /%s", strings.ReplaceAll(l.raw, "&amp;", "&"), l.file)
		}
	}
	c.pending = nil
}

// Links returns the value of every href="..." and src="..." attribute of
// a rendered page, in order: a byte scan done while the page is rendered,
// instead of a regular expression over the whole site after.
func Links(b []byte) []string {
	var out []string
	for i := 0; i < len(b); {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			break
		}
		q := i + j // an opening quote?
		if isLinkAttr(b, q) {
			end := bytes.IndexByte(b[q+1:], '"')
			if end < 0 {
				break
			}
			out = append(out, string(b[q+1:q+1+end]))
			i = q + 1 + end + 1
			continue
		}
		i = q + 1
	}
	return out
}

// isLinkAttr reports whether the quote at q follows href= or src=.
func isLinkAttr(b []byte, q int) bool {
	return q >= 5 && string(b[q-5:q]) == "href=" || q >= 4 && string(b[q-4:q]) == "src="
}
