package pages

import (
	"html/template"
	"strings"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
)

// TestAttrEscaper: a value escaped in Go is what html/template writes for
// it in a quoted attribute, hostile values included.
func TestAttrEscaper(t *testing.T) {
	tmpl := template.Must(template.New("").Parse(`<p title="{{.}}">`))
	for _, v := range []string{"", "h100", `a"b'c`, "x<y>z", "A & B", "1+2", "nul\x00here", "中国 上海|北京", "\"><script>alert(1)</script>", "0.000001", "1e+06"} {
		var b strings.Builder
		if err := tmpl.Execute(&b, v); err != nil {
			t.Fatal(err)
		}
		if got, want := `<p title="`+attrEscaper.Replace(v)+`">`, b.String(); got != want {
			t.Errorf("%q: Go writes %s, html/template %s", v, got, want)
		}
	}
}

// TestRowAttrs: every data- attribute of a row, in order, from the row's
// fields, formatted as a template prints them.
func TestRowAttrs(t *testing.T) {
	gpu := &catalog.GPU{ID: "h100-sxm", Vendor: "NVIDIA", FormFactor: "SXM"}
	gpu.Interconnect.Kind = "NVLink"
	o := &catalog.Offer{ID: "p/x&y", GPU: gpu, Provider: &catalog.Provider{ID: "p"}, GPUCount: 8, VRAMPerGPUGB: 80, Currency: "USD"}
	r := &derive.Row{Offer: o, Price: catalog.Price{Billing: "on-demand"}, Countries: []string{"US", "DE"}, Regions: []string{"us-east", "eu"},
		Cities: []string{"Ashburn", "Frankfurt am Main"}, PerGPUDC: 2.5, InstDC: 20, TFLOPSPerDC: 395.6, AgeDays: 12, Band: "fresh",
		Evidence: "first-party", HourlyEquivalent: 1e6}
	got := string(rowAttrs(r, "2026-11-25"))
	want := `data-gpu="h100-sxm" data-vendor="NVIDIA" data-form="SXM" data-vram="80" data-count="8" data-provider="p" ` +
		`data-countries="US DE" data-regions="us-east eu" data-cities="Ashburn|Frankfurt am Main" data-billing="on-demand" ` +
		`data-ic="NVLink" data-pergpu="2.5" data-inst="20" data-tpd="395.6" data-age="12" data-band="fresh" ` +
		`data-evidence="first-party" data-cur="USD" data-price="1e&#43;06" data-id="p/x&amp;y" data-key="p/x&amp;y on-demand 2026-11-25"`
	if got != want {
		t.Errorf("rowAttrs:\n got %s\nwant %s", got, want)
	}
	if n := strings.Count(got, "data-"); n != len(rowAttrNames) {
		t.Errorf("%d attributes, want %d", n, len(rowAttrNames))
	}
}

// TestReportURL: the price report's query says what the row lists, escaped.
func TestReportURL(t *testing.T) {
	o := &catalog.Offer{ID: "a b/c+d", Currency: "CNY", File: "data/offers/x.toml", Line: 42}
	cases := []struct {
		price catalog.Price
		want  string
	}{
		{catalog.Price{Billing: "on-demand", Price: 12.5, AsOf: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)},
			"https://r/issues/new?template=price-report.yml&offer=a+b%2Fc%2Bd&listed=on-demand%3A+12.5+CNY+per+instance-hour%2C+as+of+2026-03-01+%28data%2Foffers%2Fx.toml%3A42%29"},
		{catalog.Price{Billing: "committed", Unit: "month", Price: 9000, AsOf: time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)},
			"https://r/issues/new?template=price-report.yml&offer=a+b%2Fc%2Bd&listed=committed%3A+9000+CNY+per+instance-month%2C+as+of+2025-12-31+%28data%2Foffers%2Fx.toml%3A42%29"},
	}
	for _, c := range cases {
		if got := string(reportURL("https://r", &derive.Row{Offer: o, Price: c.price})); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.price.Billing, got, c.want)
		}
	}
}
