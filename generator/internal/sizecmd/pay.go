package sizecmd

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

// payNames are the ways to pay as the text report names them.
var payNames = map[string]string{
	sizing.PayOnDemand: "dedicated, on demand", sizing.PayCommitted: "dedicated, committed", sizing.PaySpot: "dedicated, spot",
	sizing.PayServerless: "serverless GPU", sizing.PayAPI: "hosted API",
}

// jsonPay is -pay -json's output.
type jsonPay struct {
	Model  jsonModel `json:"model"`
	Rate   float64   `json:"rate"`
	Prompt int       `json:"prompt"`
	Output int       `json:"output"`
	TTFTMs float64   `json:"ttft_ms"`
	TPOTMs float64   `json:"tpot_ms"`
	// RequestsPerMonth is the load over 730 hours.
	RequestsPerMonth float64   `json:"requests_per_month"`
	Ways             []jsonWay `json:"ways"`
}

// jsonWay is one way to pay (sizing.PayWay), in USD.
type jsonWay struct {
	Way           string  `json:"way"`
	USDPerMonth   float64 `json:"usd_per_month"`
	USDPerRequest float64 `json:"usd_per_request"`
	// Offer and Instances: a dedicated way's offer; Platform and ServedAs
	// a usage price's.
	Offer     string `json:"offer,omitempty"`
	Instances int    `json:"instances,omitempty"`
	Platform  string `json:"platform,omitempty"`
	ServedAs  string `json:"served_as,omitempty"`
	GPU       string `json:"gpu,omitempty"`
	TP        int    `json:"tp,omitempty"`
	AsOf      string `json:"as_of"`
	// BreakEvenRate (dedicated): the requests/s from which one instance
	// costs less than the cheapest API, null when never or no API.
	// BreakEvenLoad (serverless): the share of an on-demand instance's
	// capacity below which serverless costs less (1 or more: always).
	BreakEvenRate *float64 `json:"break_even_rate,omitempty"`
	BreakEvenLoad *float64 `json:"break_even_load,omitempty"`
	// IdleTimeout (serverless): the platform's documented idle timeout in
	// seconds, null where it documents none; IdleSecondsPerRequest the
	// GPU-seconds of it each request pays for on average (sizing.PayWay).
	IdleTimeout           *float64 `json:"idle_timeout_seconds,omitempty"`
	IdleSecondsPerRequest *float64 `json:"idle_gpu_seconds_per_request,omitempty"`
}

// runPay prints the cheapest way of each kind to pay for the load
// (sizing.PayWays) and where each wins.
func runPay(cfg config, gpus []sizing.GPU, offers []Offer, usage []UsageOffer, stdout, stderr io.Writer) int {
	gpus, at, so, from := planned(cfg, gpus, offers)
	var use []sizing.Usage
	var uses []UsageOffer
	for _, u := range usage {
		switch i, ok := at[u.GPU]; {
		case u.Model != "" && u.Model == cfg.modelID:
			use = append(use, sizing.Usage{GPU: -1, InputPerM: u.InputPerM, OutputPerM: u.OutputPerM})
		case u.GPU != "" && ok:
			use = append(use, sizing.Usage{GPU: i, PerSecond: u.PerSecond, IdleSeconds: u.IdleSeconds})
		default:
			continue
		}
		uses = append(uses, u)
	}
	l := cfg.load
	ways, ok := sizing.PayWays(cfg.in.Model, cfg.maxContext, l, gpus, so, use, cfg.formats)
	if !ok {
		fmt.Fprintln(stderr, "size: the load cannot be planned (check -rate, -prompt, -output, -ttft and -tpot)")
		return ExitUsage
	}
	out := jsonPay{Model: jsonModel{ID: cfg.modelID, Model: cfg.in.Model}, Rate: l.Rate, Prompt: l.Prompt, Output: l.Answer,
		TTFTMs: l.TTFT * 1000, TPOTMs: l.TPOT * 1000, RequestsPerMonth: sizing.RequestsPerMonth(l.Rate), Ways: []jsonWay{}}
	for _, w := range ways {
		j := jsonWay{Way: w.Way, USDPerMonth: sig(w.Monthly), USDPerRequest: sig(w.PerRequest)}
		if w.GPU >= 0 {
			j.GPU, j.TP = gpus[w.GPU].ID, w.Plan.TP
		}
		be := sig(w.BreakEven)
		switch w.Way {
		case sizing.PayServerless, sizing.PayAPI:
			u := uses[w.Index]
			j.Platform, j.ServedAs, j.AsOf = u.Platform, u.ServedAs, u.AsOf
			if w.Way == sizing.PayServerless && w.BreakEven > 0 {
				j.BreakEvenLoad = &be
			}
			if w.Way == sizing.PayServerless && u.IdleSeconds > 0 {
				t, idle := u.IdleSeconds, sig(w.IdleSeconds)
				j.IdleTimeout, j.IdleSecondsPerRequest = &t, &idle
			}
		default:
			o := from[w.Index]
			j.Offer, j.Instances, j.AsOf = o.ID, w.Plan.Instances, o.AsOf
			if w.BreakEven > 0 {
				j.BreakEvenRate = &be
			}
		}
		out.Ways = append(out.Ways, j)
	}
	if cfg.json {
		return writeJSON(stdout, stderr, out)
	}
	writePay(stdout, out, ways)
	return 0
}

// writePay prints the ways to pay (out, from ways) as text: the table,
// cheapest first, and where each wins.
func writePay(stdout io.Writer, out jsonPay, ways []sizing.PayWay) {
	l := out
	fmt.Fprintf(stdout, "Serving %s requests/s of %s-token prompts and %s-token answers (%s requests a month of 730 hours).\n",
		strconv.FormatFloat(l.Rate, 'g', -1, 64), sizing.Group(l.Prompt), sizing.Group(l.Output), sizing.Group(int(math.Round(out.RequestsPerMonth))))
	if len(ways) == 0 {
		fmt.Fprintln(stdout, "\nNo current price of any kind holds this load: no dedicated offer, serverless GPU or hosted API of the model is current.")
		return
	}
	fmt.Fprintf(stdout, "Cheapest current price of each way to pay, cheapest first (USD; serverless at the batch the load keeps a worker busy with, with the idle timeout its platform documents, without cold starts; spot without interruptions):\n\n")
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "way\t$/month\t$/1,000 requests\twhere (as of)\t")
	for _, j := range out.Ways {
		where := fmt.Sprintf("%s × %s (%s)", sizing.Group(j.Instances), j.Offer, j.AsOf)
		if j.Platform != "" {
			where = fmt.Sprintf("%s %s (%s)", j.Platform, j.ServedAs, j.AsOf)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", payNames[j.Way], strconv.FormatFloat(j.USDPerMonth, 'f', 2, 64),
			strconv.FormatFloat(j.USDPerRequest*1000, 'f', 4, 64), where)
	}
	tw.Flush()
	fmt.Fprintln(stdout)
	for _, j := range out.Ways {
		switch {
		case j.IdleTimeout != nil:
			fmt.Fprintf(stdout, "Serverless includes %s GPU-seconds a request billed idle: %s keeps a worker up %s s after its last request.\n",
				strconv.FormatFloat(*j.IdleSecondsPerRequest, 'f', 2, 64), j.Platform, strconv.FormatFloat(*j.IdleTimeout, 'g', -1, 64))
		case j.Way == sizing.PayServerless:
			fmt.Fprintf(stdout, "Serverless is figured without idle time: the catalog records no idle timeout for %s.\n", j.Platform)
		}
	}
	for _, w := range ways {
		switch key, figure := sizing.BreakEven(w, ways); key {
		case sizing.BreakEvenAlways:
			fmt.Fprintln(stdout, "Serverless costs less than dedicated on-demand GPUs at any load (its GPU-second is cheaper).")
		case sizing.BreakEvenShare:
			fmt.Fprintf(stdout, "Serverless costs less than dedicated on-demand GPUs while they would be busy less than %s%% of the time.\n", figure)
		case sizing.BreakEvenDedicated:
			fmt.Fprintf(stdout, "Dedicated (%s) costs less than the cheapest hosted API from about %s requests a day.\n", w.Way, figure)
		case sizing.BreakEvenNever:
			fmt.Fprintf(stdout, "Dedicated (%s) costs more per request than the cheapest hosted API even when fully busy.\n", w.Way)
		}
	}
}
