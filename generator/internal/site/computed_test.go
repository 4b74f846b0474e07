package site

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/fixture"
)

// TestComputedPrice: a price computed from another figure of its source
// (computed_from) says so beside its source on the price tables of both
// editions, with the computation in the edition's language (i18n), and
// the API carries it; a price quoted as is says nothing of the kind.
func TestComputedPrice(t *testing.T) {
	root := fixture.Site(t)
	edit(t, root, "data/offers/acme.toml", "price = 40.0\n", "price = 40.0\ncomputed_from = \"8 x the quoted per-GPU price of 5 USD/h\"\ni18n = { zh = { computed_from = \"来源报的每 GPU 价格 5 USD/h × 8\" } }\n")
	res := buildAt(t, root, filepath.Join(t.TempDir(), "public"), "")
	for _, c := range []struct{ page, badge string }{
		{"pricing/index.html", `<span class="badge ev computed" title="Not quoted as is: computed from the source's figure (8 x the quoted per-GPU price of 5 USD/h)">computed</span>`},
		{"zh/pricing/index.html", `<span class="badge ev computed" title="非原样报价，由来源的数字换算而来（来源报的每 GPU 价格 5 USD/h × 8）">换算</span>`},
	} {
		b, ok := res.Tree.Get(c.page)
		if !ok {
			t.Fatalf("no %s", c.page)
		}
		if n := strings.Count(string(b), "badge ev computed"); n != 1 || !strings.Contains(string(b), c.badge) {
			t.Errorf("%s: %d computed badges, want 1 reading %s", c.page, n, c.badge)
		}
	}
	b, _ := res.Tree.Get("api/v1/offers.json")
	if n := strings.Count(string(b), `"computed_from":"8 x the quoted per-GPU price of 5 USD/h"`); n != 1 {
		t.Errorf("api/v1/offers.json holds the computation %d times, want once", n)
	}
}
