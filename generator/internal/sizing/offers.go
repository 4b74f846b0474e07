package sizing

import "math"

// HoursPerMonth is the hours of an average month, 365 × 24 / 12, as
// provider price lists count a monthly figure from an hourly one.
const HoursPerMonth = 730

// ServingConcurrency is the concurrent sequences per replica the cost per
// token is figured at by default: a serving batch continuous-batching
// engines (vLLM, SGLang, TensorRT-LLM) run at under load, where batch 1
// would price a GPU serving one reader.
const ServingConcurrency = 32

// PerTokenRows is how many offers Plan's PerToken lists.
const PerTokenRows = 10

// Offer is a priced instance type a job can run on.
type Offer struct {
	_ noCompare
	// GPU is the index of its GPU in Job.GPUs; GPUs is how many an
	// instance has.
	GPU, GPUs int
	// Mode is the billing mode's place in the display order (on-demand
	// 0, committed 1, spot 2: catalog.BillingModes).
	Mode int
	// Price is the price per instance-hour, in the plan's currency.
	Price float64
	// Stale says the price is older than the site's stale threshold.
	Stale bool
}

// Job is what Plan prices: the fewest GPUs of each catalog GPU that hold
// the job, and for inference the layouts that serve it at the serving
// concurrency.
type Job struct {
	// GPUs are the catalog's GPUs; Fits[i] and Serve[i] are GPU i's
	// smallest layouts (nil: none fits) at the reader's input and, for
	// inference, at the serving concurrency. For training, the chosen
	// GPU's is the reader's own layout when it fits: the job is priced as
	// the reader runs it.
	GPUs  []GPU
	Fits  []*Fit
	Serve []*Fit
	// Chosen is the index of the reader's GPU, -1 for none.
	Chosen int
	// DType is the weight format; Plan's alternatives exclude GPUs that
	// do not run it (GPU.Runs).
	DType DType
	// Inference says the job serves tokens; otherwise TrainFLOPs at MFU
	// is the training compute the job cost is figured from.
	Inference  bool
	TrainFLOPs float64
	// MFU is the model FLOPs utilisation (0: TrainingMFU's for each GPU);
	// Pipeline the layout's Input.PipelineFactor (0 is read as 1).
	MFU, Pipeline float64
	// IncludeStale lets stale prices into the alternatives and the cost
	// per token.
	IncludeStale bool
	// Rollout says the training method generates its samples
	// (Method.Generates): the job cost adds the fit's generation time,
	// shared over the instances' GPUs, and is unknown without it.
	Rollout bool
	// PerTokenRows is how many per-token rows Plan keeps: 0 means the
	// package's PerTokenRows, a negative number all.
	PerTokenRows int
}

// OfferCost is one offer with what the job needs of it.
type OfferCost struct {
	_ noCompare
	// Offer is the index in the plan's offers.
	Offer int
	// N is the GPUs the job needs of the offer's GPU, Instances the
	// instances that hold them (more than one: the layout's pipeline
	// stages or data-parallel replicas span instances, each holding
	// whole tensor-parallel groups).
	N, Instances int
	// Hourly and Monthly are the Instances' price per hour and per
	// HoursPerMonth.
	Hourly, Monthly float64
	// InputPerM and OutputPerM are, for inference, the cost of a million
	// prompt and generated tokens on the instances that run the serving
	// layout, at the expected speeds (0: unknown).
	InputPerM, OutputPerM float64
	// Job is, for training, the cost of the training compute at the MFU
	// on all the instances' GPUs (0: unknown, or no tokens given).
	Job float64
}

// Plan is what the calculator shows under its estimate.
type Plan struct {
	// Chosen are the offers of the reader's GPU, by billing mode, then
	// hourly cost.
	Chosen []OfferCost
	// Cheapest holds, per billing mode in order, the offer of another GPU
	// that runs the job's weight format with the lowest hourly cost.
	Cheapest []OfferCost
	// PerToken are, for inference, the PerTokenRows on-demand offers of
	// GPUs that run the format with the lowest cost per million generated
	// tokens.
	PerToken []OfferCost
	// Stale is how many offers the stale rule left out; Unsupported how
	// many GPUs with offers the weight format left out.
	Stale, Unsupported int
}

// place returns the instances of offer o that hold layout f: one when the
// instance has f.N GPUs or more, else ⌈f.N / GPUs⌉ when an instance holds
// whole tensor-parallel groups (tensor parallelism needs the GPUs of one
// node); 0 when it cannot.
func place(o Offer, f *Fit) int {
	switch {
	case f == nil || o.GPUs < 1:
		return 0
	case o.GPUs >= f.N:
		return 1
	case o.GPUs%f.TP != 0:
		return 0
	}
	return (f.N + o.GPUs - 1) / o.GPUs
}

// cost figures offer i for the job; ok is false when the job cannot run
// on it.
func (j *Job) cost(offers []Offer, i int) (OfferCost, bool) {
	o := offers[i]
	if o.GPU < 0 || o.GPU >= len(j.GPUs) || o.GPU >= len(j.Fits) {
		return OfferCost{}, false
	}
	f := j.Fits[o.GPU]
	n := place(o, f)
	if n == 0 || !(o.Price > 0) {
		return OfferCost{}, false
	}
	c := OfferCost{Offer: i, N: f.N, Instances: n}
	c.Hourly = finite(float64(n) * o.Price)
	c.Monthly = finite(c.Hourly * HoursPerMonth)
	g := j.GPUs[o.GPU]
	if j.Inference {
		if o.GPU < len(j.Serve) {
			if s := j.Serve[o.GPU]; s != nil {
				if k := place(o, s); k > 0 {
					replicas := float64((k * o.GPUs) / s.N)
					perHour := float64(k) * o.Price * 1e6 / 3600
					c.OutputPerM = perMillion(perHour, replicas*s.Result.ExpectedDecode)
					c.InputPerM = perMillion(perHour, replicas*s.Result.PrefillTokensPerSec)
				}
			}
		}
	} else if rate := trainRate(float64(n*o.GPUs), j.DType, g, j.MFU); j.TrainFLOPs > 0 && rate > 0 {
		// All the instances' GPUs train (see trainSeconds).
		c.Job = finite(j.TrainFLOPs / rate * max(j.Pipeline, 1) / 3600 * c.Hourly)
		if j.Rollout {
			// The layout's replicas generate for its GPUs; the
			// instances' GPUs hold proportionally more.
			r := f.Result.RolloutSeconds * float64(f.N) / float64(n*o.GPUs)
			c.Job = finite(c.Job + r/3600*c.Hourly)
			if r == 0 {
				c.Job = 0 // no completion length: unknown
			}
		}
	}
	return c, true
}

// perMillion is a cost per hour (× 10⁶ / 3600) over a rate in tokens/s.
func perMillion(perHour, tps float64) float64 {
	if !(tps > 0) {
		return 0
	}
	return finite(perHour / tps)
}

// before orders offer costs: by billing mode (byMode), else by the cost
// per million generated tokens (byOutput; equal but for rounding is a
// tie), else by hourly cost; then by hourly cost and offer index.
//
//go:noinline
func before(x, y OfferCost, offers []Offer, order int) bool {
	switch {
	case order == byMode && offers[x.Offer].Mode != offers[y.Offer].Mode:
		return offers[x.Offer].Mode < offers[y.Offer].Mode
	case order == byOutput && !same(x.OutputPerM, y.OutputPerM):
		return x.OutputPerM < y.OutputPerM
	case x.Hourly != y.Hourly:
		return x.Hourly < y.Hourly
	}
	return x.Offer < y.Offer
}

// same reports whether two costs are equal but for rounding (one part in
// 10⁹): eight replicas on an eight-GPU instance cost per token what one
// does on a one-GPU instance at an eighth of the price.
func same(x, y float64) bool { return math.Abs(x-y) <= 1e-9*math.Max(math.Abs(x), math.Abs(y)) }

// The orders of before.
const (
	byHourly = iota
	byMode
	byOutput
)

// sortCosts sorts xs in place by order (an insertion sort: the lists are
// short, and package sort would add its code to the WebAssembly build).
//
//go:noinline
func sortCosts(xs []OfferCost, offers []Offer, order int) {
	for i := 1; i < len(xs); i++ {
		for k := i; k > 0 && before(xs[k], xs[k-1], offers, order); k-- {
			xs[k], xs[k-1] = xs[k-1], xs[k]
		}
	}
}

// Plan prices the job on offers (in a fixed order, which breaks ties):
// every offer of the chosen GPU, the cheapest alternative per billing
// mode and, for inference, the offers with the lowest cost per million
// generated tokens. Alternatives and per-token rows leave out the chosen
// GPU's offers (Cheapest only), GPUs that do not run the weight format and,
// unless j.IncludeStale, stale prices.
func (j *Job) Plan(offers []Offer) Plan {
	var p Plan
	var modes [3]int
	var cheapest [3]OfferCost
	unsupported := make([]bool, len(j.GPUs))
	for i, o := range offers {
		if o.GPU < 0 || o.GPU >= len(j.GPUs) {
			continue
		}
		c, ok := j.cost(offers, i)
		if o.GPU == j.Chosen && ok {
			p.Chosen = append(p.Chosen, c)
		}
		switch {
		case !j.GPUs[o.GPU].Runs(j.DType):
			unsupported[o.GPU] = true
			continue
		case o.Stale && !j.IncludeStale:
			p.Stale++
			continue
		case !ok:
			continue
		}
		if m := o.Mode; o.GPU != j.Chosen && m >= 0 && m < len(modes) && (modes[m] == 0 || before(c, cheapest[m], offers, byHourly)) {
			modes[m], cheapest[m] = 1, c
		}
		if j.Inference && o.Mode == 0 && c.OutputPerM > 0 {
			p.PerToken = append(p.PerToken, c)
		}
	}
	sortCosts(p.Chosen, offers, byMode)
	sortCosts(p.PerToken, offers, byOutput)
	n := j.PerTokenRows
	if n == 0 {
		n = PerTokenRows
	}
	if n >= 0 && len(p.PerToken) > n {
		p.PerToken = p.PerToken[:n]
	}
	for m, ok := range modes {
		if ok != 0 {
			p.Cheapest = append(p.Cheapest, cheapest[m])
		}
	}
	for _, u := range unsupported {
		if u {
			p.Unsupported++
		}
	}
	return p
}
