package importer

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// node is one value of a structured source file (JSON, or the YAML subset
// of pricing.yml) with the position it was written at, so reports can name
// FILE:LINE:COL.
type node struct {
	kind      byte // 'o' object/mapping, 'a' array/sequence, 's' string, 'n' number, 'b' bool, 'z' null
	line, col int
	keys      []string         // object keys in file order
	kv        map[string]*node // object values
	keyAt     map[string][2]int
	items     []*node
	text      string // scalar as written (a string's value unquoted)
}

// get returns an object's value for a key, or nil.
func (n *node) get(k string) *node {
	if n == nil || n.kind != 'o' {
		return nil
	}
	return n.kv[k]
}

// path follows keys through nested objects.
func (n *node) path(keys ...string) *node {
	for _, k := range keys {
		n = n.get(k)
	}
	return n
}

// str returns a scalar's text ("" for nil or a non-scalar).
func (n *node) str() string {
	if n == nil || n.kind == 'o' || n.kind == 'a' {
		return ""
	}
	return n.text
}

// num returns a number value and whether the node is a number.
func (n *node) num() (float64, bool) {
	if n == nil || n.kind != 'n' {
		return 0, false
	}
	v, err := strconv.ParseFloat(n.text, 64)
	return v, err == nil
}

// pos is the node's position, 1:1 for nil.
func (n *node) pos() (int, int) {
	if n == nil {
		return 1, 1
	}
	return n.line, n.col
}

// parseError is a syntax error at a position of the source.
type parseError struct {
	line, col int
	msg       string
}

func (e *parseError) Error() string { return fmt.Sprintf("%d:%d: %s", e.line, e.col, e.msg) }

// jsonParser reads JSON (RFC 8259) keeping the line and column (in runes)
// of every value.
type jsonParser struct {
	src       string
	i         int
	line, col int
}

// parseJSON parses src from byte offset start (the offset's line and column
// are counted from the beginning of src) and returns the value there and
// the offset after it.
func parseJSON(src string, start int) (*node, int, error) {
	p := &jsonParser{src: src, line: 1, col: 1}
	for p.i < start {
		p.advance()
	}
	n, err := p.value()
	if err != nil {
		return nil, 0, err
	}
	return n, p.i, nil
}

func (p *jsonParser) advance() {
	r, w := utf8.DecodeRuneInString(p.src[p.i:])
	p.i += w
	if r == '\n' {
		p.line, p.col = p.line+1, 1
	} else {
		p.col++
	}
}

func (p *jsonParser) errorf(format string, args ...any) error {
	return &parseError{p.line, p.col, fmt.Sprintf(format, args...)}
}

func (p *jsonParser) space() {
	for p.i < len(p.src) && strings.IndexByte(" \t\r\n", p.src[p.i]) >= 0 {
		p.advance()
	}
}

func (p *jsonParser) value() (*node, error) {
	p.space()
	if p.i >= len(p.src) {
		return nil, p.errorf("unexpected end of input")
	}
	n := &node{line: p.line, col: p.col}
	switch c := p.src[p.i]; {
	case c == '{':
		n.kind, n.kv, n.keyAt = 'o', map[string]*node{}, map[string][2]int{}
		p.advance()
		p.space()
		if p.i < len(p.src) && p.src[p.i] == '}' {
			p.advance()
			return n, nil
		}
		for {
			p.space()
			kl, kc := p.line, p.col
			if p.i >= len(p.src) || p.src[p.i] != '"' {
				return nil, p.errorf("expected a quoted key")
			}
			k, err := p.string()
			if err != nil {
				return nil, err
			}
			p.space()
			if p.i >= len(p.src) || p.src[p.i] != ':' {
				return nil, p.errorf("expected ':' after key %q", k)
			}
			p.advance()
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			if _, dup := n.kv[k]; dup {
				return nil, &parseError{kl, kc, fmt.Sprintf("key %q repeated in one object", k)}
			}
			n.keys = append(n.keys, k)
			n.kv[k], n.keyAt[k] = v, [2]int{kl, kc}
			p.space()
			if p.i < len(p.src) && p.src[p.i] == ',' {
				p.advance()
				continue
			}
			if p.i < len(p.src) && p.src[p.i] == '}' {
				p.advance()
				return n, nil
			}
			return nil, p.errorf("expected ',' or '}'")
		}
	case c == '[':
		n.kind = 'a'
		p.advance()
		p.space()
		if p.i < len(p.src) && p.src[p.i] == ']' {
			p.advance()
			return n, nil
		}
		for {
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			n.items = append(n.items, v)
			p.space()
			if p.i < len(p.src) && p.src[p.i] == ',' {
				p.advance()
				continue
			}
			if p.i < len(p.src) && p.src[p.i] == ']' {
				p.advance()
				return n, nil
			}
			return nil, p.errorf("expected ',' or ']'")
		}
	case c == '"':
		s, err := p.string()
		if err != nil {
			return nil, err
		}
		n.kind, n.text = 's', s
		return n, nil
	case c == '-' || (c >= '0' && c <= '9'):
		start := p.i
		for p.i < len(p.src) && strings.IndexByte("+-0123456789.eE", p.src[p.i]) >= 0 {
			p.advance()
		}
		n.kind, n.text = 'n', p.src[start:p.i]
		if _, err := strconv.ParseFloat(n.text, 64); err != nil {
			return nil, &parseError{n.line, n.col, fmt.Sprintf("%q is not a number", n.text)}
		}
		return n, nil
	default:
		for _, lit := range []struct {
			word string
			kind byte
		}{{"true", 'b'}, {"false", 'b'}, {"null", 'z'}} {
			if strings.HasPrefix(p.src[p.i:], lit.word) {
				for range lit.word {
					p.advance()
				}
				n.kind, n.text = lit.kind, lit.word
				return n, nil
			}
		}
		return nil, p.errorf("unexpected %q", c)
	}
}

func (p *jsonParser) string() (string, error) {
	p.advance() // the opening quote
	var b strings.Builder
	for p.i < len(p.src) {
		c := p.src[p.i]
		switch {
		case c == '"':
			p.advance()
			return b.String(), nil
		case c == '\\':
			p.advance()
			if p.i >= len(p.src) {
				break
			}
			e := p.src[p.i]
			switch e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'u':
				if p.i+5 > len(p.src) {
					return "", p.errorf("short \\u escape")
				}
				v, err := strconv.ParseUint(p.src[p.i+1:p.i+5], 16, 32)
				if err != nil {
					return "", p.errorf("bad \\u escape")
				}
				b.WriteRune(rune(v))
				for range 4 {
					p.advance()
				}
			default:
				return "", p.errorf("bad escape \\%c", e)
			}
			p.advance()
		case c < 0x20:
			return "", p.errorf("control character in a string")
		default:
			r, _ := utf8.DecodeRuneInString(p.src[p.i:])
			b.WriteRune(r)
			p.advance()
		}
	}
	return "", p.errorf("unterminated string")
}

// parseYAML reads the YAML subset pricing.yml is written in: block
// mappings by indentation ("key:" or "key: scalar"), block sequences of
// scalars ("- item"), plain and quoted scalars, the empty flow
// collections "{}" and "[]", "#" comments, a "---"
// document start and block scalars ("|", "|2", ">") whose text is kept
// as one string. Anything else is reported with its position.
func parseYAML(src string) (*node, error) {
	lines := strings.Split(src, "\n")
	root := &node{kind: 'o', line: 1, col: 1, kv: map[string]*node{}, keyAt: map[string][2]int{}}
	type frame struct {
		indent int
		n      *node
	}
	stack := []frame{{0, root}}
	var pending *node // a "key:" whose children decide its kind
	pendingIndent := -1
	for i := 0; i < len(lines); i++ {
		raw := strings.TrimRight(lines[i], "\r")
		trimmed := strings.TrimLeft(raw, " ")
		if trimmed == "" || strings.HasPrefix(trimmed, "#") || (i == 0 && trimmed == "---") {
			continue
		}
		if strings.HasPrefix(raw, "\t") {
			return nil, &parseError{i + 1, 1, "a tab in the indentation (YAML indents with spaces)"}
		}
		indent := len(raw) - len(trimmed)
		line, col := i+1, indent+1
		seqItem := strings.HasPrefix(trimmed, "- ") || trimmed == "-"
		if pending != nil {
			// Children are indented deeper; a sequence may sit at the key's
			// own indentation ("key:\n- item").
			if indent > pendingIndent || (indent == pendingIndent && seqItem) {
				if seqItem {
					pending.kind = 'a'
				} else {
					pending.kind, pending.kv, pending.keyAt = 'o', map[string]*node{}, map[string][2]int{}
				}
				stack = append(stack, frame{indent, pending})
			} else {
				pending.kind = 'z' // "key:" with nothing under it
			}
			pending = nil
		}
		for len(stack) > 1 && (indent < stack[len(stack)-1].indent || (!seqItem && stack[len(stack)-1].n.kind == 'a' && indent == stack[len(stack)-1].indent)) {
			stack = stack[:len(stack)-1]
		}
		top := stack[len(stack)-1]
		if top.indent != indent {
			return nil, &parseError{line, col, fmt.Sprintf("indentation %d does not match the enclosing block (%d)", indent, top.indent)}
		}
		parent := top.n
		if seqItem {
			if parent.kind != 'a' {
				return nil, &parseError{line, col, "a sequence item where a mapping key was expected"}
			}
			v := strings.TrimSpace(strings.TrimPrefix(trimmed, "-"))
			item, err := yamlScalar(v, line, col+2)
			if err != nil {
				return nil, err
			}
			parent.items = append(parent.items, item)
			continue
		}
		if parent.kind != 'o' {
			return nil, &parseError{line, col, "a mapping key inside a sequence"}
		}
		k, rest, ok := splitYAMLKey(trimmed)
		if !ok {
			return nil, &parseError{line, col, fmt.Sprintf("expected \"key:\" or \"key: value\", got %q", trimmed)}
		}
		if _, dup := parent.kv[k]; dup {
			return nil, &parseError{line, col, fmt.Sprintf("key %q repeated in one mapping", k)}
		}
		parent.keys = append(parent.keys, k)
		parent.keyAt[k] = [2]int{line, col}
		vcol := col + len([]rune(trimmed)) - len([]rune(rest))
		switch {
		case rest == "":
			n := &node{line: line, col: col}
			parent.kv[k] = n
			pending, pendingIndent = n, indent
		case rest[0] == '|' || rest[0] == '>':
			// A block scalar: the following lines indented deeper.
			var text []string
			for i+1 < len(lines) {
				next := strings.TrimRight(lines[i+1], "\r")
				nt := strings.TrimLeft(next, " ")
				if nt != "" && len(next)-len(nt) <= indent {
					break
				}
				text = append(text, strings.TrimSpace(next))
				i++
			}
			parent.kv[k] = &node{kind: 's', line: line, col: vcol, text: strings.TrimSpace(strings.Join(text, "\n"))}
		default:
			n, err := yamlScalar(rest, line, vcol)
			if err != nil {
				return nil, err
			}
			parent.kv[k] = n
		}
	}
	if pending != nil {
		pending.kind = 'z'
	}
	return root, nil
}

// splitYAMLKey splits "key: rest" (or "key:") outside quotes.
func splitYAMLKey(s string) (key, rest string, ok bool) {
	if strings.HasPrefix(s, `"`) || strings.HasPrefix(s, `'`) {
		q := s[:1]
		end := strings.Index(s[1:], q)
		if end < 0 || !strings.HasPrefix(s[end+2:], ":") {
			return "", "", false
		}
		return s[1 : end+1], strings.TrimSpace(s[end+3:]), true
	}
	i := strings.Index(s, ": ")
	if i < 0 {
		if strings.HasSuffix(s, ":") {
			return s[:len(s)-1], "", true
		}
		return "", "", false
	}
	return s[:i], strings.TrimSpace(s[i+2:]), true
}

// yamlScalar reads a plain or quoted scalar; a comment after it is dropped.
func yamlScalar(v string, line, col int) (*node, error) {
	n := &node{line: line, col: col}
	switch {
	case strings.HasPrefix(v, `"`) || strings.HasPrefix(v, `'`):
		q := v[:1]
		end := strings.LastIndex(v, q)
		if end <= 0 {
			return nil, &parseError{line, col, "unterminated quoted scalar"}
		}
		n.kind, n.text = 's', v[1:end]
		return n, nil
	case v == "{}":
		n.kind, n.kv, n.keyAt = 'o', map[string]*node{}, map[string][2]int{}
		return n, nil
	case v == "[]":
		n.kind = 'a'
		return n, nil
	case strings.HasPrefix(v, "{") || strings.HasPrefix(v, "[") || strings.HasPrefix(v, "&") || strings.HasPrefix(v, "*"):
		return nil, &parseError{line, col, fmt.Sprintf("flow collections, anchors and aliases are not supported: %q", v)}
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	n.text = v
	switch {
	case v == "null" || v == "~":
		n.kind = 'z'
	case v == "true" || v == "false":
		n.kind = 'b'
	default:
		if _, err := strconv.ParseFloat(v, 64); err == nil {
			n.kind = 'n'
		} else {
			n.kind = 's'
		}
	}
	return n, nil
}
