package render

import "strings"

// tmplAction is an action of a template source that opens or closes a
// block: its keyword and the 1-based line and column (in characters) of
// its "{{".
type tmplAction struct {
	word      string // "if", "range", "with", "define", "block" or "end"
	line, col int
}

// unclosedBlock finds the block a template source leaves open, which
// text/template reports where it notices it, not where the block starts:
// an {{if}}, {{range}}, {{with}}, {{define}} or {{block}} without its
// {{end}} makes the parser fail with "unexpected EOF" at the end of the
// file, or with "unexpected <define> in command" at the next {{define}}.
// It scans the actions as text/template's lexer does (with the default
// delimiters: comments, quoted, raw and character strings, and the trim
// markers "{{- " and " -}}") and tracks their nesting. It returns the
// innermost open block at the first {{define}} met inside a block (then
// define is that {{define}}) or else at the end of src; ok is false when
// every block is closed.
func unclosedBlock(src string) (open, define tmplAction, ok bool) {
	var stack []tmplAction
	line, col, at := 1, 1, 0 // the position of src[at]
	pos := func(i int) (int, int) {
		for ; at < i; at++ {
			if src[at] == '\n' {
				line, col = line+1, 1
			} else if src[at]&0xC0 != 0x80 { // count characters, not UTF-8 continuation bytes
				col++
			}
		}
		return line, col
	}
	for i := 0; ; {
		j := strings.Index(src[i:], "{{")
		if j < 0 {
			break
		}
		start := i + j
		p := start + len("{{")
		if len(src) >= p+2 && src[p] == '-' && isTmplSpace(src[p+1]) {
			p += 2 // left trim marker
		}
		if strings.HasPrefix(src[p:], "/*") {
			// A comment ends at its first "*/" (the lexer then wants the
			// closing delimiter right after it).
			k := strings.Index(src[p+2:], "*/")
			if k < 0 {
				break
			}
			i = p + 2 + k + 2
			continue
		}
		word, rest := tmplWord(src[p:])
		if word == "else" {
			word = "" // {{else}}, {{else if}}, {{else with}}: the block goes on
		}
		end := tmplActionEnd(src, len(src)-len(rest))
		switch word {
		case "if", "range", "with", "define", "block":
			l, c := pos(start)
			a := tmplAction{word, l, c}
			if word == "define" && len(stack) > 0 {
				return stack[len(stack)-1], a, true
			}
			stack = append(stack, a)
		case "end":
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
		if end < 0 {
			break // an unclosed action or string: the parser reports it
		}
		i = end
	}
	if len(stack) == 0 {
		return tmplAction{}, tmplAction{}, false
	}
	return stack[len(stack)-1], tmplAction{}, true
}

// isTmplSpace reports whether c is a space as text/template's lexer
// reads one around trim markers and between the words of an action.
func isTmplSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// tmplWord returns the first word of an action (after its "{{" and trim
// marker) and what follows it; the word is "" when the action starts
// with something else (a field, a variable, a string, a parenthesis).
func tmplWord(s string) (word, rest string) {
	i := 0
	for i < len(s) && isTmplSpace(s[i]) {
		i++
	}
	j := i
	for j < len(s) && (s[j] == '_' || 'a' <= s[j] && s[j] <= 'z' || 'A' <= s[j] && s[j] <= 'Z' || j > i && '0' <= s[j] && s[j] <= '9') {
		j++
	}
	return s[i:j], s[j:]
}

// tmplActionEnd returns the offset just past the "}}" that closes the
// action src[i:] is inside of, skipping the "}}" of quoted ("…", with
// backslash escapes), raw (`…`) and character ('…') strings; -1 when the
// action or one of its strings is not closed.
func tmplActionEnd(src string, i int) int {
	for i < len(src) {
		switch c := src[i]; c {
		case '"', '\'':
			i++
			for i < len(src) && src[i] != c && src[i] != '\n' {
				if src[i] == '\\' {
					i++
				}
				i++
			}
			if i >= len(src) || src[i] != c {
				return -1
			}
		case '`':
			k := strings.IndexByte(src[i+1:], '`')
			if k < 0 {
				return -1
			}
			i += 1 + k
		case '}':
			if strings.HasPrefix(src[i:], "}}") {
				return i + 2
			}
		}
		i++
	}
	return -1
}
