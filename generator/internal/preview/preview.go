// Package preview serves a built site the way a production static host
// would: precompressed .br/.gz siblings chosen by Accept-Encoding, the
// headers of the site's _headers file (CSP, caching), 404.html for missing
// pages, and nothing outside the output directory. `make lighthouse` and
// anyone checking a deployment locally use it; the dev server (`serve`)
// is for editing.
package preview

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"strings"
)

// Rule is one block of a _headers file: a path pattern ("/*", "/assets/*"
// or an exact path) and the headers it sets.
type Rule struct {
	Pattern string
	Headers http.Header
	// Line is the pattern's line number (from 1) and Fields the rule's
	// header lines as written, in file order, including those Headers
	// leaves out: for a stricter reader (package nginxconf), which keeps
	// the names as written and the file's order.
	Line   int
	Fields []Field
}

// Field is one indented line of a _headers file.
type Field struct {
	Line        int    // from 1
	Text        string // the line without its indentation
	Name, Value string // either side of its first ":", trimmed
	Colon       bool   // whether it has a ":"; a line without one sets nothing
}

// ParseHeaders reads the Netlify / Cloudflare Pages _headers format.
// Lines that set nothing (a header line before any path, or one without
// ":") are ignored.
func ParseHeaders(b []byte) []Rule {
	rules, _, _ := Parse(b)
	return rules
}

// Parse is ParseHeaders that also returns the header lines before the
// first path (stray), which belong to no rule, and the error that ended
// the reading early (a line over 64 KiB), if any; rules are those read
// until then.
func Parse(b []byte) (rules []Rule, stray []Field, err error) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		if line[0] != ' ' && line[0] != '\t' {
			rules = append(rules, Rule{Pattern: trimmed, Headers: http.Header{}, Line: n})
			continue
		}
		k, v, ok := strings.Cut(trimmed, ":")
		f := Field{Line: n, Text: trimmed, Name: strings.TrimSpace(k), Value: strings.TrimSpace(v), Colon: ok}
		if !ok {
			f.Name = ""
		}
		if len(rules) == 0 {
			stray = append(stray, f)
			continue
		}
		r := &rules[len(rules)-1]
		r.Fields = append(r.Fields, f)
		if ok {
			r.Headers.Set(f.Name, f.Value)
		}
	}
	return rules, stray, sc.Err()
}

// match reports whether a request path matches a _headers pattern.
func match(pattern, p string) bool {
	if strings.HasSuffix(pattern, "*") {
		return strings.HasPrefix(p, strings.TrimSuffix(pattern, "*"))
	}
	return pattern == p
}

// Handler serves dir. Later matching _headers rules override earlier ones.
func Handler(dir string) (http.Handler, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	var rules []Rule
	if b, err := root.ReadFile("_headers"); err == nil {
		rules = ParseHeaders(b)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		p := path.Clean("/" + r.URL.Path)
		name := strings.TrimPrefix(p, "/")
		if name == "" || strings.HasSuffix(r.URL.Path, "/") {
			name = path.Join(name, "index.html")
		}
		if st, err := root.Stat(name); err == nil && st.IsDir() {
			http.Redirect(w, r, r.URL.Path+"/", http.StatusMovedPermanently)
			return
		}
		status := http.StatusOK
		if _, err := root.Stat(name); errors.Is(err, fs.ErrNotExist) || name == "_headers" {
			name, status = "404.html", http.StatusNotFound
			// A language edition's own 404 page, as hosts that look for
			// the nearest 404.html (Cloudflare Pages) serve it.
			if first, _, ok := strings.Cut(strings.TrimPrefix(p, "/"), "/"); ok && first != "" {
				if _, err := root.Stat(first + "/404.html"); err == nil {
					name = first + "/404.html"
				}
			}
		}
		for _, rule := range rules {
			if match(rule.Pattern, p) {
				for k, v := range rule.Headers {
					w.Header()[k] = v
				}
			}
		}
		ctype := mime.TypeByExtension(path.Ext(name))
		if ctype == "" {
			ctype = "application/octet-stream"
		}
		w.Header().Set("Content-Type", ctype)
		w.Header().Add("Vary", "Accept-Encoding")
		accept := r.Header.Get("Accept-Encoding")
		file := name
		for _, enc := range []struct{ token, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
			if strings.Contains(accept, enc.token) {
				if _, err := root.Stat(name + enc.ext); err == nil {
					file = name + enc.ext
					w.Header().Set("Content-Encoding", enc.token)
					break
				}
			}
		}
		b, err := root.ReadFile(file)
		if err != nil {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		w.WriteHeader(status)
		if r.Method == http.MethodGet {
			w.Write(b)
		}
	}), nil
}
