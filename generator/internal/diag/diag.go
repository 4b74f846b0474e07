// Package diag holds positioned diagnostics: the errors and warnings that
// the loaders and the build report as "path:line:col: message".
package diag

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Severity tells an error, which fails the build, from a warning, which does not.
type Severity int

const (
	// Error fails the build.
	Error Severity = iota
	// Warning is printed but does not fail the build.
	Warning
)

// Diagnostic is one message about a place in a file. Line and Col are
// 1-based; 0 means unknown (the message then applies to the whole file).
// Hint is the likely fix, where there is one (`did you mean "x"?`, "add a
// preset under data/models first"); it is printed after the message, in
// parentheses, and carried apart in JSON.
type Diagnostic struct {
	Path     string
	Line     int
	Col      int
	Severity Severity
	Msg      string
	Hint     string
}

// Text is the message with its hint: "message (hint)".
func (d Diagnostic) Text() string {
	if d.Hint == "" {
		return d.Msg
	}
	return d.Msg + " (" + d.Hint + ")"
}

// String formats the diagnostic as "path:line:col: message (hint)"
// (warnings get a "warning: " prefix on the message).
func (d Diagnostic) String() string {
	var b strings.Builder
	b.WriteString(d.Path)
	if d.Line > 0 {
		fmt.Fprintf(&b, ":%d", d.Line)
		if d.Col > 0 {
			fmt.Fprintf(&b, ":%d", d.Col)
		}
	}
	b.WriteString(": ")
	if d.Severity == Warning {
		b.WriteString("warning: ")
	}
	b.WriteString(d.Text())
	return b.String()
}

// List collects diagnostics. The zero value is ready to use.
type List struct {
	items []Diagnostic
}

// Add appends a diagnostic.
func (l *List) Add(d Diagnostic) { l.items = append(l.items, d) }

// Errorf adds an error at path:line:col.
func (l *List) Errorf(path string, line, col int, format string, args ...any) {
	l.Add(Diagnostic{Path: path, Line: line, Col: col, Severity: Error, Msg: fmt.Sprintf(format, args...)})
}

// Hintf adds an error at path:line:col with a hint ("" for none).
func (l *List) Hintf(path string, line, col int, hint, format string, args ...any) {
	l.Add(Diagnostic{Path: path, Line: line, Col: col, Severity: Error, Msg: fmt.Sprintf(format, args...), Hint: hint})
}

// Warnf adds a warning at path:line:col.
func (l *List) Warnf(path string, line, col int, format string, args ...any) {
	l.Add(Diagnostic{Path: path, Line: line, Col: col, Severity: Warning, Msg: fmt.Sprintf(format, args...)})
}

// Merge appends all diagnostics of o.
func (l *List) Merge(o *List) {
	if o != nil {
		l.items = append(l.items, o.items...)
	}
}

// HasErrors reports whether any diagnostic is an error.
func (l *List) HasErrors() bool {
	for _, d := range l.items {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Len returns the number of diagnostics.
func (l *List) Len() int { return len(l.items) }

// Sorted returns the diagnostics sorted by path, line, column and message,
// with exact duplicates removed.
func (l *List) Sorted() []Diagnostic {
	out := append([]Diagnostic(nil), l.items...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return a.Msg < b.Msg
	})
	dedup := out[:0]
	for i, d := range out {
		if i > 0 && d == out[i-1] {
			continue
		}
		dedup = append(dedup, d)
	}
	return dedup
}

// Errors returns only the errors, sorted.
func (l *List) Errors() []Diagnostic {
	var out []Diagnostic
	for _, d := range l.Sorted() {
		if d.Severity == Error {
			out = append(out, d)
		}
	}
	return out
}

// Print writes the sorted diagnostics, one per line.
func (l *List) Print(w io.Writer) {
	for _, d := range l.Sorted() {
		fmt.Fprintln(w, d.String())
	}
}

// PrintGitHub writes the sorted diagnostics as GitHub Actions workflow
// commands (::error file=...,line=...,col=...::message).
func (l *List) PrintGitHub(w io.Writer) {
	for _, d := range l.Sorted() {
		kind := "error"
		if d.Severity == Warning {
			kind = "warning"
		}
		fmt.Fprintf(w, "::%s file=%s", kind, escapeProp(d.Path))
		if d.Line > 0 {
			fmt.Fprintf(w, ",line=%d", d.Line)
			if d.Col > 0 {
				fmt.Fprintf(w, ",col=%d", d.Col)
			}
		}
		fmt.Fprintf(w, "::%s\n", escapeData(d.Text()))
	}
}

// Record is a diagnostic as JSON carries it: `check -format json` and the
// dev server's build-error event. Line, Col and Hint are left out when
// unknown or empty; Text is the line the terminal prints (String).
type Record struct {
	Path     string `json:"path"`
	Line     int    `json:"line,omitempty"`
	Col      int    `json:"col,omitempty"`
	Severity string `json:"severity"` // "error" or "warning"
	Message  string `json:"message"`
	Hint     string `json:"hint,omitempty"`
	Text     string `json:"text"`
}

// Record returns d as JSON carries it.
func (d Diagnostic) Record() Record {
	sev := "error"
	if d.Severity == Warning {
		sev = "warning"
	}
	return Record{Path: d.Path, Line: d.Line, Col: d.Col, Severity: sev, Message: d.Msg, Hint: d.Hint, Text: d.String()}
}

// PrintJSON writes the sorted diagnostics as one JSON object:
// {"errors": n, "warnings": n, "diagnostics": [Record, ...]}.
func (l *List) PrintJSON(w io.Writer) error {
	out := struct {
		Errors      int      `json:"errors"`
		Warnings    int      `json:"warnings"`
		Diagnostics []Record `json:"diagnostics"`
	}{Diagnostics: []Record{}}
	for _, d := range l.Sorted() {
		r := d.Record()
		if d.Severity == Warning {
			out.Warnings++
		} else {
			out.Errors++
		}
		out.Diagnostics = append(out.Diagnostics, r)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// escapeData and escapeProp follow the escaping rules of GitHub's
// workflow commands (actions/toolkit, packages/core/src/command.ts).
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// Suggest returns the candidate closest to s by edit distance, or "" when
// none is close enough to be a likely misspelling.
func Suggest(s string, candidates []string) string {
	best, bestD := "", 1<<30
	for _, c := range candidates {
		d := levenshtein(strings.ToLower(s), strings.ToLower(c))
		if d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	limit := len(s) / 3
	if limit < 2 {
		limit = 2
	}
	if bestD <= limit {
		return best
	}
	// A candidate that contains s or is contained in it (h100 -> h100-sxm5-80gb).
	for _, c := range candidates {
		if len(s) >= 3 && (strings.HasPrefix(c, s) || strings.HasPrefix(s, c)) {
			return c
		}
	}
	return ""
}

// DidYouMean returns the hint `did you mean "x"?` for the candidate
// Suggest picks for s, or "" when none is close: the hint of every
// "unknown ..." diagnostic.
func DidYouMean(s string, candidates []string) string {
	if x := Suggest(s, candidates); x != "" {
		return fmt.Sprintf("did you mean %q?", x)
	}
	return ""
}

// HintError is an error with a hint, for code that returns errors that a
// caller turns into diagnostics (Hinted splits it again).
type HintError struct {
	Msg, Hint string
}

// Error is the message with its hint, as Diagnostic.Text writes it.
func (e *HintError) Error() string { return Diagnostic{Msg: e.Msg, Hint: e.Hint}.Text() }

// WithHint returns an error of msg with hint; a plain error when hint is "".
func WithHint(hint, format string, args ...any) error {
	if hint == "" {
		return fmt.Errorf(format, args...)
	}
	return &HintError{Msg: fmt.Sprintf(format, args...), Hint: hint}
}

// Hinted splits err into its message and hint (a *HintError anywhere in
// its chain; otherwise the whole text and no hint).
func Hinted(err error) (msg, hint string) {
	var h *HintError
	if errors.As(err, &h) {
		return strings.TrimSuffix(err.Error(), " ("+h.Hint+")"), h.Hint
	}
	return err.Error(), ""
}

func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
