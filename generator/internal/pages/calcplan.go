package pages

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

// CalcCost is one row of the calculator's offer tables: a headline price
// row with what the job needs of it (sizing.Plan), as shown.
type CalcCost struct {
	Row       *derive.Row
	Instances int
	// Hourly, Monthly, Input, Output and Job are the shown figures (a
	// dash when unknown): the instances' price per hour and month, the
	// cost per million prompt and generated tokens, the training job's
	// cost.
	Hourly, Monthly, Input, Output, Job string
	// Public is the public price per instance-hour a team's overlay price
	// replaces, 0 for none.
	Public float64
}

// CalcPlan is the offer tables of one estimate.
type CalcPlan struct {
	Chosen, Cheapest, PerToken []CalcCost
	// ChosenNone, CheapestNone and Left are the notes: no offer of the
	// chosen GPU, no alternative, and what the alternatives leave out (""
	// for nothing).
	ChosenNone, CheapestNone, Left string
}

// CalcOffers is what sizing.Job.Plan prices: one offer per headline row
// (rows), in their order, so that the page and the WebAssembly plan on
// the same list; stale by c's age bands at now. gpuAt gives a GPU id's
// index in the job's GPUs.
func CalcOffers(c *catalog.Catalog, rows []*derive.Row, now time.Time) []sizing.Offer {
	gpuAt := map[string]int{}
	for i, g := range c.GPUs {
		gpuAt[g.ID] = i
	}
	out := make([]sizing.Offer, len(rows))
	for i, r := range rows {
		out[i] = sizing.Offer{GPU: gpuAt[r.Offer.GPU.ID], GPUs: r.Offer.GPUCount, Mode: slices.Index(catalog.BillingModes(), r.Price.Billing),
			Price: r.InstDC, Stale: derive.Band(derive.AgeDays(r.Price.AsOf, now), c.Site.Staleness) == "stale"}
	}
	return out
}

// CalcJob is the job sizing.Job.Plan prices for input in (estimate res)
// with the reader's GPU g: the catalog's GPUs in order, their fewest GPUs
// that hold the job (fits, by GPU id; MinFit where fits is nil; for
// training, the reader's own layout on g when it fits) and, for
// inference, the layouts serving concurrency sequences. generator/wasm
// builds the same job from the script's input.
func CalcJob(c *catalog.Catalog, in sizing.Input, res sizing.Result, g *catalog.GPU, fits map[string]sizing.Fit, concurrency int) sizing.Job {
	job := sizing.Job{Chosen: -1, DType: in.DType, Inference: in.Workload == sizing.Inference, TrainFLOPs: res.TrainFLOPs, MFU: in.MFU, Pipeline: in.PipelineFactor(), Rollout: in.Method.Generates()}
	serve := in
	serve.Batch = concurrency
	for i, cg := range c.GPUs {
		sg := derive.SizingGPU(cg)
		if cg == g {
			job.Chosen = i
		}
		job.GPUs = append(job.GPUs, sg)
		var fp, sp *sizing.Fit
		f, ok := fits[cg.ID]
		if fits == nil {
			f, ok = sizing.MinFit(in, sg)
		}
		if ok {
			fp = &f
		}
		if job.Inference {
			if f, ok := sizing.MinFit(serve, sg); ok {
				sp = &f
			}
		}
		job.Fits, job.Serve = append(job.Fits, fp), append(job.Serve, sp)
	}
	if c := job.Chosen; c >= 0 && !job.Inference && sizing.Fits(res, job.GPUs[c]) {
		// Training is priced as the reader runs it (sizing.Job.Fits); the
		// WebAssembly binding does the same.
		job.Fits[c] = &sizing.Fit{N: in.GPUs, TP: res.TP, PP: res.PP, Result: res}
	}
	return job
}

// CalcPlanText renders plan p (of job j on the offers of rows, one per
// offer) with the edition's strings t, in currency cur, where a price
// over staleDays old is stale, as static/js/calculator.js renders the
// WebAssembly plan.
func CalcPlanText(p sizing.Plan, j sizing.Job, rows []*derive.Row, t func(string) string, cur, lang string, staleDays int) CalcPlan {
	tr := translator{t: t}
	dash := tr.q(sizing.RateQuantity(0))
	show := func(x float64) string {
		if x > 0 {
			return money(x, cur)
		}
		return dash
	}
	costs := func(cs []sizing.OfferCost) []CalcCost {
		var out []CalcCost
		for _, c := range cs {
			out = append(out, CalcCost{Row: rows[c.Offer], Instances: c.Instances, Hourly: show(c.Hourly), Monthly: show(c.Monthly),
				Input: show(c.InputPerM), Output: show(c.OutputPerM), Job: show(c.Job)})
		}
		return out
	}
	out := CalcPlan{Chosen: costs(p.Chosen), Cheapest: costs(p.Cheapest), PerToken: costs(p.PerToken)}
	name := ""
	if j.Chosen >= 0 {
		name = j.GPUs[j.Chosen].Name
	}
	out.ChosenNone = tr.fill("calc.offers.none", name)
	out.CheapestNone = tr.fill("calc.cheapest.none")
	var left []string
	if p.Unsupported > 0 {
		left = append(left, tr.fill("calc.left.precision", string(j.DType), strconv.Itoa(p.Unsupported)))
	}
	if p.Stale > 0 {
		left = append(left, tr.fill("calc.left.stale", "", strconv.Itoa(p.Stale), strconv.Itoa(staleDays)))
	}
	out.Left = strings.Join(left, tr.t("punct.sp"))
	return out
}

// calcPlan fills the page's offer tables for the default estimate, priced
// on offers (CalcOffers), and returns the catalog's GPUs as the engine
// takes them (named in the edition's language).
func (s *Edition) calcPlan(p *CalculatorPage, in sizing.Input, fitsOf map[string]sizing.Fit, offers []sizing.Offer) []sizing.GPU {
	job := CalcJob(s.cat, in, p.Result, p.GPU, fitsOf, p.Concurrency)
	for i, cg := range s.cat.GPUs {
		job.GPUs[i].Name = cg.LocalName(s.lang.Code) // as the script data names them for the WebAssembly engine
	}
	plan := job.Plan(offers)
	p.Plan = CalcPlanText(plan, job, s.dd.Headline, s.r.T, s.dd.Currency, s.r.Lang(), p.StaleDays)
	for _, list := range [...][]CalcCost{p.Plan.Chosen, p.Plan.Cheapest, p.Plan.PerToken} {
		for i := range list {
			list[i].Public = publicHourly(s.cat, list[i].Row.Offer, list[i].Row.Price, s.dd.Currency)
		}
	}
	return job.GPUs
}
