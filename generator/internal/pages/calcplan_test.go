package pages

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

// TestPlanPrecisionOnCatalog: on the repository's catalog, the
// calculator's alternatives and per-token offers for a job leave out the
// GPUs whose recorded precisions cannot run its weights, as the issue
// found them: bf16 Llama 3 8B recommended a Tesla P40 (no bf16); fp8
// weights need Ada, Hopper or Blackwell. The GPUs left out are counted for
// the page's note.
func TestPlanPrecisionOnCatalog(t *testing.T) {
	c := testcat.Repo(t)
	now := testcat.DataDate(c) // the data's own day: its prices are current
	rows := derive.New(c, now).Headline
	offers := CalcOffers(c, rows, now)
	for _, tc := range []struct {
		dtype sizing.DType
		never []string // GPU ids that must not be offered
	}{
		{sizing.BF16, []string{"p40", "p4", "v100-sxm2-16gb", "v100-sxm2-32gb", "t4", "k80", "m60", "quadro-rtx-6000"}},
		{sizing.FP8, []string{"a100-sxm4-80gb", "a100-pcie-40gb", "a10", "rtx-3090", "rtx-a6000", "v100-sxm2-16gb", "t4", "p40"}},
	} {
		in := sizing.DefaultInput(c.Model("llama-3-8b").Model)
		in.DType = tc.dtype
		g := c.GPU("h100-sxm5-80gb")
		sg := derive.SizingGPU(g)
		res, err := sizing.Estimate(in, &sg)
		if err != nil {
			t.Fatal(err)
		}
		job := CalcJob(c, in, res, g, nil, sizing.ServingConcurrency)
		plan := job.Plan(offers)
		if len(plan.Cheapest) == 0 || len(plan.PerToken) == 0 {
			t.Fatalf("%s: no alternatives (%d) or per-token offers (%d)", tc.dtype, len(plan.Cheapest), len(plan.PerToken))
		}
		if plan.Unsupported == 0 {
			t.Errorf("%s: no GPU left out for its precision", tc.dtype)
		}
		var seen []string
		for _, list := range [][]sizing.OfferCost{plan.Cheapest, plan.PerToken} {
			for _, oc := range list {
				id := rows[oc.Offer].Offer.GPU.ID
				seen = append(seen, id)
				if slices.Contains(tc.never, id) {
					t.Errorf("%s weights: %s offered (%s), which cannot run them", tc.dtype, id, rows[oc.Offer].Offer.ID)
				}
				if g := job.GPUs[offers[oc.Offer].GPU]; !g.Runs(tc.dtype) {
					t.Errorf("%s weights: %s offered with precisions %q", tc.dtype, id, g.Precisions)
				}
			}
		}
		t.Logf("%s: %d GPUs left out for precision; offered %s", tc.dtype, plan.Unsupported, strings.Join(seen, ", "))
	}
}

// TestBillingKey: a committed price per day or week without a term is a
// prepaid day or week (包日, 包周), not a subscription; every other
// price is named by its mode.
func TestBillingKey(t *testing.T) {
	for _, c := range []struct {
		billing, unit string
		term          int
		want          string
	}{
		{"committed", "day", 0, "billing.prepaid.day"},
		{"committed", "week", 0, "billing.prepaid.week"},
		{"committed", "month", 1, "billing.committed"},
		{"committed", "hour", 12, "billing.committed"},
		{"on-demand", "day", 0, "billing.on-demand"},
		{"spot", "hour", 0, "billing.spot"},
	} {
		if got := BillingKey(c.billing, c.unit, c.term); got != c.want {
			t.Errorf("BillingKey(%q, %q, %d) = %q, want %q", c.billing, c.unit, c.term, got, c.want)
		}
	}
}
