package content

import (
	"bytes"
	"fmt"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/safetext"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
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

// checkLinks reports every link and image in doc whose destination is
// not safe, at its position in the original body. A destination is
// checked as written and as goldmark's renderer reads it (backslash
// escapes removed, entity and numeric character references resolved:
// "&#106;avascript:" is "javascript:"), and one the renderer would blank
// is never safe: the page would get a link to nothing.
func checkLinks(rel string, body []byte, bodyLine int, expanded []byte, shifts []shift, doc ast.Node, d *diag.List) {
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var dest, read, what string
		var rendered []byte // what the renderer writes before its own check
		switch n := n.(type) {
		case *ast.Link:
			what, dest, read = "link", string(n.Destination), readDestination(n.Destination)
			rendered = util.URLEscape(bytes.Clone(n.Destination), true)
		case *ast.Image:
			what, dest, read = "image", string(n.Destination), readDestination(n.Destination)
			rendered = util.URLEscape(bytes.Clone(n.Destination), true)
		case *ast.AutoLink:
			// Written as is: an autolink holds no escapes or references.
			what, dest = "link", string(n.URL(expanded))
			read, rendered = dest, util.URLEscape([]byte(dest), false)
		default:
			return ast.WalkContinue, nil
		}
		if safetext.LinkAllowed(dest) && safetext.LinkAllowed(read) && !html.IsDangerousURL(rendered) {
			return ast.WalkContinue, nil
		}
		line, col := bodyLine, 1
		if off := destinationOffset(n, body, []byte(dest), shifts); off >= 0 {
			line, col = lineCol(body, bodyLine, off)
		}
		shown := fmt.Sprintf("%q", truncate(dest, 60))
		if read != dest {
			shown += fmt.Sprintf(" (read as %q)", truncate(read, 60))
		}
		d.Errorf(rel, line, col, "%s to %s: only relative links and http, https and mailto URLs are allowed in guides", what, shown)
		return ast.WalkSkipChildren, nil
	})
}

// readDestination returns a link destination as goldmark's renderer
// reads it (util.URLEscape with references resolved, before escaping).
func readDestination(dest []byte) string {
	b := util.UnescapePunctuations(bytes.Clone(dest))
	return string(util.ResolveEntityNames(util.ResolveNumericReferences(b)))
}

// destinationOffset returns the offset in the original body where the
// destination of n is written: the first place after n's text (its
// label), else the first anywhere, else where n's text starts; -1 when
// none is known.
func destinationOffset(n ast.Node, body, dest []byte, shifts []shift) int {
	start, end, ok := textSpan(n)
	if ok {
		from := min(original(end, shifts), len(body))
		if i := bytes.Index(body[from:], dest); i >= 0 && len(dest) > 0 {
			return from + i
		}
	}
	if i := bytes.Index(body, dest); i >= 0 && len(dest) > 0 {
		return i
	}
	if ok {
		return original(start, shifts)
	}
	return -1
}

// textSpan returns the source offsets where the first text inside n
// starts and the last ends.
func textSpan(n ast.Node) (start, end int, ok bool) {
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, isText := c.(*ast.Text); isText && entering {
			if !ok {
				start, ok = t.Segment.Start, true
			}
			end = t.Segment.Stop
		}
		return ast.WalkContinue, nil
	})
	return start, end, ok
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
