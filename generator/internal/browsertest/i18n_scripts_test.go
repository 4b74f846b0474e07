package browsertest

import (
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

// zhCheck is what the text the Chinese edition's scripts write is checked
// against: the English UI strings (phrases of two or more words whose
// Chinese string differs), English punctuation touching Chinese text, and
// the catalog's own strings, which are left out (names such as "Secure
// Cloud", notes in English or with ASCII punctuation).
type zhCheck struct {
	phrases []string
	data    *strings.Replacer
}

// zhHanPunct is ASCII punctuation touching a Han character: parts of a
// sentence glued with English punctuation ("按量计费: 支持, 计费粒度").
var lowerWord = regexp.MustCompile(`\b[a-z]{2,}\b`)

var zhHanPunct = regexp.MustCompile(`\p{Han} ?[,:;()]|[,:;(] ?\p{Han}|\p{Han}\.(?:\s|$)`)

func loadZHCheck(t *testing.T) zhCheck {
	t.Helper()
	root := testcat.RepoRoot()
	var en, zh map[string]string
	for lang, m := range map[string]*map[string]string{"en": &en, "zh": &zh} {
		if _, err := toml.DecodeFile(filepath.Join(root, "templates", "i18n", lang+".toml"), m); err != nil {
			t.Fatal(err)
		}
	}
	arg := regexp.MustCompile(`%(?:\[\d+\])?[-+#0-9.]*[a-zA-Z%]|<[^>]*>|\{[a-z0-9]+\}|[,.;:()"“”]\s|\s[(“"]|[()]`)
	seen := map[string]bool{}
	for k, v := range en {
		if zh[k] == v {
			continue
		}
		for _, part := range arg.Split(v, -1) {
			part = strings.Trim(part, " .,;:")
			// Words the Chinese string also has ("bf16 + AdamW") are the
			// same in both, and so are names and units ("BF16 TFLOPS"): a
			// phrase has an English word in lower case.
			if len(strings.Fields(part)) >= 2 && !strings.ContainsAny(part, "%<>{}") && !strings.Contains(zh[k], part) && lowerWord.MatchString(part) {
				seen[part] = true
			}
		}
	}
	// The catalog's strings, longest first.
	list, err := testcat.DataStrings(root)
	if err != nil {
		t.Fatal(err)
	}
	pairs := make([]string, 0, 2*len(list))
	for _, s := range list {
		pairs = append(pairs, s, "\n")
	}
	return zhCheck{phrases: slices.Sorted(maps.Keys(seen)), data: strings.NewReplacer(pairs...)}
}

// zhTextJS returns, for the elements matching the selectors, their text
// one block (cell, paragraph, item, caption, option, button, label) a
// line, and their aria-label and title attributes, leaving out what is
// hidden or marked as another language (lang="en": a data note).
const zhTextJS = `((sels) => {
	const out = [];
	const blocks = new Set(["TD", "TH", "P", "LI", "CAPTION", "OPTION", "OPTGROUP", "BUTTON", "LABEL", "H2", "H3", "SUMMARY", "DIV", "TR"]);
	const other = (el) => { const l = el.closest("[lang]"); return l && !l.lang.startsWith("zh"); };
	const walk = (n, line) => {
		if (n.nodeType === 3) { line.push(n.textContent); return; }
		if (n.nodeType !== 1 || n.hidden || other(n) || ["SCRIPT", "STYLE", "CODE", "svg"].includes(n.nodeName)) return;
		for (const a of ["aria-label", "title", "label"]) if (n.hasAttribute(a)) out.push(n.getAttribute(a));
		if (blocks.has(n.nodeName)) {
			const mine = [];
			for (const c of n.childNodes) walk(c, mine);
			out.push(mine.join(""));
		} else {
			for (const c of n.childNodes) walk(c, line);
		}
	};
	for (const sel of sels) for (const el of document.querySelectorAll(sel)) { const l = []; walk(el, l); out.push(l.join("")); }
	return out.map((s) => s.replace(/\s+/g, " ").trim()).filter(Boolean);
})`

// check reads the text of the selectors and fails the test with any
// English UI phrase or English punctuation next to Chinese text in it.
func (c zhCheck) check(t *testing.T, b *Browser, when string, sels ...string) {
	t.Helper()
	var lines []string
	arg := "[" + strings.Join(quoteAll(sels), ",") + "]"
	b.Eval(zhTextJS+"("+arg+")", &lines)
	if len(lines) == 0 {
		t.Fatalf("%s: no text in %v", when, sels)
	}
	n := 0
	for _, l := range lines {
		text := c.data.Replace(l)
		for _, ph := range c.phrases {
			if strings.Contains(text, ph) {
				t.Errorf("%s: English UI text %q in %q", when, ph, l)
			}
		}
		for _, part := range strings.Split(text, "\n") {
			if m := zhHanPunct.FindString(part); m != "" {
				t.Errorf("%s: English punctuation %q in %q", when, m, l)
			}
		}
		n += len(l)
	}
	t.Logf("%s: %d lines, %d bytes of text checked", when, len(lines), n)
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// TestChineseScriptText drives the scripts of the Chinese edition's
// interactive pages as a reader does and reads what they write: the
// pricing table's count line after a filter, the currency switch, a sort
// and "show all"; the instance-pick counter; the cost calculator with an
// offer whose costs are recorded (break-even, hidden costs, the stopped
// instance's note) and one whose costs are not (the "not counted" line);
// the GPU compare picker; the instance comparison with an offer the
// catalog lacks. None of it may be an English UI string, or glue its
// parts with English punctuation next to Chinese text: every string comes
// from templates/i18n/zh.toml.
func TestChineseScriptText(t *testing.T) {
	t.Parallel()
	base := Site(t)
	c := loadZHCheck(t)
	b := New(t, base)

	t.Run("pricing", func(t *testing.T) {
		b := b.For(t)
		b.Navigate("zh/pricing/")
		b.WaitReady("#prices tbody tr")
		b.Eval(`document.getElementById("filter-box").open = true`, nil)
		b.SetValue("#f-provider", "alibaba-cloud")
		b.Poll(`location.search.includes("provider=alibaba-cloud") && [...document.querySelectorAll("#prices tbody tr:not([hidden])")].every((r) => r.dataset.provider === "alibaba-cloud")`, `document.getElementById("shown").textContent`)
		c.check(t, b, "filtered by provider", "#shown", "#prices thead", "#prices tbody tr:not([hidden])")
		b.SetValue("#f-cur", "USD")
		b.SetValue("#f-provider", "")
		b.SetValue("#f-min-vram", "80")
		// The click lands where the button is once the filtered rows are
		// in: clicked while they go in, the page's height changes under
		// the pointer (seen on a 2-core CI machine).
		b.Poll(`location.search.includes("min-vram=80") && !location.search.includes("provider=")`, `location.search`)
		b.Click(`#prices th[data-sort="provider"] button`)
		b.Poll(`location.search.includes("sort=provider")`, `location.search`)
		c.check(t, b, "USD, min VRAM 80 GB, sorted by provider", "#shown", "#filters label", "#prices thead", "#prices tbody tr:not([hidden])")
		b.Click(`#prices tbody tr:not([hidden]) input[name=o]`)
		b.Poll(`/（1）/.test(document.querySelector("#pick button").textContent)`, `document.querySelector("#pick button").textContent`)
		c.check(t, b, "one instance picked", "#pick", ".offer-tools")
		b.Click("#f-reset")
		b.Poll(`!location.search.includes("min-vram")`, `location.search`)
		c.check(t, b, "reset", "#shown")
	})

	t.Run("tco", func(t *testing.T) {
		b := b.For(t)
		b.Navigate("zh/tco/")
		b.WaitReady("#t-result tbody tr")
		c.check(t, b, "default offer", "#tco", "#t-title", "#t-region", "#t-result", "#t-breakeven", "#t-missing", "#t-costs", "#t-stopped")
		// An offer with a recorded stopped-instance note, then one whose
		// provider records no storage or egress charge.
		var ids struct{ Note, Missing string }
		b.Eval(`(() => {
			const o = JSON.parse(document.getElementById("tco-data").textContent).offers;
			const e = Object.entries(o);
			const note = e.find(([, x]) => x.stoppedNote && x.lines.some((l) => l.billing === "committed"));
			const missing = e.find(([, x]) => x.storage == null && x.egress == null);
			return { Note: note ? note[0] : "", Missing: missing ? missing[0] : "" };
		})()`, &ids)
		if ids.Missing == "" {
			t.Fatal("no offer without recorded storage and egress charges: the check of the missing-costs line tests nothing")
		}
		if ids.Note != "" {
			b.SetValue("#t-offer", ids.Note)
			b.SetValue("#t-util", "90")
			b.Poll(`document.getElementById("t-stopped").textContent !== ""`, `document.getElementById("t-stopped").outerHTML`)
			c.check(t, b, "offer "+ids.Note, "#t-title", "#t-region", "#t-result", "#t-breakeven", "#t-missing", "#t-costs", "#t-stopped")
		}
		b.SetValue("#t-offer", ids.Missing)
		b.SetValue("#t-storage", "200")
		b.SetValue("#t-egress", "50")
		b.Poll(`document.getElementById("t-missing").textContent !== ""`, `document.getElementById("t-missing").outerHTML`)
		c.check(t, b, "offer "+ids.Missing, "#t-title", "#t-region", "#t-result", "#t-breakeven", "#t-missing", "#t-costs", "#t-stopped")
	})

	t.Run("compare", func(t *testing.T) {
		b := b.For(t)
		b.Navigate("zh/compare/?gpu=h100-sxm5-80gb&gpu=a100-sxm4-80gb")
		b.Poll(`document.querySelectorAll("#compare-out table").length >= 3`, `document.getElementById("compare-out").innerHTML.slice(0, 300)`)
		c.check(t, b, "a pair", "#compare-out")
		b.SetValue("#c-2", "l40s")
		b.Poll(`document.querySelector("#compare-out table caption") && location.search.includes("l40s")`, `location.search`)
		c.check(t, b, "three GPUs", "#compare-out")
	})

	t.Run("instances", func(t *testing.T) {
		b := b.For(t)
		var ids []string
		b.Navigate("zh/gpus/h100-sxm5-80gb/")
		b.Eval(`[...new Set([...document.querySelectorAll("input[name=o]")].map((i) => i.value))].slice(0, 2)`, &ids)
		if len(ids) < 2 {
			t.Fatalf("the H100 page lists %d offers to compare", len(ids))
		}
		b.Navigate("zh/compare/instances/?o=" + ids[0] + "&o=" + ids[1] + "&o=no-such/offer")
		b.Poll(`document.querySelector("#instances-out table") && !document.getElementById("i-add").disabled`, `document.getElementById("instances-out").innerHTML.slice(0, 300)`)
		c.check(t, b, "two offers and a missing one", "#instances-out", "#i-add optgroup")
	})
}
