// Package nginxconf writes the nginx configuration of the container image
// (the repository's Dockerfile) from a built site, so that the headers the
// server sends come from the build's own _headers file and the CSP is
// written down in one place, the generator.
//
//	go run ./generator nginx-conf -prefix /srv/gpu-atlas -base-url https://intranet.example/gpu/ [-listen 80]
//
// The prefix directory holds the build output in site/ (as written by
// `generator build -out PREFIX/site -base-url URL`); Config reads
// site/_headers and the 404.html pages, and `generator nginx-conf` writes
// the result to PREFIX/nginx.conf, whose paths are relative to the prefix.
// nginx runs it with
//
//	nginx -p PREFIX/ -c PREFIX/nginx.conf -e stderr
//
// The configuration serves the site under the base URL's path (the other
// paths get the site's 404 page, "/" redirects to the base path), each
// file's precompressed .br or .gz sibling by Accept-Encoding (brotli_static
// from Debian's libnginx-mod-http-brotli-static, gzip_static), the headers
// of every _headers rule that matches the request (a later rule's header
// replaces an earlier one's, as `generator preview` applies them), on error
// responses too, and for a missing path (or a directory without
// index.html) the 404.html of its language edition (site/zh/404.html for
// /gpu/zh/...) with status 404. _headers and dot files are not served.
//
// It reads the output as any host reads it, with the _headers parser of
// package preview (the `generator preview` server). Only the subset of the
// format the generator writes is accepted: a path, or a path ending in
// "*", under the base path, and "Name: value" headers; anything else
// (placeholders, a "*" inside a path, absolute URLs, header removal, a
// header line before any path or without ":", a "$" in a value) is an
// error rather than a rule served differently.
package nginxconf

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/preview"
)

// Debian's paths, the same in the image (debian:*-slim with the nginx and
// libnginx-mod-http-brotli-static packages) and on a machine running the
// test.
const (
	DefaultBrotliModule = "/usr/lib/nginx/modules/ngx_http_brotli_static_module.so"
	DefaultMimeTypes    = "/etc/nginx/mime.types"
)

// BasePath is the path of a base URL, with a leading and a trailing
// slash, as the generator derives it ("https://host/gpu" -> "/gpu/").
func BasePath(base string) (string, error) {
	u, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	if u.Scheme != "" && u.Host == "" {
		return "", fmt.Errorf("base URL %q has a scheme but no host", base)
	}
	p := u.Path
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	if !safePath(p) {
		return "", fmt.Errorf("base path %q: only letters, digits and -._~/ are supported", p)
	}
	return p, nil
}

// Options are what Config needs.
type Options struct {
	Site         string // the build output (holds _headers, 404.html, zh/404.html ...)
	Base         string // the base path the site was built for: "/" or "/gpu/"
	Listen       string // nginx listen address
	BrotliModule string // the brotli_static module to load; "" for gzip only
	MimeTypes    string // mime.types to include
}

// header is one header of a location, as _headers names it.
type header struct{ Name, Value string }

var (
	tokenRE    = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
	safePathRE = regexp.MustCompile(`^/[A-Za-z0-9._~/-]*$`)
)

// safePath reports whether p can be written into nginx.conf unquoted and
// means the same to nginx as to a _headers host.
func safePath(p string) bool { return safePathRE.MatchString(p) && !strings.Contains(p, "//") }

// parseHeaders reads _headers with preview's parser and refuses what it
// would skip or nginx would read differently: a header line before any
// path, header removal ("! Name"), a line that is not "Name: value".
func parseHeaders(b []byte) ([]preview.Rule, error) {
	rules, stray, err := preview.Parse(b)
	if err != nil {
		return nil, fmt.Errorf("_headers: %v", err)
	}
	if len(stray) > 0 {
		return nil, fmt.Errorf("_headers:%d: a header before any path", stray[0].Line)
	}
	for _, r := range rules {
		for _, f := range r.Fields {
			if strings.HasPrefix(f.Text, "!") {
				return nil, fmt.Errorf("_headers:%d: header removal (%q) is not supported", f.Line, f.Text)
			}
			if !f.Colon || !tokenRE.MatchString(f.Name) {
				return nil, fmt.Errorf("_headers:%d: %q is not \"Name: value\"", f.Line, f.Text)
			}
		}
	}
	return rules, nil
}

// location is one nginx location block.
type location struct {
	exact    bool   // "location = path" rather than a prefix
	path     string // the request path (prefix) it matches
	headers  []header
	notFound string // the 404 page's URI
}

// Config returns the nginx.conf that serves o.Site under o.Base.
func Config(o Options) (string, error) {
	if err := checkOptions(o); err != nil {
		return "", err
	}
	hb, err := os.ReadFile(filepath.Join(o.Site, "_headers"))
	if err != nil {
		return "", fmt.Errorf("%v (is %s a GPU Atlas build?)", err, o.Site)
	}
	rules, err := parseHeaders(hb)
	if err != nil {
		return "", err
	}
	editions, err := notFoundPages(o.Site)
	if err != nil {
		return "", err
	}
	locs, err := locations(rules, editions, o.Base)
	if err != nil {
		return "", err
	}
	var b confWriter
	writeMain(&b, o)
	if err := writeServer(&b, o, locs); err != nil {
		return "", err
	}
	return b.String(), nil
}

// checkOptions reports an option that cannot be written into nginx.conf
// as it is: a base path not starting and ending with "/", or a listen
// address or file path holding spaces or nginx syntax characters.
func checkOptions(o Options) error {
	if !strings.HasPrefix(o.Base, "/") || !strings.HasSuffix(o.Base, "/") || !safePath(o.Base) {
		return fmt.Errorf("base path %q must start and end with /", o.Base)
	}
	if o.Listen == "" || strings.ContainsAny(o.Listen, " \t\n;{}\"'$#") {
		return fmt.Errorf("listen address %q", o.Listen)
	}
	for _, p := range []string{o.BrotliModule, o.MimeTypes} {
		if strings.ContainsAny(p, " \t\n;{}\"'$#") {
			return fmt.Errorf("path %q: no spaces or nginx syntax characters", p)
		}
	}
	return nil
}

// locations returns the location blocks that serve the site under base,
// sorted by path (an exact location's key is "=" and its path): one per
// rule, plus the base path and each edition's directory (for its 404
// page), each with the headers of every rule that matches it and its
// edition's 404 page. editions are the 404 pages' directories as
// notFoundPages lists them. The error is the first rule whose path
// pattern refuses.
func locations(rules []preview.Rule, editions []string, base string) ([]*location, error) {
	locs := map[string]*location{}
	add := func(exact bool, p string) {
		key := p
		if exact {
			key = "=" + p
		}
		if locs[key] == nil {
			locs[key] = &location{exact: exact, path: p}
		}
	}
	add(false, base)
	for _, e := range editions {
		add(false, base+e)
	}
	for _, r := range rules {
		p, exact, err := pattern(r, base)
		if err != nil {
			return nil, err
		}
		add(exact, p)
	}
	keys := make([]string, 0, len(locs))
	for k := range locs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]*location, 0, len(keys))
	for _, k := range keys {
		l := locs[k]
		l.headers = matchingHeaders(l, rules, base)
		l.notFound = base + "404.html"
		for _, e := range editions { // longest edition prefix wins: sorted by length
			if strings.HasPrefix(l.path, base+e) {
				l.notFound = base + e + "404.html"
			}
		}
		out = append(out, l)
	}
	return out, nil
}

// matchingHeaders returns the headers of the rules that apply to a
// request nginx sends to l, in rule order, a later rule's header
// replacing an earlier one's. Those are exactly the rules whose prefix is
// a prefix of the location's path (every rule has a location of its own,
// so a longer prefix has a longer location), and the exact rule of the
// same path. The rules' patterns must have been checked by pattern.
func matchingHeaders(l *location, rules []preview.Rule, base string) []header {
	var hs []header
	for _, r := range rules {
		p, exact, _ := pattern(r, base)
		if exact && (!l.exact || p != l.path) || !exact && !strings.HasPrefix(l.path, p) {
			continue
		}
		for _, f := range r.Fields {
			hs = setHeader(hs, header{f.Name, f.Value})
		}
	}
	return hs
}

// confWriter accumulates nginx.conf.
type confWriter struct{ strings.Builder }

// line writes one line, formatted as by fmt.Sprintf.
func (b *confWriter) line(format string, args ...any) { fmt.Fprintf(b, format+"\n", args...) }

// writeMain writes the configuration's main and events contexts and the
// http context's settings, up to its server block.
func writeMain(b *confWriter, o Options) {
	w := b.line
	w("# Written by generator nginx-conf from the site's _headers (%s); do not edit, rebuild instead.", o.Base)
	w("# Relative paths are under the nginx prefix: nginx -p PREFIX/ -c PREFIX/nginx.conf -e stderr")
	w("daemon off;")
	w("worker_processes auto;")
	w("user www-data;")
	w("pid nginx.pid;")
	w("error_log stderr;")
	if o.BrotliModule != "" {
		w("load_module %s;", o.BrotliModule)
	}
	w("")
	w("events {")
	w("    worker_connections 1024;")
	w("}")
	w("")
	w("http {")
	w("    include %s;", o.MimeTypes)
	w("    types {")
	w("        text/csv csv;")
	w("    }")
	w("    default_type application/octet-stream;")
	w("    charset utf-8;")
	w("    charset_types text/css text/plain text/xml text/csv application/javascript application/json application/xml application/atom+xml application/rss+xml image/svg+xml;")
	w("    access_log /dev/stdout;")
	w("    sendfile on;")
	w("    server_tokens off;")
	w("    client_body_temp_path client_body_temp;")
	w("    proxy_temp_path proxy_temp;")
	w("    fastcgi_temp_path fastcgi_temp;")
	w("    uwsgi_temp_path uwsgi_temp;")
	w("    scgi_temp_path scgi_temp;")
	w("")
}

// writeServer writes the server block, with the locations that redirect
// or refuse requests outside the site and then locs, and closes the http
// context. The error is the first header value nginx cannot be given.
func writeServer(b *confWriter, o Options, locs []*location) error {
	w := b.line
	w("    server {")
	w("        listen %s;", o.Listen)
	w("        absolute_redirect off;")
	w("        gzip_static on;")
	w("        gzip_vary on;")
	if o.BrotliModule != "" {
		w("        brotli_static on;")
	}
	w("        error_page 403 404 =404 %s404.html;", o.Base)
	w("")
	if o.Base != "/" {
		w("        location = / {")
		w("            return 302 %s;", o.Base)
		w("        }")
		w("        location = %s {", strings.TrimSuffix(o.Base, "/"))
		w("            return 301 %s;", o.Base)
		w("        }")
		w("        location / {")
		w("            return 404;")
		w("        }")
	}
	w("        location ~ /\\. {")
	w("            return 404;")
	w("        }")
	w("        location = %s_headers {", o.Base)
	w("            return 404;")
	w("        }")
	for _, l := range locs {
		if err := writeLocation(b, l, o.Base); err != nil {
			return err
		}
	}
	w("    }")
	w("}")
	return nil
}

// writeLocation writes l's location block, preceded by an empty line: the
// alias of its path in site/, its headers and its 404 page. The error is
// a header value nginx cannot be given.
func writeLocation(b *confWriter, l *location, base string) error {
	w := b.line
	w("")
	if l.exact {
		w("        location = %s {", l.path)
	} else {
		w("        location %s {", l.path)
	}
	w("            alias site/%s;", strings.TrimPrefix(l.path, base))
	for _, h := range l.headers {
		v, err := quote(h.Value)
		if err != nil {
			return fmt.Errorf("_headers: %s: %v", h.Name, err)
		}
		w("            add_header %s %s always;", h.Name, v)
	}
	w("            error_page 403 404 =404 %s;", l.notFound)
	w("        }")
	return nil
}

// pattern turns a rule's path into a location path: "/gpu/assets/*" is
// the prefix "/gpu/assets/", "/gpu/x" the exact path "/gpu/x".
func pattern(r preview.Rule, base string) (p string, exact bool, err error) {
	p, prefix := strings.CutSuffix(r.Pattern, "*")
	if !safePath(p) || strings.ContainsAny(p, "*:") {
		return "", false, fmt.Errorf("_headers:%d: path %q: only a path, or a path ending in *, is supported", r.Line, r.Pattern)
	}
	if !strings.HasPrefix(p, base) {
		return "", false, fmt.Errorf("_headers:%d: path %q is not under the base path %s: was the site built with this -base-url?", r.Line, r.Pattern, base)
	}
	return p, !prefix, nil
}

// setHeader sets h in hs, replacing a header of the same name
// (case-insensitive) in place.
func setHeader(hs []header, h header) []header {
	for i := range hs {
		if strings.EqualFold(hs[i].Name, h.Name) {
			hs[i].Value = h.Value
			return hs
		}
	}
	return append(hs, h)
}

// quote makes v an nginx string. nginx expands "$name" in add_header
// values and has no escape for "$", so a value with one is refused.
func quote(v string) (string, error) {
	if strings.Contains(v, "$") {
		return "", errors.New("a value with \"$\" cannot be written for nginx")
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v) + `"`, nil
}

// notFoundPages lists the site's 404 pages as directories relative to the
// site, shortest first: "" for 404.html, "zh/" for zh/404.html.
func notFoundPages(site string) ([]string, error) {
	if _, err := os.Stat(filepath.Join(site, "404.html")); err != nil {
		return nil, fmt.Errorf("%v (is %s a GPU Atlas build?)", err, site)
	}
	dirs := []string{""}
	entries, err := os.ReadDir(site)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if !e.IsDir() || !safePath("/"+e.Name()) || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if _, err := os.Stat(filepath.Join(site, e.Name(), "404.html")); err == nil {
			dirs = append(dirs, e.Name()+"/")
		}
	}
	sort.SliceStable(dirs, func(i, j int) bool { return len(dirs[i]) < len(dirs[j]) })
	return dirs, nil
}
