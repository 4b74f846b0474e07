// Package browsertest is the one harness of the page-level tests: it builds
// a site once per test binary and serves it on 127.0.0.1 (Site, BuildRepo,
// BuildFixture), and drives Debian's headless Chromium over the DevTools
// protocol (New), failing a test on any console error, uncaught exception,
// failed request or HTTP error status, with a full-page screenshot of the
// failed page.
//
// Chromium is found in $CHROMIUM, then as "chromium" on $PATH, then at
// /usr/bin/chromium. Without it a test fails, unless GPU_ATLAS_SKIP_BROWSER=1
// is set, when it is skipped. No tool downloads a browser of its own.
package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Timeout bounds every single browser step (navigation, query, script).
var Timeout = 30 * time.Second

// Chromium returns the path of the Chromium binary. Without one it skips
// the test when GPU_ATLAS_SKIP_BROWSER=1, else fails it.
func Chromium(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("CHROMIUM"); p != "" {
		abs, err := exec.LookPath(p)
		if err != nil {
			t.Fatalf("CHROMIUM=%s: %v", p, err)
		}
		return abs
	}
	for _, p := range []string{"chromium", "/usr/bin/chromium"} {
		if abs, err := exec.LookPath(p); err == nil {
			return abs
		}
	}
	if os.Getenv("GPU_ATLAS_SKIP_BROWSER") == "1" {
		t.Skip("no chromium; skipped because GPU_ATLAS_SKIP_BROWSER=1")
	}
	t.Fatal("browser tests need chromium: install chromium (Debian: apt-get install -y chromium) or set GPU_ATLAS_SKIP_BROWSER=1")
	return ""
}

// Browser is one headless Chromium with one tab, bound to one test.
type Browser struct {
	t    testing.TB
	base string
	ctx  context.Context
	*shared
}

// shared is the state of a tab that every view of it (For) shares.
type shared struct {
	allow []*regexp.Regexp

	mu       sync.Mutex
	problems []string // not yet reported
	urls     map[network.RequestID]string
	shot     bool // the page is captured since the last navigation
}

// New starts headless Chromium with a fresh profile and one tab, and
// returns it. baseURL is what Navigate resolves relative paths against.
//
// From then until the test ends the browser records every console.error
// call, uncaught exception, browser-log error, failed request and response
// with status >= 400; at cleanup each one fails the test, except those that
// match one of the allow regular expressions (for a test that expects a
// 404, say). When the test failed, a full-page screenshot of the tab is
// saved under $TMPDIR/gpu-atlas-failures/ and its path logged.
func New(t testing.TB, baseURL string, allow ...string) *Browser {
	t.Helper()
	exe := Chromium(t)
	b := &Browser{t: t, base: baseURL, shared: &shared{urls: map[network.RequestID]string{}}}
	for _, a := range allow {
		b.allow = append(b.allow, regexp.MustCompile(a))
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1280, 900),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx, chromedp.WithListener(b.listen))
	b.ctx = ctx
	start := time.Now()
	if err := chromedp.Do(ctx); err != nil { // starts the browser, no timeout
		cancelTab()
		cancelAlloc()
		t.Fatalf("starting %s: %v", exe, err)
	}
	t.Logf("chromium started in %v", time.Since(start).Round(time.Millisecond))
	t.Cleanup(func() {
		defer cancelAlloc()
		defer cancelTab()
		b.report()
	})
	return b
}

// For returns a view of the same tab bound to another test, typically a
// subtest: its helpers fail that test, and at its cleanup the problems the
// browser recorded meanwhile fail it, with a screenshot when it failed.
func (b *Browser) For(t testing.TB) *Browser {
	v := &Browser{t: t, base: b.base, ctx: b.ctx, shared: b.shared}
	t.Cleanup(v.report)
	return v
}

// report fails the test with the problems recorded and not yet reported,
// and saves a screenshot when the test failed.
func (b *Browser) report() {
	b.mu.Lock()
	problems := b.problems
	b.problems = nil
	b.mu.Unlock()
	for _, p := range problems {
		b.t.Errorf("browser: %s", p)
	}
	b.mu.Lock()
	shot := b.shot
	b.mu.Unlock()
	if b.t.Failed() && !shot { // a parent test fails with its subtest: one screenshot
		b.screenshot()
	}
}

// listen runs in the tab's message loop: it must return fast and send no
// command.
func (b *Browser) listen(ev any) {
	var p string
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type != runtime.ConsoleAPICalledTypeError && ev.Type != runtime.ConsoleAPICalledTypeAssert {
			return
		}
		var args []string
		for _, a := range ev.Args {
			args = append(args, remoteText(a))
		}
		p = "console." + string(ev.Type) + ": " + strings.Join(args, " ")
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		p = "uncaught exception: " + d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			p += " " + d.Exception.Description
		}
		if d.URL != "" {
			p += fmt.Sprintf(" (%s:%d:%d)", d.URL, d.LineNumber+1, d.ColumnNumber+1)
		}
	case *cdplog.EventEntryAdded:
		if e := ev.Entry; e.Level == cdplog.EntryLevelError {
			p = "browser log (" + string(e.Source) + "): " + e.Text
			if e.URL != "" {
				p += " " + e.URL
			}
		}
	case *network.EventRequestWillBeSent:
		b.mu.Lock()
		b.urls[ev.RequestID] = ev.Request.Method + " " + ev.Request.URL
		if ev.Type == network.ResourceTypeDocument {
			b.shot = false // a new page
		}
		b.mu.Unlock()
		return
	case *network.EventResponseReceived:
		if r := ev.Response; r.Status >= 400 {
			p = fmt.Sprintf("HTTP %d %s", r.Status, r.URL)
		}
	case *network.EventLoadingFailed:
		if ev.Canceled {
			return
		}
		b.mu.Lock()
		u := b.urls[ev.RequestID]
		b.mu.Unlock()
		p = "request failed: " + ev.ErrorText + " " + u
	}
	if p == "" {
		return
	}
	for _, re := range b.allow {
		if re.MatchString(p) {
			return
		}
	}
	b.mu.Lock()
	b.problems = append(b.problems, p)
	b.mu.Unlock()
}

func remoteText(o *runtime.RemoteObject) string {
	if o == nil {
		return ""
	}
	if len(o.Value) > 0 {
		var s string
		if json.Unmarshal(o.Value, &s) == nil {
			return s
		}
		return string(o.Value)
	}
	if o.Description != "" {
		return o.Description
	}
	return string(o.Type)
}

// Problems returns what the browser recorded (console errors, exceptions,
// failed requests) that no allow pattern matched and no cleanup reported
// yet.
func (b *Browser) Problems() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.problems...)
}

// Context returns the tab's chromedp context, for actions the helpers lack.
// Derive a context with a timeout from it for each step.
func (b *Browser) Context() context.Context { return b.ctx }

// run runs one action with the step timeout and fails the test on error.
func run[T any](b *Browser, what string, a chromedp.Action[T]) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, Timeout)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
	return v
}

// URL resolves a path against the base URL; an absolute URL is returned as
// it is.
func (b *Browser) URL(p string) string {
	if strings.Contains(p, "://") {
		return p
	}
	return strings.TrimSuffix(b.base, "/") + "/" + strings.TrimPrefix(p, "/")
}

// Navigate loads a page (a path relative to the base URL, or a URL) and
// waits for its load event.
func (b *Browser) Navigate(p string) {
	b.t.Helper()
	run(b, "navigate to "+p, chromedp.Navigate(b.URL(p)))
}

// Reload reloads the page and waits for its load event.
func (b *Browser) Reload() {
	b.t.Helper()
	run(b, "reload", chromedp.Reload())
}

// Location returns the tab's current URL.
func (b *Browser) Location() string {
	b.t.Helper()
	return run(b, "location", chromedp.Location())
}

// WaitReady waits until an element matches the CSS selector, for example
// `#calc[data-ready=true]`.
func (b *Browser) WaitReady(sel string) {
	b.t.Helper()
	run(b, "wait for "+sel, chromedp.WaitReady(chromedp.CSS(sel)))
}

// WaitVisible waits until the element is visible.
func (b *Browser) WaitVisible(sel string) {
	b.t.Helper()
	run(b, "wait for visible "+sel, chromedp.WaitVisible(chromedp.CSS(sel)))
}

// Text returns the text content of the first element matching the CSS
// selector, with surrounding white space trimmed.
func (b *Browser) Text(sel string) string {
	b.t.Helper()
	return strings.TrimSpace(run(b, "text of "+sel, chromedp.TextContent(chromedp.CSS(sel), chromedp.NodeReady)))
}

// Click clicks the element the way a user does: a mouse press and release
// at its centre, after scrolling it into view.
func (b *Browser) Click(sel string) {
	b.t.Helper()
	run(b, "click "+sel, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
}

// Press sends key strokes to the focused element (see package
// chromedp/kb for named keys, e.g. kb.Tab).
func (b *Browser) Press(keys string) {
	b.t.Helper()
	run(b, "press keys", chromedp.KeyEvent(keys))
}

// Tab presses the Tab key once.
func (b *Browser) Tab() { b.t.Helper(); b.Press(kb.Tab) }

// setValueJS sets a form control's value as a user would: focus, the new
// value, then the input and change events. It throws when a select has no
// such option, so a typo in a test does not go unnoticed.
const setValueJS = `((sel, v) => {
	const el = document.querySelector(sel);
	el.focus();
	el.value = v;
	if (el.value !== v) throw new Error("value " + JSON.stringify(v) + " not accepted by " + sel);
	el.dispatchEvent(new Event("input", {bubbles: true}));
	el.dispatchEvent(new Event("change", {bubbles: true}));
})`

// SetValue sets the value of an input or select and fires the input and
// change events a user's edit fires.
func (b *Browser) SetValue(sel, value string) {
	b.t.Helper()
	b.WaitReady(sel)
	arg, _ := json.Marshal(value)
	selArg, _ := json.Marshal(sel)
	run(b, fmt.Sprintf("set %s to %q", sel, value),
		chromedp.Evaluate[chromedp.Void](setValueJS+"("+string(selArg)+", "+string(arg)+")"))
}

// SetChecked sets a checkbox by clicking it when its state differs.
func (b *Browser) SetChecked(sel string, on bool) {
	b.t.Helper()
	var checked bool
	b.Eval(fmt.Sprintf("document.querySelector(%q).checked", sel), &checked)
	if checked != on {
		b.Click(sel)
	}
	b.Eval(fmt.Sprintf("document.querySelector(%q).checked", sel), &checked)
	if checked != on {
		b.t.Fatalf("clicking %s did not set checked=%v", sel, on)
	}
}

// Eval evaluates a JavaScript expression, awaiting a promise, and decodes
// its JSON value into out (nil ignores it).
func (b *Browser) Eval(expr string, out any) {
	b.t.Helper()
	raw := run(b, "eval "+abbrev(expr), chromedp.Evaluate[[]byte](expr, chromedp.EvalAwaitPromise))
	if out == nil {
		return
	}
	if err := json.Unmarshal(raw, out); err != nil {
		b.t.Fatalf("eval %s: decoding %s: %v", abbrev(expr), abbrev(string(raw)), err)
	}
}

// EmulateColorScheme emulates prefers-color-scheme ("light", "dark", or ""
// for no override).
func (b *Browser) EmulateColorScheme(scheme string) {
	b.t.Helper()
	p := emulation.SetEmulatedMediaParams{}
	if scheme != "" {
		p.Features = []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}
	}
	run(b, "emulate "+scheme, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, p)
		return err
	}))
}

// Screenshot saves a full-page PNG screenshot to file.
func (b *Browser) Screenshot(file string) error {
	ctx, cancel := context.WithTimeout(b.ctx, Timeout)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		return err
	}
	return os.WriteFile(file, buf, 0o644)
}

// screenshot saves the failed test's page under $TMPDIR/gpu-atlas-failures.
func (b *Browser) screenshot() {
	dir := filepath.Join(os.TempDir(), "gpu-atlas-failures")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.t.Logf("screenshot: %v", err)
		return
	}
	name := regexp.MustCompile(`[^A-Za-z0-9._-]+`).ReplaceAllString(b.t.Name(), "_")
	file := filepath.Join(dir, name+"-"+time.Now().Format("150405.000")+".png")
	if err := b.Screenshot(file); err != nil {
		b.t.Logf("screenshot: %v", err)
		return
	}
	b.mu.Lock()
	b.shot = true
	b.mu.Unlock()
	b.t.Logf("screenshot of the failed page: %s", file)
}

func abbrev(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}
