package catalog

import (
	"fmt"
	"regexp"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

// Language is one edition of the site, a [[languages]] table of
// data/site.toml. The first is the default language, served at the site's
// root; the others are served under /<code>/. Adding a language is a
// table here, a strings file templates/i18n/<code>.toml and content files
// named slug.<code>.md.
type Language struct {
	// Code names the edition: its URL folder, its strings file and the
	// suffix of its content files ("zh").
	Code string `toml:"code"`
	// Tag is the BCP 47 tag of <html lang> and hreflang ("zh-CN").
	Tag string `toml:"lang"`
	// Name is the language's own name, shown in the language switch
	// ("中文").
	Name string `toml:"name"`
	// Title and Description replace the site's in this edition.
	Title       string `toml:"title"`
	Description string `toml:"description"`
	// DisplayCurrency is the currency prices are shown in by default.
	DisplayCurrency string `toml:"display_currency"`
	// DateStyle is how dates are written: "iso" (2026-12-01) or "cjk"
	// (2026年12月1日).
	DateStyle string `toml:"date_style"`
}

// DateStyles returns the allowed values of a language's date_style.
func DateStyles() []string { return []string{"iso", "cjk"} }

var (
	langCodePattern = regexp.MustCompile(`^[a-z]{2,3}$`)
	langTagPattern  = regexp.MustCompile(`^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$`)
)

// Langs returns the site's editions, the default first. A site.toml
// without [[languages]] has one edition from its language,
// display_currency, title and description.
func (s *Site) Langs() []Language {
	if len(s.Languages) > 0 {
		return s.Languages
	}
	code := s.Language
	if code == "" {
		code = "en"
	}
	return []Language{{Code: code, Tag: code, Name: code, Title: s.Title, Description: s.Description, DisplayCurrency: s.DisplayCurrency, DateStyle: "iso"}}
}

// LangCodes returns the codes of Langs, the default first.
func (s *Site) LangCodes() []string {
	var out []string
	for _, l := range s.Langs() {
		out = append(out, l.Code)
	}
	return out
}

func checkLanguages(c checker, s *Site, currencies map[string]bool) {
	seen := map[string]bool{}
	for i, l := range s.Languages {
		pre := fmt.Sprintf("languages.%d", i)
		c.require(pre, requiredOf[Language]()...)
		if c.has(pre+".code") && !langCodePattern.MatchString(l.Code) {
			c.errorf(pre+".code", "code %q is not a language code: two or three lowercase letters (en, zh)", l.Code)
		}
		if seen[l.Code] {
			c.errorf(pre+".code", "language %q is declared twice", l.Code)
		}
		seen[l.Code] = true
		if c.has(pre+".lang") && !langTagPattern.MatchString(l.Tag) {
			c.errorf(pre+".lang", "lang %q is not a BCP 47 language tag (en, zh-CN)", l.Tag)
		}
		c.oneOf(pre+".date_style", l.DateStyle, DateStyles()...)
		if l.DisplayCurrency != "" && currencies != nil && !currencies[l.DisplayCurrency] {
			c.hintf(pre+".display_currency", diag.DidYouMean(l.DisplayCurrency, mapKeys(currencies)), "display_currency %q is not in data/fx.toml", l.DisplayCurrency)
		}
	}
}
