// Package jsonpos reads JSON and keeps the line and column of every
// value, for messages that point into the file. It is small on purpose:
// the standard library's encoding/json would grow the calculator's
// WebAssembly build by several hundred kilobytes (it needs reflect) and
// reports byte offsets only; strconv.ParseFloat adds about 40 kB more
// (see decimal). Python's NaN and Infinity are read as numbers that
// Number reports as not finite; a UTF-8 byte order mark is skipped.
package jsonpos

import (
	"math"
	"strconv"
)

// Kind is the kind of a value: Absent (a nil *Value), Null, Boolean,
// Number, String, Object or Array.
type Kind uint8

// The kinds of value.
const (
	Absent Kind = iota
	Null
	Boolean
	Number
	String
	Object
	Array
)

// Value is one JSON value. A nil *Value is an absent value: every method
// but Index answers for it.
type Value struct {
	_ [0]func() // not comparable: spares the WebAssembly build an equality function
	// Line and Col are the 1-based position of the value's first
	// character; columns count characters, not bytes.
	Line, Col int
	kind      Kind
	str       string // a string's text, a number's literal
	num       float64
	b         bool
	members   []member // object
	items     []*Value // array
}

// member is one key of an object.
type member struct {
	_   [0]func() // not comparable (see Value)
	key string
	val *Value
}

// Get returns the value of key in object v (the last one when a key is
// repeated, as Python's json module keeps), or nil: for a missing key, or
// when v is not an object.
//
//go:noinline
func (v *Value) Get(key string) *Value {
	if v == nil || v.kind != Object {
		return nil
	}
	for i := len(v.members) - 1; i >= 0; i-- {
		if v.members[i].key == key {
			return v.members[i].val
		}
	}
	return nil
}

// maxDepth bounds nesting (config files nest three or four levels), so a
// hostile file cannot exhaust the stack.
const maxDepth = 64

type parser struct {
	src       []byte
	i         int
	line, col int
	depth     int
}

//go:noinline
func (p *parser) errAt(code string, line, col int, s string) *Error {
	return &Error{Code: code, Arg: s, Line: line, Col: col}
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

// Parse reads one JSON value and nothing after it but space.
//
//go:noinline
func Parse(src []byte) (*Value, *Error) {
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
func (p *parser) value() (*Value, *Error) {
	if p.i >= len(p.src) {
		return nil, p.err("eof", "")
	}
	v := &Value{Line: p.line, Col: p.col}
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
		v.kind, v.str = String, s
		return v, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number(v)
	case c == 't':
		return p.literal(v, "true", Boolean, true)
	case c == 'f':
		return p.literal(v, "false", Boolean, false)
	case c == 'n':
		return p.literal(v, "null", Null, false)
	case c == 'N' || c == 'I':
		// Python's json.dump writes NaN and Infinity, which JSON does not
		// allow; some config files carry them.
		if p.hasPrefix("NaN") {
			return p.literal(v, "NaN", Number, false)
		}
		return p.literal(v, "Infinity", Number, false)
	default:
		return nil, p.err("char", p.quoted())
	}
}

//go:noinline
func (p *parser) hasPrefix(s string) bool {
	return len(p.src)-p.i >= len(s) && string(p.src[p.i:p.i+len(s)]) == s
}

//go:noinline
func (p *parser) literal(v *Value, word string, k Kind, b bool) (*Value, *Error) {
	if !p.hasPrefix(word) {
		return nil, p.err("char", p.quoted())
	}
	for range word {
		p.advance()
	}
	v.kind, v.b = k, b
	if k == Number {
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
func (p *parser) object(v *Value) (*Value, *Error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	v.kind = Object
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
		m := member{}
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
func (p *parser) array(v *Value) (*Value, *Error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	v.kind = Array
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
				for k := 0; k < 4; k++ {
					p.advance()
				}
				// A UTF-16 surrogate pair (Python's json.dump writes
				// characters past U+FFFF so) is one character.
				if n >= 0xD800 && n < 0xDC00 && len(p.src)-p.i >= 7 && p.src[p.i+1] == '\\' && p.src[p.i+2] == 'u' {
					if lo := hex4(p.src[p.i+3 : p.i+7]); lo >= 0xDC00 && lo < 0xE000 {
						n = 0x10000 + (n-0xD800)<<10 + (lo - 0xDC00)
						for k := 0; k < 6; k++ {
							p.advance()
						}
					}
				}
				b = append(b, string(rune(n))...)
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
func (p *parser) number(v *Value) (*Value, *Error) {
	start := p.i
	if p.src[p.i] == '-' {
		p.advance()
		if p.hasPrefix("Infinity") {
			return p.literal(v, "Infinity", Number, false)
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
	v.kind, v.str = Number, string(p.src[start:p.i])
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

// Error is a syntax error: what is wrong (Code), the character it is about
// where there is one (Arg: "x" for a printable ASCII character, else its
// code, e.g. 0x0a), and the 1-based line and column.
//
// Codes: eof (the text ends inside a value), char (an unexpected
// character), trailing (text after the value), unterminated (a string is
// not closed), escape (a bad escape in a string), depth (nested deeper
// than 64 levels).
type Error struct {
	_         [0]func() // not comparable (see Value)
	Code, Arg string
	Line, Col int
}

// Kind is the kind of a value.
//
//go:noinline
func (v *Value) Kind() Kind {
	if v == nil {
		return Absent
	}
	return v.kind
}

// Present reports whether v is there and not null.
//
//go:noinline
func (v *Value) Present() bool { return v != nil && v.kind != Null }

// Len is the length of an array, or -1 when v is not one.
//
//go:noinline
func (v *Value) Len() int {
	if v == nil || v.kind != Array {
		return -1
	}
	return len(v.items)
}

// Index returns item i of an array (0 <= i < Len()).
//
//go:noinline
func (v *Value) Index(i int) *Value { return v.items[i] }

// Number returns a number's value, and whether v is a finite number (the
// NaN and Infinity that Python writes are not).
//
//go:noinline
func (v *Value) Number() (float64, bool) {
	if v == nil || v.kind != Number || v.str == "NaN" || v.str == "Infinity" || v.str == "-Infinity" {
		return 0, false
	}
	return v.num, true
}

// Literal is a number's text as written in the file ("" for other kinds).
//
//go:noinline
func (v *Value) Literal() string {
	if v == nil || v.kind != Number {
		return ""
	}
	return v.str
}

// Text returns a string's text, and whether v is a string.
//
//go:noinline
func (v *Value) Text() (string, bool) {
	if v == nil || v.kind != String {
		return "", false
	}
	return v.str, true
}

// Bool returns a boolean's value, and whether v is a boolean.
//
//go:noinline
func (v *Value) Bool() (bool, bool) {
	if v == nil || v.kind != Boolean {
		return false, false
	}
	return v.b, true
}
