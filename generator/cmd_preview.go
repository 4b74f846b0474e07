package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
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
	if !*noBuild {
		if _, code := doBuild(bf, stdout, stderr); code != 0 {
			return code
		}
	}
	h, err := preview.Handler(bf.out)
	if err != nil {
		fmt.Fprintln(stderr, "preview:", err)
		return 1
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, "preview:", err)
		return 1
	}
	fmt.Fprintf(stdout, "previewing %s on http://%s/ as a static host would serve it (Ctrl-C to stop)\n", bf.out, ln.Addr())
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(stderr, "preview:", err)
		return 1
	}
	return 0
}
