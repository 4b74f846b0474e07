package hfconfig

import (
	"strconv"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/message"
)

// KeyPrefix is the prefix of the parser's message keys in the UI string
// catalogs.
const KeyPrefix = "hfconfig.err."

// AtKey is the message that places another message at a line and column
// ("line {1}, column {2}: {0}"), for the calculator.
const AtKey = "hfconfig.at"

// Error is a problem with a config.json: a message key with its arguments
// (rendered by message.Fill: {0} to {4} are Args[0..4]) and
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

// errorAt is the *Error of a message whose arguments are {0} and the
// position ({1} line, {2} column): a JSON syntax error (its code is the
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
char	unexpected character {0}
trailing	there is text after the end of the JSON
unterminated	a string is not closed
escape	bad escape in a string
depth	the JSON is nested too deeply
not_object	a config.json must be a JSON object
size	the file is larger than {3} bytes; is it a config.json?
type	{0} must be a whole number
bool	{0} must be true or false
range	{0} must be between {2} and {3} (got {1})
missing	{0} is missing
kv_heads	num_key_value_heads {1} must divide num_attention_heads {2}
heads_hidden	num_attention_heads {1} must divide hidden_size {2}, or the file must give head_dim
experts	num_experts_per_tok {1} must not exceed the {2} experts
unknown_type	model_type "{0}" is not one this reader knows ({4}); read as a Llama-style model it lacks {1}
unknown_arch	model_type "{0}" is not one this reader knows ({4}), and its {1} key says it is not a Llama-style model
`

// atText is AtKey's English text.
const atText = "line {1}, column {2}: {0}"

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
	return message.Fill(atText, []string{e.Error(), strconv.Itoa(e.Line), strconv.Itoa(e.Col)}, nil)
}
