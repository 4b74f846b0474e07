package content

import (
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

// TestCheckClaims: a guide's own words may not state a price, a count of
// the catalog's entries or its lack of some (the data changes under
// them); shortcodes, code, link targets, a dated quotation and what the
// schema records may.
func TestCheckClaims(t *testing.T) {
	cases := []struct {
		name, body string
		want       string // "" for no error, else "line:col: " and the start of the message
	}{
		{"price per hour", "Intro.\n\nAn H100 rents for $2.49/h on most clouds.\n", "3:19: a price written into the guide"},
		{"price in USD an hour", "It costs 2.49 USD an hour.\n", "1:10: a price written"},
		{"zh price", "单卡 4090 每小时 1.5 元左右。\n", "1:13: a price written"},
		{"zh price per card-hour", "价格约 2 元/卡时。\n", "1:11: a price written"},
		{"dated quotation", "In 2023 an H100 cost $8/h at launch.\n", ""},
		{"zh dated quotation", "2024 年 4090 约 2 元/小时。\n", ""},
		{"not a rate", "Baidu requires a balance above 100 CNY to create an instance.\n", ""},
		{"count of providers", "The catalog lists 12 providers in China.\n", "1:19: a count of the catalog's entries"},
		{"zh count", "目录收录了 5 家平台。\n", "1:17: a count of the catalog's entries"},
		{"count without the catalog", "A node has 8 GPUs.\n", ""},
		{"zh lack", "这类平台价格透明，但目录目前没有收录这类平台的价格。\n", "1:43: a statement that the catalog lacks"},
		{"en lack", "The catalog has no prices for AutoDL.\n", "1:13: a statement that the catalog lacks"},
		{"schema, not data", "The catalog does not list FP64 throughput.\n", ""},
		{"shortcode", "The cheapest is {{< cheapest \"h100-sxm5-80gb\" >}} per GPU-hour.\n", ""},
		{"code span", "Write `$2/h` in the field.\n", ""},
		{"fenced code", "```\nprice = \"$2/h\"\n```\n", ""},
		{"link target", "See [the page](https://example.com/2-USD-per-hour).\n", ""},
		{"sentence ends", "The catalog is open. An hour costs 3 USD/h\n", "1:36: a price written"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := &diag.List{}
			checkClaims("g.md", []byte(c.body), 1, d)
			var b strings.Builder
			d.Print(&b)
			got := b.String()
			if c.want == "" {
				if got != "" {
					t.Errorf("%q: got\n%s want no error", c.body, got)
				}
				return
			}
			if !strings.HasPrefix(got, "g.md:"+c.want) || len(d.Errors()) != 1 {
				t.Errorf("%q: got\n%s want one error g.md:%s...", c.body, got, c.want)
			}
		})
	}
}
