package pages

import (
	"slices"
	"strings"
	"testing"
)

// TestCutRows: rows as the offerrows template writes them are cut into
// their data attributes (unescaped) and their cells, a cell shared by
// rows stored once; rows that do not have the first row's attributes,
// or are not rows, are errors naming the row.
func TestCutRows(t *testing.T) {
	const two = "\n<tr data-gpu=\"a\" data-key=\"x &amp; &#34;y&#34;\">\n<td class=\"c-gpu\">A</td>\n<td class=\"num\">–</td>\n</tr>" +
		"\n<tr data-gpu=\"b\" data-key=\"z\">\n<td class=\"c-gpu\">B</td>\n<td class=\"num\">–</td>\n</tr>\n"
	ix, rows, err := cutRows(two)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ix.Attrs, []string{"gpu", "key"}) {
		t.Errorf("attrs %q", ix.Attrs)
	}
	if want := []string{`<td class="c-gpu">A</td>`, `<td class="num">–</td>`, `<td class="c-gpu">B</td>`}; !slices.Equal(ix.Cells, want) {
		t.Errorf("cells %q, want %q", ix.Cells, want)
	}
	if len(ix.Rows) != 2 || !slices.Equal(ix.Rows[0].A, []string{"a", `x & "y"`}) || !slices.Equal(ix.Rows[0].C, []int{0, 1}) ||
		!slices.Equal(ix.Rows[1].A, []string{"b", "z"}) || !slices.Equal(ix.Rows[1].C, []int{2, 1}) {
		t.Errorf("rows %+v", ix.Rows)
	}
	if len(rows) != 2 || strings.Join(rows, "") != strings.TrimRight(two, "\n") {
		t.Errorf("the rows' HTML does not join back into the input: %q", rows)
	}

	for _, c := range []struct{ name, in, err string }{
		{"not a row", "<p>x</p>", "row 1: want <tr ...>"},
		{"unclosed", `<tr data-a="1"><td>x</td>`, "row 1: no </tr>"},
		{"another attribute", `<tr data-a="1"><td>x</td></tr><tr class="more" data-a="2"><td>y</td></tr>`, "row 2: attribute class is not a data- attribute"},
		{"another order", `<tr data-a="1" data-b="2"></tr><tr data-b="2" data-a="1"></tr>`, "row 2: attribute data-b is not the first row's 1-th"},
		{"one missing", `<tr data-a="1" data-b="2"></tr><tr data-a="1"></tr>`, "row 2: 1 attributes where the first row has 2"},
		{"unquoted", `<tr data-a=1></tr>`, "row 1: cannot read the attributes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := cutRows(c.in)
			if err == nil || !strings.HasPrefix(err.Error(), c.err) {
				t.Errorf("error %v, want one starting %q", err, c.err)
			}
		})
	}
}
