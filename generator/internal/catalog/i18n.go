package catalog

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// ProviderText is a provider's name and description in another language
// ([i18n.zh] name = "阿里云"). GPU names are never translated.
type ProviderText struct {
	Name        string `toml:"name" doc:"The provider's name in that language, e.g. 阿里云."`
	Description string `toml:"description" doc:"The description in that language."`
}

// RegionText is a region's display name in another language
// (i18n = { zh = { name = "华北2（北京）" } }).
type RegionText struct {
	Name string `toml:"name" doc:"The region's name in that language."`
}

// LocalName returns the provider's name in the language, else its name.
func (p *Provider) LocalName(lang string) string {
	if t, ok := p.I18n[lang]; ok && t.Name != "" {
		return t.Name
	}
	return p.Name
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

// checkI18n validates the shape of a provider's i18n tables and its
// regions': language-code keys, and no empty texts.
func checkI18n(c checker, p *Provider) {
	check := func(pre string, lang string, texts map[string]string) {
		lp := pre + "." + lang
		if !languagePattern.MatchString(lang) {
			c.errorf(lp, "%q is not a language code (write a BCP 47 code such as zh, zh-Hant, pt-BR)", lang)
		}
		for _, k := range slices.Sorted(maps.Keys(texts)) {
			if c.has(lp+"."+k) && strings.TrimSpace(texts[k]) == "" {
				c.errorf(lp+"."+k, "%s is empty: give the text or leave the key out", k)
			}
		}
	}
	for _, lang := range slices.Sorted(maps.Keys(p.I18n)) {
		t := p.I18n[lang]
		check("i18n", lang, map[string]string{"name": t.Name, "description": t.Description})
	}
	for i, r := range p.Regions {
		for _, lang := range slices.Sorted(maps.Keys(r.I18n)) {
			check(fmt.Sprintf("regions.%d.i18n", i), lang, map[string]string{"name": r.I18n[lang].Name})
		}
	}
}
