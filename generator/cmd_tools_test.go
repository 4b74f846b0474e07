package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestToolCommands checks the exit codes and messages of the contributor
// tools (schema, new, diff, import) as wired into run.
func TestToolCommands(t *testing.T) {
	tmp := t.TempDir()
	site := filepath.Join(tmp, "site")
	tests := []struct {
		name   string
		args   []string
		code   int
		output string // a substring of stdout+stderr
	}{
		{"schema", []string{"schema", "-out", filepath.Join(tmp, "schema")}, 0, "wrote 9 schemas"},
		{"schema extra argument", []string{"schema", "x"}, 2, "unexpected argument"},
		{"new gpu", []string{"new", "gpu", "test-gpu", "-root", site}, 0, "wrote data/gpus/test-gpu.toml"},
		{"new gpu again", []string{"new", "-root", site, "gpu", "test-gpu"}, 1, "already exists; not overwriting it"},
		{"new bad id", []string{"new", "gpu", "Test_GPU", "-root", site}, 2, "not a valid id"},
		{"new unknown kind", []string{"new", "cpu", "x", "-root", site}, 2, `unknown kind "cpu"`},
		{"new offer without provider", []string{"new", "offer", "nope", "-root", site}, 1, `no provider "nope"`},
		{"new without id", []string{"new", "gpu"}, 2, "usage: generator new"},
		{"diff fixtures", []string{"diff", "internal/catdiff/testdata/base", "internal/catdiff/testdata/head"}, 0, "## Catalog changes"},
		{"diff same", []string{"diff", "internal/catdiff/testdata/base", "internal/catdiff/testdata/base"}, 0, "No catalog changes."},
		{"diff broken side", []string{"diff", "internal/catdiff/testdata/base", site}, 1, "the head catalog (" + site + ") does not load"},
		{"diff usage", []string{"diff"}, 2, "usage: generator diff"},
		{"import usage", []string{"import", "x.csv"}, 2, "usage: generator import"},
		{"import fsdl", []string{"import", "-format", "fsdl", "-root", "..", "-out", filepath.Join(tmp, "out"), "internal/importer/testdata/cloud-gpus.with-dates.csv"}, 0, "60 rows imported, 197 rows reported"},
		{"import missing file", []string{"import", "-format", "fsdl", "-root", "..", "nope.csv"}, 2, "nope.csv"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tt.args, &stdout, &stderr)
			out := stdout.String() + stderr.String()
			if code != tt.code || !strings.Contains(out, tt.output) {
				t.Errorf("run(%q) = %d, want %d with %q; output:\n%s", tt.args, code, tt.code, tt.output, out)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(tmp, "out", "aws.toml")); err != nil {
		t.Errorf("import wrote no aws.toml: %v", err)
	}
}
