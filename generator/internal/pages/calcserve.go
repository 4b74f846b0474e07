package pages

import (
	"math"
	"strconv"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

// CalcServe is the calculator's serving answers for an inference input:
// what fits the reader's GPUs (sizing.ServingFit) and the cheapest plan
// per GPU for a load (sizing.PlanServing), as static/js/calculator.js
// renderServing writes them from the WebAssembly result.
type CalcServe struct {
	// Title heads the fit table; Fit are its rows; FitNote says why it is
	// empty or that no format holds a sequence ("" for neither).
	Title   string
	Fit     []CalcServeRow
	FitNote string
	// PresetsTitle heads the model presets that fit the GPUs (Presets,
	// sizing.RankFits, best first); PresetsNote says when none does.
	PresetsTitle, PresetsNote string
	Presets                   []CalcPresetRow
	// Rate, Prompt, Answer, TTFTms and TPOTms are the load planned for
	// (the form's starting values: the targets in ms); Plans its plans.
	Rate           float64
	Prompt, Answer int
	TTFTms, TPOTms float64
	Plans          []CalcPlanRow
	PlanNote       string   // no plan at all, or a load that cannot be planned
	MissTitle      string   // the summary of Misses
	Misses         []string // why each other GPU has no plan
	// Pay are the ways to pay for the load, cheapest first (calcPay),
	// PayBreakEven where each wins, PayNote why there is none.
	Pay          []CalcPayRow
	PayBreakEven []string
	PayNote      string
}

// CalcServeRow is one format of the fit table, as shown.
type CalcServeRow struct {
	Format, Layout, Weights, Context, Seqs, Decode string
}

// CalcPresetRow is a model preset that fits, in its most precise format.
type CalcPresetRow struct {
	Model                         *catalog.Model
	Format, Context, Seqs, Decode string
}

// CalcPlanRow is one GPU's plan, as shown; Row is the offer that prices it.
type CalcPlanRow struct {
	GPU                                               *catalog.GPU
	Row                                               *derive.Row
	Instances                                         int
	Hourly, Output, Input, Layout, Format, TTFT, TPOT string
	Load                                              string
}

// serveFitRows writes sizing.ServingFit's options as the fit table shows
// them, and the note under it: "" when some format fits.
func serveFitRows(tr translator, opts []sizing.ServingOption, n int, gpuName string, layers int) ([]CalcServeRow, string) {
	if len(opts) == 0 {
		return nil, tr.fill("calc.serve.nolayout", "", strconv.Itoa(n), strconv.Itoa(layers))
	}
	var rows []CalcServeRow
	fits := false
	for _, o := range opts {
		r := CalcServeRow{Format: sizing.FormatLabel(o.DType, o.Quant, o.KVDType), Layout: tr.fill("calc.serve.layout", "", strconv.Itoa(o.TP), strconv.Itoa(o.PP)),
			Weights: tr.gib(o.WeightsPerGPU), Decode: tr.q(sizing.RateQuantity(o.Decode))}
		switch {
		case o.MaxContext == 0:
			r.Context = tr.fill("calc.serve.over", "", tr.gib(o.OverBytes))
			r.Seqs = tr.q(sizing.RateQuantity(0))
		case o.Concurrency == 0:
			r.Context = sizing.Group(o.MaxContext)
			r.Seqs = tr.fill("calc.serve.seqs.none", "", sizing.Group(o.Context))
		default:
			r.Context = sizing.Group(o.MaxContext)
			r.Seqs = tr.fill("calc.serve.seqs", "", sizing.Group(o.Concurrency), sizing.Group(o.Context))
		}
		fits = fits || o.Fits()
		rows = append(rows, r)
	}
	if fits {
		return rows, ""
	}
	return rows, tr.fill("calc.serve.none", gpuName, sizing.Group(opts[0].Context), strconv.Itoa(n))
}

// planMissText says why GPU name has no plan (sizing.PlanMiss).
func planMissText(tr translator, m sizing.PlanMiss, name string) string {
	best := ""
	switch m.Reason {
	case sizing.MissTTFT, sizing.MissTPOT:
		best = tr.q(sizing.LatencyQuantity(m.Best))
	case sizing.MissFit:
		best = strconv.Itoa(sizing.MaxNodeTP)
	default:
		best = strconv.Itoa(int(m.Best))
	}
	return tr.fill("calc.plan.miss."+m.Reason, name, best)
}

// calcServe fills p.Serve for the calculator's default input in (model m)
// on in.GPUs of sg, planning sizing.DefaultLoad on gpus (the catalog's, as
// the engine takes them) priced on offers (CalcOffers).
func (s *Edition) calcServe(p *CalculatorPage, in sizing.Input, sg sizing.GPU, m *catalog.Model, tr translator, gpus []sizing.GPU, offers []sizing.Offer) {
	l := sizing.DefaultLoad()
	sv := &p.Serve
	*sv = CalcServe{Rate: l.Rate, Prompt: l.Prompt, Answer: l.Answer, TTFTms: l.TTFT * 1000, TPOTms: l.TPOT * 1000}
	sv.Title = tr.fill("calc.serve.title", sg.Name, strconv.Itoa(in.GPUs))
	sv.Fit, sv.FitNote = serveFitRows(tr, sizing.ServingFit(m.Model, m.MaxContext, sg, in.GPUs), in.GPUs, sg.Name, m.Model.Layers)
	sv.PresetsTitle = tr.fill("calc.presets.title", sg.Name, strconv.Itoa(in.GPUs))
	for _, f := range s.dd.FitOn(s.cat.GPU(sg.ID), in.GPUs) {
		o := f.Option
		sv.Presets = append(sv.Presets, CalcPresetRow{Model: f.Model, Format: sizing.FormatLabel(o.DType, o.Quant, o.KVDType),
			Context: sizing.Group(o.MaxContext), Seqs: tr.fill("calc.serve.seqs", "", sizing.Group(o.Concurrency), sizing.Group(o.Context)),
			Decode: tr.q(sizing.RateQuantity(o.Decode))})
	}
	if len(sv.Presets) == 0 {
		sv.PresetsNote = tr.fill("calc.presets.none", sg.Name, strconv.Itoa(in.GPUs))
	}
	plans, misses, ok := sizing.PlanServing(m.Model, m.MaxContext, l, gpus, offers, nil)
	sv.PlanNote, sv.MissTitle = planNotes(tr, ok, len(plans), len(misses), m.MaxContext)
	for _, pl := range plans {
		sv.Plans = append(sv.Plans, CalcPlanRow{GPU: s.cat.GPUs[pl.GPU], Row: s.dd.Headline[pl.Offer], Instances: pl.Instances,
			Hourly: money(pl.Hourly, s.dd.Currency), Output: money(pl.OutputPerM, s.dd.Currency), Input: money(pl.InputPerM, s.dd.Currency),
			Layout: tr.fill("calc.plan.layout", strconv.Itoa(pl.Replicas), strconv.Itoa(pl.TP), strconv.Itoa(pl.GPUs), strconv.Itoa(pl.Batch)),
			Format: sizing.FormatLabel(pl.DType, pl.Quant, pl.KVDType), TTFT: tr.q(sizing.LatencyQuantity(pl.TTFT)),
			TPOT: tr.q(sizing.LatencyQuantity(pl.TPOT)), Load: strconv.Itoa(int(math.Round(pl.Utilization*100))) + "%"})
	}
	for _, ms := range misses {
		sv.Misses = append(sv.Misses, planMissText(tr, ms, gpus[ms.GPU].Name))
	}
	s.calcPay(sv, m, l, tr, gpus, offers)
}

// planNotes are the plan's note (a load that cannot be planned, or no
// plan on any GPU; "" otherwise) and the title of the list of GPUs
// without a plan ("" when there are none).
func planNotes(tr translator, ok bool, plans, misses, maxContext int) (note, missTitle string) {
	if !ok {
		if maxContext <= 0 {
			maxContext = sizing.MaxSeqLen
		}
		return tr.fill("calc.plan.bad", "", sizing.Group(maxContext)), ""
	}
	if plans == 0 {
		note = tr.fill("calc.plan.none", "", strconv.Itoa(misses))
	}
	if misses > 0 {
		missTitle = tr.fill("calc.plan.misses", "", strconv.Itoa(misses))
	}
	return note, missTitle
}
