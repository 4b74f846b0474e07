package message

import (
	"encoding/json"
	"os"
	"testing"
)

// TestFill runs the cases of testdata/fill.json, which the page scripts'
// fill (static/js/test/shared.test.mjs) runs too: {field} is the name in
// angle brackets.
func TestFill(t *testing.T) {
	raw, err := os.ReadFile("testdata/fill.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name, Tmpl, Want string
		Args             []string
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 10 {
		t.Fatalf("only %d cases", len(cases))
	}
	field := func(s string) string { return "<" + s + ">" }
	for _, tc := range cases {
		if got := Fill(tc.Tmpl, tc.Args, field); got != tc.Want {
			t.Errorf("%s: Fill(%q, %q) = %q, want %q", tc.Name, tc.Tmpl, tc.Args, got, tc.Want)
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
