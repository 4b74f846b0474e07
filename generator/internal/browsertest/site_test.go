package browsertest

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// TestFixtureSiteServes checks the harness on the fixture site: pages,
// the directory redirect, and 404.html with status 404, which the browser
// reports unless the test allows it.
func TestFixtureSiteServes(t *testing.T) {
	t.Parallel()
	base := BuildFixture(t)
	for _, c := range []struct {
		path   string
		status int
	}{{"", 200}, {"gpus/alpha-80gb/", 200}, {"gpus/alpha-80gb", 200}, {"missing/", 404}} {
		resp, err := http.Get(base + c.path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("GET /%s: status %d, want %d", c.path, resp.StatusCode, c.status)
		}
	}
	notFound, err := os.ReadFile(filepath.Join(SiteDir(base), "404.html"))
	if err != nil || len(notFound) == 0 {
		t.Fatalf("404.html: %v", err)
	}

	b := New(t, base, `HTTP 404 .*/missing/$`, `status of 404 .*/missing/$`)
	b.Navigate("missing/")
	if h1, title := b.Text("h1"), b.Text("title"); h1 == "" || title == "" {
		t.Errorf("the 404 page has h1 %q and title %q", h1, title)
	}
	b.Navigate("gpus/alpha-80gb/")
	b.Click(`a[href="/gpus/"]`)
	b.WaitReady("h1")
	if loc := b.Location(); loc != base+"gpus/" {
		t.Errorf("after clicking the GPU list link the page is %s", loc)
	}
	if p := b.Problems(); len(p) > 0 {
		t.Errorf("allowed 404 reported anyway, or other problems: %q", p)
	}
}
