package browsertest

import (
	"fmt"
	"math"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/pages"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
)

// compareShown is what the compare picker shows.
type compareShown struct {
	Selects []string   `json:"selects"`
	Head    []string   `json:"head"`   // the spec table's column heads after "Spec"
	Memory  []string   `json:"memory"` // its Memory row
	Link    string     `json:"link"`   // the permanent page's href, "" for none
	Tables  int        `json:"tables"`
	Prompt  string     `json:"prompt"`
	Fits    [][]string `json:"fits"`
}

func readCompare(b *Browser) compareShown {
	b.t.Helper()
	var s compareShown
	b.Eval(`(() => {
		const out = document.getElementById("compare-out");
		const tables = out.querySelectorAll("table");
		const t = tables[0];
		const cells = (r) => [...r.cells].slice(1).map((c) => c.textContent.trim());
		const mem = t ? [...t.tBodies[0].rows].find((r) => r.cells[0].textContent.trim() === "Memory") : null;
		const a = out.querySelector('a[href*="/compare/"]');
		return {
			selects: [...document.querySelectorAll("#compare select")].map((s) => s.value),
			head: t ? cells(t.tHead.rows[0]) : [],
			memory: mem ? cells(mem) : [],
			link: a ? a.getAttribute("href") : "",
			tables: tables.length,
			prompt: tables.length ? "" : out.textContent.trim(),
		};
	})()`, &s)
	return s
}

// TestCompare picks GPUs in the compare picker: the spec table shows their
// names and memory, the URL holds them, a reload restores them, and two
// GPUs of the same class link to their pre-rendered pair page, which
// exists.
func TestCompare(t *testing.T) {
	t.Parallel()
	base := Site(t)
	g := loadCatalog(t)
	cases := []struct {
		name string
		ids  []string
	}{
		{"three GPUs, two classes", []string{"h100-sxm5-80gb", "mi300x", "rtx-4090"}},
		{"two datacenter GPUs, the later id first", []string{"h100-sxm5-80gb", "a100-sxm4-80gb"}},
		{"two consumer GPUs", []string{"rtx-3090", "rtx-4090"}},
		{"two GPUs of different classes", []string{"l4", "rtx-4090"}},
		{"four GPUs", []string{"b200-sxm-180gb", "h200-sxm-141gb", "mi325x", "gaudi3"}},
		{"one GPU", []string{"t4"}},
	}
	browser := New(t, base)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := browser.For(t)
			var gpus []*catalog.GPU
			for _, id := range c.ids {
				gpu := g.cat.GPU(id)
				if gpu == nil {
					t.Fatalf("no GPU %q in the catalog", id)
				}
				gpus = append(gpus, gpu)
			}
			var names, memory []string
			for _, gpu := range gpus {
				names = append(names, gpu.Name)
				memory = append(memory, render.Num(gpu.MemoryGB)+" GB "+gpu.MemoryType)
			}
			link := ""
			if len(gpus) == 2 && gpus[0].Segment == gpus[1].Segment {
				link = "/" + pages.PairPath(gpus[0].ID, gpus[1].ID)
			}
			var query []string
			for _, id := range c.ids {
				query = append(query, "gpu="+url.QueryEscape(id))
			}
			q := "?" + strings.Join(query, "&")

			b.Navigate("compare/")
			if s := readCompare(b); s.Tables != 0 || s.Prompt == "" {
				t.Errorf("before a choice the picker shows %d tables and the prompt %q", s.Tables, s.Prompt)
			}
			for i, id := range c.ids {
				b.SetValue(fmt.Sprintf("#c-%d", i), id)
			}
			b.Poll("location.search === "+jsStr(q), "location.search")
			check := func(when string) {
				t.Helper()
				s := readCompare(b)
				if want := append(slices.Clone(c.ids), make([]string, 4-len(c.ids))...); !slices.Equal(s.Selects, want) {
					t.Errorf("%s: the selects hold %q, want %q", when, s.Selects, want)
				}
				if len(gpus) < 2 {
					if s.Tables != 0 || s.Prompt == "" {
						t.Errorf("%s: with one GPU the picker shows %d tables and the prompt %q", when, s.Tables, s.Prompt)
					}
					return
				}
				if s.Tables != 3 {
					t.Errorf("%s: %d tables, want 3 (specifications, prices, fits)", when, s.Tables)
				}
				if !slices.Equal(s.Head, names) {
					t.Errorf("%s: the spec table's columns are %q, want %q", when, s.Head, names)
				}
				if !slices.Equal(s.Memory, memory) {
					t.Errorf("%s: the Memory row is %q, want %q", when, s.Memory, memory)
				}
				if s.Link != link {
					t.Errorf("%s: the permanent page link is %q, want %q", when, s.Link, link)
				}
			}
			check("after choosing")
			loc := b.Location()
			b.Navigate(loc)
			check("after reloading " + loc)
			if link == "" {
				return
			}
			b.Follow(0, func() { b.Click(`#compare-out a[href="` + link + `"]`) })
			if got := b.Location(); got != strings.TrimSuffix(base, "/")+link {
				t.Errorf("the permanent page link led to %s", got)
			}
			title := b.Text("title")
			for _, n := range names {
				if !strings.Contains(title, n) {
					t.Errorf("the pair page's title %q does not name %s", title, n)
				}
			}
		})
	}
}

// TestInstanceCompare ticks two rows of an offer table and presses
// "Compare selected": the comparison page names both offers (its URL
// holds their ids), shows their VRAM and marks the larger one and the
// cheaper per-GPU-hour price; removing one and adding another from the
// page's list keep the URL in step, and a reload shows the same.
func TestInstanceCompare(t *testing.T) {
	t.Parallel()
	base := Site(t)
	g := loadCatalog(t)
	offers := map[string]*catalog.Offer{}
	for _, o := range g.cat.Offers {
		offers[o.ID] = o
	}
	b := New(t, base)
	b.Navigate("gpus/h100-sxm5-80gb/")
	// Two offers of different VRAM per GPU are not on an H100 page; take
	// the first row and the first row of another GPU count.
	var ids []string
	b.Eval(`(() => {
		const rows = [...document.querySelectorAll("table.offers tbody tr")];
		const a = rows[0], other = rows.find((r) => r.dataset.count !== a.dataset.count);
		return [a.dataset.id, other.dataset.id];
	})()`, &ids)
	for _, id := range ids {
		b.Click(`table.offers input[name=o][value="` + id + `"]`)
	}
	if got := b.Text("#pick button"); !strings.HasSuffix(got, "(2)") {
		t.Errorf("the compare button says %q after ticking two rows", got)
	}
	b.Follow(0, func() { b.Click("#pick button") })
	type shown struct {
		Search string   `json:"search"`
		Heads  []string `json:"heads"`
		Count  []string `json:"count"`
		Best   []string `json:"best"` // row labels with a marked cell
	}
	read := func() shown {
		var s shown
		b.Eval(`(() => {
			const t = document.querySelector("#instances-out table");
			const row = (label) => [...t.tBodies[0].rows].find((r) => r.cells[0].textContent === label);
			return {
				search: location.search,
				heads: [...t.tHead.rows[0].cells].slice(1).map((c) => c.textContent.replace("×", "").trim()),
				count: [...row("GPUs").cells].slice(1).map((c) => c.textContent.replace(/[^0-9]/g, "")),
				best: [...t.tBodies[0].rows].filter((r) => r.querySelector("td.best")).map((r) => r.cells[0].textContent),
			};
		})()`, &s)
		return s
	}
	b.Poll(`!!document.querySelector("#instances-out table")`, `document.getElementById("instances-out").textContent`)
	s := read()
	q := url.Values{"o": ids}
	if got, _ := url.ParseQuery(strings.TrimPrefix(s.Search, "?")); !slices.Equal(got["o"], q["o"]) {
		t.Errorf("URL %q, want o=%v", s.Search, ids)
	}
	for i, id := range ids {
		o := offers[id]
		if want := o.Provider.Name + o.Instance; strings.ReplaceAll(s.Heads[i], " ", "") != strings.ReplaceAll(want, " ", "") {
			t.Errorf("column %d is %q, want %s %s", i, s.Heads[i], o.Provider.Name, o.Instance)
		}
		if s.Count[i] != fmt.Sprint(o.GPUCount) {
			t.Errorf("column %d: %s GPUs, want %d", i, s.Count[i], o.GPUCount)
		}
	}
	if !slices.Contains(s.Best, "GPUs") || !slices.Contains(s.Best, "VRAM in all") {
		t.Errorf("marked rows %q: want GPUs and VRAM in all (the offers differ in GPU count)", s.Best)
	}
	// Remove the first, add another from the list.
	b.Click(`#instances-out thead button.remove`)
	b.Poll(`location.search === "?o=`+ids[1]+`"`, "location.search")
	var add string
	b.Eval(`[...document.querySelectorAll("#i-add option")].map((o) => o.value).find((v) => v && v !== `+jsString(ids[1])+`)`, &add)
	b.SetValue("#i-add", add)
	b.Poll(`location.search === "?o=`+ids[1]+`&o=`+add+`"`, "location.search")
	b.Reload()
	b.Poll(`document.querySelectorAll("#instances-out thead th").length === 3`, `document.getElementById("instances-out").textContent`)
}

// pairSpecLabels are the English labels of the spec rows where more is
// better (templates/i18n/en.toml spec.*), with the catalog figure each
// row shows.
var pairSpecLabels = map[string]func(*catalog.GPU) *float64{
	"Memory":           func(g *catalog.GPU) *float64 { return &g.MemoryGB },
	"Memory bandwidth": func(g *catalog.GPU) *float64 { return &g.MemoryBWGBs },
	"FP32":             func(g *catalog.GPU) *float64 { return g.FP32TFLOPS },
	"TF32 tensor":      func(g *catalog.GPU) *float64 { return g.TF32TFLOPS },
	"BF16/FP16 tensor": func(g *catalog.GPU) *float64 { return g.BF16TFLOPS },
	"FP8 tensor":       func(g *catalog.GPU) *float64 { return g.FP8TFLOPS },
	"INT8":             func(g *catalog.GPU) *float64 { return g.INT8TOPS },
	"Interconnect":     func(g *catalog.GPU) *float64 { return g.Interconnect.BandwidthGBs },
}

// TestComparePairMarks: a GPU pair page marks, in each spec row where
// more is better, the GPU with the larger catalog figure (bold, a check
// mark and "(better)" for screen readers), and nothing where the figures
// tie or one is missing or in rows without a better value (vendor, year,
// TDP, ...); in the price table it marks the lower cheapest price per
// GPU-hour of each billing mode.
func TestComparePairMarks(t *testing.T) {
	t.Parallel()
	base := Site(t)
	g := loadCatalog(t)
	a, c := g.cat.GPU("a100-sxm4-80gb"), g.cat.GPU("h100-sxm5-80gb")
	if a == nil || c == nil {
		t.Fatal("the catalog lacks the A100 SXM4 80GB or the H100 SXM5 80GB")
	}
	b := New(t, base)
	b.Navigate("compare/a100-sxm4-80gb-vs-h100-sxm5-80gb/")
	type row struct {
		Label string   `json:"label"`
		Best  int      `json:"best"` // 1 or 2: the marked column; 0 for none
		Marks int      `json:"marks"`
		Cells []string `json:"cells"`
	}
	var tables [][]row
	b.Eval(`[...document.querySelectorAll("table.compare")].slice(0, 2).map((t) => [...t.tBodies[0].rows].map((r) => {
		const tds = [...r.cells].slice(1);
		const i = tds.findIndex((c) => c.classList.contains("best"));
		return {label: r.cells[0].textContent.trim(), best: i + 1, marks: r.querySelectorAll(".mark").length + r.querySelectorAll(".visually-hidden").length,
			cells: tds.map((c) => c.textContent.trim())};
	}))`, &tables)
	if len(tables) != 2 {
		t.Fatalf("%d comparison tables, want the specs and the prices", len(tables))
	}
	seen := 0
	for _, r := range tables[0] {
		want := 0
		if f := pairSpecLabels[r.Label]; f != nil {
			seen++
			// A difference within 2 % of the larger figure is rounding
			// (pages.specTolerance): no mark.
			if x, y := f(a), f(c); x != nil && y != nil && math.Abs(*x-*y) > 0.02*max(*x, *y) {
				want = 1
				if *y > *x {
					want = 2
				}
			}
		}
		if r.Best != want || (want > 0) != (r.Marks == 2) {
			t.Errorf("spec row %q %q: column %d marked (%d marks), want %d", r.Label, r.Cells, r.Best, r.Marks, want)
		}
	}
	if seen != len(pairSpecLabels) {
		t.Errorf("%d of the %d spec rows with a better value found: a label changed?", seen, len(pairSpecLabels))
	}
	// Price rows: "min · median · max (n)"; the lower min is marked.
	for _, r := range tables[1] {
		var mins []float64
		for _, cell := range r.Cells {
			var v float64
			if _, err := fmt.Sscanf(cell, "%g", &v); err != nil {
				mins = append(mins, -1)
			} else {
				mins = append(mins, v)
			}
		}
		want := 0
		if len(mins) == 2 && mins[0] >= 0 && mins[1] >= 0 && mins[0] != mins[1] {
			want = 1
			if mins[1] < mins[0] {
				want = 2
			}
		}
		if r.Best != want {
			t.Errorf("price row %q %q: column %d marked, want %d", r.Label, r.Cells, r.Best, want)
		}
	}
}
