package content

import (
	"bytes"
	"html/template"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// tableWrap renders a Markdown table inside a focusable scroll region
// (div.table-wrap, as the templates' tables are), so that a table wider
// than a phone scrolls on its own instead of widening the page. The
// region is named after the section the table is in: the nearest heading
// before it, else its header row.
type tableWrap struct{}

// RegisterFuncs replaces the GFM table renderer's KindTable function; the
// rows and cells keep theirs.
func (tableWrap) RegisterFuncs(r renderer.NodeRendererFuncRegisterer) {
	r.Register(east.KindTable, renderTable)
}

func renderTable(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		_, _ = w.WriteString("</table></div>\n")
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString(`<div class="table-wrap" tabindex="0" role="region" aria-label="`)
	_, _ = w.WriteString(template.HTMLEscapeString(tableName(n, src)))
	_, _ = w.WriteString(`"><table>`)
	return ast.WalkContinue, nil
}

// tableName is the text of the last heading before table n, else of its
// header row's cells.
func tableName(n ast.Node, src []byte) string {
	for p := n.PreviousSibling(); p != nil; p = p.PreviousSibling() {
		if h, ok := p.(*ast.Heading); ok {
			return plainText(h, src)
		}
	}
	if h := n.FirstChild(); h != nil {
		return plainText(h, src)
	}
	return ""
}

// plainText is the text of n's inline descendants, cells separated by
// spaces.
func plainText(n ast.Node, src []byte) string {
	var b bytes.Buffer
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(src))
			if t.SoftLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		case *east.TableCell:
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
		}
		return ast.WalkContinue, nil
	})
	return string(bytes.TrimSpace(b.Bytes()))
}
