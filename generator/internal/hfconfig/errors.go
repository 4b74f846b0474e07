package hfconfig

import (
	"strconv"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

// KeyPrefix is the prefix of the parser's message keys in the UI string
// catalogs.
const KeyPrefix = "hfconfig.err."

// AtKey is the message that places another message at a line and column
// ("line {0}, column {1}: {s}"), for the calculator.
const AtKey = "hfconfig.at"

// Error is a problem with a config.json: a message key with its arguments
// (rendered by sizing.FillMessage: {s} {0} {1} {2} {f} are Args[0..4]) and
// the 1-based line and column it is about.
type Error struct {
	Line, Col int
	Key       string
	Args      [5]string
	_         [0]func() // not comparable: spares the WebAssembly build an equality function
}

// newError builds an *Error; key is without KeyPrefix. It is not inlined
// so that each of its many call sites stays small in the WebAssembly build.
//
//go:noinline
func newError(key string, line, col int, a0, a1, a2, a3, a4 string) *Error {
	return &Error{Line: line, Col: col, Key: KeyPrefix + key, Args: [5]string{a0, a1, a2, a3, a4}}
}

// errorAt is the *Error of a message whose arguments are {s} and the
// position ({0} line, {1} column): a JSON syntax error (its code is the
// message key) or a value of the wrong type.
//
//go:noinline
func errorAt(key string, line, col int, s string) *Error {
	return newError(key, line, col, s, strconv.Itoa(line), strconv.Itoa(col), "", "")
}

// Error renders the message in English, without the position (callers
// print path:line:col: before it). In the WebAssembly build, whose callers
// translate Key instead, it is Key (errors_text.go, errors_wasm.go).
//
//go:noinline
func (e *Error) Error() string { return e.text() }

// messages holds one "key<TAB>English text" per line; the keys carry
// KeyPrefix in the catalogs. templates/i18n/en.toml has the same text
// (TestMessagesMatchEnglishCatalog).
const messages = `eof	the file ends in the middle of the JSON
char	unexpected character {s}
trailing	there is text after the end of the JSON
unterminated	a string is not closed
escape	bad escape in a string
depth	the JSON is nested too deeply
not_object	a config.json must be a JSON object
size	the file is larger than {2} bytes; is it a config.json?
type	{s} must be a whole number
bool	{s} must be true or false
range	{s} must be between {1} and {2} (got {0})
missing	{s} is missing
kv_heads	num_key_value_heads {0} must divide num_attention_heads {1}
heads_hidden	num_attention_heads {0} must divide hidden_size {1}, or the file must give head_dim
experts	num_experts_per_tok {0} must not exceed the {1} experts
unknown_type	model_type "{s}" is not one this reader knows ({f}); read as a Llama-style model it lacks {0}
unknown_arch	model_type "{s}" is not one this reader knows ({f}), and its {0} key says it is not a Llama-style model
`

// atText is AtKey's English text.
const atText = "line {0}, column {1}: {s}"

//go:noinline
func lookup(key string) string {
	if len(key) > len(KeyPrefix) && key[:len(KeyPrefix)] == KeyPrefix {
		key = key[len(KeyPrefix):]
	}
	t := messages
	for len(t) > 0 {
		end := 0
		for end < len(t) && t[end] != '\n' {
			end++
		}
		line := t[:end]
		t = t[min(end+1, len(t)):]
		for i := 0; i < len(line); i++ {
			if line[i] == '\t' {
				if line[:i] == key {
					return line[i+1:]
				}
				break
			}
		}
	}
	return key
}

// MessageKeys returns every message key the parser produces, with its
// English text, and AtKey: the entries a UI catalog must translate.
//
//go:noinline
func MessageKeys() [][2]string {
	var out [][2]string
	t := messages
	for len(t) > 0 {
		end := 0
		for end < len(t) && t[end] != '\n' {
			end++
		}
		line := t[:end]
		t = t[min(end+1, len(t)):]
		for i := 0; i < len(line); i++ {
			if line[i] == '\t' {
				out = append(out, [2]string{KeyPrefix + line[:i], line[i+1:]})
				break
			}
		}
	}
	return append(out, [2]string{AtKey, atText})
}

// Positioned renders err as "line L, column C: message" in English (for a
// *Error with a position), else err.Error().
//
//go:noinline
func Positioned(err error) string {
	e, ok := err.(*Error)
	if !ok || e.Line == 0 {
		return err.Error()
	}
	return sizing.FillMessage(atText, [5]string{e.Error(), strconv.Itoa(e.Line), strconv.Itoa(e.Col)}, func(s string) string { return s })
}
