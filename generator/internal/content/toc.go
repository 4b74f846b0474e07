package content

import (
	"bufio"
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// headings returns the level-2 headings of doc, parsed from source, for a
// table of contents: each with the id the parser gave it and its text as
// the page shows it (references resolved, escapes removed, the text of
// code spans, links and emphasis kept, images and raw HTML left out).
func headings(doc ast.Node, source []byte) []Heading {
	var out []Heading
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		h, ok := n.(*ast.Heading)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		if id, ok := h.AttributeString("id"); ok && h.Level == 2 {
			if id, ok := id.([]byte); ok && len(id) > 0 {
				out = append(out, Heading{ID: string(id), Text: headingText(h, source)})
			}
		}
		return ast.WalkSkipChildren, nil
	})
	return out
}

// headingText returns the text of a heading: what goldmark's renderer
// writes for its inline content, less the tags, unescaped.
func headingText(h *ast.Heading, source []byte) string { return inlineText(h, source) }

// inlineText is headingText for any block whose children are inlines (a
// heading, a table cell).
func inlineText(n ast.Node, source []byte) string {
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	writeText(w, n, source)
	_ = w.Flush()
	return unescapeHTML.Replace(b.String())
}

var unescapeHTML = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#39;", "'")

// writeText writes the text of n's children as goldmark's HTML renderer
// writes it (html.Renderer's renderText, renderString, renderCodeSpan and
// renderAutoLink), a line break as a space.
func writeText(w util.BufWriter, n ast.Node, source []byte) {
	out := html.DefaultWriter
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			if c.IsRaw() {
				out.RawWrite(w, c.Segment.Value(source))
			} else {
				out.Write(w, c.Segment.Value(source))
			}
			if c.SoftLineBreak() || c.HardLineBreak() {
				_ = w.WriteByte(' ')
			}
		case *ast.String:
			switch {
			case c.IsCode():
				_, _ = w.Write(c.Value)
			case c.IsRaw():
				out.RawWrite(w, c.Value)
			default:
				out.Write(w, c.Value)
			}
		case *ast.CodeSpan:
			for t := c.FirstChild(); t != nil; t = t.NextSibling() {
				if t, ok := t.(*ast.Text); ok {
					v := t.Segment.Value(source)
					if trimmed, ok := bytes.CutSuffix(v, []byte("\n")); ok {
						v = append(trimmed[:len(trimmed):len(trimmed)], ' ')
					}
					out.RawWrite(w, v)
				}
			}
		case *ast.AutoLink:
			_, _ = w.Write(util.EscapeHTML(c.Label(source)))
		case *ast.Image, *ast.RawHTML:
			// An image's text is its alt attribute; raw HTML is markup.
		default:
			writeText(w, c, source)
		}
	}
}
