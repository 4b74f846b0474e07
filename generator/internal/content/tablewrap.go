package content

import (
	"html/template"
	"strconv"
	"strings"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/message"
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
type tableWrap struct {
	paren string // the page's language's parentheses (Options.Parens), which a table's place takes
}

// RegisterFuncs replaces the GFM table renderer's KindTable function; the
// rows and cells keep theirs.
func (t tableWrap) RegisterFuncs(r renderer.NodeRendererFuncRegisterer) {
	r.Register(east.KindTable, t.renderTable)
}

func (t tableWrap) renderTable(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		_, _ = w.WriteString("</table></div>\n")
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString(`<div class="table-wrap" tabindex="0" role="region" aria-label="`)
	_, _ = w.WriteString(template.HTMLEscapeString(tableName(n, src, t.paren)))
	_, _ = w.WriteString(`"><table>`)
	alignCells(n)
	return ast.WalkContinue, nil
}

// alignCells gives each cell of table n aligned right or centre (a
// "--:" or ":-:" delimiter) the class "num" or "mid", which the style
// sheet aligns; the cells render after the table opens, so they pick
// the class up.
func alignCells(n ast.Node) {
	for row := n.FirstChild(); row != nil; row = row.NextSibling() {
		for c := row.FirstChild(); c != nil; c = c.NextSibling() {
			cell, ok := c.(*east.TableCell)
			if !ok {
				continue
			}
			switch cell.Alignment {
			case east.AlignRight:
				cell.SetAttributeString("class", []byte("num"))
			case east.AlignCenter:
				cell.SetAttributeString("class", []byte("mid"))
			}
		}
	}
}

// tableName is the text of the last heading before table n, else of its
// header row's cells; the second and later tables under one heading add
// their place in the page's parentheses (paren: " (2)" in English,
// "（2）" in Chinese), so that each region's name is its own.
func tableName(n ast.Node, src []byte, paren string) string {
	k := 1
	for p := n.PreviousSibling(); p != nil; p = p.PreviousSibling() {
		if h, ok := p.(*ast.Heading); ok {
			if k > 1 {
				return headingText(h, src) + message.Fill(paren, []string{strconv.Itoa(k)}, nil)
			}
			return headingText(h, src)
		}
		if p.Kind() == east.KindTable {
			k++
		}
	}
	var cells []string
	if h := n.FirstChild(); h != nil {
		for c := h.FirstChild(); c != nil; c = c.NextSibling() {
			if t := strings.TrimSpace(inlineText(c, src)); t != "" {
				cells = append(cells, t)
			}
		}
	}
	return strings.Join(cells, " ")
}
