package catalog

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/tomlpos"
)

// ProviderText is a provider's name and texts in another language
// ([i18n.zh] name = "阿里云").
type ProviderText struct {
	Name         string `toml:"name" doc:"The provider's name in that language, e.g. 阿里云."`
	Description  string `toml:"description" doc:"The description in that language."`
	FreeTrial    string `toml:"free_trial" doc:"free_trial in that language."`
	StorageNotes string `toml:"storage_notes" doc:"storage_notes in that language."`
}

// NoteText is a note in another language (billing, network, support,
// hidden_costs, a reserved term, a GPU).
type NoteText struct {
	Notes string `toml:"notes" doc:"The notes in that language."`
}

// GPUText is a GPU's name and notes in another language. A name is
// translated only where it holds words ("Tesla M60 (per GM204 GPU)"), not
// a product name alone.
type GPUText struct {
	Name  string `toml:"name" doc:"The name in that language, where the English one holds words: \"Tesla M60（每颗 GM204 GPU）\"."`
	Notes string `toml:"notes" doc:"The notes in that language."`
}

// CostText is an extra cost's name and notes in another language.
type CostText struct {
	Name  string `toml:"name" doc:"The name in that language."`
	Notes string `toml:"notes" doc:"The notes in that language."`
}

// SourceText is a source's title in another language.
type SourceText struct {
	Title string `toml:"title" doc:"The title in that language."`
}

// TitleIn returns the source's title in a language, else the original.
func (s Source) TitleIn(lang string) string {
	return localized(s.I18n, lang, func(t SourceText) string { return t.Title }, s.Title)
}

// sourceTexts is the titles of an entity's sources, as Texts.
func sourceTexts(srcs []Source) []Text {
	out := make([]Text, 0, len(srcs))
	for i, s := range srcs {
		pre := fmt.Sprintf("sources.%d", i)
		out = append(out, Text{Key: pre + ".title", I18nKey: pre + ".i18n", Field: "title", Text: s.Title,
			Versions: versions(s.I18n, func(t SourceText) string { return t.Title })})
	}
	return out
}

// PriceText is a price's computed_from in another language.
type PriceText struct {
	ComputedFrom string `toml:"computed_from" doc:"computed_from in that language."`
}

// ComputedFromIn returns computed_from in a language, else the original.
func (p Price) ComputedFromIn(lang string) string {
	return localized(p.I18n, lang, func(t PriceText) string { return t.ComputedFrom }, p.ComputedFrom)
}

// Text is one data text a page shows and its versions in other
// languages: Key is the TOML key of the original ("billing.notes",
// "extra_costs.3.name"), I18nKey the table its versions go in
// ("billing.i18n", "extra_costs.3.i18n") under the language and Field.
type Text struct {
	Key, I18nKey, Field string
	Text                string
	Versions            map[string]string
}

// Missing says whether the text needs a version in lang: it is set, has
// none, and is not written in lang already (TextLang).
func (t Text) Missing(lang string) bool {
	return t.Text != "" && t.Versions[lang] == "" && !WrittenIn(t.Text, lang)
}

// versions collects one field of an i18n table by language.
func versions[T any](m map[string]T, get func(T) string) map[string]string {
	out := make(map[string]string, len(m))
	for lang, t := range m {
		out[lang] = get(t)
	}
	return out
}

func noteText(key, i18nKey, text string, m map[string]NoteText) Text {
	return Text{Key: key, I18nKey: i18nKey, Field: "notes", Text: text, Versions: versions(m, notes)}
}

// Texts returns the provider's texts that pages show (not its name, nor
// region names), in file order, its sources' titles last.
func (p *Provider) Texts() []Text {
	get := func(f func(ProviderText) string) map[string]string { return versions(p.I18n, f) }
	out := []Text{
		{Key: "description", I18nKey: "i18n", Field: "description", Text: p.Description, Versions: get(func(t ProviderText) string { return t.Description })},
		noteText("billing.notes", "billing.i18n", p.Billing.Notes, p.Billing.I18n),
	}
	for i, r := range p.Billing.Reserved {
		pre := fmt.Sprintf("billing.reserved.%d", i)
		out = append(out, noteText(pre+".notes", pre+".i18n", r.Notes, r.I18n))
	}
	if n := p.Network; n != nil {
		out = append(out, noteText("network.notes", "network.i18n", n.Notes, n.I18n))
	}
	if s := p.Support; s != nil {
		out = append(out, noteText("support.notes", "support.i18n", s.Notes, s.I18n))
	}
	out = append(out,
		Text{Key: "free_trial", I18nKey: "i18n", Field: "free_trial", Text: p.FreeTrial, Versions: get(func(t ProviderText) string { return t.FreeTrial })},
		Text{Key: "storage_notes", I18nKey: "i18n", Field: "storage_notes", Text: p.StorageNotes, Versions: get(func(t ProviderText) string { return t.StorageNotes })})
	if h := p.HiddenCosts; h != nil {
		out = append(out, noteText("hidden_costs.notes", "hidden_costs.i18n", h.Notes, h.I18n))
	}
	for i, e := range p.ExtraCosts {
		pre := fmt.Sprintf("extra_costs.%d", i)
		out = append(out,
			Text{Key: pre + ".name", I18nKey: pre + ".i18n", Field: "name", Text: e.Name, Versions: versions(e.I18n, func(t CostText) string { return t.Name })},
			Text{Key: pre + ".notes", I18nKey: pre + ".i18n", Field: "notes", Text: e.Notes, Versions: versions(e.I18n, func(t CostText) string { return t.Notes })})
	}
	return append(out, sourceTexts(p.Sources)...)
}

// Texts returns the GPU's texts that pages show: its notes and its
// sources' titles.
func (g *GPU) Texts() []Text {
	return append([]Text{{Key: "notes", I18nKey: "i18n", Field: "notes", Text: g.Notes, Versions: versions(g.I18n, func(t GPUText) string { return t.Notes })}},
		sourceTexts(g.Sources)...)
}

// Texts returns the model preset's texts that pages show: its sources'
// titles.
func (m *Model) Texts() []Text { return sourceTexts(m.Sources) }

// LocalName returns the GPU's name in a language, else the original.
func (g *GPU) LocalName(lang string) string {
	return localized(g.I18n, lang, func(t GPUText) string { return t.Name }, g.Name)
}

// localized is the text get reads from m's entry for lang, else orig:
// every *In method below.
func localized[T any](m map[string]T, lang string, get func(T) string, orig string) string {
	if t, ok := m[lang]; ok {
		if v := get(t); v != "" {
			return v
		}
	}
	return orig
}

func notes(t NoteText) string { return t.Notes }

// NotesIn returns the notes in a language, else the original.
func (b Billing) NotesIn(lang string) string { return localized(b.I18n, lang, notes, b.Notes) }

// NotesIn returns the notes in a language, else the original.
func (r Reserved) NotesIn(lang string) string { return localized(r.I18n, lang, notes, r.Notes) }

// NotesIn returns the notes in a language, else the original.
func (n Network) NotesIn(lang string) string { return localized(n.I18n, lang, notes, n.Notes) }

// NotesIn returns the notes in a language, else the original.
func (s Support) NotesIn(lang string) string { return localized(s.I18n, lang, notes, s.Notes) }

// NotesIn returns the notes in a language, else the original.
func (h HiddenCosts) NotesIn(lang string) string { return localized(h.I18n, lang, notes, h.Notes) }

// NotesIn returns the notes in a language, else the original.
func (g *GPU) NotesIn(lang string) string {
	return localized(g.I18n, lang, func(t GPUText) string { return t.Notes }, g.Notes)
}

// NameIn returns the extra cost's name in a language, else the original.
func (e ExtraCost) NameIn(lang string) string {
	return localized(e.I18n, lang, func(t CostText) string { return t.Name }, e.Name)
}

// NotesIn returns the extra cost's notes in a language, else the original.
func (e ExtraCost) NotesIn(lang string) string {
	return localized(e.I18n, lang, func(t CostText) string { return t.Notes }, e.Notes)
}

// DescriptionIn returns the description in a language, else the original.
func (p *Provider) DescriptionIn(lang string) string {
	return localized(p.I18n, lang, func(t ProviderText) string { return t.Description }, p.Description)
}

// FreeTrialIn returns free_trial in a language, else the original.
func (p *Provider) FreeTrialIn(lang string) string {
	return localized(p.I18n, lang, func(t ProviderText) string { return t.FreeTrial }, p.FreeTrial)
}

// StorageNotesIn returns storage_notes in a language, else the original.
func (p *Provider) StorageNotesIn(lang string) string {
	return localized(p.I18n, lang, func(t ProviderText) string { return t.StorageNotes }, p.StorageNotes)
}

// WrittenIn says whether a text is written in the language of code lang
// ("zh" for zh-CN text), by its script (TextLang).
func WrittenIn(s, lang string) bool { return strings.HasPrefix(TextLang(s)+"-", lang+"-") }

// TextLang is the language a data text is written in, read from its
// script: "zh-CN" when at least 30% of its letters are Han characters,
// else "en".
func TextLang(s string) string {
	han, letters := 0, 0
	for _, c := range s {
		switch {
		case unicode.Is(unicode.Han, c):
			han++
			letters++
		case unicode.IsLetter(c):
			letters++
		}
	}
	if letters > 0 && han*10 >= letters*3 {
		return "zh-CN"
	}
	return "en"
}

// RegionText is a region's display name in another language
// (i18n = { zh = { name = "华北2（北京）" } }).
type RegionText struct {
	Name string `toml:"name" doc:"The region's name in that language."`
}

// LocalName returns the provider's name in the language, else its name.
func (p *Provider) LocalName(lang string) string {
	return localized(p.I18n, lang, func(t ProviderText) string { return t.Name }, p.Name)
}

// CityKey names the region's city across providers: its country and
// city ("CN/Beijing"), or "" when the data gives no city. Regions of any
// provider in one city share it (the price table's city filter).
func (r Region) CityKey() string {
	if r.City == "" {
		return ""
	}
	return r.Country + "/" + r.City
}

// CityIn is the region's city in a language, read from its name there:
// the part in brackets of a name such as 华北2（北京） or 亚太地区（东京）,
// else a name without brackets (弗吉尼亚北部); the English city when the
// data has no name in the language.
func (r Region) CityIn(lang string) string {
	t, ok := r.I18n[lang]
	if !ok || t.Name == "" {
		return r.City
	}
	n := t.Name
	if i := strings.LastIndex(n, "（"); i >= 0 && strings.HasSuffix(n, "）") {
		// 加拿大（中部）names an area, not a city: keep the whole name.
		if in := strings.TrimSuffix(n[i+len("（"):], "）"); !strings.HasSuffix(in, "部") {
			return in
		}
		return n
	}
	if i := strings.LastIndex(n, "("); i >= 0 && strings.HasSuffix(n, ")") {
		return strings.TrimSpace(strings.TrimSuffix(n[i+1:], ")"))
	}
	return n
}

// LocalName returns the region's display name in the language, else
// DisplayName.
func (r Region) LocalName(lang string) string {
	if t, ok := r.I18n[lang]; ok && t.Name != "" {
		return t.Name
	}
	return r.DisplayName()
}

var languagePattern = regexp.MustCompile(LanguagePattern())

// checkI18n validates the shape of an entity's i18n tables (its texts'
// and, for a provider, its names' and its regions'): language-code keys,
// no empty texts. It returns
// where each text is written, by key, for Catalog.Untranslated.
func checkI18n(c checker, texts []Text, names map[string]map[string]string) map[string]tomlpos.Pos {
	pos := map[string]tomlpos.Pos{}
	check := func(pre, lang, field, v string) {
		lp := pre + "." + lang
		if !languagePattern.MatchString(lang) {
			c.errorf(lp, "%q is not a language code (write a BCP 47 code such as zh, zh-Hant, pt-BR)", lang)
		}
		if c.has(lp+"."+field) && strings.TrimSpace(v) == "" {
			c.errorf(lp+"."+field, "%s is empty: give the text or leave the key out", field)
		}
	}
	for _, t := range texts {
		if t.Text != "" {
			l, col := c.pos(t.Key)
			pos[t.Key] = tomlpos.Pos{Line: l, Col: col}
		}
		for _, lang := range slices.Sorted(maps.Keys(t.Versions)) {
			check(t.I18nKey, lang, t.Field, t.Versions[lang])
		}
	}
	for pre, byLang := range names {
		for _, lang := range slices.Sorted(maps.Keys(byLang)) {
			check(pre, lang, "name", byLang[lang])
		}
	}
	return pos
}

// Untranslated is a data file's texts that pages in a language show and
// that have no version in it: their keys, and where the first is.
type Untranslated struct {
	File      string
	Line, Col int
	Keys      []string
}

// Untranslated lists, per provider, GPU and model file (in catalog order), the
// texts pages in lang show that have no version in lang (Text.Missing).
func (c *Catalog) Untranslated(lang string) []Untranslated {
	var out []Untranslated
	add := func(file string, texts []Text, pos map[string]tomlpos.Pos) {
		u := Untranslated{File: file}
		for _, t := range texts {
			if !t.Missing(lang) {
				continue
			}
			if len(u.Keys) == 0 {
				u.Line, u.Col = pos[t.Key].Line, pos[t.Key].Col
			}
			u.Keys = append(u.Keys, t.Key)
		}
		if len(u.Keys) > 0 {
			out = append(out, u)
		}
	}
	for _, p := range c.Providers {
		add(p.File, p.Texts(), p.textPos)
	}
	for _, g := range c.GPUs {
		add(g.File, g.Texts(), g.textPos)
	}
	for _, m := range c.Models {
		add(m.File, m.Texts(), m.textPos)
	}
	return out
}
