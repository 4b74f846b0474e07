package derive

import (
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
)

// TestMatrixCells: a cell is the cheapest price per GPU-hour of its kind
// across the provider's offers and regions of the GPU, preferring a price
// that is not stale; kinds map as the columns say.
func TestMatrixCells(t *testing.T) {
	g := &catalog.GPU{ID: "g"}
	p := &catalog.Provider{ID: "p"}
	q := &catalog.Provider{ID: "q"}
	row := func(prov *catalog.Provider, n int, billing, unit string, term int, perGPU float64, band string) *Row {
		return &Row{Offer: &catalog.Offer{GPU: g, Provider: prov, GPUCount: n}, Price: catalog.Price{Billing: billing}, Unit: unit, TermMonths: term, PerGPUDC: perGPU, Band: band}
	}
	cheapFresh := row(p, 8, "on-demand", "hour", 0, 3, "fresh")
	cheapStale := row(p, 1, "on-demand", "hour", 0, 1, "stale")
	dear := row(p, 1, "on-demand", "hour", 0, 5, "ageing")
	spotStale := row(p, 1, "spot", "hour", 0, 0.9, "stale")
	month := row(p, 1, "committed", "month", 1, 2, "fresh")
	year := row(p, 1, "committed", "hour", 12, 1.5, "fresh") // no column
	other := row(q, 1, "on-demand", "hour", 0, 4, "fresh")
	d := &Data{Cat: &catalog.Catalog{GPUs: []*catalog.GPU{g}, Providers: []*catalog.Provider{p, q}}, Now: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC),
		Rows: []*Row{dear, cheapStale, cheapFresh, spotStale, month, year, other}}
	m := d.Matrix()
	if len(m) != 2 || m[0].Provider != "p" || m[1].Provider != "q" {
		t.Fatalf("rows %+v, want p then q", m)
	}
	c := m[0].Cells
	if c[0].Row != cheapFresh || c[0].Stale {
		t.Errorf("on-demand cell %+v, want the cheapest fresh price (3), not the cheaper stale one", c[0].Row)
	}
	if c[1].Row != spotStale || !c[1].Stale {
		t.Errorf("spot cell %+v, want the only (stale) spot price, marked stale", c[1])
	}
	if c[2].Row != month {
		t.Errorf("monthly cell %+v, want the 1-month price", c[2].Row)
	}
	if m[1].Cells[0].Row != other || m[1].Cells[1] != nil || m[1].Cells[2] != nil {
		t.Errorf("q: %+v", m[1].Cells)
	}
}

// TestMarkBehind: an offer's spot or committed price observed more than a
// year before its newest on-demand price is marked with the gap; one
// within a year, and the on-demand price itself, are not.
func TestMarkBehind(t *testing.T) {
	day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	row := func(billing, asOf string) *Row { return &Row{Price: catalog.Price{Billing: billing, AsOf: day(asOf)}} }
	od := row("on-demand", "2026-10-01")
	oldSpot := row("spot", "2023-08-16")
	newSpot := row("spot", "2026-01-01")
	ri := row("committed", "2025-09-30")
	markBehind([]*Row{oldSpot, od, newSpot, ri})
	if oldSpot.BehindDays != 1142 || newSpot.BehindDays != 0 || ri.BehindDays != 366 || od.BehindDays != 0 {
		t.Errorf("behind: old spot %d (want 1142), new spot %d, committed %d (want 366), on-demand %d", oldSpot.BehindDays, newSpot.BehindDays, ri.BehindDays, od.BehindDays)
	}
	lone := row("spot", "2020-01-01")
	markBehind([]*Row{lone})
	if lone.BehindDays != 0 {
		t.Errorf("no on-demand price: behind %d", lone.BehindDays)
	}
}
