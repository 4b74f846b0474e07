//go:build js && wasm

package sizing

// text is e's message key: the calculator's WebAssembly binding passes
// Message's key and arguments to the page, which translates them, so the
// English texts (messageTable) stay out of the module, about 11 kB.
func (e *inputError) text() string { return MessageKeyPrefix + e.key }
