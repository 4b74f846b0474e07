package browsertest

import (
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/site"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

// TestOverlayBadges builds the fixture with testdata/overlay-example and
// checks that what the page scripts render marks a team's price as the
// server-rendered tables do (badge, public price beside it): the
// calculator's offers of the chosen GPU, cheapest alternatives and cost
// per token, the instance
// comparison and the TCO lines.
func TestOverlayBadges(t *testing.T) {
	t.Parallel()
	Chromium(t)
	root := FixtureRoot(t)
	out := filepath.Join(t.TempDir(), "public")
	overlay := filepath.Join(testcat.RepoRoot(), "testdata", "overlay-example")
	if _, d := site.Run(site.Options{Root: root, Out: out, Now: testcat.FixtureNow, BaseURL: "/", Overlay: overlay}); d.HasErrors() {
		var b strings.Builder
		d.Print(&b)
		t.Fatalf("building with the overlay:\n%s", b.String())
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: FileServer(out), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	b := New(t, "http://"+ln.Addr().String()+"/")

	// marks lists "badge kind: label | public price" of the cells under sel.
	const marks = `((sel) => [...document.querySelectorAll(sel + " .badge.overlay")].map((e) =>
		e.dataset.overlay + ": " + e.textContent + " | " + (e.nextElementSibling && e.nextElementSibling.matches(".conv.public") ? e.nextElementSibling.textContent : "")))`
	want := func(what string, got []string, wants ...string) {
		t.Helper()
		for _, w := range wants {
			found := false
			for _, g := range got {
				found = found || g == w
			}
			if !found {
				t.Errorf("%s: no mark %q among %q", what, w, got)
			}
		}
	}

	// The calculator renders its tables with the engine (on the query).
	b.Navigate("calculator/?model=tiny-7b&workload=inference&gpus=1")
	b.WaitReady(`#calc[data-ready="true"]`)
	var got []string
	// The chosen GPU's offers (Alpha 80GB: the contract and the spot
	// discount), then the cheapest other GPU (the team's internal pool).
	b.Eval(marks+`("#offers tbody")`, &got)
	want("calculator, offers of the chosen GPU", got, "contract: contract price, valid until 2027-03-31 | public price 40.00 USD", "discount: 20% discount | public price 16.00 USD")
	b.Eval(marks+`("#cheapest tbody")`, &got)
	want("calculator, cheapest fitting alternative", got, "internal: internal cost | ")
	b.Eval(marks+`("#pertoken tbody")`, &got)
	want("calculator, cost per token", got, "contract: contract price, valid until 2027-03-31 | public price 40.00 USD")

	b.Navigate("compare/instances/?o=acme/alpha-8x&o=team-pool/pool-beta")
	b.Poll(`!!document.querySelector("#instances-out table")`, `document.getElementById("instances-out").textContent`)
	b.Eval(marks+`("#instances-out")`, &got)
	want("instance comparison", got, "contract: contract price, valid until 2027-03-31 | public price 5.00 USD", "discount: 20% discount | public price 2.00 USD", "internal: internal cost | ")

	// The TCO page opens on acme/alpha-8x (rendered by the build); the
	// script renders another offer and then that one again.
	b.Navigate("tco/")
	rows := func() []string {
		var rows []string
		b.Eval(`[...document.querySelectorAll("#t-result tbody th")].map((e) => e.firstChild.textContent)`, &rows) // the label, before its price date
		return rows
	}
	b.SetValue("#t-offer", "team-pool/pool-beta")
	b.Poll(`document.querySelector("#t-result tbody").textContent.includes("internal cost")`, `document.querySelector("#t-result tbody").textContent`)
	want("TCO", rows(), "On-demand (internal cost)")
	b.SetValue("#t-offer", "acme/alpha-8x")
	b.Poll(`document.querySelector("#t-result tbody").textContent.includes("contract price")`, `document.querySelector("#t-result tbody").textContent`)
	want("TCO", rows(), "On-demand (contract price, valid until 2027-03-31; public price 40.00 USD)", "Spot (20% discount; public price 16.00 USD)")
}
