package preview

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

func TestHandler(t *testing.T) {
	dir := t.TempDir()
	write := func(p, s string) {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644)
	}
	write("index.html", "home")
	write("index.html.br", "BR")
	write("gpus/index.html", "gpus")
	write("assets/site.ABC.css", "css")
	write("404.html", "missing")
	write("_headers", "/*\n  Content-Security-Policy: default-src 'self'\n  Cache-Control: max-age=300\n/assets/*\n  Cache-Control: immutable\n")
	os.WriteFile(filepath.Join(filepath.Dir(dir), "secret"), []byte("s"), 0o644)
	h, err := Handler(dir)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, accept          string
		status                int
		body, encoding, cache string
	}{
		{"/", "br, gzip", 200, "BR", "br", "max-age=300"},
		{"/", "", 200, "home", "", "max-age=300"},
		{"/gpus/", "br", 200, "gpus", "", "max-age=300"},
		{"/assets/site.ABC.css", "", 200, "css", "", "immutable"},
		{"/nope/", "", 404, "missing", "", "max-age=300"},
		{"/../secret", "", 404, "missing", "", "max-age=300"},
		{"/_headers", "", 404, "missing", "", "max-age=300"},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("GET", tt.path, nil)
		if tt.accept != "" {
			r.Header.Set("Accept-Encoding", tt.accept)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tt.status || w.Body.String() != tt.body || w.Header().Get("Content-Encoding") != tt.encoding || w.Header().Get("Cache-Control") != tt.cache {
			t.Errorf("%s (%q): %d %q enc=%q cache=%q; want %d %q %q %q", tt.path, tt.accept, w.Code, w.Body.String(),
				w.Header().Get("Content-Encoding"), w.Header().Get("Cache-Control"), tt.status, tt.body, tt.encoding, tt.cache)
		}
		if w.Header().Get("Content-Security-Policy") == "" {
			t.Errorf("%s: no CSP", tt.path)
		}
	}
	r := httptest.NewRequest("GET", "/gpus", nil)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusMovedPermanently {
		t.Errorf("/gpus: %d, want a redirect", w.Code)
	}
}
