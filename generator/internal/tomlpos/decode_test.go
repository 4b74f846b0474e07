package tomlpos

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

type testPrice struct {
	Price float64 `toml:"price"`
	Unit  string  `toml:"unit"`
}

type testOffer struct {
	Instance string            `toml:"instance"`
	Prices   []testPrice       `toml:"prices"`
	I18n     map[string]testIn `toml:"i18n"`
	ID       string            `toml:"-"`
	Untagged string
}

type testIn struct {
	Name string `toml:"name"`
}

type testFile struct {
	Title  string      `toml:"title"`
	Weight int         `toml:"weight"`
	Offers []testOffer `toml:"offers"`
}

func TestSourceDecode(t *testing.T) {
	tests := []struct {
		name string
		src  Source
		want []string // the diagnostics, sorted
	}{
		{"no problem", Source{Text: []byte("title = \"T\"\n[[offers]]\ninstance = \"a\"\n")}, nil},
		{"did you mean", Source{Text: []byte("title = \"T\"\nwieght = 3\n")},
			[]string{`f.toml:2:1: unknown key "wieght" (did you mean "weight"?)`}},
		{"the valid keys when none is close", Source{Text: []byte("zzz = 3\n"), ListValid: true},
			[]string{`f.toml:1:1: unknown key "zzz" (valid keys here: offers, title, weight)`}},
		{"no list unless asked", Source{Text: []byte("zzz = 3\n")},
			[]string{`f.toml:1:1: unknown key "zzz"`}},
		{"the keys of the table it is in", Source{Text: []byte("[[offers]]\ninstance = \"a\"\n[[offers.prices]]\nprice = 1.0\ncurency = \"USD\"\n"), ListValid: true},
			[]string{`f.toml:5:1: unknown key "curency" (valid keys here: price, unit)`}},
		{"every element of an array of tables", Source{Text: []byte("[[offers]]\ninstanse = \"a\"\n[[offers]]\ninstanse = \"b\"\n")},
			[]string{`f.toml:2:1: unknown key "instanse" (did you mean "instance"?)`, `f.toml:4:1: unknown key "instanse" (did you mean "instance"?)`}},
		{"a misspelt table once, not each key inside", Source{Text: []byte("[[ofers]]\ninstance = \"a\"\nprices = []\n")},
			[]string{`f.toml:1:1: unknown key "ofers" (did you mean "offers"?)`}},
		{"a map's keys are any name, its values' keys are checked", Source{Text: []byte("[[offers]]\n[offers.i18n.zh]\nnmae = \"x\"\n")},
			[]string{`f.toml:3:1: unknown key "nmae" (did you mean "name"?)`}},
		{"front matter: lines of the file, a prefix", Source{Rel: "g.md", Text: []byte("title = \"T\"\nwieght = 3\n"), Line: 2, Prefix: "front matter: "},
			[]string{`g.md:3:1: front matter: unknown key "wieght" (did you mean "weight"?)`}},
		{"a decode error, on the file's line", Source{Rel: "g.md", Text: []byte("title = \"T\"\nweight = \"3\"\n"), Line: 2, Prefix: "front matter: "},
			[]string{`g.md:3:10: front matter: key "weight": TOML value has type string; destination has type integer (write numbers without quotes)`}},
		{"a key the index cannot find: 1:1", Source{Text: []byte("\"a.b\" = 1\n")},
			[]string{`f.toml:1:1: unknown key "a.b"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.src.Rel == "" {
				tt.src.Rel = "f.toml"
			}
			var d diag.List
			var v testFile
			ix := tt.src.Decode(&v, &d)
			var got []string
			for _, x := range d.Sorted() {
				got = append(got, x.String())
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
			if decodes := !strings.Contains(tt.name, "decode error"); (ix != nil) != decodes {
				t.Errorf("index %v, want one: %v", ix, decodes)
			}
		})
	}
}

func TestKeys(t *testing.T) {
	if got, want := Keys(reflect.TypeFor[*[]testOffer]()), []string{"i18n", "instance", "prices"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Keys = %q, want %q", got, want)
	}
}

// TestUnclosedHeader: the decoder reports a table header left unclosed at
// the newline after it, counted on the next line; DecodeError puts it on
// the header.
func TestUnclosedHeader(t *testing.T) {
	tests := []struct {
		src       string
		line, col int
		msg       string
	}{
		{"a = 1\n[gpu\nname = \"x\"\n", 2, 1, "expected '.' or ']' to end table name"},
		{"a = 1\n[[offer\nname = \"x\"\n", 2, 1, "expected '.' or ']' to end table name"},
		{"a = 1\n[[offer]\nname = \"x\"\n", 2, 1, "expected end of table array name delimiter ']'"},
		{"a = 1\n  [gpu.x\n\nname = 1\n", 2, 3, "to end table name"},
		{"[gpu \nname = 1\n", 1, 1, "to end table name"},
		{"a = 1\r\n[gpu\r\nname = 1\r\n", 2, 1, "to end table name"},
		{"a = 1\n[gpu", 2, 1, "to end table name"},
		{"[[offer\n", 1, 1, "to end table name"},
		// Not at the end of the line: the decoder's position is right.
		{"a = 1\n[gpu # x\nname = 1\n", 2, 6, "to end table name"},
		{"a = 1\n[gpu x]\n", 2, 6, "to end table name"},
	}
	for _, tt := range tests {
		var v map[string]any
		_, err := toml.Decode(tt.src, &v)
		var pe toml.ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("%q: want a parse error, got %v", tt.src, err)
		}
		line, col, msg := DecodeError([]byte(tt.src), err)
		if line != tt.line || col != tt.col || !strings.Contains(msg, tt.msg) {
			t.Errorf("%q: %d:%d %s; want %d:%d %s", tt.src, line, col, msg, tt.line, tt.col, tt.msg)
		}
	}
}
