package diag

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestDidYouMean(t *testing.T) {
	for _, tt := range []struct {
		name       string
		s          string
		candidates []string
		want       string
	}{
		{"one edit", "memory_gbs", []string{"memory_type", "memory_gb"}, `did you mean "memory_gb"?`},
		{"case is ignored", "H100", []string{"a100", "h100"}, `did you mean "h100"?`},
		{"a tie goes to the first in order", "ab", []string{"ac", "aa"}, `did you mean "aa"?`},
		{"short names allow two edits", "ab", []string{"xy"}, `did you mean "xy"?`},
		{"a third of a long name", "egress_per_gib_mnth", []string{"egress_per_gb_month"}, `did you mean "egress_per_gb_month"?`},
		{"a prefix of a candidate", "h100", []string{"l40s", "h100-sxm5-80gb"}, `did you mean "h100-sxm5-80gb"?`},
		{"a candidate is a prefix", "h100-sxm5-80gb-x", []string{"a10", "h100"}, `did you mean "h100"?`},
		{"too far", "xyz", []string{"abc"}, ""},
		{"too far for a prefix under three characters", "h1", []string{"h100-sxm5"}, ""},
		{"no candidates", "gpu", nil, ""},
		{"quoted as Go quotes", `a"c`, []string{`a"b`}, `did you mean "a\"b"?`},
	} {
		if got := DidYouMean(tt.s, tt.candidates); got != tt.want {
			t.Errorf("%s: DidYouMean(%q, %q) = %q, want %q", tt.name, tt.s, tt.candidates, got, tt.want)
		}
	}
}

// TestPrintGitHub: each diagnostic is one workflow command, sorted,
// warnings as warnings, the position given only where known, and the
// characters GitHub's command syntax reserves escaped (actions/toolkit,
// packages/core/src/command.ts).
func TestPrintGitHub(t *testing.T) {
	var l List
	l.Warnf("data/b.toml", 3, 0, "old price")
	l.Errorf("data/a,1:x.toml", 2, 5, "bad value 50%%\nsecond line")
	l.Errorf("data", 0, 0, "cannot read")
	var b strings.Builder
	l.PrintGitHub(&b)
	want := "::error file=data::cannot read\n" +
		"::error file=data/a%2C1%3Ax.toml,line=2,col=5::bad value 50%25%0Asecond line\n" +
		"::warning file=data/b.toml,line=3::old price\n"
	if b.String() != want {
		t.Errorf("PrintGitHub:\n%s\nwant\n%s", b.String(), want)
	}
}

// TestPrintJSON: the sorted diagnostics as one object, unknown positions
// left out, with the counts and each one's terminal line.
func TestPrintJSON(t *testing.T) {
	for _, c := range []struct {
		name string
		add  func(*List)
		want string
	}{
		{"none", func(*List) {}, `{"errors":0,"warnings":0,"diagnostics":[]}`},
		{"sorted, positions and severities", func(l *List) {
			l.Warnf("data/b.toml", 3, 0, "old price")
			l.Errorf("data/a.toml", 2, 5, "bad value <%d>", 1)
			l.Errorf("data", 0, 0, "cannot read")
		}, `{"errors":2,"warnings":1,"diagnostics":[` +
			`{"path":"data","severity":"error","message":"cannot read","text":"data: cannot read"},` +
			`{"path":"data/a.toml","line":2,"col":5,"severity":"error","message":"bad value <1>","text":"data/a.toml:2:5: bad value <1>"},` +
			`{"path":"data/b.toml","line":3,"severity":"warning","message":"old price","text":"data/b.toml:3: warning: old price"}]}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var l List
			c.add(&l)
			var b strings.Builder
			if err := l.PrintJSON(&b); err != nil {
				t.Fatal(err)
			}
			var got, want any
			if err := json.Unmarshal([]byte(b.String()), &got); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, b.String())
			}
			if err := json.Unmarshal([]byte(c.want), &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("PrintJSON:\n%s\nwant\n%s", b.String(), c.want)
			}
		})
	}
}

// TestHint: a hint follows the message in parentheses in the terminal and
// GitHub forms, and is its own field in JSON; an error with a hint splits
// back into the two.
func TestHint(t *testing.T) {
	var l List
	l.Hintf("data/offers/x.toml", 3, 7, DidYouMean("h10", []string{"h100", "a100"}), "unknown GPU %q", "h10")
	l.Hintf("data/offers/x.toml", 4, 1, "", "no hint")
	var b strings.Builder
	l.Print(&b)
	if want := "data/offers/x.toml:3:7: unknown GPU \"h10\" (did you mean \"h100\"?)\ndata/offers/x.toml:4:1: no hint\n"; b.String() != want {
		t.Errorf("Print:\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	l.PrintGitHub(&b)
	if !strings.Contains(b.String(), `::unknown GPU "h10" (did you mean "h100"?)`) {
		t.Errorf("PrintGitHub: %s", b.String())
	}
	b.Reset()
	if err := l.PrintJSON(&b); err != nil {
		t.Fatal(err)
	}
	var out struct{ Diagnostics []Record }
	if err := json.Unmarshal([]byte(b.String()), &out); err != nil {
		t.Fatal(err)
	}
	if r := out.Diagnostics[0]; r.Message != `unknown GPU "h10"` || r.Hint != `did you mean "h100"?` {
		t.Errorf("JSON record: %+v", r)
	}
	if strings.Contains(b.String(), `"hint": ""`) {
		t.Errorf("an empty hint is written: %s", b.String())
	}
	err := fmt.Errorf("shortcode: %w", WithHint(`did you mean "x"?`, "unknown field %q", "y"))
	if msg, hint := Hinted(err); msg != `shortcode: unknown field "y"` || hint != `did you mean "x"?` {
		t.Errorf("Hinted = %q, %q", msg, hint)
	}
	if msg, hint := Hinted(WithHint("", "plain")); msg != "plain" || hint != "" {
		t.Errorf("Hinted(no hint) = %q, %q", msg, hint)
	}
}
