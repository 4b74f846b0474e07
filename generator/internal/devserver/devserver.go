// Package devserver is the generator's "serve" command: it builds the site,
// serves the output directory on a local address, watches the site's
// sources and rebuilds when they change, and reloads open pages through
// server-sent events. A failed rebuild keeps the previous output on disk
// and in the browser, and shows its positioned errors in an overlay until
// the next build succeeds.
package devserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/output"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/site"
)

// DefaultAddr is where the server listens when Config.Addr is empty.
const DefaultAddr = "127.0.0.1:8080"

// DefaultDebounce is how long the sources must stay quiet before a rebuild
// when Config.Debounce is zero: long enough to gather an editor's
// write-rename-chmod burst (a few milliseconds apart), and a checkout
// touching many files, into one build, yet a small part of the time from
// a save to the reload.
const DefaultDebounce = 30 * time.Millisecond

// Config configures a Server.
type Config struct {
	// Build are the options of every build. Root and Out are made
	// absolute; Reuse is set by the server (see rebuild).
	Build site.Options
	// Today, when set, gives each build its date (site.Today), so a
	// server left running past midnight ages prices like a fresh build
	// would. When nil, Build.Now is kept (site.Today if it is zero).
	Today func() (time.Time, error)
	// Addr is the address to listen on. Empty means DefaultAddr; a bare
	// ":PORT" binds the loopback interface too. To serve other machines,
	// name a host explicitly (0.0.0.0:PORT).
	Addr string
	// Debounce is the quiet period before a rebuild; zero means
	// DefaultDebounce.
	Debounce time.Duration
	// Stdout receives one line per build; Stderr the diagnostics.
	Stdout, Stderr io.Writer
}

// Server is a running dev server. Create it with New and start it with Run.
type Server struct {
	cfg     Config
	root    string // absolute site root
	out     string // absolute output directory
	overlay overlayDir
	started time.Time
	ln      net.Listener
	watch   *watcher

	mu       sync.Mutex // guards the fields below
	seq      int
	buildID  string              // names the output on disk; changes when it does
	failed   []diag.Diagnostic   // errors of the latest build; nil when it succeeded
	prev     *output.Tree        // the latest successful build
	memo     *site.Memo          // its pages, for the next build (see incremental)
	warns    string              // warnings of the latest build, as printed
	basePath string              // the path the latest successful build is served under ("" before one: "/")
	subs     map[chan event]*sub // connected event streams
	// early holds the open pages the build in progress has already
	// rendered (site.Options.Priority), served ahead of the output on
	// disk; they belong to build earlyID, the id the build will have.
	early   map[string][]byte
	earlyID string
}

// sub is one connected event stream: the output file of the page it
// belongs to ("gpus/h100/index.html"; "" when unknown) and the build that
// page shows.
type sub struct {
	page, build string
}

// New checks the configuration, binds the listening socket and starts
// watching the sources; nothing is built or served until Run. Binding first
// reports a busy port at once instead of after the first build.
func New(cfg Config) (*Server, error) {
	s, err := newServer(cfg)
	if err != nil {
		return nil, err
	}
	s.ln, err = net.Listen("tcp", loopbackDefault(s.cfg.Addr))
	if err != nil {
		return nil, err
	}
	s.watch, err = newWatcher(s.root, s.out, s.overlay, s.cfg.Stderr)
	if err != nil {
		s.ln.Close()
		return nil, err
	}
	return s, nil
}

// newServer fills in the defaults; it binds and watches nothing (the HTTP
// handler tests use it directly).
func newServer(cfg Config) (*Server, error) {
	if cfg.Addr == "" {
		cfg.Addr = DefaultAddr
	}
	if cfg.Today == nil && cfg.Build.Now.IsZero() {
		cfg.Today = site.Today
	}
	if cfg.Debounce <= 0 {
		cfg.Debounce = DefaultDebounce
	}
	if cfg.Stdout == nil {
		cfg.Stdout = io.Discard
	}
	if cfg.Stderr == nil {
		cfg.Stderr = io.Discard
	}
	if cfg.Build.Root == "" {
		cfg.Build.Root = "."
	}
	if cfg.Build.Out == "" {
		return nil, errors.New("no output directory")
	}
	root, err := filepath.Abs(cfg.Build.Root)
	if err != nil {
		return nil, err
	}
	out, err := filepath.Abs(cfg.Build.Out)
	if err != nil {
		return nil, err
	}
	cfg.Build.Root = root
	if err := output.CheckTarget(out, cfg.Build.OutputOptions()); err != nil {
		return nil, err
	}
	cfg.Build.Root, cfg.Build.Out, cfg.Build.Dev = root, out, nil
	s := &Server{cfg: cfg, root: root, out: out, started: time.Now(), subs: map[chan event]*sub{}}
	if ov := cfg.Build.Overlay; ov != "" {
		// The build reads the overlay as given (its messages name it so);
		// the watcher needs it absolute.
		abs, err := filepath.Abs(ov)
		if err != nil {
			return nil, err
		}
		s.overlay = overlayDir{abs: abs, label: strings.TrimSuffix(filepath.ToSlash(filepath.Clean(ov)), "/") + "/"}
	}
	s.buildID = s.nextID()
	return s, nil
}

// loopbackDefault turns ":PORT" into "127.0.0.1:PORT": a dev server
// exposes every file of the output, so it binds beyond this machine only
// when told which interface to use.
func loopbackDefault(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err == nil && host == "" {
		return net.JoinHostPort("127.0.0.1", port)
	}
	return addr
}

// Addr returns the address the server listens on (the chosen port when
// Config.Addr asked for port 0).
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Run builds the site, prints where it is served, then serves it and
// rebuilds on every change of the sources until ctx is done. A failed
// first build does not stop the server: the previous output, if any, is
// served with the errors in an overlay, and the next good build replaces it.
// Run closes the listener and the watcher before it returns.
func (s *Server) Run(ctx context.Context) error {
	defer s.ln.Close()
	defer s.watch.close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	// The watcher has run since New, so an edit made during the first
	// build is already queued and triggers a second one.
	paths := make(chan string, 64)
	batches := make(chan []string)
	go s.watch.run(ctx, paths)
	go debounce(ctx, paths, batches, s.cfg.Debounce, 10*s.cfg.Debounce)

	s.rebuild(nil)
	fmt.Fprintf(s.cfg.Stdout, "serving %s on http://%s%s (watching %s)\n", s.out, s.ln.Addr(), s.base(), s.watching())
	if tcp, ok := s.ln.Addr().(*net.TCPAddr); ok && !tcp.IP.IsLoopback() {
		fmt.Fprintf(s.cfg.Stderr, "serve: warning: %s is reachable from other machines\n", s.ln.Addr())
	}

	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		// Event streams end with ctx, so Shutdown does not wait for them.
		BaseContext: func(net.Listener) context.Context { return ctx },
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(s.ln) }()
	for {
		select {
		case batch := <-batches:
			s.rebuild(batch)
		case err := <-served:
			return err
		case <-ctx.Done():
			shut, cancelShut := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancelShut()
			if err := srv.Shutdown(shut); err != nil {
				return err
			}
			if err := <-served; !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			return nil
		}
	}
}

// base is the path the site is served under: the latest successful
// build's base path ("/gpu/" for base_url https://intranet.example/gpu/),
// "/" before one.
func (s *Server) base() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.basePath == "" {
		return "/"
	}
	return s.basePath
}

// watching names what the server watches, for its first line.
func (s *Server) watching() string {
	w := strings.Join(sourceDirs(), ", ")
	if s.overlay.abs != "" {
		w += " and the overlay " + strings.TrimSuffix(s.overlay.label, "/")
	}
	return w
}

// nextID returns a new build identifier. It starts with the server's start
// time, so a page that outlives a server restart reloads when its event
// stream reconnects to the new server.
func (s *Server) nextID() string {
	s.seq++
	return strconv.FormatInt(s.started.UnixNano(), 36) + "-" + strconv.Itoa(s.seq)
}

// rebuild runs one build. changed lists the slash-separated sources (under
// the root) that triggered it; nil means the first build.
//
// What it rebuilds: the catalog, derived data, page data, links and the
// esbuild bundles of static/ are always redone, because one data file
// feeds many pages, but only the data files whose bytes changed are
// decoded again (catalog.Cache, kept in the memo); a page whose data did
// not change is taken from the previous build's memo instead of being
// rendered again (see incremental for when the memo is used). The pages
// open in a browser are rendered first and served from memory at once
// (prioritise); the output on disk gets only the files that changed
// (write). The calculator's WebAssembly is compiled from the
// generator's own Go sources, which cannot change under a running server,
// so every build after the first successful one reuses its bytes
// (site.Dev.Reuse) instead of running "go build" again: that compile
// is most of a full build's time.
func (s *Server) rebuild(changed []string) {
	start := time.Now()
	o := s.cfg.Build
	dev, id := s.startBuild(changed)
	o.Dev = dev
	if changed != nil {
		s.broadcast(event{name: "building", data: jsonString(map[string]any{"changed": changed})})
	}
	res, d := s.build(o)
	took := time.Since(start).Round(time.Millisecond)
	warns := warningText(d)

	s.mu.Lock()
	defer s.mu.Unlock()
	s.early, s.earlyID = nil, ""
	if res == nil {
		s.buildFailedLocked(d, o.Out, changed, warns)
		return
	}
	s.buildSucceededLocked(res, id, changed, took, warns)
}

// startBuild returns the development options of the next build and the
// id its output will have once it succeeds: after a change, the open
// pages are rendered first (prioritise); the previous build's
// WebAssembly is reused, and its memo with (incremental) or without its
// pages.
func (s *Server) startBuild(changed []string) (*site.Dev, string) {
	dev := &site.Dev{}
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.nextID() // this build's, once it succeeds
	if changed != nil {
		s.prioritise(dev, id)
	}
	dev.Reuse = s.prev
	dev.Memo = site.NewMemo()
	if s.memo != nil {
		dev.Memo = s.memo.WithoutPages()
		if s.incremental(changed) {
			dev.Memo = s.memo
		}
	}
	return dev, id
}

// build renders the site with o, dated by Config.Today when set, and
// writes it to the output directory (see write). It returns the result,
// nil when the build or the writing failed, and the build's diagnostics.
func (s *Server) build(o site.Options) (*site.Result, *diag.List) {
	var res *site.Result
	d := &diag.List{}
	if s.cfg.Today != nil {
		now, err := s.cfg.Today()
		if err != nil {
			d.Errorf("SOURCE_DATE_EPOCH", 0, 0, "%v", err)
		}
		o.Now = now
	}
	if !d.HasErrors() {
		res, d = site.Render(o)
	}
	if res != nil {
		if err := s.write(o.Dev.Reuse, res.Tree); err != nil {
			d.Errorf(o.Out, 0, 0, "writing output: %v", err)
			res = nil
		}
	}
	return res, d
}

// warningText returns d's warnings as printed, sorted, one a line.
func warningText(d *diag.List) string {
	var warns bytes.Buffer
	for _, w := range d.Sorted() {
		if w.Severity == diag.Warning {
			fmt.Fprintln(&warns, w.String())
		}
	}
	return warns.String()
}

// updateWarnings prints a build's warnings w when they differ from the
// previous build's, and keeps them for the next. s.mu must be held.
func (s *Server) updateWarnings(w string) {
	if w != s.warns {
		s.printWarnings(w)
	}
	s.warns = w
}

// buildFailedLocked reports a failed build: its errors in d (or "build
// failed" at out when it has none) and its warnings, what is served
// meanwhile, and the errors to the open pages. s.mu must be held.
func (s *Server) buildFailedLocked(d *diag.List, out string, changed []string, warns string) {
	errs := d.Errors()
	if len(errs) == 0 { // Run failed without saying why: never show "0 errors".
		errs = []diag.Diagnostic{{Path: out, Msg: "build failed"}}
	}
	for _, e := range errs {
		fmt.Fprintln(s.cfg.Stderr, e.String())
	}
	s.updateWarnings(warns)
	kept := "; serving the previous output"
	if _, err := os.Stat(s.out); err != nil {
		kept = "; nothing to serve until a build succeeds"
	}
	if len(changed) > 0 {
		kept = " after " + describe(changed) + kept
	}
	fmt.Fprintf(s.cfg.Stdout, "build failed: %d error(s)%s\n", len(errs), kept)
	s.failed = errs
	s.broadcastLocked(s.failedEvent())
}

// buildSucceededLocked makes the successful build res, with id and taking
// took, the one served: it prints its warnings and a line on what it
// built or changed, keeps its tree and memo for the next build, and tells
// the open pages to reload when a file changed or the previous build had
// failed. s.mu must be held.
func (s *Server) buildSucceededLocked(res *site.Result, id string, changed []string, took time.Duration, warns string) {
	s.updateWarnings(warns)
	recovered := s.failed != nil
	s.failed = nil
	s.memo = res.Memo
	s.basePath = res.BasePath
	if changed == nil || s.prev == nil {
		fmt.Fprintf(s.cfg.Stdout, "built %d pages, %d files, %d bytes in %s -> %s\n", res.Pages, res.Files, res.Bytes, took, s.out)
		s.prev = res.Tree
		s.buildID = id
		s.broadcastLocked(event{name: "reload", id: s.buildID, data: jsonString(map[string]any{"build": s.buildID, "changed": res.Files})})
		return
	}
	n := diffTrees(s.prev, res.Tree)
	files := "files"
	if n == 1 {
		files = "file"
	}
	fmt.Fprintf(s.cfg.Stdout, "rebuilt in %s: %d %s changed, %d of %d pages rendered (%s; WebAssembly reused)\n", took, n, files, res.Pages-res.Reused, res.Pages, describe(changed))
	s.prev = res.Tree
	if n > 0 || recovered {
		s.buildID = id
		s.broadcastLocked(event{name: "reload", id: s.buildID, data: jsonString(map[string]any{"build": s.buildID, "changed": n})})
	}
}

// prioritise makes the build with id render the pages open in a browser
// first: each one the edit changed is kept in s.early and its streams are
// told to reload at once, while the rest of the site is still being built
// (a one-price edit shows in the page being looked at in a fraction of
// the rebuild's time). Should the build fail after all, the early pages
// are dropped and the streams get the errors. s.mu must be held.
func (s *Server) prioritise(o *site.Dev, id string) {
	o.Priority = map[string]bool{}
	for _, sb := range s.subs {
		if sb.page != "" {
			o.Priority[sb.page] = true
		}
	}
	o.OnPriority = func(file string, page []byte) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.early == nil {
			s.early = map[string][]byte{}
		}
		s.early[file], s.earlyID = page, id
		ev := event{name: "reload", id: id, data: jsonString(map[string]any{"build": id, "page": file})}
		for ch, sb := range s.subs {
			if sb.page == file && sb.build != id {
				sb.build = id
				s.sendLocked(ch, ev)
			}
		}
	}
}

// write puts a build's tree in the output directory. After a successful
// build it writes only the files that changed since (output.Patch): a
// one-price edit changes a few dozen of the site's thousands of files, and
// rewriting them all took longer than the rebuild itself. The first
// build, and any output that is not the previous build's as written (its
// manifest says otherwise), get the whole tree, written atomically.
func (s *Server) write(prev, next *output.Tree) error {
	oo := s.cfg.Build.OutputOptions()
	if prev != nil {
		if err := output.Patch(s.out, prev, next, oo); err == nil {
			return nil
		}
	}
	return next.Write(s.out, oo)
}

// incremental reports whether a build after these changes may take
// unchanged pages from the previous build's memo: only when every change
// is a catalog entity or a guide (data/gpus/, data/providers/,
// data/offers/, data/models/, content/, and the same in the overlay),
// which reach pages only through their data. Templates, UI strings,
// static files, site.toml, exchange rates and the glossary also shape
// pages through the renderer, so a change there renders everything.
func (s *Server) incremental(changed []string) bool {
	if len(changed) == 0 {
		return false
	}
	for _, c := range changed {
		if s.overlay.label != "" {
			c = strings.TrimPrefix(c, s.overlay.label)
		}
		ok := strings.HasPrefix(c, "content/")
		for _, d := range []string{"gpus", "providers", "offers", "models"} {
			ok = ok || strings.HasPrefix(c, "data/"+d+"/")
		}
		if !ok {
			return false
		}
	}
	return true
}

// describe names the sources behind a build for the terminal:
// "data/gpus/h100.toml" or "data/a.toml and 3 more".
func describe(changed []string) string {
	if len(changed) == 1 {
		return changed[0]
	}
	return fmt.Sprintf("%s and %d more", changed[0], len(changed)-1)
}

// diffTrees counts the output files that differ between two builds:
// added, removed or changed.
func diffTrees(a, b *output.Tree) int {
	n := 0
	for _, p := range b.Paths() {
		old, ok := a.Get(p)
		cur, _ := b.Get(p)
		if !ok || !bytes.Equal(old, cur) {
			n++
		}
	}
	for _, p := range a.Paths() {
		if _, ok := b.Get(p); !ok {
			n++
		}
	}
	return n
}

// within reports whether path p is dir or lies below it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// printWarnings prints a build's warnings when they are few, else their
// count: a catalog with many old prices should not bury the server's own
// lines (`check` lists them all).
func (s *Server) printWarnings(w string) {
	n := strings.Count(w, "\n")
	if n <= 10 {
		io.WriteString(s.cfg.Stderr, w)
		return
	}
	fmt.Fprintf(s.cfg.Stderr, "%d warning(s): run \"go run ./generator check\" to list them\n", n)
}
