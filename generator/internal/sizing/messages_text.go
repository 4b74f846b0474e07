//go:build !(js && wasm)

package sizing

import "github.com/gpu-atlas/gpu-atlas/generator/internal/message"

// text is the English message of e.
func (e *inputError) text() string {
	args := e.args()
	return message.Fill(lookupMessage(e.key), args[:], func(field string) string {
		if t := lookupMessage("field." + field); t != "" {
			return t
		}
		return field
	})
}
