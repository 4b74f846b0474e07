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

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Timeout bounds every single browser step (navigation, query, script).
const Timeout = 30 * time.Second

// Chromium returns the path of the Chromium binary. With -short it skips
// the test (the browser tier is the slow one; make test-fast leaves it to
// make test). Without a binary it skips the test when
// GPU_ATLAS_SKIP_BROWSER=1, else fails it.
func Chromium(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test: skipped with -short (make test runs it)")
	}
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
	// A start that fails is tried once more with a fresh profile: on a
	// loaded 2-core CI machine Chromium has been seen to exit before it
	// printed its DevTools address, a failure of the machine, not of a page.
	var ctx context.Context
	var cancelAlloc, cancelTab context.CancelFunc
	start := time.Now()
	for try := 1; ; try++ {
		var actx context.Context
		actx, cancelAlloc = chromedp.NewExecAllocator(context.Background(), append(opts, chromedp.UserDataDir(t.TempDir()))...)
		ctx, cancelTab = chromedp.NewContext(actx, chromedp.WithListener(b.listen))
		err := chromedp.Do(ctx) // starts the browser, no timeout
		if err == nil {
			break
		}
		cancelTab()
		cancelAlloc()
		if try == 2 {
			t.Fatalf("starting %s: %v", exe, err)
		}
		t.Logf("starting %s failed, trying again: %v", exe, err)
	}
	b.ctx = ctx
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
// chromedp/kb for named keys, e.g. kb.Tab), as a keyboard does: each key
// down carries the character it types, so a keydown handler that calls
// preventDefault also stops the typing (the "/" that focuses a search box
// is not typed into it). chromedp.KeyEvent sends the character as a
// separate event that preventDefault does not stop.
func (b *Browser) Press(keys string) {
	b.t.Helper()
	run(b, "press keys", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for _, r := range keys {
			evs := kb.Encode(r)
			if len(evs) == 3 { // key down, char, key up: one key down with the text
				down := *evs[0]
				down.Text, down.UnmodifiedText = evs[1].Text, evs[1].UnmodifiedText
				evs = []*input.DispatchKeyEventParams{&down, evs[2]}
			}
			for _, ev := range evs {
				if _, err := cdp.Call(ctx, t, input.DispatchKeyEvent, *ev); err != nil {
					return err
				}
			}
		}
		return nil
	}))
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

// Poll waits until the JavaScript expression is truthy, evaluating it on
// every animation frame, for at most Timeout. When the time runs out it
// fails the test with the expression and the value of each show
// expression: the state of the page that did not become what was awaited.
func (b *Browser) Poll(expr string, show ...string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, Timeout+5*time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(Timeout)))
	if err == nil {
		return
	}
	var state []string
	for _, s := range show {
		ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
		raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](s))
		cancel()
		if err != nil {
			state = append(state, fmt.Sprintf("\n\t%s: %v", s, err))
		} else {
			state = append(state, fmt.Sprintf("\n\t%s = %s", s, raw))
		}
	}
	b.t.Fatalf("waiting for %s: %v%s", expr, err, strings.Join(state, ""))
}

// Follow runs do, a step that makes the tab load a page (a click on a
// link, Enter in a search box, a script's location.reload()), and waits
// until that page has loaded, for at most timeout (Timeout when 0). do
// uses the helpers as usual; the wait starts listening before it runs, so
// a fast load is not missed.
func (b *Browser) Follow(timeout time.Duration, do func()) {
	b.t.Helper()
	if timeout <= 0 {
		timeout = Timeout
	}
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	_, err := chromedp.RunResponse(ctx, chromedp.Func(func(context.Context, *chromedp.Target) error {
		do()
		return nil
	}))
	if err != nil {
		b.t.Fatalf("waiting for the page to load: %v", err)
	}
}

// Visible reports whether an element matches the CSS selector and is
// rendered: it has a layout box (no display:none on it or an ancestor, so
// not hidden by the hidden attribute) and is not visibility:hidden.
func (b *Browser) Visible(sel string) bool {
	b.t.Helper()
	selArg, _ := json.Marshal(sel)
	var v bool
	b.Eval(`(el => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden")(document.querySelector(`+string(selArg)+`))`, &v)
	return v
}

// Download clicks the element the way Click does, waits for the download
// it starts (a link, or a script's blob URL) to complete, and returns the
// file name the page suggested and the bytes saved. Downloads go to a
// temporary directory of the test.
func (b *Browser) Download(sel string) (name string, data []byte) {
	b.t.Helper()
	dir := b.t.TempDir()
	ctx, cancel := context.WithTimeout(b.ctx, Timeout)
	defer cancel()
	evs := make(chan any, 256)
	if err := chromedp.Listen(ctx, func(ev any) {
		switch ev.(type) {
		case *browser.EventDownloadWillBegin, *browser.EventDownloadProgress:
			select {
			case evs <- ev:
			default: // a flood of progress events: the last one is sent again at the end
			}
		}
	}); err != nil {
		b.t.Fatalf("download: %v", err)
	}
	on := true
	run(b, "allow downloads", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
			Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: &on})
		return err
	}))
	b.Click(sel)
	guid := ""
	for {
		select {
		case ev := <-evs:
			switch ev := ev.(type) {
			case *browser.EventDownloadWillBegin:
				if guid == "" {
					guid, name = ev.GUID, ev.SuggestedFilename
				}
			case *browser.EventDownloadProgress:
				if ev.GUID != guid {
					continue
				}
				switch ev.State {
				case browser.DownloadProgressStateCanceled:
					b.t.Fatalf("the download started by clicking %s (%s) was canceled", sel, name)
				case browser.DownloadProgressStateCompleted:
					data, err := os.ReadFile(filepath.Join(dir, guid))
					if err != nil {
						b.t.Fatalf("the download started by clicking %s: %v", sel, err)
					}
					return name, data
				}
			}
		case <-ctx.Done():
			b.t.Fatalf("clicking %s started no completed download within %v (started: %v)", sel, Timeout, guid != "")
		}
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

// AddInitScript runs js in every document the tab loads from now on,
// before the page's own scripts.
func (b *Browser) AddInitScript(js string) {
	b.t.Helper()
	run(b, "add init script", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: js})
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
