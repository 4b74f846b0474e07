package importer

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"
)

// node is one value of a structured source file (JSON read by
// encoding/json, YAML read by go.yaml.in/yaml/v4) with the position it was
// written at, so reports can name FILE:LINE:COL.
type node struct {
	kind      byte // 'o' object/mapping, 'a' array/sequence, 's' string, 'n' number, 'b' bool, 'z' null
	line, col int
	keys      []string         // object keys in file order
	kv        map[string]*node // object values
	keyAt     map[string][2]int
	items     []*node
	text      string  // scalar as written (a string's value unquoted)
	value     float64 // a number's value
}

func newObject(line, col int) *node {
	return &node{kind: 'o', line: line, col: col, kv: map[string]*node{}, keyAt: map[string][2]int{}}
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
	return n.value, true
}

// pos is the node's position, 1:1 for nil.
func (n *node) pos() (int, int) {
	if n == nil {
		return 1, 1
	}
	return n.line, n.col
}

// put adds a key's value to an object, refusing a key written twice.
func (n *node) put(k string, line, col int, v *node, what string) error {
	if _, dup := n.kv[k]; dup {
		return &parseError{line, col, fmt.Sprintf("key %q repeated in one %s", k, what)}
	}
	n.keys = append(n.keys, k)
	n.kv[k], n.keyAt[k] = v, [2]int{line, col}
	return nil
}

// parseError is a fault at a position of the source.
type parseError struct {
	line, col int
	msg       string
}

func (e *parseError) Error() string { return fmt.Sprintf("%d:%d: %s", e.line, e.col, e.msg) }

// lineCol turns byte offsets of a source into 1-based lines and columns
// (columns counted in runes, as the YAML library counts them). Offsets are
// asked for in increasing order, so it moves forward from the last one.
type lineCol struct {
	src       string
	i         int
	line, col int
}

func (p *lineCol) at(off int) (int, int) {
	if off < p.i || p.line == 0 {
		p.i, p.line, p.col = 0, 1, 1
	}
	for off = min(off, len(p.src)); p.i < off; {
		r, w := utf8.DecodeRuneInString(p.src[p.i:])
		p.i += w
		if r == '\n' {
			p.line, p.col = p.line+1, 1
		} else {
			p.col++
		}
	}
	return p.line, p.col
}

// jsonReader builds a node tree from encoding/json's token stream: the
// decoder's input offset before each token, past the blanks and the comma
// or colon the decoder elides, is where the token starts.
type jsonReader struct {
	src   string
	start int // the offset in src the decoder reads from
	dec   *json.Decoder
	pos   lineCol
}

// parseJSON parses the JSON value at byte offset start of src (positions
// are counted from the beginning of src); what follows the value is not
// read.
func parseJSON(src string, start int) (*node, error) {
	r := &jsonReader{src: src, start: start, dec: json.NewDecoder(strings.NewReader(src[start:])), pos: lineCol{src: src}}
	r.dec.UseNumber() // numbers as written
	n, err := r.value()
	if err != nil {
		return nil, r.positioned(err)
	}
	return n, nil
}

// next returns the next token and the offset in src where it starts.
func (r *jsonReader) next() (json.Token, int, error) {
	off := r.start + int(r.dec.InputOffset())
	for off < len(r.src) && strings.IndexByte(" \t\r\n,:", r.src[off]) >= 0 {
		off++
	}
	tok, err := r.dec.Token()
	return tok, off, err
}

func (r *jsonReader) value() (*node, error) {
	tok, off, err := r.next()
	if err != nil {
		return nil, err
	}
	line, col := r.pos.at(off)
	switch t := tok.(type) {
	case json.Delim: // '{' or '[': the decoder refuses a closing one here
		if t == '{' {
			return r.object(newObject(line, col))
		}
		return r.array(&node{kind: 'a', line: line, col: col})
	case string:
		return &node{kind: 's', line: line, col: col, text: t}, nil
	case json.Number:
		v, err := strconv.ParseFloat(string(t), 64)
		if err != nil { // out of float64's range
			return nil, &parseError{line, col, fmt.Sprintf("%q is not a number", string(t))}
		}
		return &node{kind: 'n', line: line, col: col, text: string(t), value: v}, nil
	case bool:
		return &node{kind: 'b', line: line, col: col, text: strconv.FormatBool(t)}, nil
	default: // nil: null
		return &node{kind: 'z', line: line, col: col, text: "null"}, nil
	}
}

func (r *jsonReader) object(n *node) (*node, error) {
	for r.dec.More() {
		tok, off, err := r.next()
		if err != nil {
			return nil, err
		}
		k, _ := tok.(string) // the decoder reads only a string as a key
		line, col := r.pos.at(off)
		v, err := r.value()
		if err != nil {
			return nil, err
		}
		if err := n.put(k, line, col, v, "object"); err != nil {
			return nil, err
		}
	}
	_, _, err := r.next() // '}'
	return n, err
}

func (r *jsonReader) array(n *node) (*node, error) {
	for r.dec.More() {
		v, err := r.value()
		if err != nil {
			return nil, err
		}
		n.items = append(n.items, v)
	}
	_, _, err := r.next() // ']'
	return n, err
}

// positioned gives a decoding error its line and column. The token
// decoder's SyntaxError offsets do not count the bytes between tokens, so
// the input is checked again by json.Unmarshal, whose SyntaxError.Offset
// counts every byte up to and including the offending one.
func (r *jsonReader) positioned(err error) error {
	var pe *parseError
	if errors.As(err, &pe) {
		return err
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		line, col := r.pos.at(len(r.src))
		return &parseError{line, col, "unexpected end of input"}
	}
	var se *json.SyntaxError
	if errors.As(json.Unmarshal([]byte(r.src[r.start:]), new(json.RawMessage)), &se) && se.Offset > 0 {
		line, col := r.pos.at(r.start + int(se.Offset) - 1)
		return &parseError{line, col, se.Error()}
	}
	line, col := r.pos.at(r.start + int(r.dec.InputOffset()))
	return &parseError{line, col, err.Error()}
}

// parseYAML reads one YAML document whose mapping keys are scalars. A key
// whose value is a block mapping, a block sequence or nothing ("key:")
// gives that value its own position, so a report on a whole machine type
// names the line of its name.
func parseYAML(src string) (*node, error) {
	l, err := yaml.NewLoader(strings.NewReader(src))
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	switch err := l.Load(&doc); {
	case errors.Is(err, io.EOF): // no document: comments or nothing
		return newObject(1, 1), nil
	case err != nil:
		return nil, yamlError(src, err)
	}
	var more yaml.Node
	if err := l.Load(&more); err == nil {
		return nil, &parseError{max(more.Line, 1), max(more.Column, 1), "a second YAML document (the file must hold one)"}
	} else if !errors.Is(err, io.EOF) {
		return nil, yamlError(src, err)
	}
	if len(doc.Content) == 0 {
		return newObject(1, 1), nil
	}
	return (&yamlReader{done: map[*yaml.Node]*node{}}).value(doc.Content[0])
}

// yamlError is a YAML library error as line:col: message (with the
// construct it was reading, and a hint where the character there is a tab).
func yamlError(src string, err error) error {
	var le *yaml.LoadError
	if !errors.As(err, &le) || le.Mark.Line == 0 {
		return &parseError{1, 1, err.Error()}
	}
	line, col := le.Mark.Line, max(le.Mark.Column, 1)
	msg := le.Message
	if le.ContextMsg != "" && le.ContextMark != le.Mark {
		msg += fmt.Sprintf(" (%s at %d:%d)", le.ContextMsg, le.ContextMark.Line, le.ContextMark.Column)
	}
	if lines := strings.Split(src, "\n"); line <= len(lines) {
		if r := []rune(lines[line-1]); col <= len(r) && r[col-1] == '\t' {
			msg += ": a tab (YAML indents with spaces)"
		}
	}
	return &parseError{line, col, msg}
}

// yamlReader turns the library's nodes into a node tree; an alias is the
// node of its anchor (done holds the nodes whose conversion is complete).
type yamlReader struct {
	done map[*yaml.Node]*node
}

func (r *yamlReader) value(y *yaml.Node) (*node, error) {
	var n *node
	var err error
	switch y.Kind {
	case yaml.AliasNode:
		if n, ok := r.done[y.Alias]; ok {
			return n, nil
		}
		return nil, &parseError{y.Line, y.Column, fmt.Sprintf("alias *%s is inside the value it names", y.Value)}
	case yaml.MappingNode:
		n, err = r.mapping(y)
	case yaml.SequenceNode:
		n = &node{kind: 'a', line: y.Line, col: y.Column}
		for _, c := range y.Content {
			item, err := r.value(c)
			if err != nil {
				return nil, err
			}
			n.items = append(n.items, item)
		}
	default:
		n = yamlScalar(y)
	}
	if err != nil {
		return nil, err
	}
	if y.Anchor != "" {
		r.done[y] = n
	}
	return n, nil
}

// mapping reads a mapping with scalar keys; a value that is a block
// collection or nothing takes its key's position.
func (r *yamlReader) mapping(y *yaml.Node) (*node, error) {
	n := newObject(y.Line, y.Column)
	for i := 0; i+1 < len(y.Content); i += 2 {
		k, v := y.Content[i], y.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil, &parseError{k.Line, k.Column, "a mapping key that is not a scalar"}
		}
		child, err := r.value(v)
		if err != nil {
			return nil, err
		}
		block := v.Kind != yaml.ScalarNode && v.Style&yaml.FlowStyle == 0
		if v.Kind != yaml.AliasNode && (block || (v.ShortTag() == "!!null" && v.Value == "")) {
			child.line, child.col = k.Line, k.Column
		}
		if err := n.put(k.Value, k.Line, k.Column, child, "mapping"); err != nil {
			return nil, err
		}
	}
	return n, nil
}

// yamlScalar is a scalar by its resolved tag: null, bool, a number
// (int or float, with its value), else a string.
func yamlScalar(y *yaml.Node) *node {
	n := &node{kind: 's', line: y.Line, col: y.Column, text: y.Value}
	switch y.ShortTag() {
	case "!!null":
		n.kind = 'z'
	case "!!bool":
		n.kind = 'b'
	case "!!int", "!!float":
		if y.Decode(&n.value) == nil {
			n.kind = 'n'
		}
	}
	return n
}
