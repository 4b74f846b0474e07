package hfconfig

import (
	"math"
	"strconv"
)

// A small JSON reader that keeps the line and column of every value and
// object key. The standard library's encoding/json would grow the
// calculator's WebAssembly build by several hundred kilobytes (it needs
// reflect) and reports byte offsets only.

type kind uint8

const (
	jNull kind = iota
	jBool
	jNumber
	jString
	jObject
	jArray
)

// value is one JSON value with its position (1-based line and column of
// its first character).
type value struct {
	_         [0]func() // not comparable (see Error)
	kind      kind
	str       string // a string's text, a number's literal
	num       float64
	b         bool
	members   []member // object
	items     []*value // array
	line, col int
}

// member is one key of an object with the position of the key.
type member struct {
	_         [0]func() // not comparable (see Error)
	key       string
	val       *value
	line, col int
}

// get returns the value of key in object v (the last one when a key is
// repeated, as Python's json module keeps), or nil.
//
//go:noinline
func (v *value) get(key string) (*value, *member) {
	if v == nil || v.kind != jObject {
		return nil, nil
	}
	for i := len(v.members) - 1; i >= 0; i-- {
		if v.members[i].key == key {
			return v.members[i].val, &v.members[i]
		}
	}
	return nil, nil
}

// maxDepth bounds nesting (config files nest three or four levels), so a
// hostile file cannot exhaust the stack.
const maxDepth = 64

// MaxSize is the largest config file Parse reads (real ones are a few
// kilobytes; some carry a tokenizer or chat template of ~100 KB).
const MaxSize = 4 << 20

type parser struct {
	src       []byte
	i         int
	line, col int
	depth     int
}

//go:noinline
func (p *parser) errAt(key string, line, col int, s string) *Error {
	return newError(key, line, col, s, strconv.Itoa(line), strconv.Itoa(col), "", "")
}

//go:noinline
func (p *parser) err(key, s string) *Error { return p.errAt(key, p.line, p.col, s) }

//go:noinline
func (p *parser) advance() {
	if p.src[p.i] == '\n' {
		p.line++
		p.col = 1
	} else if p.src[p.i]&0xC0 != 0x80 { // count characters, not UTF-8 continuation bytes
		p.col++
	}
	p.i++
}

//go:noinline
func (p *parser) skipSpace() {
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case ' ', '\t', '\r', '\n':
			p.advance()
		default:
			return
		}
	}
}

// parseDocument reads one JSON value and nothing after it but space.
//
//go:noinline
func parseDocument(src []byte) (*value, *Error) {
	p := &parser{src: src, line: 1, col: 1}
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		p.i = 3 // UTF-8 byte order mark
	}
	p.skipSpace()
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.i < len(p.src) {
		return nil, p.err("trailing", "")
	}
	return v, nil
}

// quoted renders the byte at the position for a message: "x" for a
// printable ASCII character, else its code ("0x0a").
//
//go:noinline
func (p *parser) quoted() string {
	c := p.src[p.i]
	if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
		const hex = "0123456789abcdef"
		return string([]byte{'0', 'x', hex[c>>4], hex[c&15]})
	}
	return string([]byte{'"', c, '"'})
}

//go:noinline
func (p *parser) value() (*value, *Error) {
	if p.i >= len(p.src) {
		return nil, p.err("eof", "")
	}
	v := &value{line: p.line, col: p.col}
	switch c := p.src[p.i]; {
	case c == '{':
		return p.object(v)
	case c == '[':
		return p.array(v)
	case c == '"':
		s, err := p.string()
		if err != nil {
			return nil, err
		}
		v.kind, v.str = jString, s
		return v, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number(v)
	case c == 't':
		return p.literal(v, "true", jBool, true)
	case c == 'f':
		return p.literal(v, "false", jBool, false)
	case c == 'n':
		return p.literal(v, "null", jNull, false)
	case c == 'N' || c == 'I':
		// Python's json.dump writes NaN and Infinity, which JSON does not
		// allow; some config files carry them.
		if p.hasPrefix("NaN") {
			return p.literal(v, "NaN", jNumber, false)
		}
		return p.literal(v, "Infinity", jNumber, false)
	default:
		return nil, p.err("char", p.quoted())
	}
}

//go:noinline
func (p *parser) hasPrefix(s string) bool {
	return len(p.src)-p.i >= len(s) && string(p.src[p.i:p.i+len(s)]) == s
}

//go:noinline
func (p *parser) literal(v *value, word string, k kind, b bool) (*value, *Error) {
	if !p.hasPrefix(word) {
		return nil, p.err("char", p.quoted())
	}
	for range word {
		p.advance()
	}
	v.kind, v.b = k, b
	if k == jNumber {
		v.str = word
		v.num = 0 // NaN and Infinity are never valid sizes; reported by the reader
	}
	return v, nil
}

//go:noinline
func (p *parser) enter() *Error {
	p.depth++
	if p.depth > maxDepth {
		return p.err("depth", "")
	}
	return nil
}

//go:noinline
func (p *parser) object(v *value) (*value, *Error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	v.kind = jObject
	p.advance() // {
	p.skipSpace()
	if p.i < len(p.src) && p.src[p.i] == '}' {
		p.advance()
		p.depth--
		return v, nil
	}
	for {
		p.skipSpace()
		if p.i >= len(p.src) {
			return nil, p.err("eof", "")
		}
		if p.src[p.i] != '"' {
			return nil, p.err("char", p.quoted())
		}
		m := member{line: p.line, col: p.col}
		k, err := p.string()
		if err != nil {
			return nil, err
		}
		m.key = k
		p.skipSpace()
		if p.i >= len(p.src) {
			return nil, p.err("eof", "")
		}
		if p.src[p.i] != ':' {
			return nil, p.err("char", p.quoted())
		}
		p.advance()
		p.skipSpace()
		val, err := p.value()
		if err != nil {
			return nil, err
		}
		m.val = val
		v.members = append(v.members, m)
		p.skipSpace()
		if p.i >= len(p.src) {
			return nil, p.err("eof", "")
		}
		switch p.src[p.i] {
		case ',':
			p.advance()
		case '}':
			p.advance()
			p.depth--
			return v, nil
		default:
			return nil, p.err("char", p.quoted())
		}
	}
}

//go:noinline
func (p *parser) array(v *value) (*value, *Error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	v.kind = jArray
	p.advance() // [
	p.skipSpace()
	if p.i < len(p.src) && p.src[p.i] == ']' {
		p.advance()
		p.depth--
		return v, nil
	}
	for {
		p.skipSpace()
		item, err := p.value()
		if err != nil {
			return nil, err
		}
		v.items = append(v.items, item)
		p.skipSpace()
		if p.i >= len(p.src) {
			return nil, p.err("eof", "")
		}
		switch p.src[p.i] {
		case ',':
			p.advance()
		case ']':
			p.advance()
			p.depth--
			return v, nil
		default:
			return nil, p.err("char", p.quoted())
		}
	}
}

// string reads a JSON string at p.i (which is '"'). Escapes are decoded;
// the config keys and values the reader uses are plain ASCII.
//
//go:noinline
func (p *parser) string() (string, *Error) {
	line, col := p.line, p.col
	p.advance() // "
	var b []byte
	for {
		if p.i >= len(p.src) {
			return "", p.errAt("unterminated", line, col, "")
		}
		c := p.src[p.i]
		switch {
		case c == '"':
			p.advance()
			return string(b), nil
		case c < 0x20:
			return "", p.err("char", p.quoted())
		case c == '\\':
			p.advance()
			if p.i >= len(p.src) {
				return "", p.errAt("unterminated", line, col, "")
			}
			e := p.src[p.i]
			switch e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				if len(p.src)-p.i < 5 {
					return "", p.errAt("unterminated", line, col, "")
				}
				n := hex4(p.src[p.i+1 : p.i+5])
				if n < 0 {
					return "", p.err("escape", "")
				}
				b = append(b, string(rune(n))...)
				for k := 0; k < 4; k++ {
					p.advance()
				}
			default:
				return "", p.err("escape", "")
			}
			p.advance()
		default:
			b = append(b, c)
			p.advance()
		}
	}
}

// number reads a JSON number (RFC 8259 grammar).
//
//go:noinline
func (p *parser) number(v *value) (*value, *Error) {
	start := p.i
	if p.src[p.i] == '-' {
		p.advance()
		if p.hasPrefix("Infinity") {
			return p.literal(v, "Infinity", jNumber, false)
		}
	}
	digits := func() int {
		n := 0
		for p.i < len(p.src) && p.src[p.i] >= '0' && p.src[p.i] <= '9' {
			p.advance()
			n++
		}
		return n
	}
	if p.i < len(p.src) && p.src[p.i] == '0' {
		p.advance()
	} else if digits() == 0 {
		return nil, p.bad()
	}
	if p.i < len(p.src) && p.src[p.i] == '.' {
		p.advance()
		if digits() == 0 {
			return nil, p.bad()
		}
	}
	if p.i < len(p.src) && (p.src[p.i] == 'e' || p.src[p.i] == 'E') {
		p.advance()
		if p.i < len(p.src) && (p.src[p.i] == '+' || p.src[p.i] == '-') {
			p.advance()
		}
		if digits() == 0 {
			return nil, p.bad()
		}
	}
	v.kind, v.str = jNumber, string(p.src[start:p.i])
	v.num = decimal(v.str)
	return v, nil
}

// hex4 reads four hexadecimal digits, or returns -1.
//
//go:noinline
func hex4(b []byte) int {
	n := 0
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			n = n*16 + int(c-'0')
		case c >= 'a' && c <= 'f':
			n = n*16 + int(c-'a') + 10
		case c >= 'A' && c <= 'F':
			n = n*16 + int(c-'A') + 10
		default:
			return -1
		}
	}
	return n
}

// decimal evaluates a JSON number literal (already checked against the
// grammar) to the float64 nearest to it, as strconv.ParseFloat does, for
// every literal of at most 19 significant digits (which covers the
// shortest form JavaScript's JSON.stringify and Go's strconv write for any
// float64); sizes, whole numbers up to 2^53, are exact. (strconv.ParseFloat
// would add about 40 kB to the WebAssembly build; strconv's formatting,
// which the check below uses, is there anyway.) Magnitudes past 1e300
// saturate to ±1e300.
//
//go:noinline
func decimal(s string) float64 {
	neg := false
	if s != "" && s[0] == '-' {
		neg, s = true, s[1:]
	}
	var mant uint64 // the first 19 significant digits
	digits, dropped, exp, point := 0, false, 0, false
	i := 0
	for ; i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.'); i++ {
		switch {
		case s[i] == '.':
			point = true
		case digits == 0 && s[i] == '0': // a leading zero
			if point {
				exp--
			}
		case digits < 19:
			mant = mant*10 + uint64(s[i]-'0')
			digits++
			if point {
				exp--
			}
		default: // past 19 digits: kept as a power of ten
			dropped = dropped || s[i] != '0'
			if !point {
				exp++
			}
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		e := 0
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			if e < 10000 {
				e = e*10 + int(s[i]-'0')
			}
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	x := scale(float64(mant), exp)
	if mant >= 1<<53 || exp < -22 || exp > 22 || dropped {
		x = nearest(x, mant, exp, digits)
	}
	if x > 1e300 {
		x = 1e300
	}
	if neg {
		return -x
	}
	return x
}

// pow10 returns 10^n for 0 <= n <= 22, exactly (every product on the
// way is a power of ten a float64 holds).
//
//go:noinline
func pow10(n int) float64 {
	p := 1.0
	for ; n > 0; n-- {
		p *= 10
	}
	return p
}

// scale returns m·10^exp, in one correctly rounded step when m < 2^53 and
// |exp| <= 22 (both factors exact), else within a few units in the last
// place.
//
//go:noinline
func scale(m float64, exp int) float64 {
	for ; exp > 22 && m < 1e300; exp -= 22 {
		m *= 1e22
	}
	for ; exp < -22 && m != 0; exp += 22 {
		m /= 1e22
	}
	switch {
	case m >= 1e300 || m == 0:
		return m
	case exp > 0:
		return m * pow10(exp)
	case exp < 0:
		return m / pow10(-exp)
	}
	return m
}

// nearest returns, among x and its neighbours within 16 units in the last
// place, the float64 whose shortest decimal form has the digits of mant
// (digits of them) at the decimal exponent exp: the float64 the literal
// names when the literal is some float64's shortest form. Otherwise x.
//
//go:noinline
func nearest(x float64, mant uint64, exp, digits int) float64 {
	if x == 0 || x >= 1e300 {
		return x
	}
	for mant != 0 && mant%10 == 0 {
		mant /= 10
		exp++
		digits--
	}
	want := strconv.AppendUint(nil, mant, 10)
	wantExp := exp + digits - 1 // the exponent of the first digit
	var buf [32]byte
	bits := math.Float64bits(x)
	for d := 0; d <= 32; d++ {
		c := bits + uint64(d/2)
		if d%2 == 1 {
			if bits < uint64(d/2+1) {
				continue
			}
			c = bits - uint64(d/2+1)
		}
		y := math.Float64frombits(c)
		if y-y != 0 { // past the largest finite float64
			continue
		}
		f := strconv.AppendFloat(buf[:0], y, 'e', -1, 64) // d.ddde±XX
		j := 0
		for j < len(f) && f[j] != 'e' {
			j++
		}
		got := append([]byte{f[0]}, f[min(2, j):j]...)
		e, sign := 0, 1
		for _, c := range f[j+1:] {
			switch {
			case c == '-':
				sign = -1
			case c >= '0' && c <= '9':
				e = e*10 + int(c-'0')
			}
		}
		if e*sign == wantExp && string(got) == string(want) {
			return y
		}
	}
	return x
}

//go:noinline
func (p *parser) bad() *Error {
	if p.i >= len(p.src) {
		return p.err("eof", "")
	}
	return p.err("char", p.quoted())
}

// JSON is one value of a document read by ReadJSON, for a caller that
// reads keys of its own: the calculator's WebAssembly binding reads its
// input with it, so that the module links one JSON reader, not two. The
// zero JSON is an absent value.
type JSON struct{ v *value }

// ReadJSON reads one JSON document of at most MaxSize bytes. Errors are
// *Error, positioned as Parse's.
//
//go:noinline
func ReadJSON(data []byte) (JSON, error) {
	if len(data) > MaxSize {
		return JSON{}, newError("size", 1, 1, "", "1", "1", strconv.Itoa(MaxSize), "")
	}
	v, err := parseDocument(data)
	if err != nil {
		return JSON{}, err
	}
	return JSON{v}, nil
}

// Get returns the value of key in an object (the last one when a key is
// repeated); absent for a missing key or when j is not an object.
//
//go:noinline
func (j JSON) Get(key string) JSON {
	v, _ := j.v.get(key)
	return JSON{v}
}

// Present reports whether j is there and not null.
func (j JSON) Present() bool { return j.v != nil && j.v.kind != jNull }

// IsObject reports whether j is a JSON object.
func (j JSON) IsObject() bool { return j.v != nil && j.v.kind == jObject }

// Len is the length of an array, or -1 when j is not one.
func (j JSON) Len() int {
	if j.v == nil || j.v.kind != jArray {
		return -1
	}
	return len(j.v.items)
}

// Index returns item i of an array (0 <= i < Len()).
func (j JSON) Index(i int) JSON { return JSON{j.v.items[i]} }

// Number returns a number's value, and whether j is a finite number (the
// NaN and Infinity that Python writes are not).
func (j JSON) Number() (float64, bool) {
	if j.v == nil || j.v.kind != jNumber || j.v.str == "NaN" || j.v.str == "Infinity" || j.v.str == "-Infinity" {
		return 0, false
	}
	return j.v.num, true
}

// Text returns a string's text, and whether j is a string.
func (j JSON) Text() (string, bool) {
	if j.v == nil || j.v.kind != jString {
		return "", false
	}
	return j.v.str, true
}

// Bool returns a boolean's value, and whether j is a boolean.
func (j JSON) Bool() (bool, bool) {
	if j.v == nil || j.v.kind != jBool {
		return false, false
	}
	return j.v.b, true
}
