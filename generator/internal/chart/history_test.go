package chart

import (
	"strings"
	"testing"
	"time"
)

func day(y, m, d int) time.Time { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC) }

func TestHistory(t *testing.T) {
	o := Options{ID: "h-1", Title: "Price history of a1", Desc: "Two observations", Label: "As of",
		X: Axis{Label: "Date"}, Y: Axis{Label: "Price", Unit: "USD/h"}}
	c, err := History([]TimePoint{
		{ID: "b", Date: day(2026, 8, 26), Value: 2.5, Label: "2026-08-26 (third-party)"},
		{ID: "a", Date: day(2024, 1, 10), Value: 3.0},
	}, o)
	if err != nil {
		t.Fatal(err)
	}
	svg := string(c.SVG)
	for _, want := range []string{
		`role="img" aria-labelledby="h-1-title h-1-desc"`,
		`<title id="h-1-title">Price history of a1</title>`,
		`data-id="a" data-date="2024-01-10" data-value="3"`,
		`data-id="b" data-date="2026-08-26" data-value="2.5"`,
		`>2024-01-10</text>`, `>2026-08-26</text>`, `>2025-01-01</text>`, // the year between, where there is room
		`<path class="chart-line" d="M64 `,
		`>Price (USD/h)</text>`,
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %q:\n%s", want, svg)
		}
	}
	if strings.Contains(svg, "style=") {
		t.Error("inline style (the CSP forbids it)")
	}
	// The step: horizontal to the second date, then vertical to its value.
	if !strings.Contains(svg, "H536V") {
		t.Errorf("no step to the right edge (x 536):\n%s", svg)
	}
	if len(c.Table.Rows) != 2 || c.Table.Rows[0].ID != "a" || c.Table.Rows[0].Label != "2024-01-10" || c.Table.Rows[1].Label != "2026-08-26 (third-party)" ||
		c.Table.Rows[1].Values[0] != 2.5 || c.Table.Columns[1] != "Price (USD/h)" {
		t.Errorf("table %+v", c.Table)
	}
}

func TestHistoryErrors(t *testing.T) {
	o := Options{ID: "h", Title: "T", Desc: "D"}
	for _, tc := range []struct {
		name   string
		points []TimePoint
		want   string
	}{
		{"same date", []TimePoint{{ID: "a", Date: day(2025, 1, 1), Value: 1}, {ID: "b", Date: day(2025, 1, 1), Value: 2}}, "the same date"},
		{"negative", []TimePoint{{ID: "a", Date: day(2025, 1, 1), Value: -1}}, "negative"},
	} {
		if _, err := History(tc.points, o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
	if _, err := History(nil, Options{ID: "1x", Title: "T", Desc: "D"}); err == nil {
		t.Error("a bad id is accepted")
	}
}
