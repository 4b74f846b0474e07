package search

import (
	"strings"
	"unicode"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
)

// localize adapts the entries to an edition other than English: a
// provider is titled with its name in the edition's language (the English
// name stays findable as a keyword), and every entry whose text names a
// glossary term gets the term's Chinese rendering and synonyms as keywords
// (so 昇腾 finds the Ascend 910B and 按需计费 finds what says 按量计费).
func localize(entries []Entry, in Input) []Entry {
	unpriced := map[string]bool{}
	if in.Catalog != nil {
		for _, p := range in.Catalog.Providers {
			unpriced["providers/"+p.ID+"/"] = len(p.Offers) == 0
		}
	}
	for i := range entries {
		kind := entries[i].Kind
		if kind == KindProvider && unpriced[entries[i].URL] {
			kind = UnpricedProvider
		}
		if extra := in.KindKeywords[kind]; extra != "" {
			entries[i].Keywords = strings.TrimSpace(entries[i].Keywords + " " + extra)
		}
	}
	if in.Lang == "" || in.Lang == "en" {
		return entries
	}
	names := map[string]*catalog.Provider{}
	if in.Catalog != nil {
		for _, p := range in.Catalog.Providers {
			names["providers/"+p.ID+"/"] = p
		}
	}
	for i := range entries {
		e := &entries[i]
		if p := names[e.URL]; p != nil && e.Kind == KindProvider {
			if local := p.LocalName(in.Lang); local != p.Name {
				e.Title = local
				e.Keywords = strings.TrimSpace(e.Keywords + " " + strings.Join(Words(p.Name), " "))
			}
		}
		if e.Kind == KindOffer && names[e.URL] != nil {
			if local := names[e.URL].LocalName(in.Lang); local != names[e.URL].Name {
				e.Keywords = strings.TrimSpace(e.Keywords + " " + local)
			}
		}
		// A term's renderings go where the term was found: the title's
		// as aliases (ranked as the title), the keywords' as keywords,
		// the summary's as related words (ranked as the summary).
		have := strings.ToLower(e.Title + " " + e.Summary + " " + e.Keywords)
		for _, f := range []struct {
			text string
			into *string
		}{{e.Title, &e.Aliases}, {e.Keywords, &e.Keywords}, {e.Summary, &e.Related}} {
			text := strings.ToLower(f.text)
			var add []string
			for _, t := range in.Glossary {
				if t.Zh == "" || !mentions(text, t) {
					continue
				}
				for _, w := range append([]string{t.Zh}, t.ZhAlt...) {
					if lw := strings.ToLower(w); !strings.Contains(have, lw) {
						add = append(add, w)
						have += " " + lw
					}
				}
			}
			if len(add) > 0 {
				*f.into = strings.TrimSpace(*f.into + " " + strings.Join(add, " "))
			}
		}
	}
	return entries
}

// mentions reports whether text (lowercase) names the term: its English as
// whole words, or its Chinese rendering or a synonym anywhere.
func mentions(text string, t catalog.Term) bool {
	if en := strings.ToLower(strings.TrimSpace(t.En)); en != "" && hasPhrase(text, en) {
		return true
	}
	for _, w := range append([]string{t.Zh}, t.ZhAlt...) {
		if w != "" && hasCJK(w) && strings.Contains(text, strings.ToLower(w)) {
			return true
		}
	}
	return false
}

// hasPhrase reports whether phrase occurs in text at word boundaries.
func hasPhrase(text, phrase string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], phrase)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(phrase)
		before := start == 0 || !isWordByte(text[start-1])
		after := end == len(text) || !isWordByte(text[end])
		if before && after {
			return true
		}
		i = start + 1
	}
}

func isWordByte(b byte) bool { return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' }

func hasCJK(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}
