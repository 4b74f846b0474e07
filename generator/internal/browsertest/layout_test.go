package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// layoutRules names the rules of layoutJS, in report order.
var layoutRules = []string{"scroll", "answer", "small", "broken", "overlap", "tap"}

// layoutRuleHelp says what each rule requires.
var layoutRuleHelp = map[string]string{
	"scroll":  "no horizontal scrolling of the page itself (a wide table or code block scrolls in its own container)",
	"answer":  "the column that answers a table's question (its th[data-answer], else the first after the row header: the price, the fit) is on screen before any sideways scroll",
	"small":   "no rendered text under 12 px (SVG text at its rendered size)",
	"broken":  "no word broken across lines inside a run of letters and digits (breaks at _ - . / and spaces are deliberate)",
	"overlap": "no text box overlapping another text box",
	"tap":     "tap targets at least 24 x 24 px, unless inline in a sentence or spaced as WCAG 2.5.8 allows",
}

// layoutViewports are the widths the rules must hold at: a phone (mobile
// emulation, as a 390 px wide handset lays out a page with
// width=device-width) and a desktop.
var layoutViewports = []struct {
	Name          string
	Width, Height int64
	Mobile        bool
}{{"390", 390, 844, true}, {"1280", 1280, 900, false}}

// layoutExtraPages are page shapes sitePages does not pick: a search
// results page, a guide with long inline code, the GPU index by price,
// the instance comparison with three offers, a GPU page with every
// optional offer column chosen, and the calculator's answers to a 70B
// QLoRA and a 70B serving case and the ways to pay for a Llama 3.1 8B
// load in both editions (drawn by the WebAssembly modules from the
// query), guides and the methodology with
// wide Markdown tables, the Chinese home, provider index, price matrix
// and price list. (A page of the full price list,
// /pricing/all/2/, is among sitePages.)
var layoutExtraPages = []string{"search/?q=h100", "guides/cost-optimisation/", "gpus/by-price/",
	layoutInstancesPage, "gpus/h100-sxm5-80gb/?cols=vcpu,ram,regions,ic,pergb,tpd",
	calcQLoRA, "zh/" + calcQLoRA, calcServing, "zh/" + calcServing, calcPay, "zh/" + calcPay,
	"guides/five-dimensions/", "zh/guides/five-dimensions/", "zh/methodology/",
	"zh/", "zh/providers/", "zh/matrix/", "matrix/providers/", "zh/pricing/", "zh/gpus/h100-sxm5-80gb/", "zh/tco/",
	"zh/gpus/a40/", "gpus/a40/", "models/llama-3-70b/", "zh/models/llama-3-70b/", "zh/providers/jarvislabs/", "providers/jarvislabs/", "zh/guides/why-cloud-gpus/",
	"guides/sizing-worked-examples/", "zh/guides/sizing-worked-examples/"}

// The calculator cases of layoutExtraPages.
const (
	calcQLoRA   = "calculator/?model=llama-3-1-70b&workload=qlora&gpu=a100-sxm4-80gb"
	calcServing = "calculator/?model=llama-3-1-70b&workload=inference&gpu=h100-sxm5-80gb&prompt=1024"
	calcPay     = "calculator/?model=llama-3-1-8b#pay"
)

// layoutInstancesPage is the instance comparison of three offers.
const layoutInstancesPage = "compare/instances/?o=aws/p5-48xlarge&o=lambda/gpu-8x-h100-sxm5&o=runpod/1x-h100-sxm-community-cloud"

// layoutReady holds, for a page whose script draws its content from
// fetched data, an expression that is truthy once that content is on the
// page: the rules are checked on what the reader sees, not on the page
// before its data arrives.
var layoutReady = map[string]string{
	"search/?q=h100":    `document.querySelector("#search-page-results li")`,
	layoutInstancesPage: `document.querySelector("#instances-out table")`,
	"gpus/h100-sxm5-80gb/?cols=vcpu,ram,regions,ic,pergb,tpd": `document.getElementById("col-tpd").checked`,
	calcQLoRA:           calcReady,
	"zh/" + calcQLoRA:   calcReady,
	calcServing:         calcReady,
	"zh/" + calcServing: calcReady,
	calcPay:             payReady,
	"zh/" + calcPay:     payReady,
}

// payReady is true once the calculator has drawn the ways to pay.
const payReady = `document.querySelector('#calc[data-ready="true"]') && document.querySelectorAll("#pay-table tbody tr").length > 1 && document.getElementById("pay-note").hidden`

// calcReady is true once the calculator has drawn the engine's answer.
const calcReady = `document.querySelector('#calc[data-ready="true"]')`

// layoutJS checks the layout rules on the page as rendered and returns,
// for each rule, the breaches found (a short description of each).
//
//   - scroll: the document is wider than the viewport; the widest
//     offenders (elements reaching past the right edge outside any
//     clipping or scrolling container) are named.
//   - small: a visible text node whose font size is under 12 CSS px (for
//     SVG text, the font size times the drawing's scale on screen).
//   - broken: a run of letters and digits (a number with its decimal
//     point counts as one run) whose characters lie on more than one
//     line. Runs of CJK characters, which break anywhere, are exempt.
//   - overlap: the line boxes of two different visible text nodes
//     intersect (more than 1 px wide and 30 % of the lower one's height),
//     after clipping each to its scrolling containers.
//   - tap: a link, button, form control or summary under 24 x 24 px (the
//     part of it its scrolling containers show),
//     unless it is an inline link in a block holding other words (WCAG
//     2.5.8 "inline"), or a 24 px circle centred on it meets no other
//     target and no other undersized target's circle (WCAG 2.5.8
//     "spacing"). A checkbox or radio counts with its label.
const layoutJS = `(() => {
const out = {scroll: [], answer: [], small: [], broken: [], overlap: [], tap: []};
const vw = document.documentElement.clientWidth;
const name = (el) => {
	if (!el || el.nodeType !== 1) return "?";
	let s = el.tagName.toLowerCase();
	if (el.id) s += "#" + el.id;
	const cls = typeof el.className === "string" ? el.className.trim() : (el.getAttribute("class") || "");
	if (cls) s += "." + cls.split(/\s+/).join(".");
	return s;
};
const where = (el) => {
	const parts = [];
	for (let e = el; e && e !== document.body && parts.length < 4; e = e.parentElement) parts.unshift(name(e));
	return parts.join(" > ");
};
const snip = (s) => { s = s.replace(/\s+/g, " ").trim(); return s.length > 40 ? s.slice(0, 37) + "..." : s; };
const styles = new Map();
const cs = (el) => { let s = styles.get(el); if (!s) { s = getComputedStyle(el); styles.set(el, s); } return s; };
const clipsX = (el) => cs(el).overflowX !== "visible";
const clipping = (el) => { const s = cs(el); return s.overflowX !== "visible" || s.overflowY !== "visible"; };
// Elements the reader cannot see: no box, visibility hidden, or inside a
// 1 px clipped box (the visually-hidden pattern for screen readers).
const hiddenMemo = new Map();
const hidden = (el) => {
	if (!el || el === document.documentElement) return false;
	if (hiddenMemo.has(el)) return hiddenMemo.get(el);
	let h = false;
	const s = cs(el);
	// checkVisibility also sees content-visibility: hidden, which keeps the
	// boxes of a closed <details> element's content but does not paint them.
	if (el.getClientRects().length === 0 || !el.checkVisibility({contentVisibilityAuto: true, opacityProperty: true, visibilityProperty: true})) h = true;
	else if (clipping(el)) { const r = el.getBoundingClientRect(); if (r.width <= 1 || r.height <= 1) h = true; }
	if (!h) h = hidden(el.parentElement);
	hiddenMemo.set(el, h);
	return h;
};
// The visible part of a rectangle: clipped by every clipping ancestor.
const clipMemo = new Map();
const clipOf = (el) => {
	if (!el || el === document.documentElement || el === document.body) return null;
	if (clipMemo.has(el)) return clipMemo.get(el);
	let c = clipOf(el.parentElement);
	if (clipping(el) && !(el instanceof SVGElement && !(el instanceof SVGSVGElement))) {
		const r = el.getBoundingClientRect();
		const b = {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
		c = c ? {left: Math.max(c.left, b.left), top: Math.max(c.top, b.top), right: Math.min(c.right, b.right), bottom: Math.min(c.bottom, b.bottom)} : b;
	}
	clipMemo.set(el, c);
	return c;
};
const clip = (r, el) => {
	const c = clipOf(el);
	if (!c) return r;
	const x = {left: Math.max(r.left, c.left), top: Math.max(r.top, c.top), right: Math.min(r.right, c.right), bottom: Math.min(r.bottom, c.bottom)};
	return x.right > x.left && x.bottom > x.top ? x : null;
};

// scroll
const sw = document.documentElement.scrollWidth;
if (sw > vw + 1) {
	const wide = [];
	const walk = (el) => {
		for (const c of el.children) {
			if (hidden(c)) continue;
			const r = c.getBoundingClientRect();
			if (r.right > vw + 1) {
				const deeper = wide.length;
				if (!clipsX(c)) walk(c);
				if (wide.length === deeper) wide.push(where(c) + " reaches " + Math.round(r.right) + " px");
			} else if (!clipsX(c)) walk(c);
		}
	};
	walk(document.body);
	out.scroll.push("page is " + sw + " px wide in a " + vw + " px viewport: " + wide.slice(0, 3).join("; "));
}

// answer: in every table shown, the answering column's header is within
// the viewport (and its table's scroll box) as the page opens.
for (const table of document.querySelectorAll("table")) {
	if (hidden(table) || table.closest("[hidden]") || table.closest("details:not([open])")) continue;
	const head = table.tHead && table.tHead.rows[0];
	if (!head || head.cells.length < 2) continue;
	const th = head.querySelector("th[data-answer]") || head.cells[1];
	const r = th.getBoundingClientRect();
	if (r.width < 1) continue;
	const c = clipOf(th);
	// A header clipped to nothing is visually hidden: the table shows as
	// cards on a phone, each with its price first.
	if (hidden(head) || (c && c.right - c.left < 4)) continue;
	const right = Math.min(vw, c ? c.right : vw);
	if (r.right > right + 1) out.answer.push(where(table) + " column " + JSON.stringify(snip(th.textContent)) + " ends at " + Math.round(r.right) + " px, past " + Math.round(right) + " px");
}

// text nodes
const skip = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "OPTION", "TEMPLATE", "TITLE", "TEXTAREA"]);
const tw = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
const boxes = [];
const range = document.createRange();
const token = /[\p{L}\p{N}]+(?:[.,]\p{N}+)*/gu;
const cjk = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/;
let idx = 0;
for (let n = tw.nextNode(); n; n = tw.nextNode()) {
	const el = n.parentElement;
	if (!el || !/\S/.test(n.data) || skip.has(el.tagName) || el.closest("select") || hidden(el)) continue;
	idx++;
	const svg = el instanceof SVGElement;
	let size = parseFloat(cs(el).fontSize);
	if (svg) {
		const m = el.getScreenCTM ? el.getScreenCTM() : null;
		if (m) size *= Math.hypot(m.a, m.b);
	}
	if (size < 11.95) out.small.push(where(el) + " " + JSON.stringify(snip(n.data)) + " at " + size.toFixed(1) + " px");
	let rects;
	if (svg) rects = [el.getBoundingClientRect()];
	else { range.selectNodeContents(n); rects = [...range.getClientRects()]; }
	for (const r of rects) {
		if (r.width < 0.5 || r.height < 0.5) continue;
		const c = clip(r, el);
		if (c) boxes.push({n: idx, el, r: c, h: r.height});
	}
	if (svg) continue;
	// A text node on one line breaks no word: only wrapped ones are scanned.
	const lineTops = rects.filter((r) => r.width > 0.5).map((r) => r.top);
	if (lineTops.length < 2 || Math.max(...lineTops) - Math.min(...lineTops) < 4) continue;
	token.lastIndex = 0;
	for (let m = token.exec(n.data); m; m = token.exec(n.data)) {
		if (m[0].length < 2 || cjk.test(m[0])) continue;
		range.setStart(n, m.index);
		range.setEnd(n, m.index + m[0].length);
		const rs = [...range.getClientRects()].filter((r) => r.width > 0.5);
		if (rs.length < 2) continue;
		const tops = rs.map((r) => r.top), h = Math.min(...rs.map((r) => r.height));
		if (Math.max(...tops) - Math.min(...tops) > h / 2) {
			const at = [];
			for (let i = 1; i < rs.length; i++) if (rs[i].top - rs[i - 1].top > h / 2) at.push(i);
			out.broken.push(where(el) + " " + JSON.stringify(m[0]) + " spans " + (at.length + 1) + " lines");
		}
	}
}

// overlap: bucket the boxes into 32 px bands, compare within a band
const bands = new Map();
for (const b of boxes) {
	for (let y = Math.floor(b.r.top / 32); y <= Math.floor((b.r.bottom - 0.01) / 32); y++) {
		if (!bands.has(y)) bands.set(y, []);
		bands.get(y).push(b);
	}
}
const seen = new Set();
for (const list of bands.values()) {
	for (let i = 0; i < list.length; i++) {
		for (let j = i + 1; j < list.length; j++) {
			const a = list[i], b = list[j];
			if (a.n === b.n) continue;
			const ix = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
			const iy = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
			if (ix > 1 && iy > 0.3 * Math.min(a.h, b.h)) {
				const key = Math.min(a.n, b.n) + ":" + Math.max(a.n, b.n);
				if (seen.has(key)) continue;
				seen.add(key);
				out.overlap.push(where(a.el) + " " + JSON.stringify(snip(a.el.textContent)) + " overlaps " + where(b.el) + " " + JSON.stringify(snip(b.el.textContent)) + " by " + Math.round(ix) + "x" + Math.round(iy) + " px");
			}
		}
	}
}

// tap targets
const sel = "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]";
const targets = [];
for (const el of document.querySelectorAll(sel)) {
	if (hidden(el)) continue;
	const b = el.getBoundingClientRect();
	if (b.right <= 0) continue; // moved off screen until focused (the skip link)
	// A link wrapped over lines is one target per line box.
	// Only the part a scrolling container shows can be tapped.
	let rs = [...el.getClientRects()].filter((r) => r.width > 0 && r.height > 0).map((r) => clip(r, el)).filter(Boolean);
	if (el.matches("input[type=checkbox], input[type=radio]")) {
		const l = el.closest("label") || (el.id && document.querySelector('label[for="' + CSS.escape(el.id) + '"]'));
		if (l) { const q = l.getBoundingClientRect(); rs = [clip({left: Math.min(b.left, q.left), top: Math.min(b.top, q.top), right: Math.max(b.right, q.right), bottom: Math.max(b.bottom, q.bottom)}, el)].filter(Boolean); }
	}
	if (rs.length === 0) continue;
	const w = Math.max(...rs.map((r) => r.right - r.left)), h = Math.max(...rs.map((r) => r.bottom - r.top));
	let inline = false;
	if (el.tagName === "A" && cs(el).display === "inline") {
		let block = el.parentElement;
		while (block && cs(block).display.startsWith("inline")) block = block.parentElement;
		if (block) {
			let other = "";
			const w2 = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
			for (let t = w2.nextNode(); t; t = w2.nextNode()) {
				if (!t.parentElement.closest("a, button")) other += t.data;
			}
			inline = /\p{L}/u.test(other);
		}
	}
	targets.push({el, rs, w, h, small: !inline && (w < 23.95 || h < 23.95)});
}
const dist = (x, y, r) => Math.hypot(Math.max(r.left - x, 0, x - r.right), Math.max(r.top - y, 0, y - r.bottom));
const centre = (r) => [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
// Target rectangles in 64 px bands, so a target is compared with its
// neighbours only.
const tbands = new Map();
for (const u of targets) {
	for (const q of u.rs) {
		for (let y = Math.floor(q.top / 64); y <= Math.floor(q.bottom / 64); y++) {
			if (!tbands.has(y)) tbands.set(y, []);
			tbands.get(y).push([u, q]);
		}
	}
}
for (const t of targets) {
	if (!t.small) continue;
	let clash = null;
	for (const r of t.rs) {
		const [cx, cy] = centre(r);
		for (let y = Math.floor((cy - 24) / 64); y <= Math.floor((cy + 24) / 64) && !clash; y++) {
			for (const [u, q] of tbands.get(y) || []) {
				if (u === t || u.el.contains(t.el) || t.el.contains(u.el)) continue;
				const [ux, uy] = centre(q);
				if (dist(cx, cy, q) < 12 || (u.small && Math.hypot(cx - ux, cy - uy) < 24)) { clash = u; break; }
			}
		}
		if (clash) break;
	}
	if (clash) out.tap.push(where(t.el) + " " + JSON.stringify(snip(t.el.textContent || t.el.value || "")) + " is " + Math.round(t.w) + "x" + Math.round(t.h) + " px, within 12 px of " + name(clash.el) + " " + JSON.stringify(snip(clash.el.textContent || "")));
}
return out;
})()`

// layoutResult is one page at one viewport in one scheme.
type layoutResult struct {
	Page, Viewport, Scheme string
	Breaches               map[string][]string
}

// setViewport emulates a viewport: its width and height in CSS px, and
// whether the page lays out as on a phone (the viewport meta tag applies).
func setViewport(b *Browser, width, height int64, mobile bool) {
	b.t.Helper()
	run(b, fmt.Sprintf("viewport %dx%d", width, height), chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
			Width: width, Height: height, DeviceScaleFactor: 1, Mobile: mobile})
		return err
	}))
}

// layoutScreens are the pages TestLayout saves screenshots of when
// GPU_ATLAS_SCREENS names a directory.
var layoutScreens = map[string]string{"gpus/h100-sxm5-80gb/": "gpu", "pricing/": "pricing", "charts/": "charts", "calculator/": "calculator",
	calcQLoRA: "calc-qlora-en", "zh/" + calcQLoRA: "calc-qlora-zh", calcServing: "calc-serve-en", "zh/" + calcServing: "calc-serve-zh",
	"guides/five-dimensions/": "guide-tables-en", "zh/guides/five-dimensions/": "guide-tables-zh", "zh/methodology/": "methodology-zh",
	"zh/": "home-zh", "zh/gpus/h100-sxm5-80gb/": "gpu-zh", "zh/pricing/": "pricing-zh", "zh/matrix/": "matrix-zh", "matrix/providers/": "matrix-providers-en", "zh/providers/": "providers-zh", "zh/tco/": "tco-zh",
	"zh/gpus/a40/": "gpu-stale-zh", "gpus/a40/": "gpu-stale-en", "models/llama-3-70b/": "model-en", "zh/models/llama-3-70b/": "model-zh",
	"zh/providers/jarvislabs/": "provider-stale-zh", "providers/jarvislabs/": "provider-stale-en", "zh/guides/why-cloud-gpus/": "guide-providers-zh",
	calcPay: "calc-pay-en", "zh/" + calcPay: "calc-pay-zh"}

// TestLayout checks the layout rules (layoutRuleHelp) on one page of every
// path shape of the real site, at 390 px (a phone) and 1280 px, in the
// light and the dark colour scheme, and fails on any breach.
//
// With GPU_ATLAS_LAYOUT_REPORT=FILE it also writes the breach counts per
// page, viewport, scheme and rule to FILE as JSON; with
// GPU_ATLAS_SCREENS=DIR it saves full-page screenshots of layoutScreens in
// both schemes at both widths to DIR.
func TestLayout(t *testing.T) {
	t.Parallel()
	base := Site(t)
	pages := append(sitePages(t, SiteDir(base)), layoutExtraPages...)
	var mu sync.Mutex
	var results []layoutResult
	t.Cleanup(func() {
		sort.Slice(results, func(i, j int) bool {
			a, b := results[i], results[j]
			return a.Page+a.Viewport+a.Scheme < b.Page+b.Viewport+b.Scheme
		})
		total := map[string]int{}
		for _, r := range results {
			for k, v := range r.Breaches {
				total[k] += len(v)
			}
		}
		var parts []string
		for _, k := range layoutRules {
			parts = append(parts, fmt.Sprintf("%s %d", k, total[k]))
		}
		t.Logf("breaches over %d page views: %s", len(results), strings.Join(parts, ", "))
		if f := os.Getenv("GPU_ATLAS_LAYOUT_REPORT"); f != "" {
			type row struct {
				Page, Viewport, Scheme string
				Counts                 map[string]int
				Examples               map[string][]string
			}
			var rows []row
			for _, r := range results {
				x := row{Page: r.Page, Viewport: r.Viewport, Scheme: r.Scheme, Counts: map[string]int{}, Examples: map[string][]string{}}
				for k, v := range r.Breaches {
					x.Counts[k] = len(v)
					x.Examples[k] = v[:min(len(v), 5)]
				}
				rows = append(rows, x)
			}
			buf, _ := json.MarshalIndent(map[string]any{"total": total, "pages": rows}, "", "  ")
			if err := os.WriteFile(f, buf, 0o644); err != nil {
				t.Error(err)
			}
		}
	})
	screens := os.Getenv("GPU_ATLAS_SCREENS")
	for _, scheme := range []string{"light", "dark"} {
		t.Run(scheme, func(t *testing.T) {
			t.Parallel()
			b := New(t, base, `HTTP 404 .*/`+notFoundPage+`$`, `status of 404 .*/`+notFoundPage+`$`)
			b.EmulateColorScheme(scheme)
			for _, vp := range layoutViewports {
				t.Run(vp.Name, func(t *testing.T) {
					b := b.For(t)
					setViewport(b, vp.Width, vp.Height, vp.Mobile)
					for _, p := range pages {
						t.Run(pageName(p), func(t *testing.T) {
							b := b.For(t)
							b.Navigate(p)
							if ready := layoutReady[p]; ready != "" {
								b.Poll(ready)
							}
							var got map[string][]string
							evalSlow(b, `document.fonts.ready.then(() => `+layoutJS+`)`, &got)
							mu.Lock()
							results = append(results, layoutResult{Page: p, Viewport: vp.Name, Scheme: scheme, Breaches: got})
							mu.Unlock()
							for _, rule := range layoutRules {
								list := got[rule]
								for i, s := range list {
									if i == 5 {
										t.Errorf("%s: and %d more", rule, len(list)-i)
										break
									}
									t.Errorf("%s (%s): %s", rule, layoutRuleHelp[rule], s)
								}
							}
							if shot := layoutScreens[p]; screens != "" && shot != "" {
								file := filepath.Join(screens, shot+"-"+vp.Name+"-"+scheme+".png")
								if err := b.Screenshot(file); err != nil {
									t.Errorf("screenshot: %v", err)
								}
							}
						})
					}
				})
			}
		})
	}
	if !slices.Contains(pages, "api/") || !slices.Contains(pages, "tco/") {
		t.Errorf("the pages checked, %v, lack api/ or tco/", pages)
	}
	for p := range layoutReady {
		if !slices.Contains(pages, p) {
			t.Errorf("layoutReady names %s, which is not among the pages checked", p)
		}
	}
}

// layoutCases are pages that breach one rule each, and one that breaches
// none although it holds what the rules allow: a wide table scrolling in
// its own container, text hidden for screen readers, a closed <details>,
// a short link inline in a sentence, an identifier broken at "_" and a
// checkbox whose label makes it large enough.
var layoutCases = []struct {
	name, body string
	want       map[string]int
}{
	{"clean", `<p>A sentence with <a href="#">a</a> link in it.</p>
<div style="overflow-x:auto" tabindex="0"><table style="width:900px"><tr><td>wide</td></tr></table></div>
<span style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0)">visually hidden words that wrap</span>
<details><summary style="padding:4px">More</summary><p style="font-size:8px">closed</p></details>
<p style="width:7em">gpu_8x_<wbr>h100_<wbr>sxm5_<wbr>nodes</p>
<label style="display:block;padding:4px"><input type="checkbox"> a checkbox label</label>
<nav><a href="#" style="display:inline-block;padding:4px 8px">Tap</a> <a href="#" style="display:inline-block;padding:4px 8px">Me</a></nav>`, map[string]int{}},
	{"scroll", `<div style="width:600px">too wide</div>`, map[string]int{"scroll": 1}},
	{"small", `<p style="font-size:10px">tiny</p><svg viewBox="0 0 1000 100" width="390"><text x="10" y="50" font-size="20">scaled</text></svg>`, map[string]int{"small": 2}},
	{"broken", `<p style="width:3em;overflow-wrap:anywhere">abcdefghijklmnop</p>`, map[string]int{"broken": 1}},
	{"overlap", `<div style="position:relative"><span>first</span><span style="position:absolute;left:0;top:0">second</span></div>`, map[string]int{"overlap": 1}},
	{"tap", `<div><button style="width:12px;height:12px;padding:0"></button><button style="width:12px;height:12px;padding:0"></button></div>`, map[string]int{"tap": 2}},
	{"tap-stacked", `<p style="margin:0;line-height:20px"><a href="#a">first link</a></p><p style="margin:0;line-height:20px"><a href="#b">second link</a></p><p style="margin:0;line-height:20px;padding-top:70px"><a href="#c">far link</a></p>`, map[string]int{"tap": 2}},
}

// TestLayoutRules checks layoutJS itself at 390 px: each breach page
// breaches its rule as often as expected and no other, and the clean page
// breaches none.
func TestLayoutRules(t *testing.T) {
	t.Parallel()
	Chromium(t)
	mux := http.NewServeMux()
	for _, c := range layoutCases {
		mux.HandleFunc("/"+c.name, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>%s</title>
<link rel="icon" href="data:,"><style>body{margin:0;font:16px/1.5 sans-serif}</style></head><body>%s</body></html>`, c.name, c.body)
		})
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	b := New(t, srv.URL+"/")
	setViewport(b, 390, 844, true)
	for _, c := range layoutCases {
		t.Run(c.name, func(t *testing.T) {
			b := b.For(t)
			b.Navigate(c.name)
			var got map[string][]string
			b.Eval(layoutJS, &got)
			for _, rule := range layoutRules {
				if len(got[rule]) != c.want[rule] {
					t.Errorf("%s: %d breaches, want %d: %q", rule, len(got[rule]), c.want[rule], got[rule])
				}
			}
		})
	}
}

// evalSlow is Eval with four times the step timeout: the layout rules
// measure every word and tap target of a page, and a page of the full
// price list as cards on a phone has thousands of each.
func evalSlow(b *Browser, expr string, out any) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 4*Timeout)
	defer cancel()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("layout rules: %v", err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		b.t.Fatalf("layout rules: decoding %.80s: %v", raw, err)
	}
}
