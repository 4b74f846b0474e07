package catalog

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

// Term is one entry of data/glossary.toml: the one Chinese rendering of an
// English term that the guides and the UI strings follow, the synonyms a
// reader may search for, and when to use it. The zh search index adds a
// term's renderings to every entry whose text names it, so a search for
// 昇腾 finds the Ascend 910B.
type Term struct {
	En    string   `toml:"en"`
	Zh    string   `toml:"zh"`
	ZhAlt []string `toml:"zh_alt"`
	Note  string   `toml:"note"`
}

// GlossaryFile is data/glossary.toml: its [[terms]].
type GlossaryFile struct {
	Terms []Term `toml:"terms"`
}

// loadGlossary reads data/glossary.toml when it exists: every term needs
// en and zh, and an English term is listed once.
func loadGlossary(root string, c *Catalog, d *diag.List, ck func(*file) checker) {
	abs := filepath.Join(root, "data", "glossary.toml")
	if _, err := os.Stat(abs); err != nil {
		return
	}
	var g GlossaryFile
	f := decodeFile(abs, "data/glossary.toml", &g, d)
	if f == nil {
		return
	}
	chk := ck(f)
	seen := map[string]int{}
	for i, t := range g.Terms {
		pre := fmt.Sprintf("terms.%d", i)
		chk.require(pre, requiredOf[Term]()...)
		key := strings.ToLower(strings.TrimSpace(t.En))
		if j, dup := seen[key]; dup && key != "" {
			line, _ := f.pos(fmt.Sprintf("terms.%d.en", j))
			chk.errorf(pre+".en", "term %q is listed twice (first at line %d): merge the two entries", t.En, line)
		}
		seen[key] = i
	}
	c.Glossary = g.Terms
}
