package devserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io/fs"
	"net/http"
	"os"
	"path"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/site"
)

// The dev server's own URLs. They live under one prefix that no page of
// the site uses, and are answered before any file of the output.
const (
	prefix      = "/_atlas/"
	eventsPath  = prefix + "events"      // server-sent events: building, reload, build-error
	reloadPath  = prefix + "reload.js"   // the script injected into every served page
	overlayPath = prefix + "overlay.css" // the error overlay's styles (the CSP forbids inline ones)
)

// keepAlive is how often an idle event stream gets a comment line, so that
// proxies keep it open and a closed tab is noticed.
const keepAlive = 20 * time.Second

// ServeHTTP serves the dev server's own URLs and the files of the output
// directory, with the reload script injected into HTML.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	switch r.URL.Path {
	case eventsPath:
		s.events(w, r)
		return
	case reloadPath:
		serveConst(w, r, "text/javascript; charset=utf-8", reloadJS)
		return
	case overlayPath:
		serveConst(w, r, "text/css; charset=utf-8", overlayCSS)
		return
	}
	s.serveFile(w, r)
}

// cleanName turns a request's URL path into a name for os.Root: slash
// separated, relative, without "." or ".." elements ("." for the root).
// Cleaning the path as rooted drops every ".." that would climb above it;
// ok is false for names no file of the output can have.
func cleanName(urlPath string) (name string, ok bool) {
	if strings.ContainsAny(urlPath, "\\\x00") {
		return "", false
	}
	name = strings.TrimPrefix(path.Clean("/"+urlPath), "/")
	if name == "" {
		name = "."
	}
	return name, fs.ValidPath(name)
}

// serveFile serves a file of the output directory. Files are opened
// through an os.Root opened per request: a name cannot climb out of the
// directory, and neither can a symbolic link inside it. (http.Dir stops
// ".." but follows symbolic links anywhere.) A fresh Root per request also
// sees each build's output, which replaces the directory by renaming; a
// request that falls into that swap is retried on the new directory rather
// than answered 404.
//
// A site built for a sub-path (base_url https://intranet.example/gpu/) is
// served under that path, as its links expect: "/" redirects there, and
// a path outside it is not found.
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request) {
	base := s.base()
	rest, inBase := strings.CutPrefix(r.URL.Path, base)
	if !inBase && (r.URL.Path == "/" || r.URL.Path+"/" == base) {
		target := base
		if r.URL.RawQuery != "" {
			target += "?" + r.URL.RawQuery
		}
		http.Redirect(w, r, target, http.StatusFound)
		return
	}
	name, ok := cleanName(rest)
	if !ok || !inBase {
		root, err := os.OpenRoot(s.out)
		if err != nil {
			root = nil
		} else {
			defer root.Close()
		}
		s.notFound(w, r, root)
		return
	}
	s.mu.Lock()
	page, early := s.early[outputFile(rest)]
	id := s.earlyID
	s.mu.Unlock()
	if early {
		s.serveHTMLAs(w, r, http.StatusOK, page, id)
		return
	}
	const attempts = 3
	for i := 1; ; i++ {
		root, err := os.OpenRoot(s.out)
		if err == nil {
			served := s.serveFrom(w, r, root, base, name, i == attempts)
			root.Close()
			if served {
				return
			}
		} else if i == attempts {
			s.notFound(w, r, nil)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// serveFrom serves name from root, the site being served under base.
// When the file is missing and root is no longer the output directory (a
// build swapped it meanwhile), it writes nothing and returns false, unless
// last is set.
func (s *Server) serveFrom(w http.ResponseWriter, r *http.Request, root *os.Root, base, name string, last bool) bool {
	fi, err := root.Stat(name)
	if err == nil && fi.IsDir() {
		if !strings.HasSuffix(r.URL.Path, "/") {
			target := base + name + "/"
			if name == "." {
				target = base
			}
			if r.URL.RawQuery != "" {
				target += "?" + r.URL.RawQuery
			}
			http.Redirect(w, r, target, http.StatusMovedPermanently)
			return true
		}
		name = path.Join(name, "index.html")
		fi, err = root.Stat(name)
	}
	var page []byte
	var f *os.File
	if err == nil && fi.Mode().IsRegular() {
		if path.Ext(name) == ".html" {
			page, err = root.ReadFile(name)
		} else {
			f, err = root.Open(name)
		}
	}
	if err != nil || !fi.Mode().IsRegular() {
		if !last && s.swapped(root) {
			return false
		}
		s.notFound(w, r, root)
		return true
	}
	if f == nil {
		s.serveHTML(w, r, http.StatusOK, page)
		return true
	}
	defer f.Close()
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	http.ServeContent(w, r, name, fi.ModTime(), f)
	return true
}

// swapped reports whether root is no longer the output directory.
func (s *Server) swapped(root *os.Root) bool {
	here, err := root.Stat(".")
	if err != nil {
		return true
	}
	cur, err := os.Stat(s.out)
	return err != nil || !os.SameFile(here, cur)
}

// notFound serves the site's 404.html, or, when there is no output yet (the
// first build failed), a placeholder page that lists the errors and reloads
// once a build succeeds.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request, root *os.Root) {
	if root != nil {
		if b, err := root.ReadFile("404.html"); err == nil {
			s.serveHTML(w, r, http.StatusNotFound, b)
			return
		}
	}
	s.mu.Lock()
	errs := s.failed
	s.mu.Unlock()
	status, title := http.StatusNotFound, "Not found"
	if root == nil {
		if _, err := os.Stat(s.out); err != nil {
			status, title = http.StatusServiceUnavailable, "No successful build yet"
		}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>%s</title><link rel="stylesheet" href="%s"></head><body class="atlas-dev-page"><h1>%s</h1>`,
		html.EscapeString(title), overlayPath, html.EscapeString(title))
	if len(errs) > 0 {
		fmt.Fprintf(&b, "<p>The latest build failed with %d error(s):</p><ul>", len(errs))
		for _, e := range errs {
			fmt.Fprintf(&b, "<li><code>%s</code></li>", html.EscapeString(e.String()))
		}
		b.WriteString("</ul>")
	}
	b.WriteString("<p>This page reloads when a build succeeds.</p></body></html>\n")
	s.serveHTML(w, r, status, b.Bytes())
}

// serveHTML serves a page with the reload script injected, under the CSP
// of the built site so that the dev server breaks what production would.
func (s *Server) serveHTML(w http.ResponseWriter, r *http.Request, status int, page []byte) {
	// Read the build id before the caller read the file: a build finishing
	// in between costs one extra reload, never a missed one.
	s.mu.Lock()
	id := s.buildID
	s.mu.Unlock()
	s.serveHTMLAs(w, r, status, page, id)
}

// serveHTMLAs is serveHTML for a page of build id.
func (s *Server) serveHTMLAs(w http.ResponseWriter, r *http.Request, status int, page []byte, id string) {
	page = inject(page, id)
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", site.CSP)
	h.Set("X-Content-Type-Options", "nosniff")
	if status == http.StatusOK {
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(page))
		return
	}
	h.Set("Content-Length", fmt.Sprint(len(page)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(page)
	}
}

// inject adds the reload script to a page: before </head>, else before
// </body>, else at the end. It is a separate file, not inline code, because
// the site's CSP allows scripts from the site only; data-build tells the
// script which build the page came from.
func inject(page []byte, buildID string) []byte {
	tag := `<script src="` + reloadPath + `" data-build="` + html.EscapeString(buildID) + `" defer></script>`
	lower := bytes.ToLower(page)
	i := bytes.Index(lower, []byte("</head>"))
	if i < 0 {
		i = bytes.LastIndex(lower, []byte("</body>"))
	}
	if i < 0 {
		i = len(page)
	}
	out := make([]byte, 0, len(page)+len(tag))
	out = append(out, page[:i]...)
	out = append(out, tag...)
	return append(out, page[i:]...)
}

// serveConst serves one of the dev server's own files.
func serveConst(w http.ResponseWriter, r *http.Request, contentType, body string) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, "", time.Time{}, strings.NewReader(body))
}

// event is one server-sent event. id, when set, is the build the browser
// will name in Last-Event-ID when it reconnects.
type event struct {
	name, id, data string
}

// write formats the event on the wire.
func (e event) write(w *bytes.Buffer) {
	fmt.Fprintf(w, "event: %s\n", e.name)
	if e.id != "" {
		fmt.Fprintf(w, "id: %s\n", e.id)
	}
	fmt.Fprintf(w, "data: %s\n\n", e.data)
}

// events streams build events to a page. The first event describes the
// current state against the build the page came from (its ?build= or the
// Last-Event-ID of a reconnect): build-error while the latest build failed,
// reload when the output changed since, hello otherwise.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	since := r.URL.Query().Get("build")
	if id := r.Header.Get("Last-Event-ID"); id != "" {
		since = id
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	if r.Method == http.MethodHead {
		return
	}
	ch, first := s.subscribe(since, s.pageFile(r.URL.Query().Get("page")))
	defer s.unsubscribe(ch)
	rc := http.NewResponseController(w)
	var buf bytes.Buffer
	buf.WriteString("retry: 1000\n\n")
	first.write(&buf)
	send := func() bool {
		_, err := w.Write(buf.Bytes())
		buf.Reset()
		return err == nil && rc.Flush() == nil
	}
	if !send() {
		return
	}
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case ev, ok := <-ch:
			if !ok { // too slow to keep up: the browser reconnects and gets the state
				return
			}
			ev.write(&buf)
		case <-tick.C:
			buf.WriteString(": keep-alive\n\n")
		}
		if !send() {
			return
		}
	}
}

// subscribe registers the event stream of the page whose output file is
// page ("" when unknown) and returns its first event. A page served early
// by the build in progress (s.early) is current: it is not told to reload
// until that build is done.
func (s *Server) subscribe(since, page string) (chan event, event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := make(chan event, 16)
	sb := &sub{page: page, build: s.buildID}
	s.subs[ch] = sb
	switch {
	case since != "" && since == s.earlyID:
		// Served early by the build in progress, which is fixing the
		// failure of the last one, if any: the page is current, and
		// the build's own outcome reaches it when it comes.
		sb.build = since
		return ch, event{name: "hello", id: since, data: jsonString(map[string]any{"build": since})}
	case s.failed != nil:
		return ch, s.failedEvent()
	case since != "" && since != s.buildID:
		return ch, event{name: "reload", id: s.buildID, data: jsonString(map[string]any{"build": s.buildID})}
	}
	return ch, event{name: "hello", id: s.buildID, data: jsonString(map[string]any{"build": s.buildID})}
}

// pageFile turns the path of a page the browser shows ("/gpu/zh/gpus/h100/")
// into its output file ("zh/gpus/h100/index.html"); "" for a path outside
// the site or one no page has.
func (s *Server) pageFile(urlPath string) string {
	base := s.base()
	rest, ok := strings.CutPrefix(urlPath, base)
	if !ok {
		return ""
	}
	return outputFile(rest)
}

// outputFile is pageFile for a path under the base path, with the base
// path cut off (rest).
func outputFile(rest string) string {
	name, ok := cleanName(rest)
	switch {
	case !ok:
		return ""
	case name == ".":
		return "index.html"
	case strings.HasSuffix(rest, "/"):
		return name + "/index.html"
	}
	return name
}

// unsubscribe forgets an event stream.
func (s *Server) unsubscribe(ch chan event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.subs[ch] != nil {
		delete(s.subs, ch)
		close(ch)
	}
}

// broadcast sends an event to every stream.
func (s *Server) broadcast(ev event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.broadcastLocked(ev)
}

// broadcastLocked is broadcast with s.mu held. A reload for the build a
// stream's page already shows (served early, see prioritise) is not sent
// to it again.
func (s *Server) broadcastLocked(ev event) {
	for ch, sb := range s.subs {
		if ev.name == "reload" {
			if sb.build == ev.id {
				continue
			}
			sb.build = ev.id
		}
		s.sendLocked(ch, ev)
	}
}

// sendLocked sends an event to one stream, s.mu held. A stream whose
// buffer is full is closed rather than waited for (the browser reconnects
// and gets the state).
func (s *Server) sendLocked(ch chan event, ev event) {
	select {
	case ch <- ev:
	default:
		delete(s.subs, ch)
		close(ch)
	}
}

// failedEvent describes the latest failed build; s.mu must be held.
func (s *Server) failedEvent() event {
	// Each error as check -format json writes it (diag.Record).
	errs := make([]diag.Record, 0, len(s.failed))
	for _, e := range s.failed {
		errs = append(errs, e.Record())
	}
	return event{name: "build-error", id: s.buildID, data: jsonString(map[string]any{"count": len(errs), "errors": errs})}
}

// jsonString marshals v for an event's data line (JSON never holds a raw
// newline, so it fits on one).
func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return `{}`
	}
	return string(b)
}
