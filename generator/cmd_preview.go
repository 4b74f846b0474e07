package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/preview"
)

// cmdPreview builds the site with precompression and serves it as a
// production static host would (precompressed files, _headers).
func cmdPreview(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("preview", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var bf buildFlags
	bf.register(fs)
	addr := fs.String("addr", "127.0.0.1:8081", "address to listen on")
	noBuild := fs.Bool("no-build", false, "serve the existing output without building")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	base := "/" // the path the site is served under, as its links expect
	if !*noBuild {
		res, code := doBuild(bf, stdout, stderr)
		if code != 0 {
			return code
		}
		base = res.BasePath
	} else if bf.baseURL != "" {
		u, err := url.Parse(bf.baseURL)
		if err != nil {
			fmt.Fprintln(stderr, "preview: -base-url:", err)
			return 2
		}
		base = "/" + strings.Trim(u.Path, "/") + "/"
		base = strings.ReplaceAll(base, "//", "/")
	}
	h, err := preview.Handler(bf.out)
	if err != nil {
		fmt.Fprintln(stderr, "preview:", err)
		return 1
	}
	h = underBase(base, h)
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, "preview:", err)
		return 1
	}
	fmt.Fprintf(stdout, "previewing %s on http://%s%s as a static host would serve it (Ctrl-C to stop)\n", bf.out, ln.Addr(), base)
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(stderr, "preview:", err)
		return 1
	}
	return 0
}

// underBase serves h under base ("/gpu/"), as a host serving the site
// under a sub-path would: "/" and "/gpu" redirect to "/gpu/", anything else
// outside it is not found. With base "/" it is h.
func underBase(base string, h http.Handler) http.Handler {
	if base == "" || base == "/" {
		return h
	}
	inner := http.StripPrefix(strings.TrimSuffix(base, "/"), h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasPrefix(r.URL.Path, base):
			inner.ServeHTTP(w, r)
		case r.URL.Path == "/" || r.URL.Path+"/" == base:
			http.Redirect(w, r, base, http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	})
}
