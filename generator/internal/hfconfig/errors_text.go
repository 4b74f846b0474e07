//go:build !(js && wasm)

package hfconfig

import "github.com/gpu-atlas/gpu-atlas/generator/internal/message"

// text is the English message of e.
func (e *Error) text() string {
	return message.Fill(lookup(e.Key), e.Args[:], nil)
}
