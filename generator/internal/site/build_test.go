package site

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/fixture"
)

var assetHash = regexp.MustCompile(`(/assets/[\w/-]+)\.[0-9A-Za-z]{8,10}\.(css|js|wasm)`)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

func buildAt(t *testing.T, root, out string, base string) *Result {
	t.Helper()
	return buildOpts(t, Options{Root: root, Out: out, BaseURL: base, Now: fixture.Now})
}

func buildOpts(t *testing.T, o Options) *Result {
	t.Helper()
	res, d := Run(o)
	if res == nil {
		var b strings.Builder
		d.Print(&b)
		t.Fatalf("build failed:\n%s", b.String())
	}
	return res
}

// TestGolden renders the fixture site and compares chosen pages with the
// golden files (go test ./generator/internal/site -run TestGolden -update).
func TestGolden(t *testing.T) {
	root := fixture.Site(t)
	out := filepath.Join(t.TempDir(), "public")
	// A base URL with a host, as a deployed site has (canonical, hreflang
	// and og:url links, the sitemap and its robots.txt line need one;
	// TestUnanchored covers a build without).
	buildOpts(t, Options{Root: root, Out: out, Now: fixture.Now, NoMinify: true, BaseURL: "https://atlas.example/"})
	pages := []string{
		"index.html",
		"gpus/index.html",
		"gpus/alpha-80gb/index.html",
		"providers/acme/index.html",
		"pricing/index.html",
		"guides/first-guide/index.html",
		"faq/index.html",
		"models/tiny-7b/index.html",
		"zh/index.html",
		"zh/gpus/alpha-80gb/index.html",
		"zh/providers/drachen/index.html",
		"zh/guides/first-guide/index.html",
		"zh/faq/index.html",
		"sitemap.xml",
		"robots.txt",
	}
	for _, p := range pages {
		got, err := os.ReadFile(filepath.Join(out, p))
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		// Asset hashes change with every CSS or JS edit; the goldens are
		// about the pages, so the hashes are normalised.
		got = assetHash.ReplaceAll(got, []byte("$1.HASH.$2"))
		golden := filepath.Join("testdata", "golden", strings.ReplaceAll(p, "/", "__"))
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
			t.Errorf("%s differs from %s (run with -update after checking the change)\n%s", p, golden, firstDiff(string(want), string(got)))
		}
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return "line " + itoa(i+1) + ":\n- " + x + "\n+ " + y
		}
	}
	return ""
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestDeterministic builds twice and compares every byte.
func TestDeterministic(t *testing.T) {
	root := fixture.Site(t)
	a := buildAt(t, root, filepath.Join(t.TempDir(), "a"), "")
	b := buildAt(t, root, filepath.Join(t.TempDir(), "b"), "")
	if a.Files != b.Files {
		t.Fatalf("file counts differ: %d vs %d", a.Files, b.Files)
	}
	for _, p := range a.Tree.Paths() {
		x, _ := a.Tree.Get(p)
		y, ok := b.Tree.Get(p)
		if !ok || !bytes.Equal(x, y) {
			t.Errorf("%s differs between two builds", p)
		}
	}
}

// TestFailedBuildLeavesOutputUntouched builds once, breaks the data, builds
// again and checks that every file of the first build is still there and
// unchanged, with nothing added.
func TestFailedBuildLeavesOutputUntouched(t *testing.T) {
	root := fixture.Site(t)
	out := filepath.Join(t.TempDir(), "public")
	first := buildAt(t, root, out, "")
	before := snapshot(t, out)
	if len(before) != first.Files+1 { // the site's files and the output's manifest
		t.Fatalf("snapshot has %d files, build reported %d and its manifest", len(before), first.Files)
	}
	edit(t, root, "data/offers/acme.toml", "price = 0.75", "price = -1")
	if res, d := Run(Options{Root: root, Out: out, Now: fixture.Now}); res != nil || !d.HasErrors() {
		t.Fatal("broken data built successfully")
	}
	after := snapshot(t, out)
	if len(after) != len(before) {
		t.Fatalf("output has %d files after a failed build, had %d", len(after), len(before))
	}
	for p, b := range before {
		if !bytes.Equal(after[p], b) {
			t.Errorf("%s changed after a failed build", p)
		}
	}
	// No temporary directories are left beside the output.
	ents, _ := os.ReadDir(filepath.Dir(out))
	for _, e := range ents {
		if e.Name() != "public" {
			t.Errorf("stray %s left beside the output", e.Name())
		}
	}
}

func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if !e.IsDir() {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			m[rel] = b
		}
		return nil
	})
	return m
}

// TestUnanchored: a build whose base_url names no host leaves out what
// needs absolute URLs (sitemap.xml, robots.txt's Sitemap line, canonical,
// hreflang and og:url links), in both editions, and says so once
// (Result.Origin empty; the build command prints Unanchored); with a host
// they are all there.
func TestUnanchored(t *testing.T) {
	for _, c := range []struct {
		base string
		want bool
	}{{"", false}, {"/", false}, {"https://atlas.example/", true}} {
		root := fixture.Site(t)
		out := filepath.Join(t.TempDir(), "public")
		res := buildOpts(t, Options{Root: root, Out: out, Now: fixture.Now, NoMinify: true, BaseURL: c.base})
		if (res.Origin != "") != c.want {
			t.Errorf("base %q: Result.Origin %q", c.base, res.Origin)
		}
		_, err := os.Stat(filepath.Join(out, "sitemap.xml"))
		robots, _ := os.ReadFile(filepath.Join(out, "robots.txt"))
		if (err == nil) != c.want || strings.Contains(string(robots), "Sitemap:") != c.want {
			t.Errorf("base %q: sitemap.xml written %v, robots.txt %q; want absolute-URL files %v", c.base, err == nil, robots, c.want)
		}
		for _, p := range []string{"index.html", "zh/gpus/alpha-80gb/index.html"} {
			b, _ := os.ReadFile(filepath.Join(out, filepath.FromSlash(p)))
			for _, tag := range []string{`<link rel="canonical" href="https://atlas.example/`, `hreflang="x-default" href="https://atlas.example/`, `<meta property="og:url" content="https://atlas.example/`} {
				if strings.Contains(string(b), tag) != c.want {
					t.Errorf("base %q: %s has %s: %v, want %v", c.base, p, tag, !c.want, c.want)
				}
			}
			if strings.Contains(string(b), `rel="canonical"`) != c.want || strings.Contains(string(b), `<link rel="alternate" hreflang=`) != c.want {
				t.Errorf("base %q: %s: a canonical or hreflang link with a relative URL", c.base, p)
			}
		}
		checkDatasetJSONLD(t, out, c.base, c.want)
	}
}

// checkDatasetJSONLD: with an origin, the API page of each edition
// describes the exports as a schema.org Dataset whose URLs are absolute
// and whose dates are the fixture's oldest and newest prices; without
// one, it has no JSON-LD (relative URLs would be wrong there).
func checkDatasetJSONLD(t *testing.T, out, base string, want bool) {
	t.Helper()
	re := regexp.MustCompile(`<script type="application/ld\+json">([^<]*)</script>`)
	for _, p := range []string{"api/index.html", "zh/api/index.html"} {
		b, _ := os.ReadFile(filepath.Join(out, filepath.FromSlash(p)))
		m := re.FindSubmatch(b)
		if (m != nil) != want {
			t.Errorf("base %q: %s has JSON-LD %v, want %v", base, p, m != nil, want)
			continue
		}
		if m == nil {
			continue
		}
		var d struct {
			Type, URL, DateModified, TemporalCoverage, InLanguage string
			Distribution                                          []struct{ ContentURL string }
		}
		raw := strings.NewReplacer(`"@type"`, `"type"`).Replace(string(m[1]))
		if err := json.Unmarshal([]byte(raw), &d); err != nil {
			t.Fatalf("%s: JSON-LD does not parse: %v\n%s", p, err, m[1])
		}
		if d.Type != "Dataset" || !strings.HasPrefix(d.URL, "https://atlas.example/") || !strings.HasSuffix(d.URL, "api/") ||
			d.TemporalCoverage != "2023-03-01/2025-09-01" || d.DateModified != "2025-09-01" || len(d.Distribution) < 2 {
			t.Errorf("%s: JSON-LD %+v", p, d)
		}
		for _, x := range d.Distribution {
			if !strings.HasPrefix(x.ContentURL, "https://atlas.example/api/v1/") {
				t.Errorf("%s: download %s is not an absolute export URL", p, x.ContentURL)
			}
		}
	}
}
