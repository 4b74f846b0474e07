//go:build !(js && wasm)

package hfconfig

import "github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"

// text is the English message of e.
func (e *Error) text() string {
	return sizing.FillMessage(lookup(e.Key), e.Args, func(s string) string { return s })
}
