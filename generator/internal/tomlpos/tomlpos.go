// Package tomlpos finds where keys and values sit in TOML source.
//
// The TOML decoder reports positions for syntax errors only; a semantic
// error found later (an unknown key, a value out of range, a dangling
// reference) needs the line and column of the key or value it is about.
// Index scans source that has already parsed without error and records,
// for every key, its position under a path such as "offers.3.prices.0.price"
// (array-of-tables elements and array items are numbered from 0).
package tomlpos

import (
	"strconv"
	"strings"
)

// Pos is a 1-based line and column. The zero Pos means "not found".
type Pos struct {
	Line, Col int
}

// Index maps key paths to the positions of keys and of their values.
type Index struct {
	keys   map[string]Pos
	values map[string]Pos
	kinds  map[string]byte
	order  []string // paths in source order
}

// Key returns the position of the key at path, or of the table header
// when path names a table.
func (ix *Index) Key(path string) Pos {
	if ix == nil {
		return Pos{}
	}
	return ix.keys[path]
}

// Value returns the position of the value at path (falling back to the key).
func (ix *Index) Value(path string) Pos {
	if ix == nil {
		return Pos{}
	}
	if p, ok := ix.values[path]; ok {
		return p
	}
	return ix.keys[path]
}

// Kind returns the kind of the value at path, from its first character:
// 's' string, 'a' array, 't' inline table, 'b' boolean, 'd' date or time,
// 'n' number, 0 unknown.
func (ix *Index) Kind(path string) byte {
	if ix == nil {
		return 0
	}
	return ix.kinds[path]
}

// Paths returns every recorded path in source order.
func (ix *Index) Paths() []string { return ix.order }

// Find returns the positions of all keys whose path, with the array
// indices removed, equals plain (for example "offers.prices.price").
func (ix *Index) Find(plain string) []Pos {
	var out []Pos
	for _, p := range ix.order {
		if StripIndices(p) == plain {
			out = append(out, ix.keys[p])
		}
	}
	return out
}

// StripIndices removes numeric path elements: "offers.3.gpu" -> "offers.gpu".
func StripIndices(path string) string {
	parts := strings.Split(path, ".")
	out := parts[:0]
	for _, p := range parts {
		if _, err := strconv.Atoi(p); err == nil {
			continue
		}
		out = append(out, p)
	}
	return strings.Join(out, ".")
}

type scanner struct {
	src       []byte
	i         int
	line, col int
	ix        *Index
	arrays    map[string]int // resolved array-of-tables path -> element count
}

// Scan indexes src. It never fails: on source it cannot follow it records
// what it has seen so far.
func Scan(src []byte) *Index {
	s := &scanner{src: src, line: 1, col: 1, ix: &Index{keys: map[string]Pos{}, values: map[string]Pos{}, kinds: map[string]byte{}}, arrays: map[string]int{}}
	s.run()
	return s.ix
}

func (s *scanner) eof() bool  { return s.i >= len(s.src) }
func (s *scanner) peek() byte { return s.src[s.i] }

func (s *scanner) adv() {
	if s.src[s.i] == '\n' {
		s.line++
		s.col = 1
	} else if s.src[s.i]&0xC0 != 0x80 { // count runes, not bytes
		s.col++
	}
	s.i++
}

func (s *scanner) pos() Pos { return Pos{s.line, s.col} }

func (s *scanner) record(path string, key Pos) {
	if _, ok := s.ix.keys[path]; !ok {
		s.ix.order = append(s.ix.order, path)
	}
	s.ix.keys[path] = key
}

func (s *scanner) skipSpace() {
	for !s.eof() && (s.peek() == ' ' || s.peek() == '\t') {
		s.adv()
	}
}

// skipWSC skips whitespace, newlines and comments.
func (s *scanner) skipWSC() {
	for !s.eof() {
		switch s.peek() {
		case ' ', '\t', '\r', '\n':
			s.adv()
		case '#':
			for !s.eof() && s.peek() != '\n' {
				s.adv()
			}
		default:
			return
		}
	}
}

func (s *scanner) skipLine() {
	for !s.eof() && s.peek() != '\n' {
		s.adv()
	}
}

func (s *scanner) run() {
	table := "" // resolved path of the current table
	for {
		s.skipWSC()
		if s.eof() {
			return
		}
		if s.peek() == '[' {
			start := s.pos()
			s.adv()
			isArray := false
			if !s.eof() && s.peek() == '[' {
				isArray = true
				s.adv()
			}
			parts := s.keyParts()
			resolved := s.resolve(parts)
			if isArray {
				n := s.arrays[resolved]
				s.arrays[resolved] = n + 1
				resolved = join(resolved, strconv.Itoa(n))
			}
			table = resolved
			s.record(table, start)
			s.skipLine()
			continue
		}
		s.keyValue(table)
	}
}

// resolve turns header parts into a path, inserting the current index of
// every array of tables on the way.
func (s *scanner) resolve(parts []string) string {
	path := ""
	for i, p := range parts {
		path = join(path, p)
		if i < len(parts)-1 {
			if n, ok := s.arrays[path]; ok && n > 0 {
				path = join(path, strconv.Itoa(n-1))
			}
		}
	}
	return path
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

// keyParts reads a dotted key, stopping at '=', ']' or end of line.
func (s *scanner) keyParts() []string {
	var parts []string
	for {
		s.skipSpace()
		if s.eof() {
			return parts
		}
		c := s.peek()
		switch {
		case c == '"' || c == '\'':
			parts = append(parts, s.quoted())
		case c == '=' || c == ']' || c == '\n' || c == '}' || c == ',':
			return parts
		default:
			var b strings.Builder
			for !s.eof() {
				c := s.peek()
				if c == '.' || c == ' ' || c == '\t' || c == '=' || c == ']' || c == '\n' || c == '}' || c == ',' {
					break
				}
				b.WriteByte(c)
				s.adv()
			}
			parts = append(parts, b.String())
		}
		s.skipSpace()
		if !s.eof() && s.peek() == '.' {
			s.adv()
			continue
		}
		return parts
	}
}

// quoted reads a single-line quoted key and returns its text.
func (s *scanner) quoted() string {
	q := s.peek()
	s.adv()
	var b strings.Builder
	for !s.eof() && s.peek() != q && s.peek() != '\n' {
		if q == '"' && s.peek() == '\\' {
			s.adv()
			if s.eof() {
				break
			}
		}
		b.WriteByte(s.peek())
		s.adv()
	}
	if !s.eof() && s.peek() == q {
		s.adv()
	}
	return b.String()
}

func (s *scanner) keyValue(table string) {
	start := s.pos()
	parts := s.keyParts()
	if len(parts) == 0 || s.eof() || s.peek() != '=' {
		s.skipLine()
		return
	}
	path := table
	for _, p := range parts {
		path = join(path, p)
	}
	s.record(path, start)
	s.adv() // '='
	s.skipSpace()
	s.value(path)
}

// value skips one value, recording the positions of what it contains.
func (s *scanner) value(path string) {
	if s.eof() {
		return
	}
	s.ix.values[path] = s.pos()
	s.ix.kinds[path] = s.kind()
	switch c := s.peek(); c {
	case '"', '\'':
		s.str()
	case '[':
		s.adv()
		n := 0
		for {
			s.skipWSC()
			if s.eof() {
				return
			}
			if s.peek() == ']' {
				s.adv()
				return
			}
			if s.peek() == ',' {
				s.adv()
				continue
			}
			el := join(path, strconv.Itoa(n))
			s.record(el, s.pos())
			before := s.i
			s.value(el)
			if s.i == before {
				s.adv() // not a value this scanner knows: step over it
			}
			n++
		}
	case '{':
		s.adv()
		for {
			s.skipSpace()
			if s.eof() {
				return
			}
			switch s.peek() {
			case '}':
				s.adv()
				return
			case ',', '\n', '\r':
				s.adv()
				continue
			}
			before := s.i
			s.keyValue(path)
			if s.i == before {
				s.adv()
			}
		}
	default:
		for !s.eof() {
			c := s.peek()
			if c == ',' || c == ']' || c == '}' || c == '\n' || c == '#' {
				return
			}
			s.adv()
		}
	}
}

// str skips a basic, literal or multi-line string.
func (s *scanner) str() {
	q := s.peek()
	triple := s.i+2 < len(s.src) && s.src[s.i+1] == q && s.src[s.i+2] == q
	if triple {
		s.adv()
		s.adv()
		s.adv()
		for !s.eof() {
			if q == '"' && s.peek() == '\\' {
				s.adv()
				if !s.eof() {
					s.adv()
				}
				continue
			}
			if s.peek() == q && s.i+2 < len(s.src) && s.src[s.i+1] == q && s.src[s.i+2] == q {
				s.adv()
				s.adv()
				s.adv()
				// up to two more quotes may belong to the string
				for k := 0; k < 2 && !s.eof() && s.peek() == q; k++ {
					s.adv()
				}
				return
			}
			s.adv()
		}
		return
	}
	s.adv()
	for !s.eof() && s.peek() != '\n' {
		if q == '"' && s.peek() == '\\' {
			s.adv()
			if !s.eof() {
				s.adv()
			}
			continue
		}
		if s.peek() == q {
			s.adv()
			return
		}
		s.adv()
	}
}

// kind classifies the value starting at the cursor.
func (s *scanner) kind() byte {
	c := s.peek()
	switch {
	case c == '"' || c == '\'':
		return 's'
	case c == '[':
		return 'a'
	case c == '{':
		return 't'
	case c == 't' || c == 'f':
		return 'b'
	}
	// A date has a '-' or ':' after its leading digits: 2025-01-02, 07:32:00.
	for j := s.i; j < len(s.src) && j < s.i+11; j++ {
		b := s.src[j]
		if b >= '0' && b <= '9' {
			continue
		}
		if (b == '-' && j > s.i && j-s.i == 4) || (b == ':' && j-s.i == 2) {
			return 'd'
		}
		break
	}
	return 'n'
}
