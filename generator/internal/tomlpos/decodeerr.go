package tomlpos

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"
)

var (
	tomlTypeRE   = regexp.MustCompile(`TOML value has type (\w+)`)
	mismatchRE   = regexp.MustCompile(`^toml: line (\d+) \(last key "([^"]*)"\): incompatible types: (.*)$`)
	timeQuotedRE = regexp.MustCompile(`^parsing time "[^"]*" as`)
	// unclosedRE matches the decoder's message for a table header that
	// the end of its line (or of the source) leaves unclosed.
	unclosedRE     = regexp.MustCompile(`table (array )?name.*but got '(\\n|\\r|\\x00)' instead$`)
	kindOfTOMLType = map[string]byte{"string": 's', "int64": 'n', "float64": 'n', "bool": 'b', "array": 'a', "map": 't', "datetime": 'd'}
)

// DecodeError turns an error of github.com/BurntSushi/toml into a
// position and a message with a likely fix. The decoder keys positions by plain key, so inside an array
// of tables it names the last element with that key; the position is
// recovered from the source by finding the value of the right kind.
func DecodeError(src []byte, err error) (line, col int, msg string) {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		line, col = max(pe.Position.Line, 1), max(pe.Position.Col, 1)
		msg = pe.Message
		if unclosedRE.MatchString(msg) {
			if at, ok := headerAt(src, pe.Position.Start); ok {
				line, col = at.Line, at.Col
			}
		}
		if timeQuotedRE.MatchString(msg) && pe.LastKey != "" {
			// A quoted date reaches time.Time as a string.
			if p, ok := findKind(src, pe.LastKey, 's'); ok {
				line, col = p.Line, p.Col
			}
			msg = fmt.Sprintf("key %q: a date must not be quoted (write as_of = 2025-04-21)", pe.LastKey)
		}
		return line, col, msg
	}
	m := mismatchRE.FindStringSubmatch(err.Error())
	if m == nil {
		return 1, 1, err.Error()
	}
	line, col = atoi(m[1]), 1
	key, detail := m[2], m[3]
	if t := tomlTypeRE.FindStringSubmatch(detail); t != nil {
		var p Pos
		ok := false
		if t[1] == "float64" && strings.Contains(detail, "destination has type integer") {
			// Integers and floats are both numbers to the index: find the
			// value written as a float.
			p, ok = findFloat(src, key)
		}
		if !ok {
			p, ok = findKind(src, key, kindOfTOMLType[t[1]])
		}
		if ok {
			line, col = p.Line, p.Col
		}
	}
	msg = fmt.Sprintf("key %q: %s", key, detail)
	switch {
	case strings.Contains(detail, "has type string; destination has type time.Time"):
		msg += " (write dates without quotes: 2025-04-21)"
	case strings.Contains(detail, "has type string; destination has type integer"),
		strings.Contains(detail, "has type string; destination has type float"):
		msg += " (write numbers without quotes)"
	case strings.Contains(detail, "has type float64; destination has type integer"):
		msg += " (this field takes a whole number)"
	}
	return line, col, msg
}

// headerAt returns where the table header on the line holding offset off
// starts. The decoder reports a header left unclosed ("[gpu", "[[offers]")
// at the newline after it, which it counts on the next line.
func headerAt(src []byte, off int) (Pos, bool) {
	off = min(max(off, 0), len(src))
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	rest := src[start:]
	lead := len(rest) - len(bytes.TrimLeft(rest, " \t"))
	if lead == len(rest) || rest[lead] != '[' {
		return Pos{}, false
	}
	return Pos{Line: bytes.Count(src[:start], []byte("\n")) + 1, Col: lead + 1}, true
}

// findKind returns the first value of the plain key whose kind is want.
func findKind(src []byte, key string, want byte) (Pos, bool) {
	ix := Scan(src)
	for _, p := range ix.Paths() {
		if StripIndices(p) == key && (want == 0 || ix.Kind(p) == want) {
			return ix.Value(p), true
		}
	}
	return Pos{}, false
}

// findFloat returns the first value of the plain key written as a float
// (with a fraction or an exponent, or inf/nan).
func findFloat(src []byte, key string) (Pos, bool) {
	ix := Scan(src)
	lines := strings.Split(string(src), "\n")
	for _, p := range ix.Paths() {
		if StripIndices(p) != key || ix.Kind(p) != 'n' {
			continue
		}
		at := ix.Value(p)
		if at.Line < 1 || at.Line > len(lines) {
			continue
		}
		rs := []rune(lines[at.Line-1])
		if at.Col < 1 || at.Col > len(rs) {
			continue
		}
		lit := string(rs[at.Col-1:])
		if i := strings.IndexAny(lit, " \t,]}#\r"); i >= 0 {
			lit = lit[:i]
		}
		if !strings.HasPrefix(lit, "0x") && !strings.HasPrefix(lit, "0o") && !strings.HasPrefix(lit, "0b") &&
			(strings.ContainsAny(lit, ".eE") || strings.Contains(lit, "inf") || strings.Contains(lit, "nan")) {
			return at, true
		}
	}
	return Pos{}, false
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}
