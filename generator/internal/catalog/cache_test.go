package catalog

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

// TestCacheLoadsLikeLoad loads the fixture through one Cache after each of
// a series of edits and compares the catalog and the diagnostics with a
// load without it: unchanged, after a stage changed the previous catalog
// in place (the cache's copies must not share its memory), after a price
// edit, a file broken and fixed, and a file removed (dropped from the
// cache). The offers files' checks, which the cache keeps, are made to
// change by edits of other files only (a GPU's memory, a provider's
// regions, the site's warn_days) and by the date.
func TestCacheLoadsLikeLoad(t *testing.T) {
	root := fixtureSite(t)
	var prev *Catalog // the cached load's last catalog
	later := fixtureNow.AddDate(1, 0, 0)
	steps := []cacheStep{
		{name: "first"},
		{name: "unchanged"},
		{name: "after changes to the previous catalog", change: func() {
			prev.Offers[0].Prices[0].Price = 999
			prev.Offers[0].Prices = append(prev.Offers[0].Prices, prev.Offers[0].Prices[0])
			prev.Offers[0].Regions = append(prev.Offers[0].Regions[:0], "nowhere")
			prev.Offers[0].GPU.MemoryGB = 1
			prev.GPUs[0].Name = "changed"
			prev.Providers[0].Regions = nil
		}},
		{name: "a GPU's memory no longer matches its offers", change: func() { replaceIn(t, root, "data/gpus/alpha-80gb.toml", "memory_gb = 80", "memory_gb = 96") }, fails: true},
		{name: "the GPU's memory restored", change: func() { replaceIn(t, root, "data/gpus/alpha-80gb.toml", "memory_gb = 96", "memory_gb = 80") }},
		{name: "a region an offer names renamed", change: func() { replaceIn(t, root, "data/providers/acme.toml", `id = "eu-west"`, `id = "eu-central"`) }, fails: true},
		{name: "the region restored", change: func() { replaceIn(t, root, "data/providers/acme.toml", `id = "eu-central"`, `id = "eu-west"`) }},
		{name: "a year later: more prices are old", now: later},
		{name: "warn_days lowered", change: func() { replaceIn(t, root, "data/site.toml", "warn_days = 730", "warn_days = 400") }, now: later},
		{name: "back to the first date", change: func() { replaceIn(t, root, "data/site.toml", "warn_days = 400", "warn_days = 730") }},
		{name: "price edit", change: func() { replaceIn(t, root, "data/offers/acme.toml", "price = 0.75", "price = 0.79") }},
		{name: "broken", change: func() { replaceIn(t, root, "data/offers/acme.toml", "price = 0.79", "price = [") }, fails: true},
		{name: "fixed", change: func() { replaceIn(t, root, "data/offers/acme.toml", "price = [", "price = 0.81") }},
		{name: "model removed", change: func() {
			ms, _ := filepath.Glob(filepath.Join(root, "data", "models", "*.toml"))
			if len(ms) == 0 {
				t.Fatal("no model in the fixture")
			}
			if err := os.Remove(ms[0]); err != nil {
				t.Fatal(err)
			}
		}},
	}
	var before int
	loadSteps(t, root, Layer{}, steps, func(st cacheStep, c *Cache, got *Catalog) {
		if got != nil {
			prev = got
		}
		if st.name == "unchanged" && checkedFiles(c) != 2 {
			t.Errorf("%s: %d offers files kept as checked, want both", st.name, checkedFiles(c))
		}
		if st.name == "model removed" && len(c.files) != before-1 {
			t.Errorf("%s: %d files cached, %d before", st.name, len(c.files), before)
		}
		before = len(c.files)
	})
}

// TestCacheLoadsLikeLoadWithOverlay is TestCacheLoadsLikeLoad with a team's
// overlay (testdata/overlay-example, whose internal pool offers the
// fixture's beta-24gb): its offers' checks read its own provider and the
// public GPUs.
func TestCacheLoadsLikeLoadWithOverlay(t *testing.T) {
	root := fixtureSite(t)
	ov := t.TempDir()
	if err := os.CopyFS(ov, os.DirFS(filepath.Join("..", "..", "..", "testdata", "overlay-example"))); err != nil {
		t.Fatal(err)
	}
	loadSteps(t, root, Layer{Dir: ov, Label: "team/"}, []cacheStep{
		{name: "first"},
		{name: "unchanged"},
		{name: "the pool's region renamed", change: func() { replaceIn(t, ov, "data/providers/team-pool.toml", `id = "fra-dc1"`, `id = "fra-dc2"`) }, fails: true},
		{name: "the region restored", change: func() { replaceIn(t, ov, "data/providers/team-pool.toml", `id = "fra-dc2"`, `id = "fra-dc1"`) }},
		{name: "the public GPU's memory changed", change: func() { replaceIn(t, root, "data/gpus/beta-24gb.toml", "memory_gb = 24", "memory_gb = 32") }, fails: true},
		{name: "the memory restored", change: func() { replaceIn(t, root, "data/gpus/beta-24gb.toml", "memory_gb = 32", "memory_gb = 24") }},
		{name: "the pool's price edited", change: func() { replaceIn(t, ov, "data/offers/team-pool.toml", "price = 0.36", "price = 0.38") }},
	}, nil)
}

// cacheStep is one step of a cached-load test: a change, the date of the
// load (fixtureNow when zero), and whether the load fails.
type cacheStep struct {
	name   string
	change func()
	now    time.Time
	fails  bool
}

// loadSteps makes each step's change, loads the site through one Cache and
// without it, and fails the test when the two differ in catalog or
// diagnostics; after, when not nil, is given each step's cache and cached
// catalog after the comparison.
func loadSteps(t *testing.T, root string, layer Layer, steps []cacheStep, after func(cacheStep, *Cache, *Catalog)) {
	t.Helper()
	c := NewCache()
	for _, st := range steps {
		if st.change != nil {
			st.change()
		}
		now := st.now
		if now.IsZero() {
			now = fixtureNow
		}
		got, gd := c.Load(root, layer, now)
		want, wd := LoadLayered(root, layer, now)
		if (got == nil) != st.fails || (want == nil) != st.fails {
			t.Fatalf("%s: cached load %v, load %v; want failure %v", st.name, got != nil, want != nil, st.fails)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the cached load's catalog differs from a load's", st.name)
		}
		if !reflect.DeepEqual(texts(gd), texts(wd)) {
			t.Errorf("%s: diagnostics\n%v\nwant\n%v", st.name, texts(gd), texts(wd))
		}
		if after != nil {
			after(st, c, got)
		}
	}
}

// checkedFiles counts the files the cache keeps as checked.
func checkedFiles(c *Cache) int {
	n := 0
	for _, e := range c.files {
		if e.checked != nil {
			n++
		}
	}
	return n
}

func texts(d *diag.List) []string {
	var out []string
	for _, x := range d.Sorted() {
		out = append(out, x.String())
	}
	return out
}

// TestFromColumn: columns count runes, as tomlpos does, so a value after
// Chinese text is found where a rune slice would find it.
func TestFromColumn(t *testing.T) {
	cases := []struct {
		line string
		col  int
		want string
		ok   bool
	}{
		{`name = ""`, 8, `""`, true},
		{`名称 = "x"`, 6, `"x"`, true},
		{`a = "é"`, 5, `"é"`, true},
		{`abc`, 3, `c`, true},
		{`abc`, 4, ``, false},
		{`abc`, 0, ``, false},
		{``, 1, ``, false},
	}
	for _, c := range cases {
		got, ok := fromColumn(c.line, c.col)
		rs := []rune(c.line)
		if ok != c.ok || got != c.want {
			t.Errorf("fromColumn(%q, %d) = %q, %v; want %q, %v", c.line, c.col, got, ok, c.want, c.ok)
		}
		if c.ok && string(rs[c.col-1:]) != got {
			t.Errorf("fromColumn(%q, %d) disagrees with the rune slice", c.line, c.col)
		}
	}
}
