package testcat

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/BurntSushi/toml"
)

// DataStrings returns the string values of root's data files
// (data/**/*.toml) that could hold a phrase or touch Chinese text with
// punctuation, longest first (so that a caller removing them from page
// text removes a string before any part of it): text pages show as
// written, which the UI-string tests leave out. extra strings are added
// to the set before sorting.
func DataStrings(root string, extra ...string) ([]string, error) {
	seen := map[string]bool{}
	add := func(s string) {
		// A lone word ("q", "Lambda") would be removed from inside UI text.
		if strings.ContainsAny(s, " ,:;()") || strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0 {
			seen[s] = true
		}
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			add(x)
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case []map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	err := filepath.WalkDir(filepath.Join(root, "data"), func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(p, ".toml") {
			return err
		}
		var m map[string]any
		if _, err := toml.DecodeFile(p, &m); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		walk(m)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, s := range extra {
		seen[s] = true
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i]) != len(out[j]) {
			return len(out[i]) > len(out[j])
		}
		return out[i] < out[j]
	})
	return out, nil
}
