package safetext

import (
	"strings"
	"testing"
	"unicode"
)

func TestSourceURL(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string // "" for valid, else a phrase of the error
	}{
		{"https://aws.amazon.com/ec2/pricing/", ""},
		{"http://example.org/a?b=c#d", ""},
		{"https://例子.中国/价格", ""},
		{"", "is empty"},
		{"javascript:alert(1)", `scheme "javascript"`},
		{"JavaScript:alert(1)", `scheme "javascript"`},
		{"data:text/html,x", `scheme "data"`},
		{"ftp://example.org/", `scheme "ftp"`},
		{"//example.org/x", "not an absolute http(s) URL"},
		{"example.org/x", "not an absolute http(s) URL"},
		{"AWS price list (PDF)", "not an absolute http(s) URL"},
		{"https://example.org/a b", "holds whitespace"},
		{"https://example.org/\u202e", "control character"},
		{"https://exa\x00mple.org", "control character"},
		{"https:///path", "has no host"},
		{"HTTPS://example.org/", ""},
	} {
		err := SourceURL(c.in)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("SourceURL(%q) = %v, want nil", c.in, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("SourceURL(%q) = %v, want an error with %q", c.in, err, c.want)
		}
	}
}

func TestLinkAllowed(t *testing.T) {
	for _, c := range []struct {
		in string
		ok bool
	}{
		{"/gpus/", true}, {"#top", true}, {"../faq/", true}, {"https://x.org", true}, {"mailto:a@b.c", true},
		{"guides/x/", true}, {"?q=1", true},
		{"javascript:alert(1)", false}, {" JAVASCRIPT:alert(1)", false}, {"vbscript:x", false},
		{"data:text/html,x", false}, {"file:///etc/passwd", false}, {"java\tscript:x", false},
	} {
		if got := LinkAllowed(c.in); got != c.ok {
			t.Errorf("LinkAllowed(%q) = %v, want %v", c.in, got, c.ok)
		}
	}
}

// scriptScheme reports what a browser would run or embed: the scheme the
// URL parser sees after dropping leading C0 controls and spaces and every
// tab and newline (the WHATWG URL rules), case-insensitive.
func scriptScheme(s string) bool {
	s = strings.TrimLeftFunc(s, func(r rune) bool { return r <= ' ' })
	s = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
	for _, p := range []string{"javascript:", "vbscript:", "data:", "file:"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// FuzzLinkAllowed: no destination LinkAllowed accepts has a scheme that
// runs script or embeds content, and no accepted source URL does either.
func FuzzLinkAllowed(f *testing.F) {
	for _, s := range []string{"javascript:x", " JaVa\tScRiPt:x", "\x01javascript:x", "data:,", "/a", "https://x", "vbscript\n:x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if LinkAllowed(s) && scriptScheme(s) {
			t.Errorf("LinkAllowed(%q) accepted a script scheme", s)
		}
		if SourceURL(s) == nil && scriptScheme(s) {
			t.Errorf("SourceURL(%q) accepted a script scheme", s)
		}
	})
}
