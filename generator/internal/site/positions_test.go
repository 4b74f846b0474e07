package site

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryLoaderDiagnosticPositioned walks the source of every loader
// (the catalog, the guides and the TOML position index) and fails on a
// diagnostic emitted without a line and column: a call d.Errorf / d.Warnf
// whose line or column argument is the constant 0. Only diagnostics about
// a whole directory (the data or content folder missing or unreadable)
// may go without, since no line of a file is at fault. The per-kind
// checks (checker.errorf and friends) take a key path and always resolve
// to a position (file.pos falls back to the enclosing table, then 1:1),
// and TestBrokenInputsCLI checks positions on real mistakes.
func TestEveryLoaderDiagnosticPositioned(t *testing.T) {
	dirAllowed := map[string]bool{`"data"`: true, `"content"`: true, `dir`: true, `prefix+dir`: true}
	fset := token.NewFileSet()
	calls := 0
	for _, pkg := range []string{"catalog", "content", "tomlpos"} {
		files, _ := filepath.Glob(filepath.Join("..", pkg, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			file, err := parser.ParseFile(fset, f, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(file, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok || (sel.Sel.Name != "Errorf" && sel.Sel.Name != "Warnf") || len(call.Args) < 4 {
					return true
				}
				calls++
				line, col := call.Args[1], call.Args[2]
				if isZero(line) || isZero(col) {
					path := string(src[fset.Position(call.Args[0].Pos()).Offset:fset.Position(call.Args[0].End()).Offset])
					if !dirAllowed[path] {
						t.Errorf("%s: a diagnostic about %s is emitted without a position", fset.Position(call.Pos()), path)
					}
				}
				return true
			})
		}
	}
	if calls < 20 {
		t.Fatalf("found only %d diagnostic calls: is the walk looking in the right place?", calls)
	}
}

func isZero(e ast.Expr) bool {
	b, ok := e.(*ast.BasicLit)
	return ok && b.Value == "0"
}
