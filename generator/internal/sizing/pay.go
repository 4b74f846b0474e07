package sizing

import (
	"math"
	"strconv"
)

// Four ways to pay for serving a Load: dedicated GPUs priced by the hour
// (on demand, committed or spot: Offer.Mode 0, 1, 2), serverless GPUs
// billed per GPU-second of work, and a hosted API of the same model billed
// per token.

// The ways of PayWay.Way.
const (
	PayOnDemand   = "on-demand"
	PayCommitted  = "committed"
	PaySpot       = "spot"
	PayServerless = "serverless"
	PayAPI        = "api"
)

// payModes are the dedicated ways by Offer.Mode.
var payModes = [...]string{PayOnDemand, PayCommitted, PaySpot}

// Usage is a usage-priced offer in the offers' currency: a serverless GPU
// (GPU ≥ 0, the index in the GPUs; PerSecond per GPU-second; IdleSeconds
// the billed idle timeout after a worker's last request, 0 where none is
// documented) or a hosted API of the model (GPU −1; InputPerM and
// OutputPerM per million prompt and answer tokens). A stale price is left
// out, as a stale offer is.
type Usage struct {
	GPU                   int
	PerSecond             float64
	IdleSeconds           float64
	InputPerM, OutputPerM float64
	Stale                 bool
}

// PayWay is the cheapest way found of one kind to pay for a Load.
type PayWay struct {
	Way string
	// GPU is the GPU's index (−1 for an API); Index the offer (dedicated
	// ways) or the usage price (serverless, API) that prices it.
	GPU, Index int
	// Plan is the layout: the dedicated replicas, or for serverless the
	// layout a worker runs (its format and TP), the one needing the fewest
	// GPU-seconds per request at the batch the load keeps it busy with
	// (workerSeconds; Plan.Batch is the most the targets allow).
	Plan ServePlan
	// Monthly is the cost of HoursPerMonth hours at Load.Rate, PerRequest
	// one request's.
	Monthly, PerRequest float64
	// IdleSeconds is, for serverless, the GPU-seconds per request billed
	// while the worker waits out its idle timeout (idleSeconds), included
	// in Monthly.
	IdleSeconds float64
	// BreakEven compares the way with the others:
	//   - dedicated: the request rate from which one instance of its offer
	//     costs less than the cheapest API (0: not within the instance's
	//     capacity, or no API);
	//   - serverless: the share of an on-demand instance's capacity of the
	//     same GPU below which serverless costs less (1 or more: at any
	//     load; 0: no on-demand offer of the GPU).
	BreakEven float64
}

// RequestsPerMonth is the requests of HoursPerMonth hours at rate.
func RequestsPerMonth(rate float64) float64 { return rate * 3600 * HoursPerMonth }

// PayWays finds, for serving load with model m on gpus, the cheapest way
// of each kind: the dedicated layouts of PlanServing priced on the
// current on-demand, committed and spot offers; serverless GPUs at the
// GPU-seconds per request of the GPU's most efficient layout at the batch
// the load keeps a worker busy with (workerSeconds); the hosted APIs'
// prices per token. Serverless adds the idle timeout a worker is billed
// for after its last request (idleSeconds), where the platform documents
// it, and is figured without cold starts; spot without interruptions. The ways come cheapest first; ok is false when
// the load is invalid (see PlanServing).
func PayWays(m Model, maxContext int, load Load, gpus []GPU, offers []Offer, usage []Usage, formats []DType) (ways []PayWay, ok bool) {
	if !loadOK(m, maxContext, load) {
		return nil, false
	}
	if formats == nil {
		formats = []DType{BF16, FP8, INT8}
	}
	perMonth := RequestsPerMonth(load.Rate)
	var best [5]PayWay // by way: the modes, serverless, API
	for i := range best {
		best[i].Index = -1
	}
	keep := func(k int, w PayWay) {
		w.Monthly = finite(w.Monthly)
		w.PerRequest = finite(w.Monthly / perMonth)
		if best[k].Index < 0 || w.Monthly < best[k].Monthly {
			best[k] = w
		}
	}
	for gi, g := range gpus {
		if g.Validate() != nil {
			continue
		}
		layouts, miss := planGPU(m, load, g, formats)
		if miss.Reason != "" {
			continue
		}
		for mode, way := range payModes {
			for _, p := range layouts {
				p.GPU = gi
				if priceMode(&p, load, offers, mode) {
					keep(mode, PayWay{Way: way, GPU: gi, Index: p.Offer, Plan: p, Monthly: p.Hourly * HoursPerMonth})
				}
			}
		}
		// Serverless: the layout needing the fewest GPU-seconds per
		// request at the batch the load keeps a worker busy with.
		lean, leanSecs := ServePlan{}, math.Inf(1)
		for _, p := range layouts {
			if secs := workerSeconds(m, load, g, p); secs < leanSecs {
				lean, leanSecs = p, secs
			}
		}
		lean.GPU = gi
		for ui, u := range usage {
			if u.GPU == gi && !u.Stale && u.PerSecond > 0 && leanSecs < math.Inf(1) {
				idle := idleSeconds(load.Rate, leanSecs, lean.TP, u.IdleSeconds)
				keep(3, PayWay{Way: PayServerless, GPU: gi, Index: ui, Plan: lean, IdleSeconds: idle, Monthly: (leanSecs + idle) * u.PerSecond * perMonth})
			}
		}
	}
	for ui, u := range usage {
		if u.GPU < 0 && !u.Stale && u.InputPerM > 0 && u.OutputPerM > 0 {
			c := (float64(load.Prompt)*u.InputPerM + float64(load.Answer)*u.OutputPerM) / 1e6
			keep(4, PayWay{Way: PayAPI, GPU: -1, Index: ui, Monthly: c * perMonth})
		}
	}
	for k := range best {
		w := best[k]
		if w.Index < 0 {
			continue
		}
		switch {
		case k < 3 && best[4].Index >= 0:
			w.BreakEven = dedicatedBreakEven(w, offers, best[4].PerRequest)
		case k == 3:
			w.BreakEven = serverlessBreakEven(w, offers)
		}
		ways = append(ways, w)
	}
	for i := 1; i < len(ways); i++ { // cheapest first
		for k := i; k > 0 && ways[k].Monthly < ways[k-1].Monthly; k-- {
			ways[k], ways[k-1] = ways[k-1], ways[k]
		}
	}
	return ways, true
}

// workerSeconds is the GPU-seconds one request takes on a serverless
// worker of layout p on g: the worker serves the requests in flight at
// once, by Little's law the rate times a request's latency (its time to
// first token and its answer's decode at that batch), at least one and
// at most the layout's batch; a few rounds settle the batch and its
// latency. +Inf when the speed is unknown.
func workerSeconds(m Model, load Load, g GPU, p ServePlan) float64 {
	in := serveInput(m, load, p.DType, p.KVDType, p.TP)
	b, secs := 1, math.Inf(1)
	for range 4 {
		in.Batch = b
		r, err := Estimate(in, &g)
		if err != nil || !(r.ExpectedThroughput > 0) || !(r.ExpectedDecode > 0) {
			return math.Inf(1)
		}
		secs = float64(p.TP) * float64(load.Answer) / r.ExpectedThroughput
		latency := r.ExpectedTTFT + float64(load.Answer)*float64(b)/r.ExpectedDecode
		next := min(max(int(math.Ceil(load.Rate*latency)), 1), p.Batch)
		if next == b {
			break
		}
		b = next
	}
	return secs
}

// idleSeconds is the GPU-seconds per request a serverless worker of tp
// GPUs is billed while idle, with requests arriving at random (Poisson)
// at rate per second, each keeping the worker busy secs GPU-seconds, and
// an idle timeout of timeout seconds. The worker is busy a share
// u = rate·secs/tp of the time; a busy spell ends rate·(1−u) times a
// second (as in an M/G/1 queue), and each end is followed by an idle wait
// of min(gap, timeout), the gap to the next request being exponential:
// on average (1 − e^(−rate·timeout))/rate. Per request that is
// tp·(1−u)·(1 − e^(−rate·timeout))/rate; with no requests, the whole
// timeout. 0 when the worker is never idle (u ≥ 1) or has no timeout.
func idleSeconds(rate, secs float64, tp int, timeout float64) float64 {
	if !(timeout > 0) || tp < 1 {
		return 0
	}
	if !(rate > 0) {
		return float64(tp) * timeout
	}
	u := rate * secs / float64(tp)
	if u >= 1 {
		return 0
	}
	return float64(tp) * (1 - u) * -math.Expm1(-rate*timeout) / rate
}

// unit is one instance of offer o holding replicas of layout p: its price
// per hour and the requests per second its replicas serve.
func unit(p ServePlan, o Offer) (hourly, rate float64) {
	return o.Price, float64(o.GPUs/p.TP) * p.ReplicaRate
}

// dedicatedBreakEven is the request rate from which one instance of w's
// offer costs less per month than requests at perRequest each: its hourly
// price over an hour's requests; 0 when that rate is more than the
// instance serves.
func dedicatedBreakEven(w PayWay, offers []Offer, perRequest float64) float64 {
	hourly, rate := unit(w.Plan, offers[w.Index])
	if !(perRequest > 0) {
		return 0
	}
	if r := hourly / (3600 * perRequest); r <= rate {
		return finite(r)
	}
	return 0
}

// serverlessBreakEven is the share of its capacity below which an
// on-demand instance of the serverless way's GPU costs more than the same
// requests served serverless: the cheapest on-demand instance's cost per
// hour over what the same requests cost serverless in an hour at full
// load. 0 when no current on-demand offer of the GPU holds the layout.
func serverlessBreakEven(w PayWay, offers []Offer) float64 {
	perRequest := w.PerRequest
	cheapest := math.Inf(1)
	for _, o := range offers {
		if o.GPU != w.GPU || o.Mode != 0 || o.Stale || !(o.Price > 0) || o.GPUs < w.Plan.TP {
			continue
		}
		hourly, rate := unit(w.Plan, o)
		if rate > 0 {
			cheapest = math.Min(cheapest, hourly/(3600*rate))
		}
	}
	if math.IsInf(cheapest, 1) || !(perRequest > 0) {
		return 0
	}
	return finite(cheapest / perRequest)
}

// The sentences of BreakEven, keys of the UI catalogs (with "pay.be.").
const (
	BreakEvenDedicated = "dedicated"         // {0} the way; {1} requests a day
	BreakEvenNever     = "never"             // {0} the way
	BreakEvenShare     = "serverless"        // {0} the way; {1} the share in percent
	BreakEvenAlways    = "serverless.always" // {0} the way
)

// BreakEven says where w wins against the other ways (all the ways
// found, PayWays): the key of the sentence (BreakEvenDedicated, ...) and
// its figure as the pages write it (requests a day to three significant
// figures, "88,400"; a share in percent, "51"), or "" when there is
// nothing to say (an API, or a dedicated way with no API to compare with).
func BreakEven(w PayWay, ways []PayWay) (key, figure string) {
	switch w.Way {
	case PayServerless:
		switch {
		case w.BreakEven >= 1:
			return BreakEvenAlways, ""
		case w.BreakEven > 0:
			return BreakEvenShare, strconv.Itoa(int(w.BreakEven*100 + 0.5))
		}
	case PayOnDemand, PayCommitted, PaySpot:
		api := false
		for _, x := range ways {
			api = api || x.Way == PayAPI
		}
		switch {
		case !api:
		case w.BreakEven > 0:
			return BreakEvenDedicated, Group(perDay(w.BreakEven))
		default:
			return BreakEvenNever, ""
		}
	}
	return "", ""
}

// perDay is a rate in requests/s as requests a day to three significant
// figures (as Round3, without math.Pow, which would add 8 kB to the
// WebAssembly module that words break-evens), at least 1.
func perDay(rate float64) int {
	x, p := rate*86400, 1.0
	for x/p >= 1000 {
		p *= 10
	}
	return max(1, int(math.Round(x/p)*p))
}
