package message

import "testing"

func TestFill(t *testing.T) {
	field := func(s string) string { return "<" + s + ">" }
	for _, tc := range []struct {
		tmpl string
		args []string
		want string
	}{
		{"plain", nil, "plain"},
		{"{0} of {1}", []string{"3", "8"}, "3 of 8"},
		{"{1} 中的 {0}", []string{"3", "8"}, "8 中的 3"},
		{"{0} and {0}", []string{"x"}, "x and x"},
		{"past the end: [{3}]", []string{"a"}, "past the end: []"},
		{"{field} must be between {2} and {3} (got {1})", []string{"seq", "0", "1", "131072"}, "<seq> must be between 1 and 131072 (got 0)"},
		{"{10}", []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "ten"}, "ten"},
		{"braces kept: {x} {} {123} { and }", []string{"a"}, "braces kept: {x} {} {123} { and }"},
		{"an open brace at the end {", nil, "an open brace at the end {"},
		{"100% of {0}", []string{"GPUs"}, "100% of GPUs"},
		{"中文 {0}，{1}", []string{"甲", "乙"}, "中文 甲，乙"},
	} {
		if got := Fill(tc.tmpl, tc.args, field); got != tc.want {
			t.Errorf("Fill(%q, %q) = %q, want %q", tc.tmpl, tc.args, got, tc.want)
		}
	}
	if got := Fill("{field}", []string{"seq"}, nil); got != "seq" {
		t.Errorf("Fill without a field function = %q, want the argument", got)
	}
}

func TestPlaceholders(t *testing.T) {
	for _, tc := range []struct{ tmpl, want string }{
		{"none", ""},
		{"{1} then {0} then {1}", "{0} {1}"},
		{"{field} {2} {x}", "{2} {field}"},
	} {
		if got := Placeholders(tc.tmpl); got != tc.want {
			t.Errorf("Placeholders(%q) = %q, want %q", tc.tmpl, got, tc.want)
		}
	}
}

func FuzzFill(f *testing.F) {
	f.Add("{0} of {1} {field} {", "a", "b")
	f.Fuzz(func(t *testing.T, tmpl, a, b string) {
		out := Fill(tmpl, []string{a, b}, nil)
		if Placeholders(tmpl) == "" && out != tmpl {
			t.Errorf("Fill changed %q without placeholders: %q", tmpl, out)
		}
	})
}

func TestParts(t *testing.T) {
	for _, tc := range []struct {
		tmpl string
		want []Part
	}{
		{"", nil},
		{"lowest price as of {0}", []Part{{"lowest price as of ", -1}, {"", 0}}},
		{"价格日期：{0} 至 {1}", []Part{{"价格日期：", -1}, {"", 0}, {" 至 ", -1}, {"", 1}}},
		{"{1}{0} {field}", []Part{{"", 1}, {"", 0}, {" {field}", -1}}},
	} {
		got := Parts(tc.tmpl)
		if len(got) != len(tc.want) {
			t.Errorf("Parts(%q) = %v, want %v", tc.tmpl, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("Parts(%q) = %v, want %v", tc.tmpl, got, tc.want)
				break
			}
		}
	}
}
