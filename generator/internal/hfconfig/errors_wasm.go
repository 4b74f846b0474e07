//go:build js && wasm

package hfconfig

// text is e's key: the calculator's WebAssembly binding passes Key and
// Args to the page, which translates them, so the English texts stay out
// of the module.
func (e *Error) text() string { return e.Key }
