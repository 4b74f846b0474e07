package pages

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"html/template"
	"strings"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/parallel"
)

// PricingIndexPath is the price list's index, written per edition: every
// row of the full list (/pricing/all/), in its order, as the pricing
// script (static/js/pricing.js) reads it on a reader's first filter,
// sort or "show all", instead of the list's pages.
const PricingIndexPath = "pricing/rows.json"

// PricingIndex is the price list's index (PricingIndexPath): the rows the
// offerrows template writes, cut into what the script filters and sorts
// on and what it shows. A row is a <tr> with the attributes "data-" +
// Attrs[i] = A[i], holding Cells[C[0]] + Cells[C[1]] + ...: each cell is
// one <td>, without the whitespace between cells (the minified pages have
// none). Made so, the script's row and the page's are the same once
// parsed, and a cell shared by many rows (an offer's GPU, provider and
// instance; a "–") is sent once.
type PricingIndex struct {
	Attrs []string          `json:"attrs"`
	Cells []string          `json:"cells"`
	Rows  []PricingIndexRow `json:"rows"`
}

// PricingIndexRow is one row of the index: its attribute values, in the
// order of PricingIndex.Attrs, and its cells, as indexes into Cells.
type PricingIndexRow struct {
	A []string `json:"a"`
	C []int    `json:"c"`
}

// pricedRows is the full list's rows as the offerrows template writes
// them, one HTML string per row (each with the whitespace before it), and
// their index as JSON. The list's pages show slices of html, so each row
// is rendered once per edition.
type pricedRows struct {
	html  []string
	index []byte
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
// PricingPageRows rows on every core, and indexes them.
func (s *Edition) renderPricingRows(pp *PricingPage, rows []*derive.Row) pricedRows {
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
	ix, html, err := cutRows(string(bytes.Join(parts, nil)))
	if err == nil && len(html) != len(rows) {
		err = fmt.Errorf("the template wrote %d rows for %d prices", len(html), len(rows))
	}
	if err != nil {
		return pricedRows{err: err}
	}
	b, err := json.Marshal(ix)
	return pricedRows{html: html, index: b, err: err}
}

// cutRows cuts the HTML of table rows (<tr data-...>cells</tr>, with
// whitespace between them) into a PricingIndex, and returns each row's
// HTML with the whitespace before it. Every row must carry the same data-
// attributes in the same order, and no other attribute.
func cutRows(h string) (*PricingIndex, []string, error) {
	ix := &PricingIndex{Attrs: []string{}, Cells: []string{}, Rows: []PricingIndexRow{}}
	var rows []string
	cellID := map[string]int{}
	for n := 1; ; n++ {
		lead := len(h) - len(strings.TrimLeft(h, " \t\r\n"))
		if lead == len(h) {
			return ix, rows, nil
		}
		open, rest, ok := strings.Cut(h[lead:], ">")
		if !ok || !strings.HasPrefix(open, "<tr") {
			return nil, nil, fmt.Errorf("row %d: want <tr ...>, have %.40q", n, h[lead:])
		}
		body, _, ok := strings.Cut(rest, "</tr>")
		if !ok {
			return nil, nil, fmt.Errorf("row %d: no </tr>", n)
		}
		end := lead + len(open) + 1 + len(body) + len("</tr>")
		rows, h = append(rows, h[:end]), h[end:]
		row := PricingIndexRow{}
		i := 0
		err := attrs(open[len("<tr"):], func(name, value string) error {
			name, ok := strings.CutPrefix(name, "data-")
			switch {
			case !ok:
				return fmt.Errorf("attribute %s is not a data- attribute", name)
			case n == 1:
				ix.Attrs = append(ix.Attrs, name)
			case i >= len(ix.Attrs) || ix.Attrs[i] != name:
				return fmt.Errorf("attribute data-%s is not the first row's %d-th", name, i+1)
			}
			row.A = append(row.A, html.UnescapeString(value))
			i++
			return nil
		})
		if err == nil && i != len(ix.Attrs) {
			err = fmt.Errorf("%d attributes where the first row has %d", i, len(ix.Attrs))
		}
		if err != nil {
			return nil, nil, fmt.Errorf("row %d: %v", n, err)
		}
		for body = strings.TrimSpace(body); body != ""; {
			cell, more, found := strings.Cut(body, "</td>")
			if found {
				cell += "</td>"
			}
			body = strings.TrimLeft(more, " \t\r\n")
			id, seen := cellID[cell]
			if !seen {
				id = len(ix.Cells)
				cellID[cell] = id
				ix.Cells = append(ix.Cells, cell)
			}
			row.C = append(row.C, id)
		}
		ix.Rows = append(ix.Rows, row)
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
