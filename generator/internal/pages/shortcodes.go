package pages

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/content"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/accuracy"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

// resolver expands guide shortcodes from the catalog, so a figure the
// catalog holds is never typed twice.
type resolver struct {
	derived    map[string]*derive.Data      // lang -> derived data in that edition's currency
	guides     map[string]map[string]string // lang -> slug -> title
	top        map[string]bool              // slugs served at /<slug>/
	strings    *render.Strings              // UI strings of every edition
	dateStyles map[string]string            // lang -> date style
	// accuracy is the engine's report on the calibration set, evaluated
	// once for every edition and shortcode (see accuracyReport).
	accuracy struct {
		once   sync.Once
		report *accuracy.Report
		err    error
	}
}

// accuracyReport evaluates the calibration set once.
func (r *resolver) accuracyReport(c *catalog.Catalog) (*accuracy.Report, error) {
	r.accuracy.once.Do(func() { r.accuracy.report, r.accuracy.err = accuracy.Evaluate(c) })
	return r.accuracy.report, r.accuracy.err
}

// Shortcodes returns the expander of guide shortcodes for every edition:
// derived holds each edition's derived data by language code, titles each
// edition's guide titles by slug, top the slugs served at /<slug>/, strs
// the UI strings of every edition.
func Shortcodes(derived map[string]*derive.Data, titles map[string]map[string]string, top map[string]bool, strs *render.Strings, editions []catalog.Language) content.Resolver {
	styles := map[string]string{}
	for _, l := range editions {
		styles[l.Code] = l.DateStyle
	}
	return &resolver{derived: derived, guides: titles, top: top, strings: strs, dateStyles: styles}
}

// date writes a date in the edition's style: 2026-10-06, or 2026年10月6日.
func (r *resolver) date(lang string, d time.Time) string {
	if r.dateStyles[lang] == "cjk" {
		return fmt.Sprintf("%d年%d月%d日", d.Year(), int(d.Month()), d.Day())
	}
	return d.Format("2006-01-02")
}

// url is a root-relative link to a page; the build rebases a guide's
// links onto its edition and the site's base path (see rebase).
func (r *resolver) url(p string) string { return "/" + p }

func (r *resolver) Shortcode(lang, name string, args []string, kv map[string]string) (string, error) {
	dd := r.derived[lang]
	c := dd.Cat
	t := func(key string) string { return r.strings.For(lang)[key] }
	switch name {
	case "gpu":
		return r.gpuShortcode(dd, lang, args)
	case "cheapest":
		return r.cheapestShortcode(dd, lang, t, args)
	case "link":
		return r.linkShortcode(dd, lang, t, args, kv)
	case "providers":
		return r.providers(dd, lang, t, args, kv)
	case "site":
		return siteShortcode(c, args)
	case "fits":
		return r.fitsShortcode(dd, lang, t, kv)
	case "plan":
		return r.planShortcode(dd, lang, t, kv)
	case "train":
		return r.trainShortcode(dd, lang, t, kv)
	case "pay":
		return r.payShortcode(dd, lang, t, kv)
	case "payvolume":
		return r.payVolumeShortcode(dd, lang, t, kv)
	case "accuracy":
		rep, err := r.accuracyReport(c)
		if err != nil {
			return "", err
		}
		return accuracyShortcode(rep, c, t, args)
	case "sizing":
		if len(args) != 1 {
			return "", fmt.Errorf(`want {{< sizing "name" >}}`)
		}
		if t, ok := sizingText()[args[0]]; ok {
			return t, nil
		}
		return "", diag.WithHint(diag.DidYouMean(args[0], slices.Sorted(maps.Keys(sizingText()))), "unknown sizing text %q", args[0])
	}
	return "", fmt.Errorf("unknown shortcode (gpu, cheapest, link, providers, site, sizing, accuracy, fits, plan, train, pay, payvolume)")
}

// catalogGPU is the catalog GPU with the id, or an error that suggests
// the id meant.
func catalogGPU(c *catalog.Catalog, id string) (*catalog.GPU, error) {
	g := c.GPU(id)
	if g == nil {
		return nil, diag.WithHint(diag.DidYouMean(id, gpuIDs(c)), "unknown GPU %q", id)
	}
	return g, nil
}

// gpuShortcode expands {{< gpu "id" "field" >}}: a sourced figure of a GPU.
func (r *resolver) gpuShortcode(dd *derive.Data, lang string, args []string) (string, error) {
	c := dd.Cat
	if len(args) != 2 {
		return "", fmt.Errorf(`want {{< gpu "id" "field" >}}`)
	}
	g, err := catalogGPU(c, args[0])
	if err != nil {
		return "", err
	}
	opt := func(p *float64, unit string) (string, error) {
		if p == nil {
			return "", fmt.Errorf("%s has no sourced %s figure", g.ID, args[1])
		}
		return render.Num(*p) + unit, nil
	}
	switch args[1] {
	case "name":
		return mdText(g.LocalName(lang)), nil
	case "memory_gb":
		return render.Num(g.MemoryGB) + " GB", nil
	case "memory_bandwidth_gbs":
		return render.Num(g.MemoryBWGBs) + " GB/s", nil
	case "bf16_tflops":
		return opt(g.BF16TFLOPS, " TFLOPS")
	case "fp8_tflops":
		return opt(g.FP8TFLOPS, " TFLOPS")
	case "fp32_tflops":
		return opt(g.FP32TFLOPS, " TFLOPS")
	case "tdp_w":
		return opt(g.TDPW, " W")
	}
	fields := []string{"name", "memory_gb", "memory_bandwidth_gbs", "bf16_tflops", "fp8_tflops", "fp32_tflops", "tdp_w"}
	return "", diag.WithHint(diag.DidYouMean(args[1], fields), "unknown field %q", args[1])
}

// cheapestShortcode expands {{< cheapest "gpu-id" >}}: the cheapest
// on-demand price per GPU-hour with its provider, instance and date,
// worded as stale when no price is current.
func (r *resolver) cheapestShortcode(dd *derive.Data, lang string, t func(string) string, args []string) (string, error) {
	c := dd.Cat
	if len(args) != 1 {
		return "", fmt.Errorf(`want {{< cheapest "gpu-id" >}}`)
	}
	g, err := catalogGPU(c, args[0])
	if err != nil {
		return "", err
	}
	row := dd.Cheapest(g.ID)
	if row == nil {
		return "", fmt.Errorf("%s has no on-demand price in the catalog", g.ID)
	}
	price := render.Money(row.PerGPU, row.Offer.Currency)
	if row.Offer.Currency != dd.Currency {
		price += render.Format(t("shortcode.approx"), render.Money(row.PerGPUDC, dd.Currency)) // the format has its own spacing
	}
	date := func(d time.Time) string { return r.date(lang, d) }
	if note := overlayNote(row.Overlay, row.PublicPerGPUDC, dd.Currency, t, date); note != "" {
		price += render.Format(t("overlay.note"), note) // a team's figure, marked as such
	}
	asOf := date(row.Price.AsOf)
	prov := fmt.Sprintf("[%s](%s)", mdText(row.Offer.Provider.LocalName(lang)), r.url("providers/"+row.Offer.Provider.ID+"/"))
	if !row.Current { // the current-price rule: never an old figure as today's
		return render.Format(t("shortcode.cheapest.stale"), mdText(price), prov, mdText(row.Offer.Instance), mdText(asOf)), nil
	}
	return render.Format(t("shortcode.cheapest"), mdText(price), prov, mdText(row.Offer.Instance), mdText(asOf)), nil
}

// linkShortcode expands {{< link gpu="id" >}} (provider, model, guide): a
// link to a catalog page or guide that must exist.
func (r *resolver) linkShortcode(dd *derive.Data, lang string, t func(string) string, args []string, kv map[string]string) (string, error) {
	c := dd.Cat
	if len(kv) != 1 || len(args) != 0 {
		return "", fmt.Errorf(`want {{< link gpu="id" >}}, provider="id", guide="slug" or model="id"`)
	}
	for k, v := range kv {
		switch k {
		case "gpu":
			g, err := catalogGPU(c, v)
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("[%s](%s)", mdText(g.LocalName(lang)), r.url("gpus/"+g.ID+"/")), nil
		case "provider":
			p := c.Provider(v)
			if p == nil && c.Hidden("providers", v) {
				return mdText(t("overlay.hidden.provider")), nil // left out by the team's overlay
			}
			if p == nil {
				var ids []string
				for _, p := range c.Providers {
					ids = append(ids, p.ID)
				}
				return "", diag.WithHint(diag.DidYouMean(v, ids), "unknown provider %q", v)
			}
			return fmt.Sprintf("[%s](%s)", mdText(p.LocalName(lang)), r.url("providers/"+p.ID+"/")), nil
		case "model":
			m := c.Model(v)
			if m == nil {
				return "", fmt.Errorf("unknown model %q", v)
			}
			return fmt.Sprintf("[%s](%s)", mdText(m.Name), r.url("models/"+m.ID+"/")), nil
		case "guide":
			title, ok := r.guides[lang][v]
			if !ok {
				return "", fmt.Errorf("unknown guide %q", v)
			}
			if r.top[v] {
				return fmt.Sprintf("[%s](%s)", mdText(title), r.url(v+"/")), nil
			}
			return fmt.Sprintf("[%s](%s)", mdText(title), r.url("guides/"+v+"/")), nil
		}
		return "", fmt.Errorf("unknown link kind %q (gpu, provider, model, guide)", k)
	}
	return "", fmt.Errorf(`want {{< link gpu="id" >}}, provider="id", guide="slug" or model="id"`)
}

// providers expands {{< providers kind="gpu-cloud,marketplace" country="CN" >}}:
// the catalog's providers of those kinds with a priced offer running in
// that country (its regions', not its headquarters'), linked, in the
// edition's list style, and how many of them have a current price. A
// guide that says what the catalog holds says it from the data.
func (r *resolver) providers(dd *derive.Data, lang string, t func(string) string, args []string, kv map[string]string) (string, error) {
	if len(args) != 0 || kv["kind"] == "" {
		return "", fmt.Errorf(`want {{< providers kind="gpu-cloud,marketplace" [country="CN"] >}}`)
	}
	kinds := strings.Split(kv["kind"], ",")
	for k := range kv {
		if k != "kind" && k != "country" {
			return "", fmt.Errorf("unknown argument %q (kind, country)", k)
		}
	}
	var names []string
	current := 0
	for _, p := range dd.Cat.Providers {
		if !slices.Contains(kinds, p.Kind) {
			continue
		}
		priced, cur := false, false
		for _, o := range p.Offers {
			for _, row := range dd.RegionRows(o.ID) {
				if kv["country"] != "" && !slices.Contains(row.Countries, kv["country"]) {
					continue
				}
				priced = true
				cur = cur || row.Current
			}
		}
		if !priced {
			continue
		}
		if cur {
			current++
		}
		names = append(names, fmt.Sprintf("[%s](%s)", mdText(p.LocalName(lang)), r.url("providers/"+p.ID+"/")))
	}
	if len(names) == 0 {
		return t("shortcode.providers.none"), nil
	}
	return render.Format(t("shortcode.providers"), strings.Join(names, t("punct.list")), len(names), current, dd.Cat.Site.Staleness.StaleDays), nil
}

// mdText makes a catalog value safe to splice into a guide's Markdown as
// plain text, whatever the page's raw-HTML setting: every ASCII
// punctuation character becomes a numeric character reference. CommonMark
// never reads a reference as markup (no emphasis, link, autolink or HTML
// tag can start from one), goldmark renders it back as the character,
// escaped, and inside a raw-HTML block the browser reads it as text. So a
// GPU name such as "<script>" or "[x](javascript:...)" shows as written
// and runs nothing.
func mdText(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 && r > ' ' && !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			fmt.Fprintf(&b, "&#%d;", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func gpuIDs(c *catalog.Catalog) []string {
	out := make([]string, len(c.GPUs))
	for i, g := range c.GPUs {
		out[i] = g.ID
	}
	return out
}

// sizingText is what the methodology page quotes from the sizing engine,
// so the page and the engine cannot disagree.
func sizingText() map[string]string {
	return map[string]string{
		"bytes_per_param":   sizing.BytesPerParamRationale,
		"overhead":          sizing.OverheadRationale,
		"usable_memory":     sizing.UsableMemoryRationale,
		"max_search_gpus":   strconv.Itoa(sizing.MaxSearchGPUs),
		"max_node_tp":       strconv.Itoa(sizing.MaxNodeTP),
		"prefill_chunk":     strconv.Itoa(sizing.PrefillChunkTokens),
		"spec_accept":       strconv.FormatFloat(sizing.DefaultSpecAccept, 'f', -1, 64),
		"host_link_gbs":     strconv.FormatFloat(sizing.PCIeBytesPerSec/1e9, 'f', -1, 64),
		"nf4_bits":          strconv.FormatFloat(sizing.NF4BitsPerParam, 'f', 3, 64),
		"overhead_gib":      strconv.FormatFloat(float64(sizing.OverheadBytes)/(1<<30), 'f', -1, 64),
		"reserve_pct":       strconv.FormatFloat(sizing.ReserveFraction*100, 'f', -1, 64),
		"model_state_bytes": strconv.Itoa(sizing.ModelStateBytesPerParam),
	}
}
