package search

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

// TestSearchJS checks static/js/search.js: it compiles for the site's
// ES2020 target, sets no inline styles and writes no HTML strings (results
// are built with textContent), and reads the index keys this package
// writes.
func TestSearchJS(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(testcat.RepoRoot(), "static", "js", "search.js"))
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	res := api.Transform(src, api.TransformOptions{Loader: api.LoaderJS, Target: api.ES2020, MinifySyntax: true, MinifyWhitespace: true, MinifyIdentifiers: true})
	for _, m := range res.Errors {
		t.Errorf("search.js: %s", m.Text)
	}
	t.Logf("search.js: %d bytes, %d minified", len(src), len(res.Code))
	for _, bad := range []string{".style", "style=", "innerHTML", "outerHTML", "insertAdjacentHTML", "eval(", "document.write"} {
		if strings.Contains(src, bad) {
			t.Errorf("search.js uses %q", bad)
		}
	}
	for _, want := range []string{"e.t", "e.u", "e.k", "e.s", "e.x", "aria-expanded", "aria-controls", "aria-activedescendant", "search-input", "search-results", "dataset.index", "dataset.base"} {
		if !strings.Contains(src, want) {
			t.Errorf("search.js does not use %q", want)
		}
	}
}
