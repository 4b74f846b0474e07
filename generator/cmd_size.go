package main

import (
	"fmt"
	"io"
	"os"
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
	// -root is taken here, before the size flags, so sizecmd keeps the
	// flag set of the issue.
	if len(args) >= 2 && (args[0] == "-root" || args[0] == "--root") {
		root, args = args[1], args[2:]
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
	// The current on-demand prices per instance-hour, in USD, as the
	// calculator's cost per million tokens uses them.
	var offers []sizecmd.Offer
	for _, o := range cat.Offers {
		p, ok := o.Price("on-demand")
		// Only current prices answer (the site's rule, catalog.Staleness):
		// an old figure is not today's cost.
		if !ok || o.GPU == nil || (p.Unit != "" && p.Unit != "hour") || !cat.Site.Staleness.CurrentAt(p.AsOf, now) {
			continue
		}
		if usd, ok := cat.FX.Convert(p.Price, o.Currency, "USD"); ok {
			offers = append(offers, sizecmd.Offer{ID: o.ID, GPU: o.GPU.ID, GPUs: o.GPUCount, PerHour: usd, AsOf: p.AsOf.Format(time.DateOnly)})
		}
	}
	return sizecmd.Run(args, presets, gpus, offers, stdout, stderr)
}
