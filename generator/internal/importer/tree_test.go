package importer

import (
	"strings"
	"testing"
)

func TestParseYAML(t *testing.T) {
	src := "---\nabout:\n  copyright: |2\n\n    Licensed under ...\n  generated: Thu Jul 30 06:13:17 2026\ncompute:\n  instance:\n    a2-highgpu-1g:\n      a100: 1\n      cost:\n        us-central1:\n          hour: 3.673385 # a comment\n    g2:\n      name: 'quoted: yes'\n      empty:\ndual:\n  asia1:\n    - asia-northeast1\n    - asia-northeast2\n  eur4:\n    regions:\n    - europe-north1\n    other: 2\n"
	n, err := parseYAML(src)
	if err != nil {
		t.Fatal(err)
	}
	h := n.path("compute", "instance", "a2-highgpu-1g", "cost", "us-central1", "hour")
	if v, ok := h.num(); !ok || v != 3.673385 || h.line != 13 || h.col != 17 || h.text != "3.673385" {
		t.Errorf("hour %+v", h)
	}
	if g := n.path("about", "generated").str(); g != "Thu Jul 30 06:13:17 2026" {
		t.Errorf("generated %q", g)
	}
	// The library keeps a block scalar as YAML defines it ("|2": content
	// indented 2 beyond the mapping, the leading empty line and the final
	// line break kept).
	if c := n.path("about", "copyright").str(); c != "\nLicensed under ...\n" {
		t.Errorf("block scalar %q", c)
	}
	if q := n.path("compute", "instance", "g2", "name").str(); q != "quoted: yes" {
		t.Errorf("quoted %q", q)
	}
	// A key with nothing, a block mapping or a block sequence under it
	// gives its value the key's position.
	if e := n.path("compute", "instance", "g2", "empty"); e == nil || e.kind != 'z' || e.line != 16 || e.col != 7 {
		t.Errorf("empty %+v", e)
	}
	if m := n.path("compute", "instance", "a2-highgpu-1g"); m == nil || m.kind != 'o' || m.line != 9 || m.col != 5 {
		t.Errorf("machine %+v", m)
	}
	if s := n.path("dual", "asia1"); s == nil || s.kind != 'a' || s.line != 18 || s.col != 3 || len(s.items) != 2 || s.items[1].str() != "asia-northeast2" || s.items[1].line != 20 || s.items[1].col != 7 {
		t.Errorf("sequence %+v", s)
	}
	if n.path("compute", "instance").keys[1] != "g2" {
		t.Error("keys out of order")
	}
	if at := n.path("compute", "instance").keyAt["g2"]; at != [2]int{14, 5} {
		t.Errorf("key position %v", at)
	}
}

func TestParseYAMLValues(t *testing.T) {
	n, err := parseYAML("a: {b: 1, c: [x, 2.5]}\nd: 0x10\ne: '1'\nf: true\ng: ~\nh: &base\n  i: 1\nj: *base\nk: 2026-07-30\n")
	if err != nil {
		t.Fatal(err)
	}
	if b := n.path("a", "b"); b.kind != 'n' || b.line != 1 || b.col != 8 {
		t.Errorf("flow mapping value %+v", b)
	}
	if a := n.get("a"); a.line != 1 || a.col != 4 { // a flow collection is where it is written
		t.Errorf("flow mapping %+v", a)
	}
	if c := n.path("a", "c"); c.kind != 'a' || len(c.items) != 2 || c.items[0].str() != "x" || c.items[1].value != 2.5 || c.items[1].col != 18 {
		t.Errorf("flow sequence %+v", c)
	}
	if v, ok := n.get("d").num(); !ok || v != 16 || n.get("d").str() != "0x10" {
		t.Errorf("hex int %+v", n.get("d"))
	}
	for k, kind := range map[string]byte{"e": 's', "f": 'b', "g": 'z', "k": 's'} {
		if got := n.get(k).kind; got != kind {
			t.Errorf("%s: kind %c, want %c", k, got, kind)
		}
	}
	if n.get("j") != n.get("h") || n.path("j", "i").line != 7 {
		t.Errorf("alias %+v", n.get("j"))
	}
	if r, err := parseYAML("# only a comment\n"); err != nil || r.kind != 'o' || len(r.keys) != 0 {
		t.Errorf("empty document: %+v %v", r, err)
	}
	if r, err := parseYAML("a\n"); err != nil || r.kind != 's' || r.str() != "a" {
		t.Errorf("scalar document: %+v %v", r, err)
	}
}

// TestParseYAMLErrors: every syntax fault is reported at its line and
// column (in characters), as the library locates it.
func TestParseYAMLErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"a:\n  b: 1\n c: 2\n", "3:2: did not find expected key (while parsing a block mapping at 1:1)"},
		{"x:\n  y:\n    z: 1\n   w: 2\n", "4:4: did not find expected key (while parsing a block mapping at 2:3)"},
		{"a: 1\na: 2\n", `2:1: key "a" repeated in one mapping`},
		{"a:\n  b: 1\n  b:\n    c: 2\n", `3:3: key "b" repeated in one mapping`},
		{"\tb: 1\n", "1:1: found character that cannot start any token: a tab (YAML indents with spaces)"},
		{"a:\n\tb: 1\n", "2:1: found character that cannot start any token: a tab (YAML indents with spaces)"},
		{"a:\n  b: 'x\n", "3:1: found unexpected end of stream (while scanning a quoted scalar at 2:6)"},
		{"a:\n  b: c: d\n", "2:7: mapping values are not allowed in this context"},
		{"é: 1\nb: \"é\\q\"\n", "2:6: found unknown escape character (while scanning a quoted scalar at 2:4)"},
		{"a: *x\n", "1:4: unknown anchor 'x' referenced"},
		{"a: &x {b: *x}\n", "1:11: alias *x is inside the value it names"},
		{"? [a]\n: 1\n", "1:3: a mapping key that is not a scalar"},
		{"a: 1\n---\nb: 2\n", "2:1: a second YAML document (the file must hold one)"},
	} {
		_, err := parseYAML(tc.src)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q: got %v, want %q", tc.src, err, tc.want)
		}
	}
}

func TestParseJSON(t *testing.T) {
	src := "// header\nconst x = [\n  {\"name\": \"p4d.24xlarge\", \"n\": 8,\n   \"pricing\": {\"us-east-1\": {\"onDemand\": 21.957642}}, \"ok\": true, \"z\": null, \"s\": \"\\u00e9\\n\", \"e\": \"\\ud83d\\ude00\"}\n];\n"
	n, err := parseJSON(src, strings.Index(src, "["))
	if err != nil {
		t.Fatal(err)
	}
	if n.kind != 'a' || n.line != 2 || n.col != 11 {
		t.Errorf("array %+v", n)
	}
	o := n.items[0]
	if o.get("name").str() != "p4d.24xlarge" || o.get("ok").kind != 'b' || o.get("ok").str() != "true" || o.get("z").kind != 'z' || o.get("s").str() != "é\n" || o.get("e").str() != "😀" {
		t.Errorf("%+v", o)
	}
	if o.line != 3 || o.col != 3 {
		t.Errorf("object at %d:%d", o.line, o.col)
	}
	v := o.path("pricing", "us-east-1", "onDemand")
	if f, ok := v.num(); !ok || f != 21.957642 || v.line != 4 || v.col != 42 || v.str() != "21.957642" {
		t.Errorf("onDemand %+v", v)
	}
	if at := o.keyAt["n"]; at != [2]int{3, 28} {
		t.Errorf("key position %v", at)
	}
	if c := o.get("n"); c.line != 3 || c.col != 33 {
		t.Errorf("value after a colon at %d:%d", c.line, c.col)
	}
	if want := []string{"name", "n", "pricing", "ok", "z", "s", "e"}; strings.Join(o.keys, " ") != strings.Join(want, " ") {
		t.Errorf("keys %v", o.keys)
	}
	u, err := parseJSON(`{"é": "ü", "b": [1, 2]}`, 0)
	if err != nil {
		t.Fatal(err)
	}
	if b := u.get("b").items[1]; b.line != 1 || b.col != 21 { // columns count characters
		t.Errorf("after non-ASCII text: %d:%d", b.line, b.col)
	}
}

// TestParseJSONErrors: encoding/json's syntax errors at the offending
// character, counted from the beginning of the source, and the reader's
// own faults at the value or key.
func TestParseJSONErrors(t *testing.T) {
	for _, tc := range []struct {
		src   string
		start int
		want  string
	}{
		{`{"a": 1,}`, 0, "1:9: invalid character '}' looking for beginning of object key string"},
		{`{"a": 1 "b": 2}`, 0, `1:9: invalid character '"' after object key:value pair`},
		{`{"a" 1}`, 0, "1:6: invalid character '1' after object key"},
		{`{"a": 1, "a": 2}`, 0, `1:10: key "a" repeated in one object`},
		{"[1, \"x\n\"]", 0, `1:7: invalid character '\n' in string literal`},
		{`[-]`, 0, "1:3: invalid character ']' in numeric literal"},
		{`[1.2.3]`, 0, "1:5: invalid character '.' after array element"},
		{`["\q"]`, 0, "1:4: invalid character 'q' in string escape code"},
		{`[1e999]`, 0, `1:2: "1e999" is not a number`},
		{"{\n  \"a\": tru\n}", 0, "2:11: invalid character '\\n' in literal true (expecting 'e')"},
		{"{\"a\": [1,\n", 0, "2:1: unexpected end of input"},
		{"", 0, "1:1: unexpected end of input"},
		{"// a\nconst x = [\n  1,\n  ]\n", 15, "4:3: invalid character ']' looking for beginning of value"},
		{`{"é": "ü", "b": x}`, 0, "1:17: invalid character 'x' looking for beginning of value"},
	} {
		if _, err := parseJSON(tc.src, tc.start); err == nil || err.Error() != tc.want {
			t.Errorf("%q: got %v, want %q", tc.src, err, tc.want)
		}
	}
}

func TestParseYAMLCompactSequence(t *testing.T) {
	n, err := parseYAML("dual:\n  eur4:\n    regions:\n    - europe-north1\n    - europe-west4\n    other: 2\n  nam4: {}\n")
	if err != nil {
		t.Fatal(err)
	}
	r := n.path("dual", "eur4", "regions")
	if r == nil || r.kind != 'a' || len(r.items) != 2 || n.path("dual", "eur4", "other").str() != "2" || n.path("dual", "nam4").kind != 'o' {
		t.Errorf("%+v", n.path("dual"))
	}
}
