package main

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestUnderBase: preview serves a site built for a sub-path under it.
func TestUnderBase(t *testing.T) {
	site := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("site " + r.URL.Path)) })
	for _, c := range []struct {
		base, target string
		code         int
		want         string // body, or the redirect's Location
	}{
		{"/", "/pricing/", http.StatusOK, "site /pricing/"},
		{"/gpu/", "/gpu/pricing/", http.StatusOK, "site /pricing/"},
		{"/gpu/", "/gpu/", http.StatusOK, "site /"},
		{"/gpu/", "/", http.StatusFound, "/gpu/"},
		{"/gpu/", "/gpu", http.StatusFound, "/gpu/"},
		{"/gpu/", "/pricing/", http.StatusNotFound, "404 page not found\n"},
		{"/gpu/", "/gpux/", http.StatusNotFound, "404 page not found\n"},
	} {
		rec := httptest.NewRecorder()
		underBase(c.base, site).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, c.target, nil))
		got := rec.Body.String()
		if rec.Code == http.StatusFound {
			got = rec.Header().Get("Location")
		}
		if rec.Code != c.code || got != c.want {
			t.Errorf("base %s, GET %s: %d %q; want %d %q", c.base, c.target, rec.Code, got, c.code, c.want)
		}
	}
}
