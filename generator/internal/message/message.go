// Package message fills the strings of the UI catalogs
// (templates/i18n/<lang>.toml), the sizing engine's and the config
// parser's messages among them. One placeholder style for every string:
// {0} {1} … are the arguments in order, and {field} is the translated name
// of the field the first argument names (a field the engine's message is
// about). The page scripts fill the same strings the same way
// (static/js/_shared.mjs fill). It imports nothing: the sizing engine,
// which the calculator runs as WebAssembly, uses it, and package strings
// alone would add 13 kB of Unicode tables to that module.
package message

// Fill replaces the placeholders of tmpl: {n} with args[n] ("" past the
// end), {field} with field(args[0]) (args[0] when field is nil). Any other
// text, including a brace that starts no placeholder, is copied.
func Fill(tmpl string, args []string, field func(string) string) string {
	var b []byte
	for i := 0; i < len(tmpl); i++ {
		name, n := placeholder(tmpl[i:])
		switch {
		case name == "field":
			a := ""
			if len(args) > 0 {
				a = args[0]
			}
			if field != nil {
				a = field(a)
			}
			b = append(b, a...)
		case name != "":
			if k, _ := index(name); k < len(args) {
				b = append(b, args[k]...)
			}
		default:
			b = append(b, tmpl[i])
			continue
		}
		i += n - 1
	}
	return string(b)
}

// placeholder reads the placeholder s starts with: its name ("0", "12",
// "field") and length, or "" when s starts with none.
func placeholder(s string) (string, int) {
	if len(s) < 3 || s[0] != '{' {
		return "", 0
	}
	j := 1
	for j < len(s) && j < 7 && s[j] != '}' {
		j++
	}
	if j < 2 || j >= len(s) || s[j] != '}' {
		return "", 0
	}
	name := s[1:j]
	if _, ok := index(name); ok || name == "field" {
		return name, j + 1
	}
	return "", 0
}

// index reads a placeholder's argument number: one or two digits.
func index(name string) (int, bool) {
	if len(name) == 0 || len(name) > 2 {
		return 0, false
	}
	n := 0
	for _, c := range []byte(name) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// Placeholders lists the distinct placeholders of tmpl, sorted and
// space-separated ("{0} {1} {field}"): two languages' strings of one key
// must have the same.
func Placeholders(tmpl string) string {
	var p []string
	for i := 0; i < len(tmpl); i++ {
		if name, n := placeholder(tmpl[i:]); name != "" {
			p = insert(p, "{"+name+"}")
			i += n - 1
		}
	}
	out := ""
	for i, s := range p {
		if i > 0 {
			out += " "
		}
		out += s
	}
	return out
}

// insert adds s to the sorted p, unless p has it.
func insert(p []string, s string) []string {
	i := 0
	for i < len(p) && p[i] < s {
		i++
	}
	if i < len(p) && p[i] == s {
		return p
	}
	return append(p[:i], append([]string{s}, p[i:]...)...)
}

// Part is a piece of a string: Text, or the argument Arg (≥ 0) of a
// placeholder {Arg}.
type Part struct {
	Text string
	Arg  int
}

// Parts cuts tmpl at its numbered placeholders, for a caller that puts
// something other than text in their place (a date a script renders as
// <time>): text parts have Arg −1; {field} stays text.
func Parts(tmpl string) []Part {
	var out []Part
	start := 0
	for i := 0; i < len(tmpl); i++ {
		name, n := placeholder(tmpl[i:])
		k, ok := index(name)
		if name == "" || !ok {
			continue
		}
		if i > start {
			out = append(out, Part{Text: tmpl[start:i], Arg: -1})
		}
		out = append(out, Part{Arg: k})
		i += n - 1
		start = i + 1
	}
	if start < len(tmpl) {
		out = append(out, Part{Text: tmpl[start:], Arg: -1})
	}
	return out
}
