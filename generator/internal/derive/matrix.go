package derive

// MatrixColumns are the price kinds of the price matrix, in its column
// order: on-demand, spot, and a month (a 1-month commitment or a price per
// month: 包月).
var MatrixColumns = []string{"on-demand", "spot", "monthly"}

// MatrixCell is the cheapest current price of one kind for one GPU at one
// provider, per GPU-hour in the display currency. Stale says it is the
// freshest there is but older than the stale threshold: every price of the
// kind is stale (a cell prefers a price that is not).
type MatrixCell struct {
	Row   *Row
	Stale bool
}

// MatrixRow is one GPU at one provider: a cell per MatrixColumns (nil:
// no such price).
type MatrixRow struct {
	GPU      string // GPU id
	Provider string // provider id
	Cells    []*MatrixCell
}

// MatrixKind is the matrix column a row belongs in ("" for none: a
// committed term longer than a month, a day or week price).
func MatrixKind(r *Row) string {
	switch {
	case r.Price.Billing == "spot":
		return "spot"
	case r.Price.Billing == "on-demand" && r.Unit == "hour":
		return "on-demand"
	case r.Unit == "month" || (r.Price.Billing == "committed" && r.TermMonths == 1):
		return "monthly"
	}
	return ""
}

// Matrix returns the price matrix: for every GPU with a current price, in
// catalog order, one row per provider that prices it (in catalog order),
// with the cheapest price of each kind across the provider's offers and
// regions of that GPU. A cell prefers prices that are not stale.
func (d *Data) Matrix() []MatrixRow {
	type key struct{ gpu, prov string }
	cells := map[key][]*MatrixCell{}
	col := map[string]int{}
	for i, c := range MatrixColumns {
		col[c] = i
	}
	for _, r := range d.Rows {
		i, ok := col[MatrixKind(r)]
		if !ok || r.PerGPUDC <= 0 {
			continue
		}
		k := key{r.Offer.GPU.ID, r.Offer.Provider.ID}
		if cells[k] == nil {
			cells[k] = make([]*MatrixCell, len(MatrixColumns))
		}
		cur, stale := cells[k][i], r.Band == "stale"
		switch {
		case cur == nil,
			cur.Stale && !stale,
			cur.Stale == stale && r.PerGPUDC < cur.Row.PerGPUDC:
			cells[k][i] = &MatrixCell{Row: r, Stale: stale}
		}
	}
	var out []MatrixRow
	for _, g := range d.Cat.GPUs {
		for _, p := range d.Cat.Providers {
			if c := cells[key{g.ID, p.ID}]; c != nil {
				out = append(out, MatrixRow{GPU: g.ID, Provider: p.ID, Cells: c})
			}
		}
	}
	return out
}
