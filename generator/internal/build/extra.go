package build

import (
	"html/template"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
)

// ModelPage is the data of a model preset page.
type ModelPage struct {
	Model *catalog.Model
}

func (s *siteBuild) modelPage(m *catalog.Model) *ModelPage { return &ModelPage{Model: m} }

type templateHTML = template.HTML

func toString(h any) string {
	switch v := h.(type) {
	case template.HTML:
		return string(v)
	case string:
		return v
	}
	return ""
}

// extraPages renders pages added by later stages (sizing, compare, exports).
func (s *siteBuild) extraPages() {}
