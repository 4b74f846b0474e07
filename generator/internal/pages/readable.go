package pages

import (
	"regexp"
	"strings"
)

var codeRE = regexp.MustCompile(`(<pre[^>]*>)?<code>([^<]*)</code>|<pre>`)

// readableCode prepares a guide's HTML for narrow screens: inline code
// gets a line-break opportunity (<wbr>) after each "_", ".", "/", ",",
// "=" and "-" inside it, so a long command or identifier wraps at its
// parts rather than widening the page or breaking mid-word; a code block
// (<pre>), which scrolls sideways instead, becomes focusable so a
// keyboard can scroll it.
func readableCode(h string) string {
	return codeRE.ReplaceAllStringFunc(h, func(m string) string {
		if m == "<pre>" {
			return `<pre tabindex="0">`
		}
		if strings.HasPrefix(m, "<pre") {
			return strings.Replace(m, "<pre>", `<pre tabindex="0">`, 1)
		}
		text := strings.TrimSuffix(strings.TrimPrefix(m, "<code>"), "</code>")
		var b strings.Builder
		b.WriteString("<code>")
		entity := false
		for i, c := range text {
			b.WriteRune(c)
			switch {
			case c == '&':
				entity = true
			case entity && c == ';':
				entity = false
			case !entity && strings.ContainsRune("_./,=-", c) && i+1 < len(text) && !strings.ContainsRune(" _./,=-", rune(text[i+1])):
				b.WriteString("<wbr>")
			}
		}
		b.WriteString("</code>")
		return b.String()
	})
}
