package sizing

import "math"

// Load is a serving workload with its latency targets.
type Load struct {
	_ noCompare
	// Rate is the requests per second to serve.
	Rate float64
	// Prompt and Answer are the tokens of one request's prompt and answer.
	Prompt, Answer int
	// TTFT and TPOT are the targets, in seconds, for the time to first
	// token and the time per output token (0: none).
	TTFT, TPOT float64
}

// ServePlan is the cheapest way found to serve a Load on one GPU type:
// Replicas copies of the model, each on TP GPUs of one instance, each
// decoding Batch sequences at once.
type ServePlan struct {
	_ noCompare
	// GPU is the index of the GPU in PlanServing's gpus.
	GPU int
	// DType, Quant and KVDType are the formats (KVDType the 16-bit one
	// the GPU computes in).
	DType   DType
	Quant   Quant
	KVDType DType
	// TP is a replica's tensor-parallel degree, Batch its concurrent
	// sequences, Replicas the copies, GPUs = Replicas·TP.
	TP, Batch, Replicas, GPUs int
	// TTFT and TPOT are the expected time to first token of a request
	// and the time per output token at Batch, seconds. The TTFT is one
	// prompt's on its own plus the wait for the decode step running when
	// it arrives, half a TPOT on average (see QueueSeconds).
	TTFT, TPOT float64
	// ReplicaRate is the requests per second one replica serves at Batch
	// (its prompts' prefill and its answers' decode, one after the other),
	// Utilization the Load's share of what the replicas serve: 1 −
	// Utilization is the headroom for bursts, which the TTFT (with the
	// wait for a running step, not for a queue of requests) does not
	// account for.
	ReplicaRate, Utilization float64
	// Offer is the index of the current on-demand offer that prices the
	// plan most cheaply, Instances how many of its instances hold the
	// replicas, Hourly their price per hour.
	Offer, Instances int
	Hourly           float64
	// InputPerM and OutputPerM split the plan's cost per request (Hourly
	// over an hour's requests at Load.Rate, idle headroom included) by
	// the GPU time a request's prefill and decode take: the cost of a
	// million prompt and a million answer tokens.
	InputPerM, OutputPerM float64
}

// PlanMiss says why a GPU has no plan, in PlanServing's order: it does not
// hold one sequence on up to MaxNodeTP GPUs of one instance (MissFit), its
// speed is not known (MissSpeed: no memory bandwidth or FLOP/s), or
// its best time to first token or time per output token over every layout
// and format, Best (seconds), misses the target (MissTTFT, MissTPOT), or
// no current on-demand offer holds a replica (MissOffer; Best is then the
// GPUs the cheapest layout needs).
type PlanMiss struct {
	_      noCompare
	GPU    int
	Reason string
	Best   float64
}

// The reasons of PlanMiss.
const (
	MissFit   = "fit"
	MissSpeed = "speed"
	MissTTFT  = "ttft"
	MissTPOT  = "tpot"
	MissOffer = "offer"
)

// PlanServing finds, for each of gpus, the cheapest plan that serves load
// with model m (of at most maxContext tokens; 0: no limit), priced from
// offers: on-demand (Mode 0) and not stale only. For each weight format of
// formats the GPU runs (nil: 16-bit, fp8 and int8, the formats that keep
// a model's quality), each tensor-parallel degree up to MaxNodeTP that
// divides the heads, a replica decodes the most sequences whose time per
// output token meets the target and that memory holds (at most
// FitMaxConcurrency); replicas are added until they serve load.Rate; each
// offer whose instances hold whole replicas prices it, and the cheapest
// hour wins (then the more precise format, then fewer GPUs). Plans come
// cheapest first; a GPU without one is in misses with the reason. ok is
// false when load is invalid (a rate, prompt or answer that is not
// positive, a target that is negative) or longer than maxContext.
func PlanServing(m Model, maxContext int, load Load, gpus []GPU, offers []Offer, formats []DType) (plans []ServePlan, misses []PlanMiss, ok bool) {
	if !loadOK(m, maxContext, load) {
		return nil, nil, false
	}
	if formats == nil {
		formats = []DType{BF16, FP8, INT8}
	}
	for gi, g := range gpus {
		if g.Validate() != nil {
			continue
		}
		layouts, miss := planGPU(m, load, g, formats)
		if miss.Reason != "" {
			miss.GPU = gi
			misses = append(misses, miss)
			continue
		}
		var best ServePlan
		priced := false
		fewest := layouts[0].GPUs
		for _, p := range layouts {
			fewest = min(fewest, p.GPUs)
			p.GPU = gi
			if priceMode(&p, load, offers, 0) && (!priced || p.Hourly < best.Hourly) {
				best, priced = p, true
			}
		}
		if !priced {
			misses = append(misses, PlanMiss{GPU: gi, Reason: MissOffer, Best: float64(fewest)})
			continue
		}
		plans = append(plans, best)
	}
	// Cheapest first (an insertion sort: few GPUs, and package sort
	// would add its code to the WebAssembly build).
	for i := 1; i < len(plans); i++ {
		for k := i; k > 0 && plans[k].Hourly < plans[k-1].Hourly; k-- {
			plans[k], plans[k-1] = plans[k-1], plans[k]
		}
	}
	return plans, misses, true
}

// loadOK reports whether load is one PlanServing and PayWays take: a
// valid model, a positive rate up to MaxRate, a prompt and an answer of at
// least one token within maxContext (0: no limit), targets not negative.
func loadOK(m Model, maxContext int, load Load) bool {
	return m.Validate() == nil && load.Rate > 0 && load.Rate <= MaxRate && load.Prompt >= 1 && load.Answer >= 1 &&
		load.Prompt+load.Answer <= MaxSeqLen && load.TTFT >= 0 && load.TPOT >= 0 && (maxContext <= 0 || load.Prompt+load.Answer <= maxContext)
}

// MaxRate is the largest request rate PlanServing takes (requests/s).
const MaxRate = 1e6

// DefaultLoad is the load the calculator plans for until the reader sets
// one: a chat service of 20 requests/s with 2,000-token prompts (a system
// prompt and some history) and 300-token answers, a first token within a
// second and 30 ms per output token (about 33 tokens/s, faster than one
// reads). The sizing guide's worked example plans the same load.
func DefaultLoad() Load { return Load{Rate: 20, Prompt: 2000, Answer: 300, TTFT: 1, TPOT: 0.030} }

// planGPU returns the layouts of g that serve load within its targets,
// most precise format first, then by tensor-parallel degree, or why there
// is none.
func planGPU(m Model, load Load, g GPU, formats []DType) ([]ServePlan, PlanMiss) {
	half := g.halfFormat()
	var out []ServePlan
	fits := false
	bestTTFT, bestTPOT := math.Inf(1), math.Inf(1)
	for _, d := range formats {
		if d == BF16 || d == FP16 {
			d = half
		}
		if !g.Runs(d) {
			continue
		}
		for tp := 1; tp <= MaxNodeTP; tp *= 2 {
			if m.Heads%tp != 0 || !kvCompatible(m.kvHeads(), tp) {
				continue
			}
			p, ok := planLayout(serveInput(m, load, d, half, tp), g, load, &bestTTFT, &bestTPOT)
			if p.Batch > 0 || ok {
				fits = true
			}
			if ok {
				out = append(out, p)
			}
		}
	}
	switch {
	case len(out) > 0:
		return out, PlanMiss{}
	case !fits:
		return nil, PlanMiss{Reason: MissFit}
	case math.IsInf(bestTTFT, 1):
		return nil, PlanMiss{Reason: MissSpeed}
	case load.TTFT > 0 && bestTTFT > load.TTFT:
		return nil, PlanMiss{Reason: MissTTFT, Best: bestTTFT}
	}
	return nil, PlanMiss{Reason: MissTPOT, Best: bestTPOT}
}

// serveInput is the input of a serving layout: weights in d (AWQ for
// int4), the KV cache in kv, one replica on tp GPUs, load's requests.
func serveInput(m Model, load Load, d, kv DType, tp int) Input {
	in := DefaultInput(m)
	in.DType, in.KVDType, in.Quant = d, kv, ""
	if d == INT4 {
		in.Quant = AWQ
	}
	in.GPUs, in.TP, in.PP = tp, tp, 1
	in.SeqLen, in.PromptLen, in.OutputLen = load.Prompt+load.Answer, load.Prompt, load.Answer
	return in
}

// planLayout sizes one layout: the largest batch that meets the TPOT
// target, and the replicas that serve the rate. Batch is set when one
// sequence fits (whether or not the targets are met); ok says they are.
// It lowers *ttft and *tpot to the layout's batch-1 figures.
func planLayout(in Input, g GPU, load Load, ttft, tpot *float64) (ServePlan, bool) {
	p := ServePlan{DType: in.DType, Quant: in.Quant, KVDType: in.KVDType, TP: in.TP}
	bmax := LargestBatch(in, g, FitMaxConcurrency)
	if bmax == 0 {
		return p, false
	}
	p.Batch = 1
	at := func(b int) (Result, float64, bool) {
		c := in
		c.Batch = b
		r, err := Estimate(c, &g)
		if err != nil || !(r.ExpectedDecode > 0) {
			return r, 0, false
		}
		return r, float64(b) / r.ExpectedDecode, true
	}
	r1, t1, ok := at(1)
	if !ok || !(r1.ExpectedTTFT > 0) {
		return p, false // the GPU's speed is not known
	}
	// A request waits for the step running when it arrives: the larger
	// the batch, the longer (QueueSeconds).
	meets := func(t float64) bool {
		return (load.TTFT == 0 || r1.ExpectedTTFT+QueueSeconds(t) <= load.TTFT) && (load.TPOT == 0 || t <= load.TPOT)
	}
	*ttft, *tpot = math.Min(*ttft, r1.ExpectedTTFT+QueueSeconds(t1)), math.Min(*tpot, t1)
	if !meets(t1) {
		return p, false
	}
	lo, hi := 1, bmax
	if load.TPOT > 0 || load.TTFT > 0 {
		for lo < hi {
			mid := lo + (hi-lo+1)/2
			if _, t, ok := at(mid); ok && meets(t) {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
	} else {
		lo = bmax
	}
	r, t, _ := at(lo)
	p.Batch, p.TTFT, p.TPOT = lo, r1.ExpectedTTFT+QueueSeconds(t), t
	p.ReplicaRate = r.ExpectedThroughput / float64(load.Answer)
	if !(p.ReplicaRate > 0) {
		return p, false
	}
	p.Replicas = int(math.Ceil(load.Rate / p.ReplicaRate))
	p.GPUs = p.Replicas * p.TP
	p.Utilization = load.Rate / (float64(p.Replicas) * p.ReplicaRate)
	// The cost split: a batch's prefill time against its decode time.
	if r.PrefillTokensPerSec > 0 {
		pre := float64(lo*load.Prompt) / r.PrefillTokensPerSec
		dec := float64(lo*load.Answer) / r.ExpectedDecode
		p.InputPerM = pre / (pre + dec) // a share until price sets the cost
	}
	return p, true
}

// QueueSeconds is the mean wait of a request for the decode step of
// tpot seconds that its replica is running when it arrives: half a step.
// Serving engines schedule at step boundaries (iteration-level
// scheduling: Yu et al., "Orca", OSDI 2022; vLLM's and TensorRT-LLM's
// in-flight batching), so a prompt that arrives at a uniformly random
// moment of a step starts when that step ends. A derivation, not a fitted
// figure; it leaves out queues of prompts waiting for one another, which
// the utilization's headroom is for.
func QueueSeconds(tpot float64) float64 { return tpot / 2 }

// TTFTUnderLoad is the expected time to first token of a request to a
// replica of in (PromptLen prompts, OutputLen answers) on g serving rate
// requests/s: the prompt's own (Result.ExpectedTTFT at batch 1) plus
// QueueSeconds of the decode step at the replica's concurrency, which
// Little's law gives as rate × the time a request stays (its TTFT and
// OutputLen steps), found by fixed-point iteration from one sequence.
// Zero when the estimate has no speed (an unknown GPU figure).
func TTFTUnderLoad(in Input, g GPU, rate float64) float64 {
	one := in
	one.Batch = 1
	r, err := Estimate(one, &g)
	if err != nil || !(r.ExpectedTTFT > 0) || !(rate > 0) {
		return 0
	}
	step := func(n float64) float64 {
		c := in
		c.Batch = int(math.Min(math.Max(math.Ceil(n), 1), MaxBatch))
		x, err := Estimate(c, &g)
		if err != nil || !(x.ExpectedDecode > 0) {
			return 0
		}
		return float64(c.Batch) / x.ExpectedDecode
	}
	t := step(1)
	for range 8 {
		t = step(rate * (r.ExpectedTTFT + float64(in.OutputLen)*t))
	}
	return finite(r.ExpectedTTFT + QueueSeconds(t))
}

// priceMode picks the current offer of billing mode (Offer.Mode: 0 on
// demand) of p's GPU whose instances hold p's replicas (each instance
// whole replicas of TP GPUs) for the least per hour, and sets the costs;
// false when none does.
func priceMode(p *ServePlan, load Load, offers []Offer, mode int) bool {
	share := p.InputPerM
	p.Offer = -1
	for i, o := range offers {
		if o.GPU != p.GPU || o.Mode != mode || o.Stale || !(o.Price > 0) || o.GPUs < p.TP {
			continue
		}
		per := o.GPUs / p.TP
		n := (p.Replicas + per - 1) / per
		if h := float64(n) * o.Price; p.Offer < 0 || h < p.Hourly {
			p.Offer, p.Instances, p.Hourly = i, n, finite(h)
		}
	}
	if p.Offer < 0 {
		p.InputPerM = 0
		return false
	}
	perRequest := p.Hourly / (3600 * load.Rate)
	p.InputPerM = finite(perRequest * share / float64(load.Prompt) * 1e6)
	p.OutputPerM = finite(perRequest * (1 - share) / float64(load.Answer) * 1e6)
	return true
}
