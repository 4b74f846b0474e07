package site

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/fixture"
)

var overlayExample = filepath.Join("..", "..", "..", "testdata", "overlay-example")

// TestOverlayEmptyIsPublic: an empty overlay directory (or one with
// empty data/ and content/ folders) changes nothing: the build is
// byte-identical to the public one.
func TestOverlayEmptyIsPublic(t *testing.T) {
	root := fixture.Site(t)
	a := filepath.Join(t.TempDir(), "a")
	buildOpts(t, Options{Root: root, Out: a, Now: fixture.Now})
	sa := snapshot(t, a)
	withDirs := t.TempDir()
	for _, d := range []string{"data/providers", "data/offers", "content/guides"} {
		os.MkdirAll(filepath.Join(withDirs, filepath.FromSlash(d)), 0o755)
	}
	for name, ov := range map[string]string{"empty": t.TempDir(), "empty folders": withDirs} {
		b := filepath.Join(t.TempDir(), "b")
		buildOpts(t, Options{Root: root, Out: b, Now: fixture.Now, Overlay: ov})
		sb := snapshot(t, b)
		if len(sa) != len(sb) {
			t.Fatalf("%s: %d files without an overlay, %d with it", name, len(sa), len(sb))
		}
		for p, want := range sa {
			if !bytes.Equal(sb[p], want) {
				t.Errorf("%s: %s differs", name, p)
			}
		}
	}
}

// TestOverlayExample builds testdata/overlay-example on the fixture and
// compares pages and exports with golden files (-update rewrites them).
func TestOverlayExample(t *testing.T) {
	root := fixture.Site(t)
	out := filepath.Join(t.TempDir(), "public")
	res, d := Run(Options{Root: root, Out: out, Now: fixture.Now, NoMinify: true, Overlay: overlayExample})
	if res == nil {
		var b strings.Builder
		d.Print(&b)
		t.Fatalf("build failed:\n%s", b.String())
	}
	var warned bool
	for _, w := range d.Sorted() {
		if strings.HasSuffix(w.Path, "overlay-example/data/overrides.toml") && w.Line == 19 && strings.Contains(w.Msg, "contract price for acme/beta-1x expired on 2025-09-30") {
			warned = true
		}
	}
	if !warned {
		t.Errorf("no warning about the expired contract; got %v", d.Sorted())
	}
	for _, p := range []string{"pricing/index.html", "gpus/beta-24gb/index.html", "models/tiny-7b/index.html", "api/v1/offers.csv", "api/v1/offers.json",
		"guides/request-quota/index.html", "zh/guides/request-quota/index.html", "guides/first-guide/index.html", "zh/guides/first-guide/index.html"} {
		got, err := os.ReadFile(filepath.Join(out, p))
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		got = assetHash.ReplaceAll(got, []byte("$1.HASH.$2"))
		golden := filepath.Join("testdata", "golden-overlay", strings.ReplaceAll(p, "/", "__"))
		if *update {
			os.MkdirAll(filepath.Dir(golden), 0o755)
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Errorf("%s: %v (run with -update to create)", p, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s\n%s", p, golden, firstDiff(string(want), string(got)))
		}
	}
	// The hidden provider (drachen, 龙云) is on no page and in no export,
	// and no page names the overlay's files: a team's figure gets no
	// "report" link to the public repository's issues (it would post the
	// contract price and the team's file there).
	for p, b := range snapshot(t, out) {
		if bytes.Contains(b, []byte("overlay-example")) {
			t.Errorf("%s names the overlay's files", p)
		}
		for _, s := range []string{"drachen", "Drachen", "龙云"} {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("%s mentions hidden provider (%q)", p, s)
			}
		}
	}
	// The overlay's guides: a new one in both languages, naming the
	// quota contact of its site.toml, and a replacement of the public
	// first guide in both editions.
	for p, wants := range map[string][]string{
		"guides/request-quota/index.html":    {`<h1>How to request GPU quota</h1>`, `Write to <a href="mailto:gpu-quota@team.example">gpu-quota@team.example</a> with:`, `0.360 EUR (≈ 0.400 USD) (internal cost) per GPU-hour`},
		"zh/guides/request-quota/index.html": {`<h1>如何申请 GPU 配额</h1>`, `请发邮件至 <a href="mailto:gpu-quota@team.example">gpu-quota@team.example</a>，写明`, `（内部成本）`},
		"guides/first-guide/index.html":      {`<h1>A first guide (team edition)</h1>`},
		"zh/guides/first-guide/index.html":   {`<h1>第一篇指南（团队版）</h1>`},
		"guides/index.html":                  {`href="/gpu/guides/request-quota/">How to request GPU quota`},
		"zh/guides/index.html":               {`href="/gpu/zh/guides/request-quota/">如何申请 GPU 配额`},
	} {
		b, _ := os.ReadFile(filepath.Join(out, filepath.FromSlash(p)))
		for _, want := range wants {
			if !bytes.Contains(b, []byte(want)) {
				t.Errorf("%s lacks %s", p, want)
			}
		}
		if bytes.Contains(b, []byte("Shows shortcodes and escaping")) || bytes.Contains(b, []byte("演示短代码与转义")) {
			t.Errorf("%s still shows the public first guide", p)
		}
	}
	// Every other place a price is used marks the team's figure, with the
	// public price beside it: compare pages (the pair page, the compare
	// tool's data, the instance comparison's data), TCO, the calculator's
	// cheapest fitting offers and cost per token (the scripts' rendering
	// of the same data: browsertest.TestOverlayBadges).
	contract := `<span class="badge overlay" data-overlay="contract">contract price, valid until 2027-03-31</span>`
	for p, wants := range map[string][]string{
		"compare/alpha-80gb-vs-beta-24gb/index.html": {`4.00 USD` + contract + `<span class="conv public">public price 5.00 USD</span> · `,
			`0.400 USD<span class="badge overlay" data-overlay="internal">internal cost</span> · `},
		"compare/index.html":     {`"min":"4.00 USD (contract price, valid until 2027-03-31; public price 5.00 USD)"`, `"min":"1.60 USD (20% discount; public price 2.00 USD)"`, `"min":"0.400 USD (internal cost)"`},
		"compare/instances.json": {`"ov":["contract","contract price, valid until 2027-03-31","public price 5.00 USD"]`, `"ov":["internal","internal cost",""]`},
		"tco/index.html": {`<th scope="row">On-demand (contract price, valid until 2027-03-31; public price 40.00 USD)<span class="sub line">`,
			`"Spot (20% discount; public price 16.00 USD)"`, `"labels":["On-demand (internal cost)"`},
		"calculator/index.html": {`<td class="num" data-l="Per hour">0.400 USD<span class="badge overlay" data-overlay="internal">internal cost</span></td>`,
			`<td class="num" data-l="Per hour">12.80 USD<span class="badge overlay" data-overlay="discount">20% discount</span><span class="conv public">public price 16.00 USD</span></td>`,
			`<td class="num" data-l="Per hour">32.00 USD` + contract + `<span class="conv public">public price 40.00 USD</span></td>`},
		"calculator/data.json": {`"r1":["discount","20% discount","public price 16.00 USD"]`},
		"zh/tco/index.html":    {`按量计费（合同价，有效期至 2027年3月31日；公开价格 40.00 USD）`},
	} {
		b, _ := os.ReadFile(filepath.Join(out, filepath.FromSlash(p)))
		for _, want := range wants {
			if !bytes.Contains(b, []byte(want)) {
				t.Errorf("%s lacks %s", p, want)
			}
		}
	}
	pricing, _ := os.ReadFile(filepath.Join(out, "pricing", "index.html"))
	for _, want := range []string{
		`data-overlay="contract">contract price, valid until 2027-03-31</span><span class="conv public">public price 5.00 USD</span>`,
		`data-overlay="internal">internal cost</span>`,
		`data-overlay="discount">20% discount</span>`,
	} {
		if !bytes.Contains(pricing, []byte(want)) {
			t.Errorf("pricing page lacks %s", want)
		}
	}
}

// TestOverlayBadInput: each broken overlay file is a positioned error in
// the overlay's own file, and the previous output stays as it was.
func TestOverlayBadInput(t *testing.T) {
	root := fixture.Site(t)
	out := filepath.Join(t.TempDir(), "public")
	buildOpts(t, Options{Root: root, Out: out, Now: fixture.Now})
	before := snapshot(t, out)
	const term = "source = \"https://wiki.team.example/c\"\nas_of = 2025-09-01\n"
	const guide = "+++\ntitle = \"Q\"\ndescription = \"D\"\nsection = \"basics\"\n+++\n\n"
	for _, c := range []struct {
		name, file, src, want string
	}{
		{"syntax", "data/overrides.toml", "[[contract]\noffer = 1\n", "data/overrides.toml:1:1: expected end of table array name"},
		{"unknown key", "data/overrides.toml", "[[contract]]\noffer = \"acme/alpha-8x\"\nprice = 30.0\nprise = 3\n" + term, "data/overrides.toml:4:1: unknown key \"prise\" (did you mean \"price\"?)"},
		{"unknown offer", "data/overrides.toml", "[[contract]]\noffer = \"acme/alpha-9x\"\nprice = 30.0\n" + term, "data/overrides.toml:2:9: unknown offer \"acme/alpha-9x\" (did you mean \"acme/alpha-8x\"?)"},
		{"unknown provider", "data/overrides.toml", "[[discount]]\nprovider = \"acmee\"\npct = 10\n" + term, "data/overrides.toml:2:12: unknown provider \"acmee\" (did you mean \"acme\"?)"},
		{"discount range", "data/overrides.toml", "[[discount]]\nprovider = \"acme\"\npct = 130\n" + term, "data/overrides.toml:3:7: pct 130 is outside 0-100"},
		{"discount negative", "data/overrides.toml", "[[discount]]\ngpu = \"beta-24gb\"\npct = -5\n" + term, "data/overrides.toml:3:7: pct -5 is outside 0-100"},
		{"contract price zero", "data/overrides.toml", "[[contract]]\noffer = \"acme/alpha-8x\"\nprice = 0.0\n" + term, "data/overrides.toml:3:9: price must be greater than 0, got 0"},
		{"site.toml unknown key", "site.toml", "title = \"T\"\nquota_contakt = \"q@team.example\"\n", "site.toml:2:1: unknown key \"quota_contakt\" (did you mean \"quota_contact\"?)"},
		{"pool offers without their provider", "data/offers/team-pool.toml", "[[offers]]\ninstance = \"x\"\n", "data/offers/team-pool.toml:1:1: no provider \"team-pool\""},
		{"valid_until before as_of", "data/overrides.toml", "[[contract]]\noffer = \"acme/alpha-8x\"\nprice = 30.0\n" + term + "valid_until = 2025-01-01\n", "data/overrides.toml:6:15: valid_until 2025-01-01 is before as_of 2025-09-01"},
		{"currency without rate", "data/overrides.toml", "[[contract]]\noffer = \"acme/alpha-8x\"\nprice = 30.0\ncurrency = \"GBP\"\n" + term, "data/overrides.toml:4:12: currency \"GBP\" has no rate in data/fx.toml"},
		{"hide unknown", "data/hide.toml", "providers = [\"drachn\"]\n", "data/hide.toml:1:14: unknown provider \"drachn\" (did you mean \"drachen\"?)"},
		{"guide front matter syntax", "content/guides/q.md", "+++\ntitle = \"Q\ndescription = \"D\"\n+++\n", "content/guides/q.md:2:11: front matter: strings cannot contain newlines"},
		{"guide section", "content/guides/q.md", "+++\ntitle = \"Q\"\ndescription = \"D\"\nsection = \"basic\"\n+++\n", "content/guides/q.md:4:11: front matter: section \"basic\" is not one of: basics, selection, scenarios, cost, pitfalls, trends, faq, about (did you mean \"basics\"?)"},
		{"guide shortcode", "content/q.md", guide + "See {{< link provider=\"acmee\" >}}.\n", "content/q.md:7:5: shortcode \"link\": unknown provider \"acmee\" (did you mean \"acme\"?)"},
		{"guide quota contact unset", "content/q.md", guide + "Ask {{< site \"quota_contact\" >}}.\n", "content/q.md:7:5: shortcode \"site\": no quota_contact is set: it is a setting of a team's overlay (quota_contact in the overlay's site.toml)"},
		{"guide language", "content/q.de.md", guide, "content/q.de.md:1:1: file name names language \"de\""},
		{"internal kind only in overlay is fine, public id is not", "data/providers/acme.toml", "name = \"x\"\n", "data/providers/acme.toml:1:1: provider \"acme\" is already in the public catalog"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ov := t.TempDir()
			p := filepath.Join(ov, filepath.FromSlash(c.file))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(c.src), 0o644); err != nil {
				t.Fatal(err)
			}
			res, d := Run(Options{Root: root, Out: out, Now: fixture.Now, Overlay: ov})
			if res != nil {
				t.Fatal("build succeeded")
			}
			want := filepath.ToSlash(ov) + "/" + c.want
			var got []string
			found := false
			for _, e := range d.Errors() {
				got = append(got, e.String())
				if strings.HasPrefix(e.String(), want) {
					found = true
				}
			}
			if !found {
				t.Errorf("want an error starting %q, got:\n%s", want, strings.Join(got, "\n"))
			}
			after := snapshot(t, out)
			if len(after) != len(before) {
				t.Errorf("output changed: %d files, was %d", len(after), len(before))
			}
			for k, v := range before {
				if !bytes.Equal(after[k], v) {
					t.Errorf("%s changed after a failed build", k)
					break
				}
			}
		})
	}
}

// TestOverlayMissingDir: a mistyped -overlay is an error, not a public
// build.
func TestOverlayMissingDir(t *testing.T) {
	root := fixture.Site(t)
	missing := filepath.Join(t.TempDir(), "overlya")
	d := Check(Options{Root: root, Now: fixture.Now, Overlay: missing})
	want := filepath.ToSlash(missing) + ": overlay directory " + missing + " does not exist (check -overlay)"
	if errs := d.Errors(); len(errs) != 1 || errs[0].String() != want {
		t.Errorf("errors %v, want %q", errs, want)
	}
}

// TestOverlayStarterOnRepo: testdata/overlay-starter, the overlay the
// README's self-hosting section starts a team from, checks clean against
// this repository's catalog and guides (its ids are real ones: an
// upstream change that breaks it fails here, with the position).
func TestOverlayStarterOnRepo(t *testing.T) {
	if testing.Short() {
		t.Skip("checks the whole repository")
	}
	now, err := Today()
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join("..", "..", "..")
	starter := filepath.Join(repo, "testdata", "overlay-starter")
	d := Check(Options{Root: repo, Now: now, Overlay: starter})
	for _, e := range d.Errors() {
		t.Error(e.String())
	}
	// The starter's example dates age with the calendar (a price's age, a
	// contract's end): what this guards is that its ids and fields fit the
	// repository's data.
	for _, w := range d.Sorted() {
		if strings.Contains(w.Path, "overlay-starter") && !strings.Contains(w.Msg, " days old (older than warn_days") && !strings.Contains(w.Msg, " expired on ") {
			t.Errorf("warning about the starter: %s", w.String())
		}
	}
}
