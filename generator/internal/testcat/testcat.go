// Package testcat loads the catalogs and guides tests run against: the
// fixture site under testdata/site and the repository's own data. It is
// imported by tests only.
package testcat

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/content"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

// FixtureNow is the date the fixture site is built on (as in the build
// package's golden tests).
var FixtureNow = time.Date(2025, 11, 1, 0, 0, 0, 0, time.UTC)

// RepoRoot is the repository root, found from this file's location so it
// does not depend on the test's working directory.
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// FixtureRoot is the fixture site, testdata/site.
func FixtureRoot() string { return filepath.Join(RepoRoot(), "testdata", "site") }

// Fixture loads the fixture catalog as of FixtureNow.
func Fixture(t testing.TB) *catalog.Catalog {
	t.Helper()
	return load(t, FixtureRoot(), FixtureNow)
}

// Repo loads the repository's catalog as of today (its dates are never
// in the future).
func Repo(t testing.TB) *catalog.Catalog {
	t.Helper()
	return load(t, RepoRoot(), time.Now().UTC())
}

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
