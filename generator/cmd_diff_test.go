package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiffOverlay: diff -overlay adds the team's section to the report,
// and an overlay file that does not decode is a positioned error in it.
func TestDiffOverlay(t *testing.T) {
	ov := t.TempDir()
	os.MkdirAll(filepath.Join(ov, "data"), 0o755)
	os.WriteFile(filepath.Join(ov, "data", "overrides.toml"), []byte("[[contract]]\noffer = \"gone/g1\"\nprice = 5.0\nsource = \"https://wiki.team.example/c\"\nas_of = 2025-01-15\n"), 0o644)
	broken := t.TempDir()
	os.MkdirAll(filepath.Join(broken, "data"), 0o755)
	os.WriteFile(filepath.Join(broken, "data", "hide.toml"), []byte("providers = [\"gone\"\n"), 0o644)
	label := filepath.ToSlash(filepath.Clean(ov))
	for _, tt := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"overlay section", []string{"diff", "-overlay", ov, "internal/catdiff/testdata/base", "internal/catdiff/testdata/head"}, 0, []string{
			"## Catalog changes", "### Your overlay (" + label + ")",
			"- your contract price names `gone` g1, which the update removes: change or delete the entry (" + label + "/data/overrides.toml:1)"}},
		{"broken overlay", []string{"diff", "-overlay", broken, "internal/catdiff/testdata/base", "internal/catdiff/testdata/head"}, 1, []string{
			"the overlay catalog (" + filepath.ToSlash(filepath.Clean(broken)) + ") does not load", filepath.ToSlash(filepath.Clean(broken)) + "/data/hide.toml:1:"}},
		{"missing overlay", []string{"diff", "-overlay", filepath.Join(ov, "nope"), "internal/catdiff/testdata/base", "internal/catdiff/testdata/head"}, 1, []string{"does not exist (check -overlay)"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tt.args, &stdout, &stderr)
			out := stdout.String() + stderr.String()
			if code != tt.code {
				t.Errorf("exit %d, want %d:\n%s", code, tt.code, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}
