package browsertest

import (
	"errors"
	"fmt"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// a11yPages are the pages of every template kind of the real site; the
// test adds the index and first page of any other section of the output,
// so a new template is covered without editing this list.
var a11yPages = []string{
	"",                               // home
	"gpus/",                          // GPU index
	"gpus/h100-sxm5-80gb/",           // a GPU page
	"providers/",                     // provider index
	"providers/aws/",                 // a provider page
	"pricing/",                       // pricing
	"pricing/all/2/",                 // a page of the full price list (previous and next)
	"guides/",                        // guides index
	"guides/why-cloud-gpus/",         // a guide
	"guides/sizing-worked-examples/", // a guide of charts and tables built by the engine
	"faq/",                           // FAQ
	"methodology/",                   // methodology
	"models/",                        // models index
	"models/llama-3-8b/",             // a model page
	"calculator/",                    // calculator (after its engine is ready)
	"no-such-page-for-a11y/",         // 404.html
}

const notFoundPage = "no-such-page-for-a11y/"

// axeSource reads axe-core from node_modules (package.json pins it; the
// lockfile pins its hash).
func axeSource(t *testing.T) string {
	t.Helper()
	file := filepath.Join(testcat.RepoRoot(), "node_modules", "axe-core", "axe.min.js")
	b, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("%s is missing: run npm ci in %s (axe-core is pinned in package.json and package-lock.json)", file, testcat.RepoRoot())
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sitePages returns a11yPages plus, for every other top-level section of
// the built site, its index and its first page.
func sitePages(t *testing.T, dir string) []string {
	t.Helper()
	pages := slices.Clone(a11yPages)
	for _, p := range pages {
		if p != notFoundPage {
			if _, err := os.Stat(filepath.Join(dir, p, "index.html")); err != nil {
				t.Errorf("page /%s is not in the built site: update a11yPages", p)
			}
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "assets" || editionDir(dir, e.Name()) {
			continue
		}
		sec := e.Name() + "/"
		if sec == "pricing/" {
			// /pricing/all/ is the pricing template with every row: the
			// audit of /pricing/ covers it at a fraction of the time.
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, sec, "index.html")); err == nil && !slices.Contains(pages, sec) {
			pages = append(pages, sec)
		}
		subs, _ := os.ReadDir(filepath.Join(dir, sec))
		have := false
		for _, p := range pages {
			if strings.HasPrefix(p, sec) && p != sec {
				have = true
			}
		}
		for _, s := range subs {
			if have {
				break
			}
			if _, err := os.Stat(filepath.Join(dir, sec, s.Name(), "index.html")); s.IsDir() && err == nil {
				pages = append(pages, sec+s.Name()+"/")
				have = true
			}
		}
	}
	// Every other edition has the same page set under /<code>/: audit each
	// template there too (other languages' text can break contrast or
	// layout, and their markup carries lang).
	for _, e := range entries {
		if e.IsDir() && editionDir(dir, e.Name()) {
			for _, p := range pages[:len(pages):len(pages)] {
				pages = append(pages, e.Name()+"/"+p)
			}
		}
	}
	return pages
}

// editionDir reports whether name is a language edition's folder of the
// built site (it has its own home page and 404 page).
func editionDir(dir, name string) bool {
	for _, f := range []string{"index.html", "404.html"} {
		if _, err := os.Stat(filepath.Join(dir, name, f)); err != nil {
			return false
		}
	}
	return true
}

type axeNode struct {
	Target  []any  `json:"target"`
	Summary string `json:"failureSummary"`
	HTML    string `json:"html"`
}

type axeViolation struct {
	ID     string    `json:"id"`
	Impact string    `json:"impact"`
	Help   string    `json:"help"`
	Nodes  []axeNode `json:"nodes"`
}

// axeRun injects axe-core into the page and runs the WCAG 2.1 A and AA
// rules, and the best-practice rule that every landmark of a kind has its
// own name (two unnamed search forms on /search/ were one landmark twice).
func axeRun(b *Browser, axe string) []axeViolation {
	b.t.Helper()
	b.Eval(`(() => { if (!window.axe) { (0, eval)(`+jsString(axe)+`); } return true; })()`, nil)
	var v []axeViolation
	b.Eval(`axe.run(document, {
		runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
		rules: {"landmark-unique": {enabled: true}},
		resultTypes: ["violations"],
	}).then((r) => r.violations.map((v) => ({id: v.id, impact: v.impact || "", help: v.help,
		nodes: v.nodes.map((n) => ({target: n.target, failureSummary: n.failureSummary || "", html: n.html.slice(0, 200)}))})))`, &v)
	return v
}

// pageName names a page's subtest: its path without slashes ("gpus:h100").
func pageName(p string) string {
	if p == "" {
		return "home"
	}
	return strings.ReplaceAll(strings.Trim(p, "/"), "/", ":")
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\u2028':
			b.WriteString(`\u2028`)
		case '\u2029':
			b.WriteString(`\u2029`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// TestAccessibility runs axe-core's WCAG 2.1 A/AA rules on every page
// template of the real site, in the light and the dark color scheme (so
// color-contrast is checked in both).
func TestAccessibility(t *testing.T) {
	t.Parallel()
	base := Site(t)
	axe := axeSource(t)
	// Every kind of page, and the calculator's ways to pay open (a second
	// WebAssembly module draws them).
	pages := append(sitePages(t, SiteDir(base)), calcPay)
	for _, scheme := range []string{"light", "dark"} {
		t.Run(scheme, func(t *testing.T) {
			t.Parallel()
			b := New(t, base, `HTTP 404 .*/`+notFoundPage+`$`, `status of 404 .*/`+notFoundPage+`$`)
			b.EmulateColorScheme(scheme)
			for _, p := range pages {
				t.Run(pageName(p), func(t *testing.T) {
					b := b.For(t)
					b.Navigate(p)
					var dark bool
					b.Eval(`matchMedia("(prefers-color-scheme: dark)").matches`, &dark)
					if dark != (scheme == "dark") {
						t.Fatalf("prefers-color-scheme: dark matches = %v in the %s scheme", dark, scheme)
					}
					if p == "calculator/" {
						// The engine loads on the reader's first interaction;
						// audit the page as it is once the engine has run.
						wakeCalculator(b)
					}
					if p == calcPay {
						b.Poll(payReady)
					}
					if strings.Contains(p, "pricing/all/") {
						// A page of the full price list holds hundreds of
						// rows of the markup /pricing/ is audited with: audit
						// its own parts (range, paging links) with the first
						// rows, within the step timeout.
						b.Eval(`(() => { for (const r of [...document.querySelectorAll("#prices tbody tr")].slice(20)) r.remove(); return true; })()`, nil)
					}
					for _, v := range axeRun(b, axe) {
						var targets []string
						for i, n := range v.Nodes {
							if i == 10 {
								targets = append(targets, fmt.Sprintf("and %d more", len(v.Nodes)-i))
								break
							}
							targets = append(targets, fmt.Sprint(n.Target...))
						}
						t.Errorf("%s (%s): %s\n\ttargets: %s\n\tfirst: %s\n\t%s", v.ID, v.Impact, v.Help,
							strings.Join(targets, ", "), v.Nodes[0].HTML, strings.ReplaceAll(v.Nodes[0].Summary, "\n", "\n\t"))
					}
				})
			}
		})
	}
}

// TestKeyboardFocusVisible tabs through the home page and checks that every
// element that gets the focus shows it: an outline or a box shadow.
func TestKeyboardFocusVisible(t *testing.T) {
	t.Parallel()
	base := Site(t)
	b := New(t, base)
	b.Navigate("")
	type focused struct {
		Desc    string `json:"desc"`
		Tag     string `json:"tag"`
		Outline string `json:"outline"`
		Width   string `json:"width"`
		Shadow  string `json:"shadow"`
		Visible bool   `json:"visible"`
	}
	seen := map[string]bool{}
	n := 0
	for i := 0; i < 300; i++ {
		b.Tab()
		var f focused
		b.Eval(`(() => {
			const el = document.activeElement;
			if (!el || el === document.body) return {tag: "BODY"};
			const cs = getComputedStyle(el), r = el.getBoundingClientRect();
			const desc = el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.getAttribute("href") ? "[href=" + el.getAttribute("href") + "]" : "") + " " + (el.textContent || "").trim().slice(0, 40);
			return {desc, tag: el.tagName, outline: cs.outlineStyle, width: cs.outlineWidth, shadow: cs.boxShadow,
				visible: r.width > 0 && r.height > 0 && r.bottom > -1 && r.right > -1};
		})()`, &f)
		if f.Tag == "BODY" || seen[f.Desc] {
			break // the focus left the page or came round again
		}
		seen[f.Desc] = true
		n++
		outline := f.Outline != "none" && f.Width != "0px"
		shadow := f.Shadow != "" && f.Shadow != "none"
		if !outline && !shadow {
			t.Errorf("focus on %s shows no outline (style %s, width %s) and no box shadow", f.Desc, f.Outline, f.Width)
		}
		if !f.Visible {
			t.Errorf("focus on %s is off screen", f.Desc)
		}
	}
	if n < 5 {
		t.Errorf("only %d elements took the focus on the home page", n)
	}
	t.Logf("tabbed through %d elements", n)
}
