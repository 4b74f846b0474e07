package pages

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestCutRows: rows as the offerrows template writes them are cut into
// their data attributes (unescaped) and their cells; the index holds the
// attributes by column (a dictionary where values repeat) and the text
// the script sorts by, and the cells go in files of a given number of
// rows, a cell shared by rows of one file stored once. Rows that do not
// have the first row's attributes, or are not rows, are errors naming
// the row.
func TestCutRows(t *testing.T) {
	const three = "\n<tr data-gpu=\"a\" data-key=\"x &amp; &#34;y&#34;\">\n<td class=\"c-gpu\"><a href=\"/a/\">A &amp; B</a></td>\n<td class=\"num\">–</td>\n<td class=\"c-bill\">On demand<span>, 1 month</span></td>\n</tr>" +
		"\n<tr data-gpu=\"b\" data-key=\"z\">\n<td class=\"c-gpu\">B</td>\n<td class=\"num\">–</td>\n<td class=\"c-bill\">Spot</td>\n</tr>" +
		"\n<tr data-gpu=\"b\" data-key=\"w\">\n<td class=\"c-gpu\">B</td>\n<td class=\"num\">–</td>\n<td class=\"c-bill\">Spot</td>\n</tr>\n"
	l, err := cutRows(three)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.html) != 3 || strings.Join(l.html, "") != strings.TrimRight(three, "\n") {
		t.Errorf("the rows' HTML does not join back into the input: %q", l.html)
	}
	ix, files := l.index(2, func(k int) string { return fmt.Sprintf("/c/%d.json", k) })
	if !slices.Equal(ix.Attrs, []string{"gpu", "key"}) || ix.Rows != 3 || ix.Chunk != 2 || !slices.Equal(ix.Cells, []string{"/c/1.json", "/c/2.json"}) {
		t.Errorf("index %+v", ix)
	}
	var gpus []string
	for n := range 3 {
		gpus = append(gpus, ix.Cols[0].At(n))
	}
	if want := []string{"a", "b", "b"}; !slices.Equal(gpus, want) {
		t.Errorf("column gpu: %q, want %q", gpus, want)
	}
	if ix.Cols[1] != nil {
		t.Errorf("the index has a column for key, which goes with the cells: %+v", ix.Cols[1])
	}
	for _, c := range []struct {
		in   []string
		want IndexColumn
	}{
		{[]string{"a", "b", "b", "b"}, IndexColumn{V: []string{"a", "b"}, I: []int{0, 1, 1, 1}}},
		{[]string{"a", "b", "b"}, IndexColumn{V: []string{"a", "b", "b"}}}, // a dictionary is not smaller
		{[]string{"x", "y"}, IndexColumn{V: []string{"x", "y"}}},
		{[]string{}, IndexColumn{V: []string{}, I: []int{}}},
	} {
		if got := column(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("column(%q) = %+v, want %+v", c.in, got, c.want)
		}
	}
	for key, want := range map[string][]string{"gpu": {"A & B", "B", "B"}, "billing": {"On demand", "Spot", "Spot"}} {
		var got []string
		for n := range 3 {
			got = append(got, ix.Text[key].At(n))
		}
		if !slices.Equal(got, want) {
			t.Errorf("text %s: %q, want %q", key, got, want)
		}
	}
	if _, ok := ix.Text["provider"]; ok {
		t.Errorf("text for a column the rows do not have: %+v", ix.Text)
	}
	want := []PricingCells{
		{Cells: []string{`<td class="c-gpu"><a href="/a/">A &amp; B</a></td>`, `<td class="num">–</td>`, `<td class="c-bill">On demand<span>, 1 month</span></td>`, `<td class="c-gpu">B</td>`, `<td class="c-bill">Spot</td>`},
			Rows: [][]int{{0, 1, 2}, {3, 1, 4}}, Attrs: map[string][]string{"key": {`x & "y"`, "z"}}},
		{Cells: []string{`<td class="c-gpu">B</td>`, `<td class="num">–</td>`, `<td class="c-bill">Spot</td>`}, Rows: [][]int{{0, 1, 2}}, Attrs: map[string][]string{"key": {"w"}}},
	}
	if !reflect.DeepEqual(files, want) {
		t.Errorf("cells files\n%+v\nwant\n%+v", files, want)
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
			_, err := cutRows(c.in)
			if err == nil || !strings.HasPrefix(err.Error(), c.err) {
				t.Errorf("error %v, want one starting %q", err, c.err)
			}
		})
	}
}
