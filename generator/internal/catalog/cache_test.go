package catalog

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

// TestCacheLoadsLikeLoad loads the fixture through one Cache after each of
// a series of edits and compares the catalog and the diagnostics with a
// load without it: unchanged, after a stage changed the previous catalog
// in place (the cache's copies must not share its memory), after a price
// edit, a file broken and fixed, and a file removed (dropped from the
// cache).
func TestCacheLoadsLikeLoad(t *testing.T) {
	root := fixtureSite(t)
	c := NewCache()
	var prev *Catalog
	steps := []struct {
		name   string
		change func()
		fails  bool
	}{
		{name: "first"},
		{name: "unchanged"},
		{name: "after changes to the previous catalog", change: func() {
			prev.Offers[0].Prices[0].Price = 999
			prev.Offers[0].Regions = append(prev.Offers[0].Regions[:0], "nowhere")
			prev.GPUs[0].Name = "changed"
			prev.Providers[0].Regions = nil
		}},
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
	for _, st := range steps {
		if st.change != nil {
			st.change()
		}
		before := len(c.files)
		got, gd := c.Load(root, Layer{}, fixtureNow)
		want, wd := LoadLayered(root, Layer{}, fixtureNow)
		if (got == nil) != st.fails || (want == nil) != st.fails {
			t.Fatalf("%s: cached load %v, load %v; want failure %v", st.name, got != nil, want != nil, st.fails)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the cached load's catalog differs from a load's", st.name)
		}
		if !reflect.DeepEqual(texts(gd), texts(wd)) {
			t.Errorf("%s: diagnostics\n%v\nwant\n%v", st.name, texts(gd), texts(wd))
		}
		if st.name == "model removed" && len(c.files) != before-1 {
			t.Errorf("%s: %d files cached, %d before", st.name, len(c.files), before)
		}
		if got != nil {
			prev = got
		}
	}
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
