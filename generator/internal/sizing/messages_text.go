//go:build !(js && wasm)

package sizing

// text is the English message of e.
func (e *inputError) text() string {
	return FillMessage(lookupMessage(e.key), e.args(), func(field string) string {
		if t := lookupMessage("field." + field); t != "" {
			return t
		}
		return field
	})
}
