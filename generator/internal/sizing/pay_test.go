package sizing

import (
	"math"
	"testing"
)

// payFixture: Qwen3-8B at 1 request/s of 1,000-token prompts and 200-token
// answers on H100s, priced by an 8-GPU instance on demand, committed and
// spot, a serverless H100 and two hosted APIs; each kind also has a stale
// price lower than the current one, which must be left out.
func payFixture() (Load, []GPU, []Offer, []Usage) {
	load := Load{Rate: 1, Prompt: 1000, Answer: 200}
	gpus := []GPU{h100}
	offers := []Offer{
		{GPU: 0, GPUs: 8, Mode: 0, Price: 24},
		{GPU: 0, GPUs: 8, Mode: 0, Price: 1, Stale: true},
		{GPU: 0, GPUs: 8, Mode: 1, Price: 16},
		{GPU: 0, GPUs: 8, Mode: 2, Price: 10},
	}
	usage := []Usage{
		{GPU: 0, PerSecond: 0.001},
		{GPU: 0, PerSecond: 0.0001, Stale: true},
		{GPU: -1, InputPerM: 0.2, OutputPerM: 0.4},
		{GPU: -1, InputPerM: 0.3, OutputPerM: 0.3},
		{GPU: -1, InputPerM: 0.01, OutputPerM: 0.01, Stale: true},
	}
	return load, gpus, offers, usage
}

func TestPayWays(t *testing.T) {
	load, gpus, offers, usage := payFixture()
	ways, ok := PayWays(qwen3_8b, 0, load, gpus, offers, usage, nil)
	if !ok {
		t.Fatal("load refused")
	}
	by := map[string]PayWay{}
	for i, w := range ways {
		by[w.Way] = w
		if i > 0 && w.Monthly < ways[i-1].Monthly {
			t.Errorf("not cheapest first: %s %.2f after %s %.2f", w.Way, w.Monthly, ways[i-1].Way, ways[i-1].Monthly)
		}
	}
	if len(by) != 5 {
		t.Fatalf("ways %v, want the five", ways)
	}
	perMonth := RequestsPerMonth(1)
	// Dedicated: the planner's layouts priced per mode, one instance.
	plans, _, _ := PlanServing(qwen3_8b, 0, load, gpus, offers[:1], nil)
	for _, c := range []struct {
		way    string
		hourly float64
		index  int
	}{{PayOnDemand, 24, 0}, {PayCommitted, 16, 2}, {PaySpot, 10, 3}} {
		w := by[c.way]
		if w.Index != c.index || math.Abs(w.Monthly-c.hourly*HoursPerMonth) > 1e-9 || w.Plan.Instances != plans[0].Instances {
			t.Errorf("%s: offer %d, %.2f a month, %d instances; want offer %d, %.2f, %d", c.way, w.Index, w.Monthly, w.Plan.Instances,
				c.index, c.hourly*HoursPerMonth, plans[0].Instances)
		}
	}
	// API: per token, the cheaper current one (0.2/0.4 costs 0.00028 a
	// request, 0.3/0.3 costs 0.00036); the stale one is left out.
	api := by[PayAPI]
	wantAPI := (1000*0.2 + 200*0.4) / 1e6
	if api.Index != 2 || math.Abs(api.PerRequest-wantAPI) > 1e-15 || math.Abs(api.Monthly-wantAPI*perMonth) > 1e-6 {
		t.Errorf("api: usage %d at %.6g a request, want usage 2 at %.6g", api.Index, api.PerRequest, wantAPI)
	}
	// Serverless: the GPU-seconds of a request on the leanest layout, at
	// the batch the load keeps busy (workerSeconds), not below the
	// planner's full batch.
	sv := by[PayServerless]
	wantSV := workerSeconds(qwen3_8b, load, h100, sv.Plan) * 0.001
	if full := float64(sv.Plan.TP) / sv.Plan.ReplicaRate * 0.001; wantSV < full*(1-1e-9) {
		t.Errorf("serverless at %.6g a request, below the full batch's %.6g", wantSV, full)
	}
	if sv.Index != 0 || math.Abs(sv.PerRequest/wantSV-1) > 1e-12 {
		t.Errorf("serverless: usage %d at %.6g a request, want usage 0 at %.6g", sv.Index, sv.PerRequest, wantSV)
	}
	// Break-evens: the rate from which an on-demand instance beats the
	// API, and the load share below which serverless beats it.
	od := by[PayOnDemand]
	unitRate := float64(8/od.Plan.TP) * od.Plan.ReplicaRate
	if r := 24 / (3600 * wantAPI); r <= unitRate {
		if math.Abs(od.BreakEven/r-1) > 1e-12 {
			t.Errorf("on-demand break-even %.4g req/s, want %.4g", od.BreakEven, r)
		}
	} else if od.BreakEven != 0 {
		t.Errorf("on-demand break-even %.4g req/s past the instance's %.4g", od.BreakEven, unitRate)
	}
	svUnit := float64(8/sv.Plan.TP) * sv.Plan.ReplicaRate
	if want := 24 / (3600 * svUnit) / sv.PerRequest; math.Abs(sv.BreakEven/want-1) > 1e-12 {
		t.Errorf("serverless break-even %.4g, want %.4g", sv.BreakEven, want)
	}
}

// TestPayWaysNoAnswer: an invalid load is refused; with no current price
// of a kind, that way is absent rather than priced from a stale figure.
func TestPayWaysNoAnswer(t *testing.T) {
	load, gpus, offers, usage := payFixture()
	for _, c := range []struct {
		name   string
		load   Load
		offers []Offer
		usage  []Usage
		ok     bool
		ways   []string
	}{
		{"rate zero", Load{Rate: 0, Prompt: 10, Answer: 10}, offers, usage, false, nil},
		{"no answer tokens", Load{Rate: 1, Prompt: 10}, offers, usage, false, nil},
		{"nothing current", load, []Offer{offers[1]}, []Usage{usage[1], usage[4]}, true, nil},
		{"an API only", load, nil, usage[2:3], true, []string{PayAPI}},
		{"on demand only", load, offers[:1], nil, true, []string{PayOnDemand}},
	} {
		ways, ok := PayWays(qwen3_8b, 0, c.load, gpus, c.offers, c.usage, nil)
		if ok != c.ok || len(ways) != len(c.ways) {
			t.Errorf("%s: ok %v, ways %v; want ok %v, %v", c.name, ok, ways, c.ok, c.ways)
			continue
		}
		for i, w := range ways {
			if w.Way != c.ways[i] {
				t.Errorf("%s: way %d is %s, want %s", c.name, i, w.Way, c.ways[i])
			}
			if w.Way == PayOnDemand && w.BreakEven != 0 {
				t.Errorf("%s: a break-even against no API: %v", c.name, w.BreakEven)
			}
		}
	}
}

// TestIdleSeconds: the billed idle GPU-seconds per request, against
// figures worked by hand from the formula's parts, and its limits.
func TestIdleSeconds(t *testing.T) {
	for _, c := range []struct {
		name                string
		rate, secs, timeout float64
		tp                  int
		want                float64
	}{
		// One request every 20 s, 2 GPU-seconds of work each on one GPU,
		// a 5 s timeout: busy 10% of the time; after each busy spell the
		// worker waits min(gap, 5 s), 20·(1−e^(−0.25)) = 4.4240 s on
		// average; 0.9 of a spell's end per request: 3.9816 s.
		{"sparse", 0.05, 2, 5, 1, 0.9 * 20 * (1 - math.Exp(-0.25))},
		// The same on a TP2 layout: twice the GPUs idle, busy half as long.
		{"tp2", 0.05, 2, 5, 2, 2 * 0.95 * 20 * (1 - math.Exp(-0.25))},
		// Busy requests close together: gaps rarely reach the timeout.
		{"dense", 10, 0.05, 5, 1, 0.5 * (1 - math.Exp(-50)) / 10},
		{"never idle", 10, 0.1, 5, 1, 0},
		{"overloaded", 10, 0.5, 5, 1, 0},
		{"no timeout documented", 0.05, 2, 0, 1, 0},
		{"no requests", 0, 2, 5, 2, 10},
	} {
		got := idleSeconds(c.rate, c.secs, c.tp, c.timeout)
		if math.Abs(got-c.want) > 1e-12*math.Max(1, c.want) {
			t.Errorf("%s: idleSeconds(%v, %v, %d, %v) = %.10g, want %.10g", c.name, c.rate, c.secs, c.tp, c.timeout, got, c.want)
		}
	}
}

// TestPayWaysIdle: a serverless price with an idle timeout costs a
// request its work and the idle wait that follows (PayWay.IdleSeconds),
// so a sparse load pays for more than its work.
func TestPayWaysIdle(t *testing.T) {
	load, gpus, offers, usage := payFixture()
	load.Rate = 0.05
	usage[0].IdleSeconds = 5
	ways, ok := PayWays(qwen3_8b, 0, load, gpus, offers, usage, nil)
	if !ok {
		t.Fatal("load refused")
	}
	for _, w := range ways {
		if w.Way != PayServerless {
			if w.IdleSeconds != 0 {
				t.Errorf("%s has %.3g idle seconds", w.Way, w.IdleSeconds)
			}
			continue
		}
		work := workerSeconds(qwen3_8b, load, h100, w.Plan)
		idle := idleSeconds(load.Rate, work, w.Plan.TP, 5)
		if !(idle > 0) || math.Abs(w.IdleSeconds/idle-1) > 1e-12 || math.Abs(w.PerRequest/((work+idle)*0.001)-1) > 1e-9 {
			t.Errorf("serverless: %.4g idle GPU-s, %.6g a request; want %.4g idle and %.6g", w.IdleSeconds, w.PerRequest, idle, (work+idle)*0.001)
		}
		return
	}
	t.Fatal("no serverless way")
}

// TestBreakEven: the sentence and figure each way's break-even gets.
func TestBreakEven(t *testing.T) {
	api := PayWay{Way: PayAPI}
	for _, tc := range []struct {
		name        string
		w           PayWay
		others      []PayWay
		key, figure string
	}{
		{"dedicated, rounded to three figures", PayWay{Way: PayOnDemand, BreakEven: 1.0234}, []PayWay{api}, BreakEvenDedicated, "88,400"},
		{"committed, small rate", PayWay{Way: PayCommitted, BreakEven: 0.05}, []PayWay{api}, BreakEvenDedicated, "4,320"},
		{"dedicated, under a request a day", PayWay{Way: PayOnDemand, BreakEven: 1e-6}, []PayWay{api}, BreakEvenDedicated, "1"},
		{"dedicated, a large rate", PayWay{Way: PayOnDemand, BreakEven: 123.456}, []PayWay{api}, BreakEvenDedicated, "10,700,000"},
		{"spot, never within capacity", PayWay{Way: PaySpot}, []PayWay{api}, BreakEvenNever, ""},
		{"dedicated without an API", PayWay{Way: PayOnDemand, BreakEven: 1}, nil, "", ""},
		{"serverless share", PayWay{Way: PayServerless, BreakEven: 0.514}, []PayWay{api}, BreakEvenShare, "51"},
		{"serverless at any load", PayWay{Way: PayServerless, BreakEven: 1.7}, nil, BreakEvenAlways, ""},
		{"serverless without on-demand", PayWay{Way: PayServerless}, nil, "", ""},
		{"API", api, nil, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ways := append([]PayWay{tc.w}, tc.others...)
			if key, fig := BreakEven(tc.w, ways); key != tc.key || fig != tc.figure {
				t.Errorf("BreakEven = %q %q, want %q %q", key, fig, tc.key, tc.figure)
			}
		})
	}
}
