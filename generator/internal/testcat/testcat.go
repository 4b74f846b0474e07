// Package testcat loads the catalogs and guides tests run against: the
// fixture site under testdata/site and the repository's own data. It is
// imported by tests only.
package testcat

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/content"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/fixture"
)

// FixtureNow is the date the fixture site is built on (fixture.Now).
var FixtureNow = fixture.Now

// RepoRoot is the repository root (fixture.RepoRoot).
func RepoRoot() string { return fixture.RepoRoot() }

// FixtureRoot is the fixture site, testdata/site (fixture.Root).
func FixtureRoot() string { return fixture.Root() }

// Fixture loads the fixture catalog as of FixtureNow.
func Fixture(t testing.TB) *catalog.Catalog {
	t.Helper()
	return load(t, FixtureRoot(), FixtureNow)
}

// Today is the date tests of the repository's own data age its prices on:
// catalog.Today (SOURCE_DATE_EPOCH when set, so the suite can run with the
// clock moved ahead; else the current date).
func Today(t testing.TB) time.Time {
	t.Helper()
	now, err := catalog.Today()
	if err != nil {
		t.Fatal(err)
	}
	return now
}

// DataDate is the date of the newest price in c: a clock for tests of
// logic over the repository's data that need current prices, so they hold
// on any day (on Today, a catalog not refreshed for a year has none).
func DataDate(c *catalog.Catalog) time.Time {
	var newest time.Time
	for _, o := range c.Offers {
		for _, p := range o.Prices {
			if p.AsOf.After(newest) {
				newest = p.AsOf
			}
		}
	}
	return newest
}

// Repo loads the repository's catalog as of Today (its dates are never
// in the future), once per test binary: the catalog is a megabyte of TOML.
// Callers share it and must not change it.
func Repo(t testing.TB) *catalog.Catalog {
	t.Helper()
	r := repo()
	if r.c == nil {
		t.Fatalf("catalog.Load(%s):\n%s", RepoRoot(), r.errs)
	}
	return r.c
}

var repo = sync.OnceValue(func() (r struct {
	c    *catalog.Catalog
	errs string
}) {
	now, err := catalog.Today()
	if err != nil {
		r.errs = err.Error()
		return r
	}
	c, d := catalog.Load(RepoRoot(), now)
	if c == nil {
		var b strings.Builder
		d.Print(&b)
		r.errs = b.String()
	}
	r.c = c
	return r
})

func load(t testing.TB, root string, now time.Time) *catalog.Catalog {
	t.Helper()
	c, d := catalog.Load(root, now)
	if c == nil {
		var b strings.Builder
		d.Print(&b)
		t.Fatalf("catalog.Load(%s):\n%s", root, b.String())
	}
	return c
}

// Pages loads the English guides under root/content (the Chinese texts
// are loaded and checked, and left out). Shortcodes expand to their name
// (their values do not matter to these tests).
func Pages(t testing.TB, root string) []*content.Page {
	t.Helper()
	d := &diag.List{}
	all := content.Load(root, content.Options{Resolver: stub{}, Languages: []string{"en", "zh"}}, d)
	if d.HasErrors() {
		var b strings.Builder
		d.Print(&b)
		t.Fatalf("content.Load(%s):\n%s", root, b.String())
	}
	var pages []*content.Page
	for _, p := range all {
		if p.Lang == "en" {
			pages = append(pages, p)
		}
	}
	return pages
}

type stub struct{}

func (stub) Shortcode(lang, name string, args []string, kv map[string]string) (string, error) {
	return name, nil
}
