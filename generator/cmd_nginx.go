package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/nginxconf"
)

// cmdNginxConf writes PREFIX/nginx.conf for the site built in PREFIX/site:
// the container image's server configuration (Dockerfile), with the
// headers of the build's _headers.
func cmdNginxConf(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("nginx-conf", flag.ContinueOnError)
	fs.SetOutput(stderr)
	prefix := fs.String("prefix", "", "nginx prefix directory: holds the built site in site/; nginx.conf is written there")
	baseURL := fs.String("base-url", "", "the URL the site was built for (the build's -base-url), e.g. https://intranet.example/gpu/")
	listen := fs.String("listen", "80", "nginx listen address (port, or address:port)")
	brotli := fs.String("brotli-module", nginxconf.DefaultBrotliModule, "path of ngx_http_brotli_static_module.so; empty: serve .gz siblings only")
	mimeTypes := fs.String("mime-types", nginxconf.DefaultMimeTypes, "nginx mime.types file to include")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: generator nginx-conf -prefix DIR -base-url URL [-listen 80] [-brotli-module PATH] [-mime-types PATH]")
		fmt.Fprintln(stderr, "\nWrites DIR/nginx.conf, serving the site built in DIR/site for URL with the headers of its _headers;")
		fmt.Fprintln(stderr, "run it with: nginx -p DIR/ -c DIR/nginx.conf -e stderr")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *prefix == "" || *baseURL == "" || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	base, err := nginxconf.BasePath(*baseURL)
	if err != nil {
		fmt.Fprintln(stderr, "nginx-conf:", err)
		return 2
	}
	conf, err := nginxconf.Config(nginxconf.Options{
		Site:         filepath.Join(*prefix, "site"),
		Base:         base,
		Listen:       *listen,
		BrotliModule: *brotli,
		MimeTypes:    *mimeTypes,
	})
	if err != nil {
		fmt.Fprintln(stderr, "nginx-conf:", err)
		return 1
	}
	out := filepath.Join(*prefix, "nginx.conf")
	if err := os.WriteFile(out, []byte(conf), 0o644); err != nil {
		fmt.Fprintln(stderr, "nginx-conf:", err)
		return 1
	}
	fmt.Fprintf(stdout, "nginx-conf: wrote %s for %s\n", out, base)
	return 0
}
