package pages

import (
	"html/template"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
)

// ModelPage is the data of a model preset page.
type ModelPage struct {
	Model    *catalog.Model
	Fits     []derive.Fit
	GPUs     []*catalog.GPU
	Currency string
	Serving  []derive.Serving // inference speed and cost on each GPU that holds it
	// StaleDays is the age past which a price is not current.
	StaleDays int
}

func (s *Edition) modelPage(m *catalog.Model) *ModelPage {
	return &ModelPage{Model: m, Fits: s.dd.ModelFits(m), GPUs: s.cat.GPUs, Currency: s.dd.Currency, Serving: s.dd.ModelServing(m),
		StaleDays: s.cat.Site.Staleness.StaleDays}
}

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
