// Package linkcheck checks the internal links of a site's rendered pages:
// every href and src that points into the site must name a file the build
// makes, a fragment (#id) must name an element of its page, in every
// edition, and no link may leave the site's base path. Pages are checked
// as they are rendered, so only the few links to files not made yet, and
// the links with a fragment, are kept.
package linkcheck

import (
	"bytes"
	"html"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

// Checker checks the links of a build's pages. Unsettled and AddIDs are
// safe for concurrent use; Collect and Finish are called from one
// goroutine.
type Checker struct {
	base string
	// exists reports whether an output file is made or will be.
	exists  func(target string) bool
	pending []pending
	mu      sync.Mutex
	// ids holds each page's ids as one string, "\x00a\x00b\x00": a map
	// per page cost a build of the real site about 10 MB of peak memory.
	ids map[string]string
}

// pending is a link whose target did not exist yet when its page was
// rendered, or that names a fragment of its target.
type pending struct{ file, raw, target, frag, source string }

// New returns a checker for a site served under base ("/", "/gpu/");
// exists reports whether an output file ("gpus/a10/index.html") is made or
// queued; it must be safe for concurrent use while pages render.
func New(base string, exists func(target string) bool) *Checker {
	return &Checker{base: base, exists: exists, ids: map[string]string{}}
}

// AddIDs records the id attributes of the rendered page file (IDs), for
// the links to its fragments.
func (c *Checker) AddIDs(file string, ids []string) {
	set := "\x00" + strings.Join(ids, "\x00") + "\x00"
	c.mu.Lock()
	c.ids[file] = set
	c.mu.Unlock()
}

// hasID reports whether page file holds an element with id.
func (c *Checker) hasID(file, id string) bool {
	c.mu.Lock()
	set := c.ids[file]
	c.mu.Unlock()
	return strings.Contains(set, "\x00"+id+"\x00")
}

// fragment returns a link's decoded fragment ("" without one).
func fragment(raw string) string {
	_, f, ok := strings.Cut(strings.ReplaceAll(raw, "&amp;", "&"), "#")
	if !ok {
		return ""
	}
	if u, err := url.PathUnescape(f); err == nil {
		f = u
	}
	return f
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
		target, kind := c.resolve(raw)
		if kind == external && !strings.HasPrefix(raw, "#") || kind == internal && c.exists(target) && !checksFragment(target, raw) {
			continue
		}
		out = append(out, raw)
	}
	return out
}

// checksFragment reports whether a link to target names a fragment the
// checker looks for: one of an HTML page.
func checksFragment(target, raw string) bool {
	return fragment(raw) != "" && strings.HasSuffix(target, ".html")
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
		case strings.HasPrefix(raw, "#"):
			// A fragment of the page itself, whose ids are recorded.
			if f := fragment(raw); f != "" && !c.hasID(file, f) {
				d.Errorf(source, 0, 0, "link %q on /%s names no element of the page (no id=%q)", raw, file, f)
			}
		case kind == outside:
			d.Errorf(source, 0, 0, "link %q on /%s is outside the site's base path %s", strings.ReplaceAll(raw, "&amp;", "&"), file, c.base)
		case kind == internal && (!c.exists(target) || checksFragment(target, raw)):
			p := pending{file: file, raw: raw, target: target, source: source}
			if checksFragment(target, raw) {
				p.frag = fragment(raw)
			}
			c.pending = append(c.pending, p)
		}
	}
}

// Finish reports every internal link Collect kept whose target still does
// not exist, in the order of the pages' files.
func (c *Checker) Finish(d *diag.List) {
	slices.SortStableFunc(c.pending, func(a, b pending) int { return strings.Compare(a.file, b.file) })
	for _, l := range c.pending {
		switch {
		case !c.exists(l.target):
			d.Errorf(l.source, 0, 0, "broken internal link %q on /%s", strings.ReplaceAll(l.raw, "&amp;", "&"), l.file)
		case l.frag != "" && !c.hasID(l.target, l.frag):
			d.Errorf(l.source, 0, 0, "link %q on /%s names a fragment /%s does not have (no id=%q; give the heading the same id in every edition)",
				strings.ReplaceAll(l.raw, "&amp;", "&"), l.file, l.target, l.frag)
		}
	}
	c.pending = nil
}

// IDs returns the value of every id="..." attribute of a rendered page.
func IDs(b []byte) []string {
	var out []string
	for i := 0; ; {
		j := bytes.Index(b[i:], []byte(` id="`))
		if j < 0 {
			return out
		}
		start := i + j + len(` id="`)
		end := bytes.IndexByte(b[start:], '"')
		if end < 0 {
			return out
		}
		out = append(out, html.UnescapeString(string(b[start:start+end])))
		i = start + end + 1
	}
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
