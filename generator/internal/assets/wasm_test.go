package assets

import (
	"slices"
	"testing"
)

// TestWASMEnviron: an explicit -mod=readonly (go build's default) leaves
// GOFLAGS, so the module's build information does not depend on it; other
// flags and variables stay.
func TestWASMEnviron(t *testing.T) {
	for _, tc := range []struct{ in, want []string }{
		{[]string{"HOME=/root", "GOFLAGS=-mod=readonly"}, []string{"HOME=/root", "GOFLAGS="}},
		{[]string{"GOFLAGS=-mod=readonly -tags=x"}, []string{"GOFLAGS=-tags=x"}},
		{[]string{"GOFLAGS=-mod=vendor"}, []string{"GOFLAGS=-mod=vendor"}},
		{[]string{"PATH=/bin"}, []string{"PATH=/bin"}},
	} {
		if got := wasmEnviron(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("wasmEnviron(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
