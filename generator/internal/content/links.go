package content

import (
	"bytes"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/safetext"
	"github.com/yuin/goldmark/ast"
)

// shift records one shortcode expansion: the bytes out[out:outEnd] of the
// expanded body replaced src[src:srcEnd] of the original.
type shift struct{ out, outEnd, src, srcEnd int }

// original maps an offset in the expanded body to one in the original
// body; an offset inside an expansion maps to its shortcode's start.
func original(off int, shifts []shift) int {
	delta := 0
	for _, s := range shifts {
		if off < s.out {
			break
		}
		if off < s.outEnd {
			return s.src
		}
		delta = s.srcEnd - s.outEnd
	}
	return off + delta
}

// lineCol turns an offset of body into a 1-based line and column (in
// runes) of the file, whose body starts on bodyLine.
func lineCol(body []byte, bodyLine, off int) (int, int) {
	off = min(max(off, 0), len(body))
	before := body[:off]
	line := bodyLine + bytes.Count(before, []byte("\n"))
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return line, len([]rune(string(before[lineStart:]))) + 1
}

// checkLinks reports every link and image in doc whose destination is not
// safeLink, at its position in the original body.
func checkLinks(rel string, body []byte, bodyLine int, expanded []byte, shifts []shift, doc ast.Node, d *diag.List) {
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var dest, what string
		switch n := n.(type) {
		case *ast.Link:
			dest, what = string(n.Destination), "link"
		case *ast.Image:
			dest, what = string(n.Destination), "image"
		case *ast.AutoLink:
			dest, what = string(n.URL(expanded)), "link"
		default:
			return ast.WalkContinue, nil
		}
		if safetext.LinkAllowed(dest) {
			return ast.WalkContinue, nil
		}
		off := -1
		if i := bytes.Index(body, []byte(dest)); i >= 0 {
			off = i
		} else if seg, ok := firstSegment(n); ok {
			off = original(seg, shifts)
		}
		line, col := bodyLine, 1
		if off >= 0 {
			line, col = lineCol(body, bodyLine, off)
		}
		d.Errorf(rel, line, col, "%s to %q: only relative links and http, https and mailto URLs are allowed in guides", what, truncate(dest, 60))
		return ast.WalkSkipChildren, nil
	})
}

// firstSegment returns the source offset of the first text inside n.
func firstSegment(n ast.Node) (int, bool) {
	found, off := false, 0
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering && !found {
			found, off = true, t.Segment.Start
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return off, found
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
