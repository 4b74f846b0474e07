package hfconfig

import (
	goparser "go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportsStayLean keeps the parser and its JSON reader (package
// jsonpos) fit for the WebAssembly build, as package sizing does: no
// encoding/json, fmt, reflect or other heavy imports.
func TestImportsStayLean(t *testing.T) {
	allowed := map[string]bool{"math": true, "strconv": true,
		"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing":  true,
		"github.com/gpu-atlas/gpu-atlas/generator/internal/message": true,
		"github.com/gpu-atlas/gpu-atlas/generator/internal/jsonpos": true}
	files, _ := filepath.Glob("*.go")
	more, _ := filepath.Glob("../jsonpos/*.go")
	files = append(files, more...)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		af, err := goparser.ParseFile(token.NewFileSet(), f, src, goparser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); !allowed[p] {
				t.Errorf("%s imports %q", f, p)
			}
		}
	}
}
