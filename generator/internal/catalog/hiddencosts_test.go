package catalog

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The fixture's providers/acme.toml is 35 lines: a block appended to it
// starts at line 37 (after a blank line 36).
const acmeProvider = "data/providers/acme.toml"

const egressTiers = `
[[extra_costs]]
kind = "egress"
currency = "USD"
unit = "gb"
as_of = 2025-06-01
date_basis = "page-date"
source = "https://acme.example/network"
evidence = "first-party"

[[extra_costs.tiers]]
up_to_gb = 100
price = 0

[[extra_costs.tiers]]
up_to_gb = 10240
price = 0.09

[[extra_costs.tiers]]
price = 0.05
`

func TestExtraCosts(t *testing.T) {
	root := fixtureSite(t)
	appendTo(t, root, acmeProvider, egressTiers+`
[[extra_costs]]
kind = "public-ipv4"
name = "in use"
currency = "EUR"
price = 3.6
unit = "month"
as_of = 2025-06-01
source = "https://acme.example/network"
evidence = "first-party"

[[extra_costs]]
kind = "public-ipv4"
name = "in use"
currency = "EUR"
price = 3.0
unit = "month"
as_of = 2024-06-01
source = "https://acme.example/network"
evidence = "third-party"

[[extra_costs]]
kind = "block-storage"
name = "ssd"
region = "eu-west"
currency = "USD"
price = 0.0001
unit = "gb-hour"
as_of = 2025-06-01
source = "https://acme.example/storage"
evidence = "first-party"

[[extra_costs]]
kind = "stopped-instance"
currency = "USD"
compute_billed = false
as_of = 2025-06-01
source = "https://acme.example/faq"
evidence = "first-party"
notes = "A stopped instance is not charged; its disks are."
`)
	c, got := diagLines(t, root)
	if c == nil {
		t.Fatalf("does not load:\n%s", strings.Join(got, "\n"))
	}
	p := c.Provider("acme")
	if n := len(p.CurrentCosts()); n != 4 {
		t.Errorf("%d current costs, want 4 (the 2024 address price is history)", n)
	}
	ip, ok := p.CostFor("public-ipv4", "us-east")
	if !ok || *ip.Price != 3.6 || len(p.CostHistory(ip.Key())) != 2 {
		t.Errorf("public IPv4 %+v, want the 2025 price 3.6 with two observations", ip)
	}
	// What the entries charge is derive's (TCORatesIn, TestTCOConditions).
	if eg, _ := p.CostFor("egress", "eu-west"); len(eg.Tiers) != 3 || eg.Tiers[2].UpToGB != nil {
		t.Errorf("egress tiers %+v, want three, the last unbounded", eg.Tiers)
	}
	if _, ok := p.CostFor("block-storage", "us-east"); ok {
		t.Error("the eu-west storage price applied to us-east")
	}
	if st, _ := p.CostFor("block-storage", "eu-west"); st.Unit != "gb-hour" || *st.Price != 0.0001 {
		t.Errorf("storage %+v", st)
	}
	if s, ok := p.CostFor("stopped-instance", "eu-west"); !ok || s.ComputeBilled == nil || *s.ComputeBilled {
		t.Errorf("stopped-instance %+v", s)
	}
}

func TestExtraCostChecks(t *testing.T) {
	tests := []struct {
		name, append string
		want         []string
	}{
		{"kind misspelt", `
[[extra_costs]]
kind = "egres"
currency = "USD"
price = 0.1
unit = "gb"
as_of = 2025-06-01
source = "https://acme.example/network"
evidence = "first-party"
`, []string{`data/providers/acme.toml:41:8: kind "egres" is not one of: egress, public-ipv4, block-storage, stopped-instance (did you mean "egress"?)`}},
		{"a unit of another kind", `
[[extra_costs]]
kind = "egress"
currency = "USD"
price = 0.1
unit = "gb-month"
as_of = 2025-06-01
source = "https://acme.example/network"
evidence = "first-party"
`, []string{`data/providers/acme.toml:44:8: unit "gb-month" is not one of: gb, gib (did you mean "gb"?)`}},
		{"a price without its unit", `
[[extra_costs]]
kind = "public-ipv4"
currency = "USD"
price = 0.005
as_of = 2025-06-01
source = "https://acme.example/network"
evidence = "first-party"
`, []string{`data/providers/acme.toml:43:9: a price needs its unit (unit = one of: hour, month)`}},
		{"unknown region and currency", `
[[extra_costs]]
kind = "egress"
region = "eu-wst"
currency = "USDD"
price = 0.1
unit = "gb"
as_of = 2025-06-01
source = "https://acme.example/network"
evidence = "first-party"
`, []string{
			`data/providers/acme.toml:42:10: unknown region "eu-wst" of provider acme (did you mean "eu-west"?)`,
			`data/providers/acme.toml:43:12: currency "USDD" is not in data/fx.toml (did you mean "USD"?)`}},
		{"missing evidence and source", `
[[extra_costs]]
kind = "egress"
currency = "USD"
price = 0.1
unit = "gb"
as_of = 2025-06-01
`, []string{
			`data/providers/acme.toml:40:1: missing required key "source" in [extra_costs]`,
			`data/providers/acme.toml:40:1: missing required key "evidence" in [extra_costs]`}},
		{"tiers out of order", strings.Replace(egressTiers, "up_to_gb = 10240", "up_to_gb = 50", 1),
			[]string{`data/providers/acme.toml:54:12: up_to_gb 50 must be greater than the previous tier's 100`}},
		{"a bounded last tier", strings.Replace(egressTiers, "price = 0.05", "up_to_gb = 99999\nprice = 0.05", 1),
			[]string{`data/providers/acme.toml:58:12: the last tier covers everything above the previous one: leave out up_to_gb`}},
		{"a flat price and tiers", strings.Replace(egressTiers, `unit = "gb"`, "unit = \"gb\"\nprice = 0.1", 1),
			[]string{`data/providers/acme.toml:44:9: give egress either a flat price or [[extra_costs.tiers]], not both`}},
		{"stopped instance without compute_billed", `
[[extra_costs]]
kind = "stopped-instance"
currency = "USD"
as_of = 2025-06-01
source = "https://acme.example/faq"
evidence = "first-party"
`, []string{`data/providers/acme.toml:41:8: a stopped-instance entry needs compute_billed = true or false: is the instance price still charged while it is stopped?`}},
		{"observed twice on a date", `
[[extra_costs]]
kind = "block-storage"
currency = "USD"
price = 0.1
unit = "gb-month"
as_of = 2025-06-01
source = "https://acme.example/storage"
evidence = "first-party"

[[extra_costs]]
kind = "block-storage"
currency = "USD"
price = 0.08
unit = "gb-month"
as_of = 2025-06-01
source = "https://acme.example/storage"
evidence = "first-party"
`, []string{`data/providers/acme.toml:54:9: this block-storage charge is observed twice on 2025-06-01 (first at line 40): give each observation its own as_of date`}},
		{"unknown key with did-you-mean", `
[[extra_costs]]
kind = "block-storage"
currency = "USD"
price = 0.1
unit = "gb-month"
as_of = 2025-06-01
source = "https://acme.example/storage"
evidnce = "first-party"
`, []string{`data/providers/acme.toml:47:1: unknown key "evidnce" (did you mean "evidence"?)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := fixtureSite(t)
			appendTo(t, root, acmeProvider, tt.append)
			_, got := diagLines(t, root)
			for _, w := range tt.want {
				if !slices.Contains(got, w) {
					t.Errorf("want\n  %s\ngot\n  %s", w, strings.Join(got, "\n  "))
				}
			}
		})
	}
}

func TestFXHistory(t *testing.T) {
	root := fixtureSite(t)
	appendTo(t, root, "data/fx.toml", `
[[history]]
as_of = 2024-10-21
date_basis = "page-date"
source = "https://example.org/fx-2024"

[history.rates]
CNY = 7.1
EUR = 0.92
`)
	c, got := diagLines(t, root)
	if c == nil {
		t.Fatalf("does not load:\n%s", strings.Join(got, "\n"))
	}
	s := c.FX.Series()
	if len(s) != 2 || s[0].Rates["CNY"] != 7.1 || s[1].Rates["CNY"] != 7.0 || !s[1].AsOf.Equal(time.Date(2025, 10, 21, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("series %+v, want the 2024 set then the current 2025 one", s)
	}
	if v, _ := c.FX.Convert(7, "CNY", "USD"); v != 1 {
		t.Errorf("conversion uses the current rates: 7 CNY = %v USD, want 1", v)
	}

	for _, tt := range []struct{ name, append, want string }{
		{"a history entry newer than the current rates", "\n[[history]]\nas_of = 2025-10-22\nsource = \"https://example.org/fx\"\n[history.rates]\nCNY = 7.2\n",
			`data/fx.toml:10:9: history entry of 2025-10-22 is not older than the current rates (as_of = 2025-10-21): the top-level rates are the newest; move this set up and the current one into [[history]]`},
		{"a bad currency code", "\n[[history]]\nas_of = 2024-10-21\nsource = \"https://example.org/fx\"\n[history.rates]\nyen = 150.0\n",
			`data/fx.toml:13:7: "yen" is not an ISO 4217 currency code`},
		{"no source", "\n[[history]]\nas_of = 2024-10-21\n[history.rates]\nCNY = 7.2\n",
			`data/fx.toml:9:1: missing required key "source" in [history]`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := fixtureSite(t)
			appendTo(t, root, "data/fx.toml", tt.append)
			_, got := diagLines(t, root)
			if !slices.Contains(got, tt.want) {
				t.Errorf("want\n  %s\ngot\n  %s", tt.want, strings.Join(got, "\n  "))
			}
		})
	}
}

// plainDrachen takes the fixture's own Chinese names out of drachen.toml,
// so a test writes them its own way.
func plainDrachen(t *testing.T, root string) {
	t.Helper()
	replaceIn(t, root, "data/providers/drachen.toml", "i18n = { zh = { name = \"华北（北京）\" } }\n", "")
	replaceIn(t, root, "data/providers/drachen.toml", "\n\n[i18n.zh]\nname = \"龙云\"\n", "\n")
}

// TestI18nTexts: a provider's and a GPU's notes take versions in other
// languages in the i18n tables beside them; Untranslated lists, per file
// and with the first one's position, the texts a zh page shows that have
// none (a text already written in Chinese needs none); an empty version
// is an error at its key.
func TestI18nTexts(t *testing.T) {
	root := fixtureSite(t)
	plainDrachen(t, root)
	replaceIn(t, root, "data/providers/drachen.toml", "[billing]\n", "[billing]\nnotes = \"Billed by the second.\"\n")
	appendTo(t, root, "data/providers/drachen.toml", "\n[billing.i18n.zh]\nnotes = \"按秒计费。\"\n")
	c, got := diagLines(t, root)
	if c == nil {
		t.Fatalf("does not load:\n%s", strings.Join(got, "\n"))
	}
	p := c.Provider("drachen")
	if p.Billing.Notes == "" {
		t.Fatal("the fixture's drachen has no billing notes to translate")
	}
	if got := p.Billing.NotesIn("zh"); got != "按秒计费。" {
		t.Errorf("billing notes in zh: %q", got)
	}
	if got := p.Billing.NotesIn("de"); got != p.Billing.Notes {
		t.Errorf("billing notes in de: %q, want the original", got)
	}
	byFile := map[string]Untranslated{}
	for _, u := range c.Untranslated("zh") {
		byFile[u.File] = u
	}
	for _, u := range byFile {
		if u.Line == 0 || len(u.Keys) == 0 {
			t.Errorf("%s: %+v, want a position and keys", u.File, u)
		}
	}
	if u, ok := byFile["data/providers/drachen.toml"]; ok && slices.Contains(u.Keys, "billing.notes") {
		t.Errorf("drachen's billing notes have a zh version but are reported: %v", u.Keys)
	}
	for _, g := range c.GPUs {
		u, listed := byFile[g.File]
		var want []string
		if g.Notes != "" && TextLang(g.Notes) != "zh-CN" {
			want = append(want, "notes")
		}
		for i, s := range g.Sources {
			if s.I18n["zh"].Title == "" && TextLang(s.Title) != "zh-CN" {
				want = append(want, "sources."+strconv.Itoa(i)+".title")
			}
		}
		if listed != (len(want) > 0) || !slices.Equal(u.Keys, want) {
			t.Errorf("%s (notes %q): listed %v %v, want %v", g.File, g.Notes, listed, u.Keys, want)
		}
	}

	// A source's title takes a version the same way: the fixture's
	// alpha has one; beta's, taken out here, is listed.
	root = fixtureSite(t)
	replaceIn(t, root, "data/gpus/beta-24gb.toml", "i18n = { zh = { title = \"Beta 数据手册\" } }\n", "")
	c, got = diagLines(t, root)
	if c == nil {
		t.Fatalf("does not load:\n%s", strings.Join(got, "\n"))
	}
	alpha := c.GPU("alpha-80gb").Sources[0]
	if got := alpha.TitleIn("zh"); got != "Alpha 数据手册" {
		t.Errorf("source title in zh: %q", got)
	}
	if got := alpha.TitleIn("de"); got != "Alpha datasheet" {
		t.Errorf("source title in de: %q, want the original", got)
	}
	for _, u := range c.Untranslated("zh") {
		switch u.File {
		case "data/gpus/alpha-80gb.toml":
			if slices.Contains(u.Keys, "sources.0.title") {
				t.Errorf("alpha's translated source title is listed: %v", u.Keys)
			}
		case "data/gpus/beta-24gb.toml":
			if !slices.Contains(u.Keys, "sources.0.title") {
				t.Errorf("beta's source title is not listed: %v", u.Keys)
			}
		}
	}

	root = fixtureSite(t)
	replaceIn(t, root, "data/providers/drachen.toml", "[billing]\n", "[billing]\nnotes = \"Billed by the second.\"\n")
	appendTo(t, root, "data/providers/drachen.toml", "\n[billing.i18n.zh]\nnotes = \" \"\n")
	_, got = diagLines(t, root)
	if !slices.ContainsFunc(got, func(l string) bool { return strings.HasSuffix(l, "notes is empty: give the text or leave the key out") }) {
		t.Errorf("an empty zh note is not reported:\n%s", strings.Join(got, "\n"))
	}
}

func TestI18n(t *testing.T) {
	root := fixtureSite(t)
	plainDrachen(t, root)
	replaceIn(t, root, "data/providers/drachen.toml", "city = \"Beijing\"\n", "city = \"Beijing\"\ni18n = { zh = { name = \"北京\" } }\n")
	appendTo(t, root, "data/providers/drachen.toml", "\n[i18n.zh]\nname = \"龙云\"\ndescription = \"一个测试用的云。\"\n")
	c, got := diagLines(t, root)
	if c == nil {
		t.Fatalf("does not load:\n%s", strings.Join(got, "\n"))
	}
	p := c.Provider("drachen")
	if p.LocalName("zh") != "龙云" || p.LocalName("de") != "Drachen Yun" || p.Regions[0].LocalName("zh") != "北京" || p.Regions[0].LocalName("en") != "Beijing" {
		t.Errorf("names: %q %q %q %q", p.LocalName("zh"), p.LocalName("de"), p.Regions[0].LocalName("zh"), p.Regions[0].LocalName("en"))
	}

	for _, tt := range []struct{ name, append, want string }{
		{"not a language code", "\n[i18n.Chinese]\nname = \"龙云\"\n", `data/providers/drachen.toml:19:1: "Chinese" is not a language code (write a BCP 47 code such as zh, zh-Hant, pt-BR)`},
		{"an empty name", "\n[i18n.zh]\nname = \"\"\n", `data/providers/drachen.toml:20:8: name is empty: give the text or leave the key out`},
		{"a misspelt key", "\n[i18n.zh]\nnmae = \"龙云\"\n", `data/providers/drachen.toml:20:1: unknown key "nmae" (did you mean "name"?)`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := fixtureSite(t)
			plainDrachen(t, root)
			appendTo(t, root, "data/providers/drachen.toml", tt.append)
			_, got := diagLines(t, root)
			if !slices.Contains(got, tt.want) {
				t.Errorf("want\n  %s\ngot\n  %s", tt.want, strings.Join(got, "\n  "))
			}
		})
	}
	t.Run("a region's misspelt key", func(t *testing.T) {
		root := fixtureSite(t)
		plainDrachen(t, root)
		replaceIn(t, root, "data/providers/drachen.toml", "city = \"Beijing\"\n", "city = \"Beijing\"\ni18n = { zh = { nam = \"北京\" } }\n")
		_, got := diagLines(t, root)
		want := `data/providers/drachen.toml:9:17: unknown key "nam" (did you mean "name"?)`
		if !slices.Contains(got, want) {
			t.Errorf("want\n  %s\ngot\n  %s", want, strings.Join(got, "\n  "))
		}
	})
}

// TestRegionCity: a region's city key joins providers' regions in one city;
// its city in a language comes from its name there.
func TestRegionCity(t *testing.T) {
	zh := func(n string) map[string]RegionText { return map[string]RegionText{"zh": {Name: n}} }
	for _, tc := range []struct {
		r        Region
		key, zhC string
	}{
		{Region{ID: "cn-beijing", City: "Beijing", Country: "CN", I18n: zh("华北2（北京）")}, "CN/Beijing", "北京"},
		{Region{ID: "ap-northeast-1", City: "Tokyo", Country: "JP", I18n: zh("亚太地区（东京）")}, "JP/Tokyo", "东京"},
		{Region{ID: "us-east-1", City: "N. Virginia", Country: "US", I18n: zh("弗吉尼亚北部")}, "US/N. Virginia", "弗吉尼亚北部"},
		{Region{ID: "ca-central-1", City: "Montreal", Country: "CA", I18n: zh("加拿大（中部）")}, "CA/Montreal", "加拿大（中部）"},
		{Region{ID: "x", City: "Frankfurt", Country: "DE"}, "DE/Frankfurt", "Frankfurt"},
		{Region{ID: "y"}, "", ""},
	} {
		if k, c := tc.r.CityKey(), tc.r.CityIn("zh"); k != tc.key || c != tc.zhC {
			t.Errorf("%s: key %q, zh city %q; want %q, %q", tc.r.ID, k, c, tc.key, tc.zhC)
		}
	}
}
