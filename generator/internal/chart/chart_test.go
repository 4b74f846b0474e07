package chart

import (
	"bytes"
	"encoding/xml"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// elem is a parsed SVG element: its name, attributes and direct text.
type elem struct {
	name  string
	attrs map[string]string
	text  string
}

// parseSVG parses b as XML and returns its elements in document order.
func parseSVG(t *testing.T, b []byte) []elem {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	var out []elem
	var stack []int
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not XML: %v\n%s", err, b)
		}
		switch x := tok.(type) {
		case xml.StartElement:
			e := elem{name: x.Name.Local, attrs: map[string]string{}}
			for _, a := range x.Attr {
				k := a.Name.Local
				if a.Name.Space != "" && a.Name.Space != "http://www.w3.org/2000/svg" {
					k = a.Name.Space + ":" + k
				}
				e.attrs[k] = a.Value
			}
			out = append(out, e)
			stack = append(stack, len(out)-1)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				out[stack[len(stack)-1]].text += string(x)
			}
		}
	}
	if len(stack) != 0 {
		t.Fatal("unclosed elements")
	}
	return out
}

// accessible checks the chart's root, title, desc and the absence of
// style attributes, and returns the parsed elements.
func accessible(t *testing.T, c Chart, o Options) []elem {
	t.Helper()
	if bytes.Contains(c.SVG, []byte("style=")) {
		t.Error("SVG contains a style attribute")
	}
	es := parseSVG(t, c.SVG)
	root := es[0]
	if root.name != "svg" || root.attrs["role"] != "img" || root.attrs["aria-labelledby"] != o.ID+"-title "+o.ID+"-desc" || root.attrs["viewBox"] == "" {
		t.Errorf("root %+v", root)
	}
	if es[1].name != "title" || es[1].attrs["id"] != o.ID+"-title" || es[1].text != o.Title {
		t.Errorf("title %+v", es[1])
	}
	if es[2].name != "desc" || es[2].attrs["id"] != o.ID+"-desc" || es[2].text != o.Desc {
		t.Errorf("desc %+v", es[2])
	}
	titles := map[string]bool{}
	for _, e := range es {
		if e.attrs["class"] == "chart-axis-title" {
			titles[e.text] = true
		}
	}
	for _, a := range []Axis{o.X, o.Y} {
		if a.Label != "" && !titles[a.Title()] {
			t.Errorf("no axis title %q", a.Title())
		}
	}
	if c.Table.Caption != o.Title {
		t.Errorf("caption %q", c.Table.Caption)
	}
	return es
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func byClass(es []elem, class string) []elem {
	var out []elem
	for _, e := range es {
		if e.attrs["class"] == class {
			out = append(out, e)
		}
	}
	return out
}

var scatterOpts = Options{ID: "price-vs-bf16", Title: "Price <vs> BF16 & co", Desc: "Each point is a GPU.", Label: "GPU",
	X: Axis{Label: "Dense BF16", Unit: "TFLOPS", Log: true}, Y: Axis{Label: "Cheapest on-demand", Unit: "USD per GPU-hour", Log: true}}

func TestScatter(t *testing.T) {
	for _, tc := range []struct {
		name   string
		points []Point
		logs   bool
	}{
		{"log", []Point{{"h100", "H100 SXM5 80GB", "gpus/h100/", 989.4, 2.49}, {"t4", "T4 <16GB> & \"x\"", "", 65.13, 0.35 / 3}, {"b200", "B200", "", 2250, 5.99}}, true},
		{"linear", []Point{{"a", "A", "", 0.1, 0.2}, {"b", "B", "", 3, 1e-7}, {"c", "C", "", 3, 1e-7}}, false},
		{"one", []Point{{"a", "A", "", 10, 10}}, true},
		{"empty", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := scatterOpts
			o.X.Log, o.Y.Log = tc.logs, tc.logs
			c, err := Scatter(tc.points, o)
			if err != nil {
				t.Fatal(err)
			}
			es := accessible(t, c, o)
			pts := byClass(es, "chart-point")
			if len(pts) != len(tc.points) || len(c.Table.Rows) != len(tc.points) {
				t.Fatalf("%d points, %d rows, want %d", len(pts), len(c.Table.Rows), len(tc.points))
			}
			for i, p := range tc.points {
				if pts[i].attrs["data-id"] != p.ID || num(t, pts[i].attrs["data-x"]) != p.X || num(t, pts[i].attrs["data-y"]) != p.Y {
					t.Errorf("point %d: %v, want %+v", i, pts[i].attrs, p)
				}
				r := c.Table.Rows[i]
				if r.ID != p.ID || r.Label != p.Label || r.Href != p.Href || !slices.Equal(r.Values, []float64{p.X, p.Y}) {
					t.Errorf("row %d: %+v", i, r)
				}
			}
			if want := []string{"GPU", "Dense BF16 (TFLOPS)", "Cheapest on-demand (USD per GPU-hour)"}; !slices.Equal(c.Table.Columns, want) {
				t.Errorf("columns %q", c.Table.Columns)
			}
			if len(tc.points) == 0 && len(byClass(es, "chart-no-data")) != 1 {
				t.Error("no 'No data' note")
			}
			// Labels never overlap each other.
			var boxes []box
			for _, e := range byClass(es, "chart-point-label") {
				x, y := num(t, e.attrs["x"]), num(t, e.attrs["y"])
				w := float64(len([]rune(e.text))) * charWidth
				switch e.attrs["text-anchor"] {
				case "end":
					x -= w
				case "middle":
					x -= w / 2
				}
				b := box{x, y - fontSize, x + w, y}
				for _, o := range boxes {
					if b.overlaps(o) {
						t.Errorf("label %q overlaps another", e.text)
					}
				}
				boxes = append(boxes, b)
			}
		})
	}
}

func TestBars(t *testing.T) {
	in := []Bar{{"a", "Alpha", "gpus/a/", 0.05}, {"b", "Beta & <b>", "", 0.0125}, {"c", "Gamma", "", 0.05}, {"d", "Delta", "", 0}}
	o := Options{ID: "per-gb", Title: "Price per GB", Desc: "Sorted.", Label: "GPU", X: Axis{Label: "Price per GB of VRAM", Unit: "USD per GB-hour"}}
	c, err := Bars(in, o)
	if err != nil {
		t.Fatal(err)
	}
	es := accessible(t, c, o)
	want := []Bar{in[3], in[1], in[0], in[2]} // by value, then label
	bars := byClass(es, "chart-bar")
	if len(bars) != len(want) || len(c.Table.Rows) != len(want) {
		t.Fatalf("%d bars, %d rows", len(bars), len(c.Table.Rows))
	}
	for i, b := range want {
		if bars[i].attrs["data-id"] != b.ID || num(t, bars[i].attrs["data-value"]) != b.Value {
			t.Errorf("bar %d: %v, want %+v", i, bars[i].attrs, b)
		}
		if r := c.Table.Rows[i]; r.ID != b.ID || r.Label != b.Label || r.Href != b.Href || !slices.Equal(r.Values, []float64{b.Value}) {
			t.Errorf("row %d: %+v", i, r)
		}
	}
	if in[0].ID != "a" {
		t.Error("input was reordered")
	}
	// Bar lengths are proportional to the values.
	var rects []elem
	for _, e := range es {
		if e.name == "rect" {
			rects = append(rects, e)
		}
	}
	w1, w2 := num(t, rects[1].attrs["width"]), num(t, rects[2].attrs["width"])
	if math.Abs(w2/w1-4) > 0.05 {
		t.Errorf("bar widths %v and %v are not 1:4", w1, w2)
	}
}

func TestRanges(t *testing.T) {
	in := []Series{
		{"a", "Alpha", "gpus/a/", []float64{3, 1, 2}},
		{"b", "Beta", "", []float64{0.5, 4}},
		{"none", "None", "", nil},
		{"c", "Gamma", "", []float64{1.0 / 3}},
	}
	o := Options{ID: "spread", Title: "Spread", Desc: "Ranges.", Label: "GPU", Count: "Offers", X: Axis{Label: "On-demand", Unit: "USD per GPU-hour", Log: true}}
	c, err := Ranges(in, o)
	if err != nil {
		t.Fatal(err)
	}
	es := accessible(t, c, o)
	want := []struct {
		s  Series
		st Stats
	}{
		{in[3], Stats{1, 1.0 / 3, 1.0 / 3, 1.0 / 3}},
		{in[0], Stats{3, 1, 2, 3}},
		{in[1], Stats{2, 0.5, 2.25, 4}},
	}
	rs := byClass(es, "chart-range")
	if len(rs) != len(want) || len(c.Table.Rows) != len(want) {
		t.Fatalf("%d ranges, %d rows", len(rs), len(c.Table.Rows))
	}
	dots := 0
	for i, w := range want {
		a := rs[i].attrs
		if a["data-id"] != w.s.ID || a["data-n"] != strconv.Itoa(w.st.N) || num(t, a["data-min"]) != w.st.Min ||
			num(t, a["data-median"]) != w.st.Median || num(t, a["data-max"]) != w.st.Max {
			t.Errorf("range %d: %v, want %+v", i, a, w.st)
		}
		r := c.Table.Rows[i]
		if r.ID != w.s.ID || r.Href != w.s.Href || !slices.Equal(r.Values, []float64{float64(w.st.N), w.st.Min, w.st.Median, w.st.Max}) {
			t.Errorf("row %d: %+v", i, r)
		}
		dots += len(w.s.Values)
	}
	var got []float64
	for _, e := range byClass(es, "chart-dot") {
		if e.name == "circle" {
			got = append(got, num(t, e.attrs["data-value"]))
		}
	}
	wantDots := []float64{1.0 / 3, 3, 1, 2, 0.5, 4}
	if !slices.Equal(got, wantDots) {
		t.Errorf("dots %v, want %v", got, wantDots)
	}
	if c.Table.Columns[1] != "Offers" || c.Table.Columns[3] != "Median On-demand (USD per GPU-hour)" {
		t.Errorf("columns %q", c.Table.Columns)
	}
}

func TestErrors(t *testing.T) {
	ok := Options{ID: "x", Title: "T", Desc: "D"}
	logX := ok
	logX.X.Log = true
	for _, tc := range []struct {
		name string
		err  func() error
	}{
		{"bad id", func() error { _, err := Bars(nil, Options{ID: "1 x", Title: "T", Desc: "D"}); return err }},
		{"quote in id", func() error { _, err := Bars(nil, Options{ID: `a"b`, Title: "T", Desc: "D"}); return err }},
		{"no title", func() error { _, err := Bars(nil, Options{ID: "x", Desc: "D"}); return err }},
		{"no desc", func() error { _, err := Scatter(nil, Options{ID: "x", Title: "T"}); return err }},
		{"NaN", func() error { _, err := Scatter([]Point{{ID: "a", X: math.NaN(), Y: 1}}, ok); return err }},
		{"Inf", func() error { _, err := Bars([]Bar{{ID: "a", Value: math.Inf(1)}}, ok); return err }},
		{"negative bar", func() error { _, err := Bars([]Bar{{ID: "a", Value: -1}}, ok); return err }},
		{"zero on log", func() error { _, err := Ranges([]Series{{ID: "a", Values: []float64{0}}}, logX); return err }},
		{"negative on log", func() error { _, err := Scatter([]Point{{ID: "a", X: -1, Y: 1}}, logX); return err }},
		{"lines: values per position", func() error {
			_, err := Lines([]float64{1, 2}, []Line{{ID: "a", Values: []float64{1}}}, ok)
			return err
		}},
		{"lines: positions descend", func() error {
			_, err := Lines([]float64{2, 1}, []Line{{ID: "a", Values: []float64{1, 1}}}, ok)
			return err
		}},
		{"lines: zero on log", func() error {
			_, err := Lines([]float64{0, 1}, []Line{{ID: "a", Values: []float64{1, 1}}}, logX)
			return err
		}},
	} {
		if tc.err() == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

func TestScale(t *testing.T) {
	for _, tc := range []struct {
		vals   []float64
		log    bool
		lo, hi float64
		ticks  string
	}{
		{[]float64{0.35, 2.49, 5.99}, false, 0, 6, "0 2 4 6"},
		{[]float64{0.012, 0.07}, false, 0, 0.08, "0.00 0.02 0.04 0.06 0.08"},
		{[]float64{3}, false, 0, 3, "0 1 2 3"},
		{[]float64{0, 0}, false, 0, 1, "0.0 0.2 0.4 0.6 0.8 1.0"},
		{[]float64{65, 2250}, true, 50, 5000, "50 100 200 500 1000 2000 5000"},
		{[]float64{0.35, 5.99}, true, 0.2, 10, "0.2 0.5 1 2 5 10"},
		{[]float64{2, 2}, true, 1, 5, "1 2 5"},
		{[]float64{2.5}, true, 2, 5, "2 5"},
		{[]float64{0.001, 1000}, true, 0.001, 1000, "0.001 0.01 0.1 1 10 100 1000"},
		{[]float64{0.0015, 700}, true, 0.001, 1000, "0.001 0.01 0.1 1 10 100 1000"},
		{[]float64{0.003, 700}, true, 0.002, 1000, "0.002 0.01 0.1 1 10 100 1000"},
	} {
		s := newScale(tc.vals, tc.log, 0, 100)
		var ticks []string
		for _, v := range s.ticks {
			ticks = append(ticks, s.tickFormat(v))
		}
		if s.lo != tc.lo || s.hi != tc.hi || strings.Join(ticks, " ") != tc.ticks {
			t.Errorf("%v log=%v: [%v, %v] ticks %q, want [%v, %v] %q", tc.vals, tc.log, s.lo, s.hi, strings.Join(ticks, " "), tc.lo, tc.hi, tc.ticks)
		}
		for _, v := range tc.vals {
			if x := s.at(v); x < 0 || x > 100 {
				t.Errorf("%v maps outside the range: %v", v, x)
			}
		}
	}
}

func TestSig3(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{{1978.9, "1979"}, {2.494, "2.49"}, {0.03114, "0.0311"}, {0, "0"}, {12.5, "12.5"}, {-3.14159, "-3.14"}} {
		if got := Sig3(tc.v); got != tc.want {
			t.Errorf("Sig3(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

func TestHTMLAndDeterminism(t *testing.T) {
	pts := []Point{{"a", "A", "", 1, 2}, {"b", "B", "", 3, 4}}
	a, _ := Scatter(pts, scatterOpts)
	b, _ := Scatter(pts, scatterOpts)
	if !bytes.Equal(a.SVG, b.SVG) || !bytes.Equal(a.Narrow, b.Narrow) {
		t.Error("not deterministic")
	}
	h := string(a.HTML())
	if strings.Count(h, "<svg") != 2 || !strings.Contains(h, `class="chart chart-wide" id="price-vs-bf16"`) || !strings.Contains(h, `class="chart chart-narrow" id="price-vs-bf16-n"`) {
		t.Errorf("HTML of a chart with a narrow layout: %.300s", h)
	}
	// Without a narrow layout the SVG scrolls in its own named box.
	c := Chart{SVG: []byte(`<svg xmlns="http://www.w3.org/2000/svg" class="chart"></svg>`), Table: Table{Caption: "A & B"}}
	if got, want := string(c.HTML()), `<div class="chart-scroll" tabindex="0" role="region" aria-label="A &amp; B"><svg xmlns="http://www.w3.org/2000/svg" class="chart"></svg></div>`; got != want {
		t.Errorf("HTML without a narrow layout:\n got %s\nwant %s", got, want)
	}
}

// textBox estimates where a <text> element draws: its anchor and the
// average glyph width, one font size tall above the baseline.
func textBox(t *testing.T, e elem) box {
	t.Helper()
	x, y := num(t, e.attrs["x"]), num(t, e.attrs["y"])
	w := textWidth(e.text)
	switch e.attrs["text-anchor"] {
	case "middle":
		x -= w / 2
	case "end":
		x -= w
	}
	return box{x, y - fontSize, x + w, y}
}

// TestNarrow checks the phone layouts: NarrowWidth wide with their own
// ids, accessible, every text inside the drawing and clear of every other
// text, and each value label carrying its unit.
func TestNarrow(t *testing.T) {
	long := "GH200 Grace Hopper Superchip 96GB (per GPU)"
	price := Axis{Label: "Cheapest on-demand price per GB of memory", Unit: "USD per GB-hour"}
	cases := []struct {
		name  string
		c     func() (Chart, error)
		o     Options
		value string // class of the value labels, "" for none
	}{
		{"scatter", func() (Chart, error) {
			return Scatter([]Point{{"a", long, "", 100, 2}, {"b", "B", "", 1000, 3.5}, {"c", "C", "", 989, 3.4}, {"d", "D", "", 30, 0.4}}, scatterOpts)
		}, scatterOpts, ""},
		{"bars", func() (Chart, error) {
			return Bars([]Bar{{"a", long, "", 0.0331}, {"b", "B", "", 0.1}, {"c", "Tesla V100 SXM2 16GB", "", 0.25}}, barOptsFor(price))
		}, barOptsFor(price), "chart-bar-value"},
		{"lines", func() (Chart, error) { return Lines(linesXs, linesIn, linesOpts) }, linesOpts, ""},
		{"ranges", func() (Chart, error) {
			return Ranges([]Series{{"a", long, "", []float64{1, 2.5, 9}}, {"b", "B", "", []float64{0.5, 0.7}}}, Options{ID: "spread", Title: "Spread", Desc: "d", Label: "GPU",
				X: Axis{Label: "On-demand price", Unit: "USD per GPU-hour", Log: true}})
		}, Options{ID: "spread", Title: "Spread", Desc: "d", X: Axis{Label: "On-demand price", Unit: "USD per GPU-hour", Log: true}}, "chart-range-value"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ch, err := c.c()
			if err != nil {
				t.Fatal(err)
			}
			no := c.o
			no.ID += "-n"
			es := parseSVG(t, ch.Narrow)
			if w := num(t, es[0].attrs["width"]); w != NarrowWidth || es[0].attrs["id"] != no.ID || es[1].attrs["id"] != no.ID+"-title" {
				t.Errorf("narrow root %v, title %v", es[0].attrs, es[1].attrs)
			}
			var boxes []box
			var texts []elem
			for _, e := range es {
				if e.name != "text" || e.attrs["transform"] != "" {
					continue
				}
				b := textBox(t, e)
				if b.x0 < 0 || b.x1 > NarrowWidth {
					t.Errorf("%q (%s) reaches past the drawing: %v", e.text, e.attrs["class"], b)
				}
				for i, o := range boxes {
					if b.overlaps(o) {
						t.Errorf("%q (%s) overlaps %q (%s)", e.text, e.attrs["class"], texts[i].text, texts[i].attrs["class"])
					}
				}
				boxes, texts = append(boxes, b), append(texts, e)
			}
			if c.value != "" {
				vs := byClass(es, c.value)
				if len(vs) != len(ch.Table.Rows) {
					t.Errorf("%d value labels for %d rows", len(vs), len(ch.Table.Rows))
				}
				for _, v := range vs {
					if !strings.HasSuffix(v.text, " "+shortUnit(c.o.X.Unit)) {
						t.Errorf("value label %q lacks the unit %q", v.text, shortUnit(c.o.X.Unit))
					}
				}
			}
		})
	}
}

var (
	linesXs   = []float64{100, 1000, 10000, 100000, 1e6}
	linesIn   = []Line{{"api", "Hosted API", []float64{20, 200, 2000, 20000, 200000}}, {"dedicated", "Dedicated, on demand & <reserved>", []float64{5000, 5000, 5000, math.NaN(), 15000}}}
	linesOpts = Options{ID: "volume", Title: "Monthly cost by volume", Desc: "Lines.", Label: "Requests a day", PointTip: "{0}: {1} {2} at {3}",
		X: Axis{Label: "Requests a day", Log: true}, Y: Axis{Label: "Per month", Unit: "USD", Log: true}}
)

func TestLines(t *testing.T) {
	c, err := Lines(linesXs, linesIn, linesOpts)
	if err != nil {
		t.Fatal(err)
	}
	es := accessible(t, c, linesOpts)
	var series []elem
	for _, e := range es {
		if strings.HasPrefix(e.attrs["class"], "chart-series ") {
			series = append(series, e)
		}
	}
	if len(series) != 2 || series[0].attrs["data-id"] != "api" || series[1].attrs["data-id"] != "dedicated" {
		t.Fatalf("series %v", series)
	}
	// A dot per value, none for the missing one, each with its figures;
	// on log axes ten times the value is the same step up each time.
	dots := byClass(es, "chart-dot")
	if len(dots) != 9 {
		t.Fatalf("%d dots, want 9 (one value missing)", len(dots))
	}
	for i := 1; i < 5; i++ {
		step := num(t, dots[i-1].attrs["cy"]) - num(t, dots[i].attrs["cy"])
		if first := num(t, dots[0].attrs["cy"]) - num(t, dots[1].attrs["cy"]); step <= 0 || math.Abs(step-first) > 0.2 {
			t.Errorf("dot %d rises %v, want %v as the first", i, step, first)
		}
	}
	if d := dots[8]; d.attrs["data-x"] != "1000000" || d.attrs["data-value"] != "15000" {
		t.Errorf("last dot %v", d.attrs)
	}
	tip := false
	for _, e := range es {
		tip = tip || e.name == "title" && e.text == "Dedicated, on demand & <reserved>: 15000 USD at 1000000"
	}
	if !tip {
		t.Error("no tooltip for the last dot")
	}
	// The gap breaks the dedicated line into two pieces; the dashes tell
	// the lines apart without colour.
	var paths []elem
	for _, e := range es {
		if e.name == "path" {
			paths = append(paths, e)
		}
	}
	if len(paths) != 2 || strings.Count(paths[1].attrs["d"], "M") != 2 || strings.Count(paths[0].attrs["d"], "M") != 1 {
		t.Errorf("paths %v", paths)
	}
	if paths[0].attrs["stroke-dasharray"] == paths[1].attrs["stroke-dasharray"] {
		t.Error("both lines have the same dash")
	}
	if legend := byClass(es, "chart-legend"); len(legend) != 2 || legend[1].text != "Dedicated, on demand & <reserved>" {
		t.Errorf("legend %v", legend)
	}
	// The table: the positions, and each line's values in its column.
	if !slices.Equal(c.Table.Columns, []string{"Requests a day", "Hosted API", "Dedicated, on demand & <reserved>"}) || len(c.Table.Rows) != 5 {
		t.Fatalf("table %+v", c.Table)
	}
	if r := c.Table.Rows[3]; r.Label != "100000" || r.Values[0] != 20000 || !math.IsNaN(r.Values[1]) {
		t.Errorf("row 3 %+v", r)
	}
}

func barOptsFor(x Axis) Options {
	return Options{ID: "per-gb", Title: "Price per GB", Desc: "Bars.", Label: "GPU", X: x}
}

func TestWrapAndShortUnit(t *testing.T) {
	if got := wrap("Cheapest on-demand price per GB of memory (USD per GB-hour)", 200); len(got) != 3 || strings.Join(got, " ") != "Cheapest on-demand price per GB of memory (USD per GB-hour)" {
		t.Errorf("wrap: %q", got)
	}
	for _, l := range wrap("Cheapest on-demand price per GB of memory (USD per GB-hour)", 200) {
		if textWidth(l) > 200 {
			t.Errorf("line %q is %v wide", l, textWidth(l))
		}
	}
	if got := wrap("short", 200); len(got) != 1 {
		t.Errorf("wrap short: %q", got)
	}
	if got := shortUnit("USD per GPU-hour"); got != "USD/GPU-h" {
		t.Errorf("shortUnit = %q", got)
	}
}
