package content

import (
	"bytes"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

// Cache keeps the pages one load parsed, for the next load of the same
// site in the same process (Options.Cache): the dev server loads every
// guide again after each save, and a price edit changes few of them. A
// page is what its file's bytes, the language it is parsed for, the build
// date, the site's languages and its shortcodes' expansions make it, and
// nothing else; the cache records each page's shortcode calls with what
// the resolver answered, and a load takes the cached page only when its
// file and all of those are the same and each call, asked again of the
// new resolver, gives the same answer. So a guide quoting a price is parsed
// again when that price changes, and not otherwise.
//
// The zero value is not usable; make one with NewCache. It is safe for
// the concurrent parsing of one load.
type Cache struct {
	mu    sync.Mutex
	pages map[cacheKey]*cachedPage
	seen  map[cacheKey]bool // the keys the current load used
	// parsed counts the pages parsed rather than copied (for the tests).
	parsed int
}

type cacheKey struct{ rel, as string }

// cachedPage is one parse: its inputs and what it gave.
type cachedPage struct {
	src   []byte
	now   time.Time
	langs string
	// resolved: the parse had a resolver (without one, every shortcode
	// is an error); calls are what it was asked.
	resolved bool
	calls    []call
	page     *Page // nil: the page had errors
	diags    *diag.List
}

// call is one shortcode expansion: what was asked and answered.
type call struct {
	lang, name string
	args       []string
	kv         map[string]string
	out, err   string
	failed     bool
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{pages: map[cacheKey]*cachedPage{}} }

// begin starts a load: the pages it does not use are dropped at end.
func (c *Cache) begin() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.seen = map[cacheKey]bool{}
	c.mu.Unlock()
}

func (c *Cache) end() {
	if c == nil {
		return
	}
	c.mu.Lock()
	for k := range c.pages {
		if !c.seen[k] {
			delete(c.pages, k)
		}
	}
	c.seen = nil
	c.mu.Unlock()
}

// parse is parseAs through the cache: a page whose inputs are unchanged
// is copied from it, with the diagnostics its parse gave; a nil cache
// parses.
func (c *Cache) parse(rel string, src []byte, o Options, as string, d *diag.List) *Page {
	if c == nil {
		return parseAs(rel, src, o, as, d)
	}
	key, langs := cacheKey{rel: rel, as: as}, strings.Join(o.langs(), ",")
	c.mu.Lock()
	if c.seen != nil {
		c.seen[key] = true
	}
	e := c.pages[key]
	c.mu.Unlock()
	if e != nil && bytes.Equal(e.src, src) && e.now.Equal(o.Now) && e.langs == langs && e.resolved == (o.Resolver != nil) && e.sameAnswers(o.Resolver) {
		d.Merge(e.diags)
		if e.page == nil {
			return nil
		}
		p := *e.page // the caller may change its copy's fields
		return &p
	}
	rec := &recorder{r: o.Resolver}
	ro := o
	if o.Resolver != nil {
		ro.Resolver = rec
	}
	sub := &diag.List{}
	p := parseAs(rel, src, ro, as, sub)
	c.mu.Lock()
	c.parsed++
	c.mu.Unlock()
	d.Merge(sub)
	e = &cachedPage{src: src, now: o.Now, langs: langs, resolved: o.Resolver != nil, calls: rec.calls, diags: sub}
	if p != nil {
		q := *p
		e.page = &q
	}
	c.mu.Lock()
	c.pages[key] = e
	c.mu.Unlock()
	return p
}

// sameAnswers asks r each recorded call again and reports whether every
// answer is the one recorded.
func (e *cachedPage) sameAnswers(r Resolver) bool {
	if r == nil {
		return len(e.calls) == 0
	}
	for _, k := range e.calls {
		out, err := r.Shortcode(k.lang, k.name, k.args, k.kv)
		if out != k.out || (err != nil) != k.failed || err != nil && err.Error() != k.err {
			return false
		}
	}
	return true
}

// recorder is a Resolver that records every call it passes on.
type recorder struct {
	r     Resolver
	calls []call
}

func (r *recorder) Shortcode(lang, name string, args []string, kv map[string]string) (string, error) {
	out, err := r.r.Shortcode(lang, name, args, kv)
	k := call{lang: lang, name: name, args: slices.Clone(args), kv: maps.Clone(kv), out: out, failed: err != nil}
	if err != nil {
		k.err = err.Error()
	}
	r.calls = append(r.calls, k)
	return out, err
}
