package browsertest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/site"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

// hostilePayloads are script-injection attempts of every family: script
// tags in any case, event handlers, javascript:/vbscript:/data: URLs, SVG
// and MathML, tag and attribute breakouts, comments and CDATA, entities,
// template and shortcode syntax. Each calls __xss(n) with its own number
// when it runs, so a hit names the payload.
func hostilePayloads() []string {
	p := []string{
		`<script>__xss(%d)</script>`,
		`<ScRiPt>__xss(%d)</sCrIpT>`,
		`<img src=x onerror=__xss(%d)>`,
		`<svg onload=__xss(%d)>`,
		`<svg><script>__xss(%d)</script></svg>`,
		`"><script>__xss(%d)</script>`,
		`'><img src=x onerror=__xss(%d)>`,
		`</title><script>__xss(%d)</script>`,
		`</textarea><script>__xss(%d)</script>`,
		`</style><script>__xss(%d)</script>`,
		`<iframe src="javascript:__xss(%d)"></iframe>`,
		`<iframe srcdoc="<script>parent.__xss(%d)</script>"></iframe>`,
		`<body onload=__xss(%d)>`,
		`<details open ontoggle=__xss(%d)>`,
		`<a href="javascript:__xss(%d)">link</a>`,
		`[link](javascript:__xss(%d))`,
		`<object data="javascript:__xss(%d)"></object>`,
		`<embed src="javascript:__xss(%d)">`,
		`<math><mtext></mtext><mglyph><svg><mtext><style><img src=x onerror=__xss(%d)></style></mtext></svg></mglyph></math>`,
		`<input autofocus onfocus=__xss(%d)>`,
		`<marquee onstart=__xss(%d)>`,
		`<video><source onerror=__xss(%d)></video>`,
		`<audio src=x onerror=__xss(%d)>`,
		`<style>@import 'javascript:__xss(%d)';</style>`,
		`<link rel=stylesheet href="javascript:__xss(%d)">`,
		`<meta http-equiv="refresh" content="0;url=javascript:__xss(%d)">`,
		`<base href="javascript:__xss(%d)//">`,
		`<form action="javascript:__xss(%d)"><button>go</button></form>`,
		`<button formaction="javascript:__xss(%d)">go</button>`,
		`&lt;script&gt;__xss(%d)&lt;/script&gt;`,
		`&#60;script&#62;__xss(%d)&#60;/script&#62;`,
		`\u003cscript\u003e__xss(%d)\u003c/script\u003e`,
		`{{ __xss(%d) }}`,
		`{{< gpu "alpha-80gb" "name" >}}{{/* %d */}}`,
		"${__xss(%d)}",
		`<img src="x" onerror="__xss(%d)"`,
		`<img src=x onerror=&#95;_xss(%d)>`,
		`javascript:__xss(%d)`,
		`data:text/html,<script>__xss(%d)</script>`,
		`<a href="data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX194c3MoKTwvc2NyaXB0Pg==">%d</a>`,
		`<svg><a xlink:href="javascript:__xss(%d)"><text x="1" y="9">x</text></a></svg>`,
		`<svg><animate onbegin=__xss(%d) attributeName=x dur=1s>`,
		`<svg><set onbegin=__xss(%d) attributeName=x to=1>`,
		`<x onclick=__xss(%d)>click</x>`,
		`" onmouseover="__xss(%d)`,
		`' onfocus='__xss(%d)' autofocus='`,
		`" autofocus onfocus="__xss(%d)`,
		`</script><script>__xss(%d)</script>`,
		`\"};__xss(%d);//`,
		`</noscript><img src=x onerror=__xss(%d)>`,
		`<!--<img src=x onerror=__xss(%d)>-->`,
		`--><img src=x onerror=__xss(%d)>`,
		`<![CDATA[<script>__xss(%d)</script>]]>`,
		`<?xml version="1.0"?><script>__xss(%d)</script>`,
		`<IMG SRC=JaVaScRiPt:__xss(%d)>`,
		`<img src=x oNeRrOr=__xss(%d)>`,
		`<table background="javascript:__xss(%d)"><tr><td>x</td></tr></table>`,
		`<div style="background:url(javascript:__xss(%d))">x</div>`,
		`<select autofocus onfocus=__xss(%d)></select>`,
		`<textarea autofocus onfocus=__xss(%d)></textarea>`,
		`<noscript><p title="</noscript><img src=x onerror=__xss(%d)>">`,
		`<scr<script>ipt>__xss(%d)</scr</script>ipt>`,
		`*emphasis* _under_ **bold** ` + "`code`" + ` <b onmouseover=__xss(%d)>b</b>`,
		`| table | cell | <img src=x onerror=__xss(%d)>`,
		`<a href="  JAVASCRIPT:__xss(%d)">spaced</a>`,
		`<svg><foreignObject><img src=x onerror=__xss(%d)></foreignObject></svg>`,
	}
	out := make([]string, len(p))
	for i, s := range p {
		out[i] = fmt.Sprintf(s, i+1)
	}
	return out
}

// tomlString writes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// writeHostile adds, for each payload k of group, a GPU, a provider with
// one offer, a model preset, a plain guide and a raw-HTML guide whose every
// free-text field holds the payload; the raw-HTML guide brings the
// catalog values in through every shortcode.
func writeHostile(t *testing.T, root string, first int, group []string) {
	t.Helper()
	write := func(rel, s string) {
		t.Helper()
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i, payload := range group {
		k := first + i
		q := tomlString(payload)
		write(fmt.Sprintf("data/gpus/x%d.toml", k), fmt.Sprintf(`name = %[1]s
vendor = %[1]s
architecture = %[1]s
release_year = 2022
form_factor = "SXM"
segment = "datacenter"
memory_gb = %[2]d
memory_type = %[1]s
memory_bandwidth_gbs = 2000
bf16_tflops = 500
notes = %[1]s

[interconnect]
kind = "NVLink"
generation = %[1]s

[[sources]]
url = "https://example.org/x%[3]d"
title = %[1]s
accessed = 2025-01-02
`, q, 40+k, k))
		write(fmt.Sprintf("data/providers/p%d.toml", k), fmt.Sprintf(`name = %[1]s
homepage = "https://p%[2]d.example/"
country = "US"
kind = "gpu-cloud"
description = %[1]s
free_trial = %[1]s
storage_notes = %[1]s

[[regions]]
id = "r1"
city = %[1]s
country = "US"

[billing]
on_demand = true
increment = "per-second"
notes = %[1]s

[network]
rdma = "none"
notes = %[1]s

[support]
notes = %[1]s

[hidden_costs]
currency = "USD"
egress_per_gb = 0.01
notes = %[1]s

[[sources]]
url = "https://p%[2]d.example/pricing"
title = %[1]s
accessed = 2025-06-01
`, q, k))
		write(fmt.Sprintf("data/offers/p%d.toml", k), fmt.Sprintf(`[[offers]]
instance = %[1]s
gpu = "x%[2]d"
gpu_count = 1
vram_per_gpu_gb = %[3]d
vram_total_gb = %[3]d
regions = ["r1"]
currency = "USD"
notes = %[1]s

[[offers.prices]]
billing = "on-demand"
price = %[4]d.5
as_of = 2025-06-01
source = "https://p%[2]d.example/pricing"
evidence = "first-party"
`, q, k, 40+k, k))
		write(fmt.Sprintf("data/models/m%d.toml", k), fmt.Sprintf(`name = %[1]s
family = %[1]s
params = 6738415616
layers = 32
hidden_size = 4096
heads = 32
kv_heads = 32
ffn_size = 11008
vocab_size = 32000
max_context = 4096
notes = %[1]s

[[sources]]
url = "https://example.org/m%[2]d/config.json"
title = %[1]s
accessed = 2025-01-02
`, q, k))
		front := fmt.Sprintf("+++\ntitle = %[1]s\ndescription = %[1]s\nsection = \"basics\"\nweight = %[2]d\nupdated = 2025-06-01\n", q, 100+k)
		write(fmt.Sprintf("content/guides/plain%d.md", k), front+"+++\n\n## "+payload+"\n\n"+payload+"\n\n- "+payload+"\n\n> "+payload+"\n")
		write(fmt.Sprintf("content/guides/raw%d.md", k), front+"raw_html = true\n+++\n\n"+fmt.Sprintf(
			`<div class="note"><p>GPU: {{< gpu "x%[1]d" "name" >}}</p><p title="{{< gpu "x%[1]d" "name" >}}">attr</p></div>

The {{< gpu "x%[1]d" "name" >}} costs {{< cheapest "x%[1]d" >}}.

See {{< link gpu="x%[1]d" >}}, {{< link provider="p%[1]d" >}}, {{< link model="m%[1]d" >}} and {{< link guide="plain%[1]d" >}}.

| GPU | link |
|---|---|
| {{< gpu "x%[1]d" "name" >}} | {{< link gpu="x%[1]d" >}} |
`, k))
	}
}

// domCheck lists what a payload would have made of the page: elements with
// event-handler attributes, URL attributes running script, and frames,
// objects, embeds, base and refresh elements, none of which the site's own
// templates use; and the calls __xss recorded.
const domCheck = `(() => {
  const bad = [];
  const urlAttrs = ['href','src','action','formaction','xlink:href','data','background','srcdoc','poster'];
  for (const el of document.querySelectorAll('*')) {
    for (const a of el.attributes) {
      const n = a.name.toLowerCase(), v = a.value.replace(/[\s\u0000-\u001f]/g, '').toLowerCase();
      if (n.startsWith('on')) bad.push(el.tagName + ' ' + n);
      if (urlAttrs.includes(n) && /^(javascript|vbscript|data:text)/.test(v)) bad.push(el.tagName + ' ' + n + '=' + v.slice(0, 40));
      if (n === 'srcdoc') bad.push(el.tagName + ' srcdoc');
    }
    const tag = el.tagName.toLowerCase();
    if (['iframe','object','embed','base','frame','frameset','applet'].includes(tag)) bad.push(tag);
    if (tag === 'meta' && el.httpEquiv) bad.push('meta http-equiv=' + el.httpEquiv);
    if (tag === 'script' && !el.src && !/json/.test(el.type)) bad.push('inline script: ' + el.textContent.slice(0, 40));
  }
  return {hits: (window.__hits || []).map(String), bad};
})()`

// TestHostileCatalogValues puts every payload in every free-text field of
// the data format and of guides (plain and raw-HTML), builds the site and
// loads every page that shows them in Chromium with a hook that records any
// payload that runs. None may run and none may leave markup in the DOM
// (in attribute values and text, escaped, a payload is inert).
func TestHostileCatalogValues(t *testing.T) {
	payloads := hostilePayloads()
	if len(payloads) < 60 {
		t.Fatalf("only %d payloads", len(payloads))
	}
	const group = 11
	pages, executed, rejected := 0, 0, 0
	browser := New(t, "", `HTTP 404 .*/no-such-page/`, `status of 404 .*/no-such-page/`)
	browser.AddInitScript(`window.__hits = [];
window.__xss = n => window.__hits.push(n);
for (const f of ['alert', 'confirm', 'prompt', 'print']) window[f] = (...a) => window.__hits.push(f + ':' + a.join(','));`)
	for first := 0; first < len(payloads); first += group {
		g := payloads[first:min(first+group, len(payloads))]
		t.Run(fmt.Sprintf("payloads_%d-%d", first+1, first+len(g)), func(t *testing.T) {
			_, base, out := BuildFixtureCopyOut(t, func(root string) {
				writeHostile(t, root, first+1, g)
				rejected += dropRejected(t, root)
			})
			b := browser.For(t)
			b.base = base
			paths := []string{"", "gpus/", "providers/", "models/", "pricing/", "pricing/all/", "guides/", "charts/", "compare/", "tco/", "calculator/", "api/", "search/", "faq/", "no-such-page/"}
			for i := range g {
				k := first + 1 + i
				paths = append(paths, fmt.Sprintf("gpus/x%d/", k), fmt.Sprintf("providers/p%d/", k), fmt.Sprintf("models/m%d/", k),
					fmt.Sprintf("guides/plain%d/", k), fmt.Sprintf("guides/raw%d/", k))
			}
			// One compare page per payload GPU, against the fixture's.
			cmp, _ := filepath.Glob(filepath.Join(out, "compare", "*x*", "index.html"))
			for _, c := range cmp[:min(len(cmp), len(g))] {
				rel, _ := filepath.Rel(out, filepath.Dir(c))
				paths = append(paths, filepath.ToSlash(rel)+"/")
			}
			for _, p := range paths {
				b.Navigate(p)
				time.Sleep(30 * time.Millisecond) // let image errors and autofocus fire
				var res struct {
					Hits []string `json:"hits"`
					Bad  []string `json:"bad"`
				}
				b.Eval(domCheck, &res)
				pages++
				if len(res.Hits) > 0 {
					executed += len(res.Hits)
					t.Errorf("/%s: payloads ran: %v", p, res.Hits)
				}
				if len(res.Bad) > 0 {
					t.Errorf("/%s: payload markup in the DOM: %v", p, res.Bad)
				}
			}
		})
	}
	t.Logf("%d payloads in every free-text field, %d page loads, %d executions, %d rejected at load with a position", len(payloads), pages, executed, rejected)
}

// dropRejected checks the site at root and, for each guide body the loader
// rejects with a positioned error (a payload that is a javascript: link,
// say), removes the body so the rest can be built; it fails the test on any
// other error, and returns the number of rejections.
func dropRejected(t *testing.T, root string) int {
	t.Helper()
	d := site.Check(site.Options{Root: root, Now: testcat.FixtureNow})
	n := 0
	for _, e := range d.Errors() {
		if !strings.HasPrefix(e.Path, "content/guides/plain") || e.Line == 0 || e.Col == 0 || !strings.Contains(e.Msg, "only relative links and http") {
			t.Errorf("unexpected error: %s", e)
			continue
		}
		p := filepath.Join(root, e.Path)
		b, _ := os.ReadFile(p)
		front, _, _ := strings.Cut(string(b)[3:], "+++")
		os.WriteFile(p, []byte("+++"+front+"+++\n\nRemoved: its link was rejected.\n"), 0o644)
		n++
	}
	return n
}
