// Package safetext holds the rules for text and URLs that come from data
// and content files and end up on pages: which characters a string may
// hold, which URLs a source may be, and which link destinations a guide
// may use. The catalog and the guide loader apply them at load time, with
// positions, so nothing unsafe reaches the renderer.
package safetext

import (
	"fmt"
	"net/url"
	"strings"
	"unicode"
)

// BadRune reports a character no data or front-matter string may hold:
// control characters other than tab and newline (NUL, escape, DEL, C1),
// and the bidirectional marks, overrides and isolates and the byte-order
// mark, which make text read differently from how it is stored.
func BadRune(r rune) bool {
	switch {
	case r == '\t' || r == '\n':
		return false
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0xfeff:
		return true
	}
	return false
}

// FirstBad returns the first rune of s that BadRune rejects and true, or
// false.
func FirstBad(s string) (rune, bool) {
	for _, r := range s {
		if BadRune(r) {
			return r, true
		}
	}
	return 0, false
}

// SourceURL reports why v is not a URL a page may link to as a source, or
// nil: it must be absolute http or https with a host, and hold no
// whitespace or control characters.
func SourceURL(v string) error {
	if strings.TrimSpace(v) == "" {
		return fmt.Errorf("is empty: give the http(s) URL the figure was read from")
	}
	if r, bad := FirstBad(v); bad {
		return fmt.Errorf("holds the control character %U: a URL has none", r)
	}
	lower := strings.ToLower(v)
	if !strings.HasPrefix(lower, "http://") && !strings.HasPrefix(lower, "https://") {
		if u, err := url.Parse(v); err == nil && u.Scheme != "" && !strings.ContainsAny(u.Scheme, " ") {
			return fmt.Errorf("has scheme %q: only http and https URLs are allowed", u.Scheme)
		}
		return fmt.Errorf("is not an absolute http(s) URL (a source is the URL of the page or document the figure is on: start it with https://)")
	}
	for _, r := range v {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			return fmt.Errorf("holds whitespace (%U): a URL has none (encode a space as %%20)", r)
		}
	}
	u, err := url.Parse(v)
	if err != nil {
		return fmt.Errorf("is not a URL: %v", err)
	}
	if u.Hostname() == "" {
		return fmt.Errorf("has no host")
	}
	return nil
}

// LinkAllowed reports whether a guide's link or image destination may
// appear on a page: relative, a fragment, or http, https or mailto.
// Schemes that run code or embed content (javascript:, vbscript:, data:,
// file:) are refused, in any case and with any leading whitespace.
func LinkAllowed(dest string) bool {
	d := strings.TrimSpace(dest)
	if strings.ContainsAny(d, "\x00\t\n\r") {
		return false
	}
	if d == "" || strings.HasPrefix(d, "#") || strings.HasPrefix(d, "/") || strings.HasPrefix(d, "?") || strings.HasPrefix(d, ".") {
		return true
	}
	u, err := url.Parse(d)
	if err != nil {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "", "http", "https", "mailto":
		return true
	}
	return false
}
