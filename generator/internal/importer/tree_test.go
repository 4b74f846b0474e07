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
	if v, ok := h.num(); !ok || v != 3.673385 || h.line != 13 || h.col != 17 {
		t.Errorf("hour %+v", h)
	}
	if g := n.path("about", "generated").str(); g != "Thu Jul 30 06:13:17 2026" {
		t.Errorf("generated %q", g)
	}
	if c := n.path("about", "copyright").str(); c != "Licensed under ..." {
		t.Errorf("block scalar %q", c)
	}
	if q := n.path("compute", "instance", "g2", "name").str(); q != "quoted: yes" {
		t.Errorf("quoted %q", q)
	}
	if e := n.path("compute", "instance", "g2", "empty"); e == nil || e.kind != 'z' {
		t.Errorf("empty %+v", e)
	}
	if s := n.path("dual", "asia1"); s == nil || s.kind != 'a' || len(s.items) != 2 || s.items[1].str() != "asia-northeast2" || s.items[1].line != 20 {
		t.Errorf("sequence %+v", s)
	}
	if n.path("compute", "instance").keys[1] != "g2" {
		t.Error("keys out of order")
	}
	for _, tc := range []struct{ src, want string }{
		{"a:\n  b: 1\n c: 2\n", "3:2: indentation 1 does not match the enclosing block (0)"},
		{"a: 1\na: 2\n", `2:1: key "a" repeated in one mapping`},
		{"a: {b: 1}\n", "flow collections"},
		{"a\n", `1:1: expected "key:" or "key: value", got "a"`},
		{"\tb: 1\n", "1:1: a tab"},
	} {
		_, err := parseYAML(tc.src)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.src, err, tc.want)
		}
	}
}

func TestParseJSON(t *testing.T) {
	src := "// header\nconst x = [\n  {\"name\": \"p4d.24xlarge\", \"n\": 8,\n   \"pricing\": {\"us-east-1\": {\"onDemand\": 21.957642}}, \"ok\": true, \"z\": null, \"s\": \"\\u00e9\\n\"}\n];\n"
	n, _, err := parseJSON(src, strings.Index(src, "["))
	if err != nil {
		t.Fatal(err)
	}
	o := n.items[0]
	if o.get("name").str() != "p4d.24xlarge" || o.get("ok").kind != 'b' || o.get("z").kind != 'z' || o.get("s").str() != "é\n" {
		t.Errorf("%+v", o)
	}
	v := o.path("pricing", "us-east-1", "onDemand")
	if f, ok := v.num(); !ok || f != 21.957642 || v.line != 4 || v.col != 42 {
		t.Errorf("onDemand %+v", v)
	}
	if at := o.keyAt["n"]; at != [2]int{3, 28} {
		t.Errorf("key position %v", at)
	}
	for _, tc := range []struct{ src, want string }{
		{`{"a": 1,}`, "1:9: expected a quoted key"},
		{`{"a": 1 "b": 2}`, "1:9: expected ',' or '}'"},
		{`{"a": 1, "a": 2}`, `1:10: key "a" repeated`},
		{"[1, \"x\n\"]", "control character"},
		{`[-]`, `"-" is not a number`},
	} {
		if _, _, err := parseJSON(tc.src, 0); err == nil || !strings.Contains(err.Error(), tc.want) {
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
