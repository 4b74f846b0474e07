package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/site"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizecmd"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

// cmdSize runs the sizing engine from the command line over the catalog's
// model presets and GPUs (read from -root, default ".", or $GPU_ATLAS_ROOT).
func cmdSize(args []string, stdout, stderr io.Writer) int {
	root := "."
	if r := os.Getenv("GPU_ATLAS_ROOT"); r != "" {
		root = r
	}
	// -root is read here, wherever it stands before the first non-flag
	// argument, since the catalog comes before the size flags are parsed
	// (sizecmd lists it and takes it too, so -h shows it).
	if r, ok := rootFlag(args); ok {
		root = r
	}
	now, err := site.Today()
	if err != nil {
		fmt.Fprintln(stderr, "size:", err)
		return 2
	}
	cat, d := catalog.Load(root, now)
	if cat == nil {
		for _, e := range d.Errors() {
			fmt.Fprintln(stderr, e.String())
		}
		fmt.Fprintln(stderr, "size: the catalog has errors; run \"go run ./generator check\"")
		return 2
	}
	presets := map[string]sizecmd.Preset{}
	for _, m := range cat.Models {
		presets[m.ID] = sizecmd.Preset{Name: m.Name, Model: m.Model, MaxContext: m.MaxContext}
	}
	var gpus []sizing.GPU
	for _, g := range cat.GPUs {
		gpus = append(gpus, derive.SizingGPU(g))
	}
	// The current prices per instance-hour (a longer term's hourly
	// equivalent), in USD, by billing mode: on demand for the calculator's
	// cost per million tokens and -plan, every mode for -pay.
	var offers []sizecmd.Offer
	for _, o := range cat.Offers {
		for mode, billing := range catalog.BillingModes() {
			p, ok := o.Price(billing)
			// Only current prices answer (the site's rule, catalog.Staleness):
			// an old figure is not today's cost.
			if !ok || o.GPU == nil || (mode == 0 && p.Unit != "" && p.Unit != "hour") || !cat.Site.Staleness.CurrentAt(p.AsOf, now) {
				continue
			}
			if usd, ok := cat.FX.Convert(p.Hourly(), o.Currency, "USD"); ok && usd > 0 {
				offers = append(offers, sizecmd.Offer{ID: o.ID, GPU: o.GPU.ID, GPUs: o.GPUCount, PerHour: usd, AsOf: p.AsOf.Format(time.DateOnly), Mode: mode})
			}
		}
	}
	// The current usage prices (hosted APIs, serverless GPUs), in USD.
	var usage []sizecmd.UsageOffer
	for _, pl := range cat.Platforms {
		for _, a := range pl.API {
			in, ok1 := cat.FX.Convert(a.InputPerM, a.Currency, "USD")
			out, ok2 := cat.FX.Convert(a.OutputPerM, a.Currency, "USD")
			if ok1 && ok2 && cat.Site.Staleness.CurrentAt(a.AsOf, now) {
				usage = append(usage, sizecmd.UsageOffer{Platform: pl.Name, ServedAs: a.ServedAs, AsOf: a.AsOf.Format(time.DateOnly),
					Model: a.Model, InputPerM: in, OutputPerM: out})
			}
		}
		for _, sv := range pl.Serverless {
			ps, ok := cat.FX.Convert(sv.PerSecond, sv.Currency, "USD")
			if ok && cat.Site.Staleness.CurrentAt(sv.AsOf, now) {
				usage = append(usage, sizecmd.UsageOffer{Platform: pl.Name, ServedAs: sv.ServedAs, AsOf: sv.AsOf.Format(time.DateOnly),
					GPU: sv.GPU, PerSecond: ps, IdleSeconds: sv.Idle()})
			}
		}
	}
	return sizecmd.Run(args, sizecmd.Data{Presets: presets, GPUs: gpus, Offers: offers, Usage: usage}, stdout, stderr)
}

// rootFlag returns the value of -root (or --root, -root=DIR) in args, the
// last one given, and whether there is one. It looks at every argument up
// to "--": it does not know which flags take a value.
func rootFlag(args []string) (string, bool) {
	root, ok := "", false
	for i := 0; i < len(args) && args[i] != "--"; i++ {
		name, val, eq := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(args[i], "-"), "-"), "=")
		if name != "root" || !strings.HasPrefix(args[i], "-") {
			continue
		}
		if !eq {
			if i+1 >= len(args) {
				break
			}
			i++
			val = args[i]
		}
		root, ok = val, true
	}
	return root, ok
}
