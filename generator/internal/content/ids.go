package content

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/yuin/goldmark/ast"
)

// headingIDs generates heading anchors as goldmark's default does
// (lowercase letters and digits kept, spaces, "-" and "_" become "-",
// everything else dropped, "-1", "-2" ... for repeats), except that
// letters and digits of every script are kept: a Chinese heading
// "显存怎么算" gets the anchor "显存怎么算", not "heading". For ASCII text
// the anchors are goldmark's, so existing links keep working.
type headingIDs struct {
	seen map[string]bool
	n    map[string]int
}

func newHeadingIDs() *headingIDs { return &headingIDs{seen: map[string]bool{}, n: map[string]int{}} }

func (s *headingIDs) Generate(value []byte, kind ast.NodeKind) []byte {
	var b strings.Builder
	for _, r := range strings.TrimSpace(string(value)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		case r == ' ' || r == '\t' || r == '-' || r == '_':
			b.WriteByte('-')
		}
	}
	id := b.String()
	if id == "" {
		id = "id"
		if kind == ast.KindHeading {
			id = "heading"
		}
	}
	if !s.seen[id] {
		s.seen[id] = true
		return []byte(id)
	}
	for i := s.n[id] + 1; ; i++ {
		next := fmt.Sprintf("%s-%d", id, i)
		if !s.seen[next] {
			s.seen[next] = true
			s.n[id] = i
			return []byte(next)
		}
	}
}

func (s *headingIDs) Put(value []byte) { s.seen[string(value)] = true }
