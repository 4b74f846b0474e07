package pages

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"html/template"
	"slices"
	"strconv"
	"strings"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/parallel"
)

// PricingIndexPath is the price list's index, written per edition: what
// the pricing script (static/js/pricing.js) filters and sorts on, for
// every row of the full list (/pricing/all/) in its order. It reads it on
// a reader's first filter, sort or "show all". The rows' cells are in
// PricingCellsPath files of PricingCellsRows rows each, which the script
// fetches for the rows it shows.
const PricingIndexPath = "pricing/rows.json"

// PricingCellsPath is the path of the k-th (1-based) file of the list's
// cells: those of rows (k-1)*PricingCellsRows onwards.
func PricingCellsPath(k int) string { return "pricing/cells/" + strconv.Itoa(k) + ".json" }

// PricingCellsRows is how many rows' cells one file holds: a first
// screen of a filter's rows, which is scattered over the list, needs a
// few files, and a small file is read at once (50 rows are about 50 KB,
// 3 KB compressed).
const PricingCellsRows = 50

// PricingIndex is the price list's index (PricingIndexPath): the rows
// the offerrows template writes, cut into what the script filters and
// sorts on. Row n is a <tr> with the attributes "data-" + Attrs[j] =
// Cols[j].At(n), holding the cells of row n in Cells[n/Chunk] (a
// PricingCells). An attribute the script neither filters nor sorts on
// (rowAttr) has no column: its values are in the cells files. Made so,
// the script's row and the page's are the same once parsed. Text holds,
// for the columns sorted by their text (gpu, provider, billing), each
// row's text as the script compares it, so that a sort needs no cells.
type PricingIndex struct {
	Attrs []string               `json:"attrs"`
	Cols  []*IndexColumn         `json:"cols"`
	Text  map[string]IndexColumn `json:"text"`
	Rows  int                    `json:"rows"`
	Chunk int                    `json:"chunk"`
	Cells []string               `json:"cells"`
}

// IndexColumn is one value per row. With I, row n's value is V[I[n]]
// (a column of few distinct values, each sent once); without it, V[n].
type IndexColumn struct {
	V []string `json:"v"`
	I []int    `json:"i,omitempty"`
}

// At is row n's value.
func (c IndexColumn) At(n int) string {
	if c.I != nil {
		return c.V[c.I[n]]
	}
	return c.V[n]
}

// column makes the IndexColumn of values (which it does not keep), with
// a dictionary where that is smaller.
func column(values []string) IndexColumn {
	var d dict
	ix := make([]int, len(values))
	for n, v := range values {
		ix[n] = d.id(v)
	}
	if 2*len(d.list) > len(values) {
		return IndexColumn{V: slices.Clone(values)}
	}
	return IndexColumn{V: d.strings(), I: ix}
}

// dict numbers distinct strings in the order it first sees them. The
// zero value is ready to use.
type dict struct {
	ids  map[string]int
	list []string
}

// id is s's number, given on first sight.
func (d *dict) id(s string) int {
	i, ok := d.ids[s]
	if !ok {
		if d.ids == nil {
			d.ids = map[string]int{}
		}
		i = len(d.list)
		d.ids[s] = i
		d.list = append(d.list, s)
	}
	return i
}

// strings is the strings numbered so far, by number (never nil).
func (d *dict) strings() []string {
	if d.list == nil {
		return []string{}
	}
	return d.list
}

// PricingCells is one file of the list's cells (PricingCellsPath): for
// each of its rows, the row's cells as indexes into Cells, and the values
// of the attributes the index has no column for (Attrs[name][i] is the
// file's row i's). Each cell is one <td>, without the whitespace between
// cells (the minified pages have none); a cell shared by many rows (an
// offer's GPU, provider and instance; a "–") is sent once per file.
type PricingCells struct {
	Cells []string            `json:"cells"`
	Rows  [][]int             `json:"rows"`
	Attrs map[string][]string `json:"attrs"`
}

// rowAttr reports the row attributes the script needs only to make a
// row (and for the CSV), not to filter or sort: an offer's id, the row's
// key and the quoted price. They are a third of the attributes' bytes.
func rowAttr(name string) bool { return name == "id" || name == "key" || name == "price" }

// sortText names the cells whose text the script sorts by, per sort
// key: the cell's class, and whether only its first text counts (the
// billing mode's label, not the term or region after it).
var sortText = map[string]struct {
	class string
	first bool
}{
	"gpu":      {"c-gpu", false},
	"provider": {"c-prov", false},
	"billing":  {"c-bill", true},
}

// pricedRows is the full list's rows as the offerrows template writes
// them, one HTML string per row (each with the whitespace before it),
// their index and their cells files, as JSON. The list's pages show
// slices of html, so each row is rendered once per edition.
type pricedRows struct {
	html  []string
	index []byte
	cells [][]byte
	err   error
}

// rowsHTML is the rows lo..hi of the list, for a page.
func (p pricedRows) rowsHTML(lo, hi int) template.HTML {
	if p.err != nil {
		return ""
	}
	return template.HTML(strings.Join(p.html[lo:min(hi, len(p.html))], "")) // #nosec G203 -- the offerrows template's own output
}

// renderPricingRows renders rows with the offerrows template, in pages of
// PricingPageRows rows on every core, and indexes them; url gives the
// URL of a site path (the index holds its cells files' URLs).
func (s *Edition) renderPricingRows(pp *PricingPage, rows []*derive.Row, url func(string) string) pricedRows {
	n := (len(rows) + PricingPageRows - 1) / PricingPageRows
	parts, errs := make([][]byte, n), make([]error, n)
	parallel.For(n, 0, func(i int) {
		p := *pp
		p.Rows, p.Limit = rows[i*PricingPageRows:min((i+1)*PricingPageRows, len(rows))], 0
		parts[i], errs[i] = s.r.Partial("pricing", "offerrows", map[string]any{"D": &p, "Subject": ""})
	})
	if err := errors.Join(errs...); err != nil {
		return pricedRows{err: err}
	}
	cut, err := cutRows(string(bytes.Join(parts, nil)))
	if err == nil && len(cut.html) != len(rows) {
		err = fmt.Errorf("the template wrote %d rows for %d prices", len(cut.html), len(rows))
	}
	if err != nil {
		return pricedRows{err: err}
	}
	ix, files := cut.index(PricingCellsRows, func(k int) string { return url(PricingCellsPath(k)) })
	out := pricedRows{html: cut.html, cells: make([][]byte, len(files))}
	if out.index, err = json.Marshal(ix); err != nil {
		return pricedRows{err: err}
	}
	for k, f := range files {
		if out.cells[k], err = json.Marshal(f); err != nil {
			return pricedRows{err: err}
		}
	}
	return out
}

// cutList is a list of table rows cut apart: each row's HTML (with the
// whitespace before it), its attributes' values in the order of attrs,
// and its cells.
type cutList struct {
	html  []string
	attrs []string
	vals  [][]string // per row
	cells [][]string // per row
}

// index makes the list's index, with its cells in files of chunk rows
// (the index names the k-th, 1-based, file(k)).
func (l *cutList) index(chunk int, file func(k int) string) (*PricingIndex, []PricingCells) {
	n := len(l.html)
	ix := &PricingIndex{Attrs: l.attrs, Cols: make([]*IndexColumn, len(l.attrs)), Text: map[string]IndexColumn{}, Rows: n, Chunk: chunk, Cells: []string{}}
	col := make([]string, n)
	for j, name := range l.attrs {
		if rowAttr(name) {
			continue
		}
		for r := range n {
			col[r] = l.vals[r][j]
		}
		c := column(col)
		ix.Cols[j] = &c
	}
	for key, st := range sortText {
		found := false
		for r, cells := range l.cells {
			col[r] = ""
			for _, c := range cells {
				if cellClass(c, st.class) {
					col[r], found = cellText(c, st.first), true
					break
				}
			}
		}
		if found {
			ix.Text[key] = column(col)
		}
	}
	var files []PricingCells
	for lo := 0; lo < n; lo += chunk {
		f := PricingCells{Cells: []string{}, Rows: [][]int{}, Attrs: map[string][]string{}}
		for j, name := range l.attrs {
			if rowAttr(name) {
				for _, v := range l.vals[lo:min(lo+chunk, n)] {
					f.Attrs[name] = append(f.Attrs[name], v[j])
				}
			}
		}
		var d dict
		for _, cells := range l.cells[lo:min(lo+chunk, n)] {
			row := make([]int, len(cells))
			for i, c := range cells {
				row[i] = d.id(c)
			}
			f.Rows = append(f.Rows, row)
		}
		f.Cells = d.strings()
		files = append(files, f)
		ix.Cells = append(ix.Cells, file(len(files)))
	}
	return ix, files
}

// cellClass reports whether the cell <td class="..."> has class cls.
func cellClass(cell, cls string) bool {
	open, _, _ := strings.Cut(cell, ">")
	_, v, ok := strings.Cut(open, ` class="`)
	if !ok {
		return false
	}
	v, _, _ = strings.Cut(v, `"`)
	for _, c := range strings.Fields(v) {
		if c == cls {
			return true
		}
	}
	return false
}

// cellText is a cell's text as the script's textContent reads it: the
// text of everything inside the <td>, or with first, its first text only
// (up to the first tag inside it).
func cellText(cell string, first bool) string {
	_, in, _ := strings.Cut(cell, ">")
	in = strings.TrimSuffix(in, "</td>")
	var b strings.Builder
	for in != "" {
		i := strings.IndexByte(in, '<')
		if i < 0 {
			b.WriteString(in)
			break
		}
		b.WriteString(in[:i])
		if first {
			break
		}
		j := strings.IndexByte(in[i:], '>')
		if j < 0 {
			break
		}
		in = in[i+j+1:]
	}
	return html.UnescapeString(b.String())
}

// cutRows cuts the HTML of table rows (<tr data-...>cells</tr>, with
// whitespace between them) into each row's HTML (with the whitespace
// before it), its data- attributes' values (unescaped) and its cells.
// Every row must carry the same data- attributes in the same order, and
// no other attribute.
func cutRows(h string) (*cutList, error) {
	l := &cutList{attrs: []string{}}
	for n := 1; ; n++ {
		lead := len(h) - len(strings.TrimLeft(h, " \t\r\n"))
		if lead == len(h) {
			return l, nil
		}
		open, rest, ok := strings.Cut(h[lead:], ">")
		if !ok || !strings.HasPrefix(open, "<tr") {
			return nil, fmt.Errorf("row %d: want <tr ...>, have %.40q", n, h[lead:])
		}
		body, _, ok := strings.Cut(rest, "</tr>")
		if !ok {
			return nil, fmt.Errorf("row %d: no </tr>", n)
		}
		end := lead + len(open) + 1 + len(body) + len("</tr>")
		l.html, h = append(l.html, h[:end]), h[end:]
		vals := make([]string, 0, len(l.attrs))
		err := attrs(open[len("<tr"):], func(name, value string) error {
			name, ok := strings.CutPrefix(name, "data-")
			i := len(vals)
			switch {
			case !ok:
				return fmt.Errorf("attribute %s is not a data- attribute", name)
			case n == 1:
				l.attrs = append(l.attrs, name)
			case i >= len(l.attrs) || l.attrs[i] != name:
				return fmt.Errorf("attribute data-%s is not the first row's %d-th", name, i+1)
			}
			vals = append(vals, html.UnescapeString(value))
			return nil
		})
		if err == nil && len(vals) != len(l.attrs) {
			err = fmt.Errorf("%d attributes where the first row has %d", len(vals), len(l.attrs))
		}
		if err != nil {
			return nil, fmt.Errorf("row %d: %v", n, err)
		}
		var cells []string
		for body = strings.TrimSpace(body); body != ""; {
			cell, more, found := strings.Cut(body, "</td>")
			if found {
				cell += "</td>"
			}
			body = strings.TrimLeft(more, " \t\r\n")
			cells = append(cells, cell)
		}
		l.vals, l.cells = append(l.vals, vals), append(l.cells, cells)
	}
}

// attrs calls f with each name="value" of a start tag's attributes as
// html/template writes them (double quotes; a quote in a value is
// escaped), stopping at f's first error.
func attrs(s string, f func(name, value string) error) error {
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		if s == "" {
			return nil
		}
		name, rest, ok := strings.Cut(s, "=\"")
		if !ok || strings.ContainsAny(name, " \t\r\n\"") {
			return fmt.Errorf("cannot read the attributes at %.40q", s)
		}
		value, after, ok := strings.Cut(rest, "\"")
		if !ok {
			return fmt.Errorf("attribute %s has no closing quote", name)
		}
		if err := f(name, value); err != nil {
			return err
		}
		s = after
	}
}
