package content

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

// prices is a resolver whose {{< price "id" >}} answers from its map and
// fails for an id it lacks.
type prices map[string]string

func (p prices) Shortcode(lang, name string, args []string, kv map[string]string) (string, error) {
	if v, ok := p[args[0]]; ok && name == "price" {
		return v + " (" + lang + ")", nil
	}
	return "", errors.New("no such price")
}

// TestCacheLoadsLikeLoad loads a content tree through one Cache after each
// of a series of changes, and compares the pages and diagnostics with a
// load without it; it also counts the pages parsed: only those whose
// file, shortcode answers or date changed are parsed again.
func TestCacheLoadsLikeLoad(t *testing.T) {
	root := t.TempDir()
	quoting := "+++\ntitle = \"Q\"\ndescription = \"D\"\nsection = \"cost\"\nupdated = 2025-06-01\n+++\n\nIt costs {{< price \"h100\" >}}.\n"
	writeTree(t, root, map[string]string{
		"content/guides/plain.md":    page("Plain"),
		"content/guides/plain.zh.md": page("Plain zh"),
		"content/guides/quoting.md":  quoting,     // no zh text: a fallback quoting the zh answer
		"content/faq.md":             page("FAQ"), // and its zh fallback: 6 pages
	})
	c := NewCache()
	answers := prices{"h100": "2.49"}
	now := time.Date(2025, 7, 1, 0, 0, 0, 0, time.UTC)
	type step struct {
		name   string
		change func()
		parsed int // pages parsed rather than copied
		fails  bool
	}
	steps := []step{
		{name: "first", parsed: 6},
		{name: "unchanged", parsed: 0},
		{name: "the quoted price changed", change: func() { answers["h100"] = "2.99" }, parsed: 2},
		{name: "a page edited", change: func() { writeTree(t, root, map[string]string{"content/guides/plain.md": page("Plain, edited")}) }, parsed: 1},
		{name: "a shortcode broken", change: func() { delete(answers, "h100") }, parsed: 1, fails: true}, // no fallback of a broken page,
		{name: "fixed", change: func() { answers["h100"] = "2.99" }, parsed: 2},
		{name: "a date before the page's update", change: func() { now = time.Date(2025, 5, 1, 0, 0, 0, 0, time.UTC) }, parsed: 5, fails: true},
		{name: "back to the date", change: func() { now = time.Date(2025, 7, 1, 0, 0, 0, 0, time.UTC) }, parsed: 6},
		{name: "a page removed", change: func() {
			if err := os.Remove(filepath.Join(root, "content", "faq.md")); err != nil {
				t.Fatal(err)
			}
		}, parsed: 0},
	}
	for _, st := range steps {
		if st.change != nil {
			st.change()
		}
		o := Options{Now: now, Resolver: answers, Languages: []string{"en", "zh"}}
		before := c.parsed
		gd, wd := &diag.List{}, &diag.List{}
		oc := o
		oc.Cache = c
		got := Load(root, oc, gd)
		want := Load(root, o, wd)
		if gd.HasErrors() != st.fails || wd.HasErrors() != st.fails {
			t.Fatalf("%s: errors %v and %v without the cache; want failure %v", st.name, gd.Errors(), wd.Errors(), st.fails)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: pages through the cache differ from a load's", st.name)
		}
		if !reflect.DeepEqual(gd.Sorted(), wd.Sorted()) {
			t.Errorf("%s: diagnostics\n%v\nwant\n%v", st.name, gd.Sorted(), wd.Sorted())
		}
		if n := c.parsed - before; n != st.parsed {
			t.Errorf("%s: %d pages parsed, want %d", st.name, n, st.parsed)
		}
		for _, p := range got {
			p.HTML = "changed by a later stage" // must not reach the cache
		}
	}
	if len(c.pages) != 4 {
		t.Errorf("%d pages cached after one was removed, want 4", len(c.pages))
	}
}
