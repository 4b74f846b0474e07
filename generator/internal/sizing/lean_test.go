package sizing

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportsStayLean keeps the package, and package message it fills its
// messages with, fit for the WebAssembly build: no fmt, reflect,
// encoding/json, regexp, log, os, syscall/js or other heavy imports.
func TestImportsStayLean(t *testing.T) {
	allowed := map[string]bool{"errors": true, "math": true, "strconv": true, "strings": true, "sort": true,
		"github.com/gpu-atlas/gpu-atlas/generator/internal/message": true}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../message/*.go")
	files = append(files, more...)
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		af, err := parser.ParseFile(fset, f, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !allowed[p] {
				t.Errorf("%s imports %q; only errors, math, strconv, strings, sort and package message are allowed", f, p)
			}
		}
	}
}

func TestNormalize(t *testing.T) {
	in := DefaultInput(Model{})
	in.Workload, in.DType, in.KVDType = " QLoRA", "NF4", "BFloat16"
	in.Optimizer, in.Checkpointing, in.Offload = "AdamW8bit", "Selective", "None"
	got := in.Normalize()
	if got.Workload != QLoRA || got.DType != INT4 || got.KVDType != BF16 || got.Optimizer != AdamW8bit ||
		got.Checkpointing != SelectiveCheckpointing || got.Offload != NoOffload {
		t.Errorf("Normalize = %+v", got)
	}
	in.DType = "FP4"
	if got := in.Normalize(); got.DType != "fp4" {
		t.Errorf("unknown dtype normalised to %q, want fp4 (left for Validate)", got.DType)
	}
}
