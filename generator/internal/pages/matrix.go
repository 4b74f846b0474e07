package pages

import (
	"net/url"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
)

// MatrixPage is the data of the price matrix in one of its two orders: by
// GPU (/matrix/: per GPU, a row per provider) or by provider
// (/matrix/providers/: per provider, a row per GPU).
type MatrixPage struct {
	ByProvider bool
	Currency   string
	Groups     []MatrixGroup
}

// MatrixGroup is one GPU (or provider) and its rows.
type MatrixGroup struct {
	ID, Name, URL string // the section's anchor, title and page
	Lines         []MatrixLine
}

// MatrixLine is one provider (or GPU) of a group: its cheapest prices by
// kind (derive.MatrixColumns).
type MatrixLine struct {
	Name, URL string
	Cells     []*MatrixCellView
}

// MatrixCellView is a matrix cell as shown: the price per GPU-hour in the
// display currency, the region, the date and age band, and the pricing
// table's rows of that GPU, provider and billing mode.
type MatrixCellView struct {
	Row   *derive.Row
	Stale bool
	// Cheapest marks the lowest current price of its column in a GPU's
	// table (ties all marked), in text as well as colour.
	Cheapest bool
	Region   string // the region's name in the edition's language ("" when the price names none)
	Link     string // pricing/?gpu=…&provider=…&billing=…
}

func (s *Edition) matrixPages() {
	rows := s.dd.Matrix()
	if len(rows) == 0 {
		return
	}
	cell := func(c *derive.MatrixCell) *MatrixCellView {
		if c == nil {
			return nil
		}
		r := c.Row
		v := &MatrixCellView{Row: r, Stale: c.Stale}
		if r.Region != "" {
			v.Region = s.r.RegionName(r.Offer.Provider, r.Region)
		}
		q := url.Values{"gpu": {r.Offer.GPU.ID}, "provider": {r.Offer.Provider.ID}, "billing": {r.Price.Billing}}
		v.Link = "pricing/?" + q.Encode()
		return v
	}
	line := func(name, u string, m derive.MatrixRow) MatrixLine {
		l := MatrixLine{Name: name, URL: u}
		for _, c := range m.Cells {
			l.Cells = append(l.Cells, cell(c))
		}
		return l
	}
	lang := s.r.Lang()
	byGPU := &MatrixPage{Currency: s.dd.Currency}
	for _, m := range rows {
		g := s.cat.GPU(m.GPU)
		if n := len(byGPU.Groups); n == 0 || byGPU.Groups[n-1].ID != "g-"+g.ID {
			byGPU.Groups = append(byGPU.Groups, MatrixGroup{ID: "g-" + g.ID, Name: g.LocalName(s.lang.Code), URL: "gpus/" + g.ID + "/"})
		}
		p := s.cat.Provider(m.Provider)
		grp := &byGPU.Groups[len(byGPU.Groups)-1]
		grp.Lines = append(grp.Lines, line(p.LocalName(lang), "providers/"+p.ID+"/", m))
	}
	for i := range byGPU.Groups {
		markCheapest(&byGPU.Groups[i])
	}
	byProv := &MatrixPage{ByProvider: true, Currency: s.dd.Currency}
	for _, p := range s.cat.Providers {
		grp := MatrixGroup{ID: "p-" + p.ID, Name: p.LocalName(lang), URL: "providers/" + p.ID + "/"}
		for _, m := range rows {
			if m.Provider == p.ID {
				g := s.cat.GPU(m.GPU)
				grp.Lines = append(grp.Lines, line(g.LocalName(s.lang.Code), "gpus/"+g.ID+"/", m))
			}
		}
		if len(grp.Lines) > 0 {
			byProv.Groups = append(byProv.Groups, grp)
		}
	}
	t := s.r.T
	s.page(&render.Page{Kind: "matrix", Path: "matrix/", Title: t("matrix.title"), Description: t("matrix.description"), Data: byGPU, Scripts: []string{"js/matrix.js"}})
	s.page(&render.Page{Kind: "matrix", Path: "matrix/providers/", Title: t("matrix.providers.title"), Description: t("matrix.providers.description"), Data: byProv, Scripts: []string{"js/matrix.js"}})
}

// markCheapest marks, in each column of a GPU's table, the cells with the
// lowest current (not stale) price per GPU-hour: the providers compete on
// the same GPU there (a provider's table compares different GPUs, so it
// marks none). A column with a single current price marks nothing.
func markCheapest(g *MatrixGroup) {
	if len(g.Lines) == 0 {
		return
	}
	for col := range g.Lines[0].Cells {
		var low float64
		n := 0
		for _, l := range g.Lines {
			if c := l.Cells[col]; c != nil && !c.Stale {
				if n == 0 || c.Row.PerGPUDC < low {
					low = c.Row.PerGPUDC
				}
				n++
			}
		}
		if n < 2 {
			continue
		}
		for _, l := range g.Lines {
			if c := l.Cells[col]; c != nil && !c.Stale && c.Row.PerGPUDC == low {
				c.Cheapest = true
			}
		}
	}
}
