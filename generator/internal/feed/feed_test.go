package feed

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/content"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

// parsed is the subset of Atom the tests read back.
type parsed struct {
	XMLName  xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
	ID       string   `xml:"id"`
	Title    string   `xml:"title"`
	Subtitle string   `xml:"subtitle"`
	Updated  string   `xml:"updated"`
	Author   []struct {
		Name string `xml:"name"`
	} `xml:"author"`
	Links []struct {
		Rel  string `xml:"rel,attr"`
		Href string `xml:"href,attr"`
	} `xml:"link"`
	Entries []struct {
		ID      string `xml:"id"`
		Title   string `xml:"title"`
		Updated string `xml:"updated"`
		Link    []struct {
			Rel  string `xml:"rel,attr"`
			Href string `xml:"href,attr"`
		} `xml:"link"`
		Summary string `xml:"summary"`
		Content struct {
			Type string `xml:"type,attr"`
			Body string `xml:",chardata"`
		} `xml:"content"`
	} `xml:"entry"`
}

func parse(t *testing.T, b []byte) parsed {
	t.Helper()
	var f parsed
	if err := xml.Unmarshal(b, &f); err != nil {
		t.Fatalf("not XML: %v\n%s", err, b)
	}
	// Every feed and entry element Atom requires.
	if f.ID == "" || f.Title == "" || f.Updated == "" || len(f.Author) != 1 || f.Author[0].Name == "" {
		t.Errorf("feed lacks id/title/updated/author: %+v", f)
	}
	if _, err := time.Parse(time.RFC3339, f.Updated); err != nil {
		t.Errorf("feed updated: %v", err)
	}
	self := false
	for _, l := range f.Links {
		self = self || l.Rel == "self"
	}
	if !self {
		t.Error("no rel=self link")
	}
	ids := map[string]bool{f.ID: true}
	for _, e := range f.Entries {
		if e.ID == "" || e.Title == "" || e.Updated == "" || len(e.Link) == 0 || e.Link[0].Href == "" {
			t.Errorf("entry lacks id/title/updated/link: %+v", e)
		}
		if _, err := time.Parse(time.RFC3339, e.Updated); err != nil {
			t.Errorf("entry updated: %v", err)
		}
		if ids[e.ID] {
			t.Errorf("id %q twice", e.ID)
		}
		ids[e.ID] = true
	}
	return f
}

var bases = []struct {
	base, idPrefix, linkPrefix string
}{
	{"/", "urn:gpu-atlas:", "/"},
	{"/sub", "urn:gpu-atlas:", "/sub/"},
	// Ids are URNs wherever the site is served: moving it changes none.
	{"https://gpuatlas.example/", "urn:gpu-atlas:", "https://gpuatlas.example/"},
	{"https://h.example/atlas/", "urn:gpu-atlas:", "https://h.example/atlas/"},
}

// TestIDsStayPut: a feed's ids are the same under every base URL, and
// differ between editions.
func TestIDsStayPut(t *testing.T) {
	pages := []*content.Page{{Slug: "a", FrontMatter: content.FrontMatter{Title: "A", Updated: time.Date(2025, 1, 2, 0, 0, 0, 0, time.UTC)}}}
	ids := func(base, edition string) []string {
		b, err := Guides(pages, Options{BaseURL: base, Edition: edition, Title: "T"})
		if err != nil {
			t.Fatal(err)
		}
		f := parse(t, b)
		out := []string{f.ID}
		for _, e := range f.Entries {
			out = append(out, e.ID)
		}
		return out
	}
	en := ids("/", "")
	for _, base := range []string{"/sub/", "https://a.example/", "https://b.example/x/"} {
		if got := ids(base, ""); !slices.Equal(got, en) {
			t.Errorf("base %s: ids %q, want %q (as under /)", base, got, en)
		}
	}
	zh := ids("https://a.example/zh/", "zh")
	if zh[0] != "urn:gpu-atlas:zh:feed:guides" || zh[1] != "urn:gpu-atlas:zh:guide:a" || en[0] != "urn:gpu-atlas:feed:guides" {
		t.Errorf("ids: en %q, zh %q", en, zh)
	}
}

func TestGuides(t *testing.T) {
	pages := []*content.Page{
		{Slug: "old", FrontMatter: content.FrontMatter{Title: "Old <one>", Description: "A & B", Section: "basics", Updated: time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC)}},
		{Slug: "faq", FrontMatter: content.FrontMatter{Title: "FAQ", Section: "faq", Updated: time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)}},
		{Slug: "undated", FrontMatter: content.FrontMatter{Title: "Undated", Section: "cost"}},
		{Slug: "new", FrontMatter: content.FrontMatter{Title: "New", Section: "cost", Updated: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)}},
	}
	for _, tc := range bases {
		t.Run(tc.base, func(t *testing.T) {
			b, err := Guides(pages, Options{BaseURL: tc.base, Title: "Atlas", Lang: "en"})
			if err != nil {
				t.Fatal(err)
			}
			f := parse(t, b)
			var got []string
			for _, e := range f.Entries {
				got = append(got, e.Title+" "+e.Link[0].Href+" "+e.Updated)
				if !strings.HasPrefix(e.ID, tc.idPrefix) {
					t.Errorf("id %q", e.ID)
				}
			}
			want := []string{
				"New " + tc.linkPrefix + "guides/new/ 2025-06-01T00:00:00Z",
				"FAQ " + tc.linkPrefix + "faq/ 2025-03-01T00:00:00Z",
				"Old <one> " + tc.linkPrefix + "guides/old/ 2024-01-02T00:00:00Z",
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if f.Updated != "2025-06-01T00:00:00Z" {
				t.Errorf("feed updated %s", f.Updated)
			}
			if f.Entries[2].Summary != "A & B" {
				t.Errorf("summary %q", f.Entries[2].Summary)
			}
			if !bytes.Contains(b, []byte("Old &lt;one&gt;")) {
				t.Error("title not escaped")
			}
		})
	}
}

func TestGuidesPathCallbackAndEmpty(t *testing.T) {
	now := time.Date(2025, 11, 1, 0, 0, 0, 0, time.UTC)
	pages := []*content.Page{{Slug: "x", FrontMatter: content.FrontMatter{Title: "X", Updated: now}}}
	b, err := Guides(pages, Options{BaseURL: "https://a.example/", Title: "A", GuidePath: func(p *content.Page) string { return "g/" + p.Slug + ".html" }})
	if err != nil {
		t.Fatal(err)
	}
	if f := parse(t, b); f.Entries[0].Link[0].Href != "https://a.example/g/x.html" {
		t.Errorf("link %q", f.Entries[0].Link[0].Href)
	}
	b, err = Guides(nil, Options{BaseURL: "/", Title: "A", Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if f := parse(t, b); len(f.Entries) != 0 || f.Updated != "2025-11-01T00:00:00Z" {
		t.Errorf("empty feed: %+v", f)
	}
	if _, err := Guides(nil, Options{BaseURL: "https:///x"}); err == nil {
		t.Error("a base URL with a scheme and no host is accepted")
	}
}

func TestGuidesRepo(t *testing.T) {
	pages := testcat.Pages(t, testcat.RepoRoot())
	b, err := Guides(pages, Options{BaseURL: "https://gpuatlas.example/", Title: "GPU Atlas", Lang: "en"})
	if err != nil {
		t.Fatal(err)
	}
	dated := 0
	for _, p := range pages {
		if !p.Updated.IsZero() {
			dated++
		}
	}
	if f := parse(t, b); len(f.Entries) != dated || dated == 0 {
		t.Errorf("%d entries, want %d", len(f.Entries), dated)
	}
}

func TestChanges(t *testing.T) {
	for _, tc := range []struct {
		name string
		cat  *catalog.Catalog
	}{{"fixture", testcat.Fixture(t)}, {"repo", testcat.Repo(t)}} {
		for _, base := range bases {
			t.Run(tc.name+base.base, func(t *testing.T) {
				b, err := Changes(tc.cat, Options{BaseURL: base.base, Title: "Atlas"})
				if err != nil {
					t.Fatal(err)
				}
				again, _ := Changes(tc.cat, Options{BaseURL: base.base, Title: "Atlas"})
				if !bytes.Equal(b, again) {
					t.Error("not deterministic")
				}
				f := parse(t, b)
				if !strings.Contains(f.Subtitle, "observed") {
					t.Errorf("subtitle %q", f.Subtitle)
				}
				// Expected: every price of the newest dates, by date.
				want := map[string][]string{}
				for _, o := range tc.cat.Offers {
					for _, p := range o.Prices {
						d := p.AsOf.Format(time.DateOnly)
						ob := Observation{Provider: o.Provider.Name, Instance: o.Instance, Billing: p.Key().String(), Price: p.Price, Currency: o.Currency, AsOf: p.AsOf, Unit: p.Unit}
						var prev *catalog.Price
						for _, q := range o.Prices {
							if q.Key() == p.Key() && q.AsOf.Before(p.AsOf) && (prev == nil || q.AsOf.After(prev.AsOf)) {
								prev = &q
							}
						}
						if prev != nil {
							ob.Prev = &Previous{Price: prev.Price, AsOf: prev.AsOf}
						}
						want[d] = append(want[d], ob.Text())
					}
				}
				wantN := min(len(want), MaxChangeDates)
				if len(f.Entries) != wantN {
					t.Fatalf("%d entries, want %d", len(f.Entries), wantN)
				}
				prev := ""
				for _, e := range f.Entries {
					if !strings.HasPrefix(e.ID, base.idPrefix) || !strings.HasPrefix(e.Link[0].Href, base.linkPrefix) {
						t.Errorf("id %q link %q", e.ID, e.Link[0].Href)
					}
					day := e.Updated[:10]
					if prev != "" && day >= prev {
						t.Errorf("dates not newest first: %s after %s", day, prev)
					}
					prev = day
					if e.Content.Type != "html" {
						t.Errorf("content type %q", e.Content.Type)
					}
					for _, line := range want[day] {
						li := "<li>" + strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(line) + "</li>"
						if !strings.Contains(e.Content.Body, li) {
							t.Errorf("%s: no %q in %s", day, li, e.Content.Body)
						}
					}
					if got := strings.Count(e.Content.Body, "<li>"); got != len(want[day]) {
						t.Errorf("%s: %d items, want %d", day, got, len(want[day]))
					}
				}
			})
		}
	}
}

func TestObservationText(t *testing.T) {
	for _, tc := range []struct {
		ob   Observation
		want string
	}{
		{Observation{Provider: "Acme Cloud", Instance: "alpha.8x", Billing: "on-demand", Price: 40, Currency: "USD", AsOf: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)}, "Price of Acme Cloud alpha.8x (on-demand) as of 2025-06-01: 40 USD per hour"},
		{Observation{Provider: "Drachen", Instance: "gpu.a1", Billing: "spot", Price: 1.0 / 3, Currency: "CNY", AsOf: time.Date(2025, 9, 1, 0, 0, 0, 0, time.UTC), Unit: "hour"}, "Price of Drachen gpu.a1 (spot) as of 2025-09-01: 0.3333333333333333 CNY per hour"},
		{Observation{Provider: "Drachen", Instance: "gpu.a1", Billing: "committed 1 months, subscription, per month", Price: 14600, Currency: "CNY", AsOf: time.Date(2025, 9, 1, 0, 0, 0, 0, time.UTC), Unit: "month",
			Prev: &Previous{Price: 16000, AsOf: time.Date(2024, 9, 1, 0, 0, 0, 0, time.UTC)}},
			"Price of Drachen gpu.a1 (committed 1 months, subscription, per month) as of 2025-09-01: 14600 CNY per month, was 16000 CNY as of 2024-09-01 (-8.8%)"},
	} {
		if got := tc.ob.Text(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

func TestObservationsLimit(t *testing.T) {
	c := testcat.Fixture(t)
	all := Observations(c, 0)
	if len(all) != 4 {
		t.Fatalf("%d dates, want 4", len(all))
	}
	if got := Observations(c, 2); len(got) != 2 || !got[0].Date.Equal(all[0].Date) || !got[1].Date.Equal(all[1].Date) {
		t.Errorf("limit 2: %+v", got)
	}
}

// TestChangesListsPriceChanges adds an older observation of a fixture
// price: the newer one becomes a change, and its day's title counts it.
func TestChangesListsPriceChanges(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(testcat.FixtureRoot())); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, "data", "offers", "drachen.toml")
	b, _ := os.ReadFile(p)
	b = append(b, []byte("\n[[offers.prices]]\nbilling = \"on-demand\"\nprice = 30.0\nas_of = 2024-09-01\nsource = \"https://drachen.example/price-2024\"\n")...)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	c, d := catalog.Load(root, testcat.FixtureNow)
	if c == nil {
		t.Fatalf("does not load: %v", d.Errors())
	}
	out, err := Changes(c, Options{BaseURL: "/", Title: "Atlas"})
	if err != nil {
		t.Fatal(err)
	}
	f := parse(t, out)
	var found bool
	for _, e := range f.Entries {
		if e.Updated[:10] == "2025-09-01" {
			found = true
			if e.Title != "1 price observed on 2025-09-01 (1 changed)" {
				t.Errorf("title %q", e.Title)
			}
			if want := "Price of Drachen Yun gpu.a1 (on-demand) as of 2025-09-01: 28 CNY per hour, was 30 CNY as of 2024-09-01 (-6.7%)"; !strings.Contains(e.Content.Body, want) {
				t.Errorf("no %q in %s", want, e.Content.Body)
			}
		}
	}
	if !found {
		t.Error("no entry for 2025-09-01")
	}
}
