package catalog

import (
	"crypto/sha256"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/parallel"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/safetext"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

// Catalog is the validated data of a site.
type Catalog struct {
	Site      Site
	FX        FX
	GPUs      []*GPU      // sorted by id
	Providers []*Provider // sorted by id
	Offers    []*Offer    // sorted by provider, then file order
	Models    []*Model    // sorted by id
	// Glossary is data/glossary.toml's terms, in file order (none when
	// the file is absent).
	Glossary []Term
	// Calibration is the sizing engine's calibration set (CalibrationDir),
	// sorted by id; the public data's only (an overlay adds none).
	Calibration []*Measurement
	// Platforms are the usage-priced platforms (UsageDir), by id.
	Platforms []*Platform

	gpus      map[string]*GPU
	providers map[string]*Provider
	models    map[string]*Model
	hidden    map[string]bool // "providers/id", "gpus/id" hidden by an overlay
}

// GPU returns the GPU with the id, or nil.
func (c *Catalog) GPU(id string) *GPU { return c.gpus[id] }

// Provider returns the provider with the id, or nil.
func (c *Catalog) Provider(id string) *Provider { return c.providers[id] }

// Model returns the model preset with the id, or nil.
func (c *Catalog) Model(id string) *Model { return c.models[id] }

var idPattern = regexp.MustCompile(IDPattern())

// Load reads and validates every data file under root/data. now is the
// date future dates are judged against. Diagnostics carry paths relative
// to root. The catalog is nil when there are errors.
func Load(root string, now time.Time) (*Catalog, *diag.List) {
	return LoadLayered(root, Layer{}, now)
}

// Layer is a second data root loaded on top of the public catalog: a
// team's overlay directory. Its data/gpus, data/providers, data/offers and
// data/models files are added to the public ones (a provider of kind
// "internal", an internal GPU pool, is allowed only here), and its
// data/overrides.toml and data/hide.toml change the merged catalog (see
// overlay.go). Diagnostics about its files carry Label + their path
// inside Dir ("team/data/overrides.toml").
type Layer struct {
	Dir   string // the overlay directory; "" for none
	Label string // prefix of its paths in messages (default: Dir + "/")
}

// LoadLayered is Load with an overlay layer merged on top (Layer{} for
// none: the result is then exactly Load's).
func LoadLayered(root string, layer Layer, now time.Time) (*Catalog, *diag.List) {
	return load(root, layer, now, nil)
}

// load is LoadLayered, decoding the public data files through cache when
// it is not nil. It runs in phases, each reading what the ones before it
// decoded: the site and currency files, the declarations (GPUs,
// providers, models) of the public data and the overlay's, the offers
// files, the checks across files, and last the overlay's changes.
func load(root string, layer Layer, now time.Time, cache *Cache) (*Catalog, *diag.List) {
	l := &loader{root: root, layer: layer, now: now, cache: cache, d: &diag.List{},
		c: &Catalog{gpus: map[string]*GPU{}, providers: map[string]*Provider{}, models: map[string]*Model{}}}
	if !l.hasDataDir() {
		return nil, l.d
	}
	l.loadSettings()
	roots, ok := l.dataRoots()
	if !ok {
		return nil, l.d
	}
	offerEntries := l.loadDeclarations(roots)
	l.loadCalibration()
	l.loadUsage()
	// The offers files last: what their checks read (the site, currency,
	// GPU and provider files) is decoded by now.
	deps := cache.depsKey(now, layer, captureStamp(root))
	offerFiles := l.decodeOffers(offerEntries, deps)
	if len(roots) > 1 {
		l.c.sortDeclarations()
	}
	l.checkExportVariants()
	l.checkCalculator()
	currencies := l.currencies()
	l.checkProviderCurrencies(currencies)
	l.checkOffers(offerFiles, currencies, deps)
	if l.d.HasErrors() {
		return nil, l.d
	}
	if layer.Dir != "" {
		if applyLayer(l.c, layer, roots[1].prefix, now, l.d); l.d.HasErrors() {
			return nil, l.d
		}
	}
	l.c.sortOffers()
	return l.c, l.d
}

// loader is one load's state, shared by its phases.
type loader struct {
	root  string
	layer Layer
	now   time.Time
	cache *Cache
	d     *diag.List
	c     *Catalog
	// fxOK is set when data/fx.toml decoded.
	fxOK bool
	// sums are the capture files' hashes, read once per load.
	sums captureSums
	// datasets holds the ids of data/site.toml's datasets.
	datasets map[string]bool
	// site checks data/site.toml (its file is nil when it did not decode).
	site checker
}

// dataRoot is a tree of data files: the site root's, or the overlay's,
// whose paths in messages start with prefix.
type dataRoot struct{ root, prefix string }

// offerFile is a decoded offers file.
type offerFile struct {
	f       *file
	abs, id string
	of      OfferFile
	// checked is the cache's copy of the file's offers as checked at an
	// earlier load, when the file and everything its checks read are
	// unchanged since (see Cache.decodeOffers).
	checked *checkedOffers
}

func (l *loader) check(f *file) checker {
	return checker{file: f, now: l.now, captures: filepath.Join(l.root, CaptureDir), sums: &l.sums}
}

// hasDataDir reports whether root has a data directory.
func (l *loader) hasDataDir() bool {
	if st, err := os.Stat(filepath.Join(l.root, "data")); err != nil || !st.IsDir() {
		l.d.Errorf("data", 0, 0, "no data directory under %s (is -root right?)", l.root)
		return false
	}
	return true
}

// loadSettings decodes and checks data/site.toml, data/fx.toml (the site's
// languages are checked against its currencies) and data/glossary.toml.
func (l *loader) loadSettings() {
	c, dataDir := l.c, filepath.Join(l.root, "data")
	siteFile := l.cache.decode(filepath.Join(dataDir, "site.toml"), "data/site.toml", &c.Site, l.d)
	if siteFile != nil {
		l.site = l.check(siteFile)
		checkSite(l.site, &c.Site)
	}
	if f := l.cache.decode(filepath.Join(dataDir, "fx.toml"), "data/fx.toml", &c.FX, l.d); f != nil {
		checkFX(l.check(f), &c.FX)
		l.fxOK = true
	}
	if siteFile != nil {
		var known map[string]bool // nil: fx.toml is broken, its own errors say so
		if l.fxOK {
			known = map[string]bool{}
			for _, cur := range c.FX.Currencies() {
				known[cur] = true
			}
		}
		checkLanguages(l.check(siteFile), &c.Site, known)
	}
	loadGlossary(l.root, c, l.d, l.check)
	l.datasets = map[string]bool{}
	for _, ds := range c.Site.Datasets {
		l.datasets[ds.ID] = true
	}
}

// dataRoots returns the trees to read data files from: the site root's,
// then the overlay's when there is one. It is false when the overlay's
// directory is unusable.
func (l *loader) dataRoots() ([]dataRoot, bool) {
	roots := []dataRoot{{root: l.root}}
	if l.layer.Dir != "" {
		label := l.layer.Label
		if label == "" {
			label = filepath.ToSlash(filepath.Clean(l.layer.Dir)) + "/"
		}
		if !checkLayerDir(l.layer.Dir, label, l.d) {
			return nil, false
		}
		roots = append(roots, dataRoot{root: l.layer.Dir, prefix: label})
	}
	return roots, true
}

// loadDeclarations decodes and checks every GPU, provider and model file
// of roots, each on its own, and returns the offers files, to decode when
// all of these are. An overlay may not redeclare a public id, and only
// an overlay may declare a provider of kind internal.
func (l *loader) loadDeclarations(roots []dataRoot) (offerEntries []entry) {
	c, d := l.c, l.d
	for li, src := range roots {
		overlay := li > 0
		kinds := ProviderKinds()
		if overlay {
			kinds = append(kinds, InternalKind)
		}
		for _, kind := range []string{"gpus", "providers", "offers", "models"} {
			for _, e := range listTOMLIn(src.root, src.prefix, "data/"+kind, d) {
				if overlay && kind != "offers" && c.declared(kind, e.id) != "" {
					d.Errorf(e.rel, 1, 1, "%s %q is already in the public catalog (%s): change its prices in data/overrides.toml, or hide it in data/hide.toml and add your own under another id", strings.TrimSuffix(kind, "s"), e.id, c.declared(kind, e.id))
					continue
				}
				switch kind {
				case "gpus":
					g := &GPU{ID: e.id, File: e.rel}
					if f := l.cache.decode(e.abs, e.rel, g, d); f != nil {
						checkGPU(l.check(f), g)
						c.GPUs = append(c.GPUs, g)
					}
					c.gpus[g.ID] = g // known even when broken: no cascade of "unknown GPU"
				case "providers":
					p := &Provider{ID: e.id, File: e.rel}
					if f := l.cache.decode(e.abs, e.rel, p, d); f != nil {
						checkProvider(l.check(f), p, kinds)
						c.Providers = append(c.Providers, p)
					} else {
						p.broken = true
					}
					c.providers[p.ID] = p
				case "offers":
					offerEntries = append(offerEntries, e)
				case "models":
					m := &Model{ID: e.id, File: e.rel}
					if f := l.cache.decode(e.abs, e.rel, m, d); f != nil {
						checkModel(l.check(f), m)
						c.Models = append(c.Models, m)
						c.models[m.ID] = m
					}
				}
			}
		}
	}
	return offerEntries
}

// decodeOffers decodes the offers files on every core; those that decode
// are returned, in entries' order, and the problems are reported in that
// order too.
func (l *loader) decodeOffers(entries []entry, deps [sha256.Size]byte) []offerFile {
	ofs := make([]offerFile, len(entries))
	ds := make([]diag.List, len(entries))
	parallel.For(len(entries), 0, func(i int) {
		e := entries[i]
		ofs[i] = offerFile{abs: e.abs, id: e.id}
		ofs[i].f, ofs[i].checked = l.cache.decodeOffers(e.abs, e.rel, &ofs[i].of, deps, &ds[i])
	})
	var out []offerFile
	for i := range ofs {
		l.d.Merge(&ds[i])
		if ofs[i].f != nil {
			ofs[i].f.d = l.d // the checks that follow report to the load's list
			out = append(out, ofs[i])
		}
	}
	return out
}

// sortDeclarations puts the GPUs, providers and models in id order: the
// public files come first in each list, and an overlay's are merged in.
func (c *Catalog) sortDeclarations() {
	sort.SliceStable(c.GPUs, func(i, j int) bool { return c.GPUs[i].ID < c.GPUs[j].ID })
	sort.SliceStable(c.Providers, func(i, j int) bool { return c.Providers[i].ID < c.Providers[j].ID })
	sort.SliceStable(c.Models, func(i, j int) bool { return c.Models[i].ID < c.Models[j].ID })
}

// checkExportVariants reports every export_variant_of that names no GPU
// (every GPU is loaded by now).
func (l *loader) checkExportVariants() {
	for _, g := range l.c.GPUs {
		if g.ExportVariantOf != "" && l.c.gpus[g.ExportVariantOf] == nil {
			line, col := g.exportPos.Line, g.exportPos.Col
			l.d.Hintf(g.File, line, col, diag.DidYouMean(g.ExportVariantOf, l.c.gpuIDs()), "export_variant_of %q is not a GPU id", g.ExportVariantOf)
		}
	}
}

// checkCalculator reports a model or GPU of data/site.toml's [calculator]
// that the catalog does not have.
func (l *loader) checkCalculator() {
	if l.site.file == nil {
		return
	}
	calc := l.c.Site.Calculator
	if id := calc.Model; id != "" && l.c.models[id] == nil {
		var ids []string
		for _, m := range l.c.Models {
			ids = append(ids, m.ID)
		}
		l.site.hintf("calculator.model", diag.DidYouMean(id, ids), "calculator model %q is not a model preset id", id)
	}
	if id := calc.GPU; id != "" && l.c.gpus[id] == nil {
		l.site.hintf("calculator.gpu", diag.DidYouMean(id, l.c.gpuIDs()), "calculator gpu %q is not a GPU id", id)
	}
	for i, pair := range l.c.Site.Compare.Popular {
		key := fmt.Sprintf("compare.popular.%d", i)
		if len(pair) != 2 || pair[0] == pair[1] {
			l.site.errorf(key, "a popular pair is two different GPU ids, got %q", pair)
			continue
		}
		for _, id := range pair {
			if l.c.gpus[id] == nil {
				l.site.hintf(key, diag.DidYouMean(id, l.c.gpuIDs()), "compare pair: %q is not a GPU id", id)
			}
		}
	}
}

// currencies returns the currencies of data/fx.toml (none when it has no
// base), or nil when it did not decode: its own error is the root cause,
// and no currency is reported unknown for it.
func (l *loader) currencies() map[string]bool {
	if !l.fxOK {
		return nil
	}
	currencies := map[string]bool{}
	if l.c.FX.Base != "" {
		for _, cur := range l.c.FX.Currencies() {
			currencies[cur] = true
		}
	}
	return currencies
}

// checkProviderCurrencies reports the currencies of the providers' hidden
// and extra costs that data/fx.toml does not have.
func (l *loader) checkProviderCurrencies(currencies map[string]bool) {
	for _, p := range l.c.Providers {
		if p.HiddenCosts != nil && p.HiddenCosts.Currency != "" && currencies != nil && !currencies[p.HiddenCosts.Currency] {
			l.d.Hintf(p.File, p.hiddenCurPos.Line, p.hiddenCurPos.Col, diag.DidYouMean(p.HiddenCosts.Currency, mapKeys(currencies)), "hidden_costs.currency %q is not in data/fx.toml", p.HiddenCosts.Currency)
		}
		checkCostCurrencies(l.d, p, currencies)
	}
}

// checkOffers checks the offers of every offers file against the catalog
// (or takes the cache's checked copy), reports an instance listed twice,
// and links each offer with a known GPU to its GPU and provider.
func (l *loader) checkOffers(files []offerFile, currencies map[string]bool, deps [sha256.Size]byte) {
	c, d := l.c, l.d
	seenOffer := map[string]string{}
	for _, of := range files {
		p := c.providers[of.id]
		if p != nil && p.broken {
			continue // its own errors are reported; its offers cannot be checked
		}
		if p == nil {
			of.f.hintf("", diag.DidYouMean(of.id, c.providerIDs()), "no provider %q: an offers file is named after its provider (data/providers/%s.toml)", of.id, of.id)
			continue
		}
		ck := l.check(of.f)
		offers, found := l.offersOf(of, p, ck, currencies, deps)
		for i, o := range offers {
			prefix := fmt.Sprintf("offers.%d", i)
			if prev, dup := seenOffer[o.ID]; dup {
				ck.errorf(prefix+".instance", "instance %q is listed twice (first at %s)", o.Instance, prev)
			}
			seenOffer[o.ID] = fmt.Sprintf("%s:%d", of.f.rel, o.Line)
			d.Merge(found[i])
			if o.GPU != nil {
				p.Offers = append(p.Offers, o)
				o.GPU.Offers = append(o.GPU.Offers, o)
				c.Offers = append(c.Offers, o)
			}
		}
	}
}

// offersOf returns the offers of one file of provider p, checked, with
// what each offer's checks reported: the cache's copy when it has one,
// else the file's offers, checked now and kept in the cache. Each offer's
// own checks report to a list of their own, which the cache keeps with
// the checked offers; the duplicate check spans files and runs on every
// load.
func (l *loader) offersOf(of offerFile, p *Provider, ck checker, currencies map[string]bool, deps [sha256.Size]byte) ([]*Offer, []*diag.List) {
	if of.checked != nil {
		offers := of.checked.offers
		for i, o := range offers {
			o.Provider = p
			if of.checked.linked[i] {
				o.GPU = l.c.gpus[o.GPUID]
			}
		}
		return offers, of.checked.diags
	}
	offers, found := of.of.Offers, make([]*diag.List, len(of.of.Offers))
	for i, o := range offers {
		prefix := fmt.Sprintf("offers.%d", i)
		o.File, o.Provider = of.f.rel, p
		o.Line, _ = of.f.pos(prefix)
		o.ID = p.ID + "/" + slug(o.Instance)
		found[i] = &diag.List{}
		of.f.d = found[i]
		checkOffer(ck, prefix, o, l.c, p, currencies, l.datasets)
	}
	of.f.d = l.d
	l.cache.keepChecked(of.abs, of.f.rel, deps, offers, found)
	return offers, found
}

// sortOffers orders each GPU's offers by price (see offerLess).
func (c *Catalog) sortOffers() {
	for _, g := range c.GPUs {
		sort.SliceStable(g.Offers, func(i, j int) bool { return offerLess(g.Offers[i], g.Offers[j]) })
	}
}

// offerLess orders offers by on-demand price per GPU-hour in USD-agnostic
// terms (offers without an on-demand price last), then by id.
func offerLess(a, b *Offer) bool {
	pa, oka := a.Price("on-demand")
	pb, okb := b.Price("on-demand")
	if oka != okb {
		return oka
	}
	if oka && a.Currency == b.Currency && pa.HourlyPerGPU(a) != pb.HourlyPerGPU(b) {
		return pa.HourlyPerGPU(a) < pb.HourlyPerGPU(b)
	}
	return a.ID < b.ID
}

func (c *Catalog) gpuIDs() []string {
	var out []string
	for _, g := range c.GPUs {
		out = append(out, g.ID)
	}
	return out
}

func (c *Catalog) providerIDs() []string {
	var out []string
	for _, p := range c.Providers {
		out = append(out, p.ID)
	}
	return out
}

type entry struct{ abs, rel, id string }

// listTOMLIn lists dir's *.toml files, warning about anything else;
// prefix goes before every path in messages.
func listTOMLIn(root, prefix, dir string, d *diag.List) []entry {
	ents, err := os.ReadDir(filepath.Join(root, dir))
	if err != nil {
		if !os.IsNotExist(err) {
			d.Errorf(prefix+dir, 0, 0, "cannot read directory: %v", err)
		}
		return nil
	}
	var out []entry
	for _, e := range ents {
		rel := prefix + dir + "/" + e.Name()
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".toml") {
			d.Warnf(rel, 1, 1, "skipped: not a .toml file")
			continue
		}
		id := strings.TrimSuffix(e.Name(), ".toml")
		if !idPattern.MatchString(id) {
			d.Errorf(rel, 1, 1, "file name %q is not a valid id: use lowercase letters, digits and single dashes", id)
			continue
		}
		out = append(out, entry{abs: filepath.Join(root, dir, e.Name()), rel: rel, id: id})
	}
	return out
}

func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

func checkSite(c checker, s *Site) {
	c.require("", requiredOf[Site]()...)
	c.url("repo_url", s.RepoURL)
	if b := s.BaseURL; c.has("base_url") && b != "" && !strings.HasPrefix(b, "/") {
		if err := safetext.SourceURL(b); err != nil {
			c.errorf("base_url", "base_url %q %v (or a path such as /gpu/)", b, err)
		}
	}
	c.require("staleness", requiredOf[Staleness]()...)
	if s.Staleness.FreshDays <= 0 || s.Staleness.StaleDays <= s.Staleness.FreshDays {
		c.errorf("staleness", "staleness needs 0 < fresh_days < stale_days (got %d and %d)", s.Staleness.FreshDays, s.Staleness.StaleDays)
	}
	for i, ds := range s.Datasets {
		p := fmt.Sprintf("datasets.%d", i)
		c.require(p, requiredOf[Dataset]()...)
		c.url(p+".url", ds.URL)
	}
}

var (
	currencyPattern = regexp.MustCompile(CurrencyPattern())
	countryPattern  = regexp.MustCompile(CountryPattern())
)

func checkFX(c checker, fx *FX) {
	c.require("", requiredOf[FX]()...)
	c.date("as_of", fx.AsOf)
	for cur, r := range fx.Rates {
		if !currencyPattern.MatchString(cur) {
			c.errorf("rates."+cur, "%q is not an ISO 4217 currency code", cur)
		}
		c.positive("rates."+cur, r)
	}
	checkFXHistory(c, fx)
}

func checkGPU(c checker, g *GPU) {
	g.exportPos.Line, g.exportPos.Col = c.pos("export_variant_of")
	c.require("", requiredOf[GPU]()...)
	if c.has("release_year") && (g.ReleaseYear < 2010 || g.ReleaseYear > c.now.Year()) {
		c.errorf("release_year", "release_year %d is out of range (2010..%d)", g.ReleaseYear, c.now.Year())
	}
	c.oneOf("form_factor", g.FormFactor, FormFactors()...)
	c.oneOf("segment", g.Segment, Segments()...)
	c.positive("memory_gb", g.MemoryGB)
	if g.MemoryGB > 4096 {
		c.errorf("memory_gb", "memory_gb %v is implausible for one accelerator", g.MemoryGB)
	}
	c.positive("memory_bandwidth_gbs", g.MemoryBWGBs)
	for k, v := range map[string]*float64{"fp32_tflops": g.FP32TFLOPS, "tf32_tflops": g.TF32TFLOPS, "bf16_tflops": g.BF16TFLOPS, "fp8_tflops": g.FP8TFLOPS, "int8_tops": g.INT8TOPS, "tdp_w": g.TDPW} {
		c.positivePtr(k, v)
	}
	if g.TF32TFLOPS != nil && g.BF16TFLOPS != nil && *g.TF32TFLOPS > *g.BF16TFLOPS {
		c.errorf("tf32_tflops", "tf32_tflops %v exceeds bf16_tflops %v: one of them is likely a sparse figure", *g.TF32TFLOPS, *g.BF16TFLOPS)
	}
	if g.BF16TFLOPS != nil && g.FP8TFLOPS != nil && *g.BF16TFLOPS > *g.FP8TFLOPS {
		c.errorf("bf16_tflops", "bf16_tflops %v exceeds fp8_tflops %v", *g.BF16TFLOPS, *g.FP8TFLOPS)
	}
	seenFormat := map[string]bool{}
	for i, f := range g.Precisions {
		key := fmt.Sprintf("precisions.%d", i)
		if !slices.Contains(Precisions(), f) {
			c.hintf(key, diag.DidYouMean(f, Precisions()), "precision %q is not one of: %s", f, strings.Join(Precisions(), ", "))
		}
		if seenFormat[f] {
			c.errorf(key, "precision %q is listed twice", f)
		}
		seenFormat[f] = true
	}
	if g.FP8TFLOPS != nil && len(g.Precisions) > 0 && !seenFormat["fp8"] {
		c.errorf("precisions", "fp8_tflops is set but precisions lacks \"fp8\"")
	}
	c.require("interconnect", requiredOf[Interconnect]()...)
	c.oneOf("interconnect.kind", g.Interconnect.Kind, InterconnectKinds()...)
	c.positivePtr("interconnect.bandwidth_gbs", g.Interconnect.BandwidthGBs)
	g.textPos = checkI18n(c, g.Texts(), nil)
	c.sources("", g.Sources)
}

func checkProvider(c checker, p *Provider, kinds []string) {
	c.require("", requiredOf[Provider]()...)
	c.url("homepage", p.Homepage)
	if p.PricePage != "" {
		c.url("price_page", p.PricePage)
	}
	if c.has("country") && !countryPattern.MatchString(p.Country) {
		c.errorf("country", "country %q is not an ISO 3166-1 alpha-2 code (e.g. US, CN, DE)", p.Country)
	}
	c.oneOf("kind", p.Kind, kinds...)
	seen := map[string]bool{}
	for i, r := range p.Regions {
		pre := fmt.Sprintf("regions.%d", i)
		c.require(pre, requiredOf[Region]()...)
		if seen[r.ID] {
			c.errorf(pre+".id", "region %q is declared twice", r.ID)
		}
		if c.has(pre+".country") && r.Country != "" && !countryPattern.MatchString(r.Country) {
			c.errorf(pre+".country", "country %q is not an ISO 3166-1 alpha-2 code (e.g. US, CN, DE)", r.Country)
		}
		seen[r.ID] = true
	}
	c.require("billing", requiredOf[Billing]()...)
	c.oneOf("billing.increment", p.Billing.Increment, BillingIncrements()...)
	for i, r := range p.Billing.Reserved {
		pre := fmt.Sprintf("billing.reserved.%d", i)
		c.require(pre, requiredOf[Reserved]()...)
		if r.TermMonths <= 0 || r.TermMonths > 60 {
			c.errorf(pre+".term_months", "term_months %d is out of range (1..60)", r.TermMonths)
		}
		if r.MaxDiscountPct != nil && (*r.MaxDiscountPct <= 0 || *r.MaxDiscountPct >= 100) {
			c.errorf(pre+".max_discount_pct", "max_discount_pct %v is out of range (0..100)", *r.MaxDiscountPct)
		}
	}
	if p.Network != nil {
		c.oneOf("network.rdma", p.Network.RDMA, RDMAKinds()...)
		c.positivePtr("network.max_bandwidth_gbps", p.Network.MaxBandwidthGbps)
	}
	if p.Support != nil && p.Support.SLAPct != nil && (*p.Support.SLAPct < 50 || *p.Support.SLAPct > 100) {
		c.errorf("support.sla_pct", "sla_pct %v is out of range (50..100)", *p.Support.SLAPct)
	}
	if h := p.HiddenCosts; h != nil {
		p.hiddenCurPos.Line, p.hiddenCurPos.Col = c.pos("hidden_costs.currency")
		c.require("hidden_costs", requiredOf[HiddenCosts]()...)
		for k, v := range map[string]*float64{"egress_per_gb": h.EgressPerGB, "public_ip_per_hour": h.PublicIPPerHour, "storage_per_gb_month": h.StoragePerGBMonth} {
			if v != nil && *v < 0 {
				c.errorf("hidden_costs."+k, "%s must not be negative", k)
			}
		}
	}
	checkExtraCosts(c, p)
	names := map[string]map[string]string{"i18n": versions(p.I18n, func(t ProviderText) string { return t.Name })}
	for i, r := range p.Regions {
		names[fmt.Sprintf("regions.%d.i18n", i)] = versions(r.I18n, func(t RegionText) string { return t.Name })
	}
	p.textPos = checkI18n(c, p.Texts(), names)
	c.sources("", p.Sources)
}

func checkOffer(c checker, pre string, o *Offer, cat *Catalog, p *Provider, currencies, datasets map[string]bool) {
	c.require(pre, requiredOf[Offer]()...)
	if c.has(pre+".gpu") && !c.blank[pre+".gpu"] {
		o.GPU = cat.gpus[o.GPUID]
		if o.GPU == nil {
			c.hintf(pre+".gpu", diag.DidYouMean(o.GPUID, cat.gpuIDs()), "unknown GPU %q", o.GPUID)
		}
	}
	if c.has(pre+".gpu_count") && (o.GPUCount < 1 || o.GPUCount > 1024) {
		c.errorf(pre+".gpu_count", "gpu_count %d is out of range (1..1024)", o.GPUCount)
	}
	c.positive(pre+".vram_per_gpu_gb", o.VRAMPerGPUGB)
	c.positive(pre+".vram_total_gb", o.VRAMTotalGB)
	if o.GPUCount > 0 && o.VRAMPerGPUGB > 0 && o.VRAMTotalGB > 0 && math.Abs(float64(o.GPUCount)*o.VRAMPerGPUGB-o.VRAMTotalGB) > 0.01 {
		c.errorf(pre+".vram_total_gb", "vram_total_gb %v != gpu_count %d x vram_per_gpu_gb %v = %v", o.VRAMTotalGB, o.GPUCount, o.VRAMPerGPUGB, float64(o.GPUCount)*o.VRAMPerGPUGB)
	}
	if o.GPU != nil && o.VRAMPerGPUGB > 0 && o.GPU.MemoryGB > 0 && o.VRAMPerGPUGB != o.GPU.MemoryGB {
		c.errorf(pre+".vram_per_gpu_gb", "vram_per_gpu_gb %v does not match %s's memory_gb %v (wrong GPU id?)", o.VRAMPerGPUGB, o.GPUID, o.GPU.MemoryGB)
	}
	if o.VCPU != nil && *o.VCPU <= 0 {
		c.errorf(pre+".vcpu", "vcpu must be greater than 0")
	}
	c.positivePtr(pre+".ram_gb", o.RAMGB)
	c.positivePtr(pre+".local_disk_gb", o.LocalDiskGB)
	c.positivePtr(pre+".network_gbps", o.NetworkGbps)
	regionIDs := make([]string, 0, len(p.Regions))
	known := map[string]bool{}
	for _, r := range p.Regions {
		regionIDs = append(regionIDs, r.ID)
		known[r.ID] = true
	}
	if c.has(pre+".regions") && len(o.Regions) == 0 {
		c.errorf(pre+".regions", "regions is empty: name at least one region of %s", p.ID)
	}
	for i, r := range o.Regions {
		if !known[r] {
			c.hintf(fmt.Sprintf("%s.regions.%d", pre, i), diag.DidYouMean(r, regionIDs), "unknown region %q of provider %s", r, p.ID)
		}
	}
	if c.has(pre+".currency") && !c.blank[pre+".currency"] && currencies != nil && !currencies[o.Currency] {
		c.hintf(pre+".currency", diag.DidYouMean(o.Currency, mapKeys(currencies)), "currency %q is not in data/fx.toml", o.Currency)
	}
	if c.has(pre+".prices") && len(o.Prices) == 0 {
		c.errorf(pre, "an offer needs at least one [[offers.prices]]")
	}
	checkPrices(c, pre, o, cat, p, datasets)
}

func checkModel(c checker, m *Model) {
	c.require("", requiredOf[Model]()...)
	// A preset states what its config.json states, though the engine
	// reads 0 in some of these as "the usual value".
	for k, v := range map[string]int64{"kv_heads": int64(m.KVHeads), "ffn_size": int64(m.FFN), "vocab_size": int64(m.Vocab), "max_context": int64(m.MaxContext)} {
		c.positive(k, float64(v))
	}
	// Then the engine's ranges (sizing.ModelFields), each at its key, and
	// when they hold its rules across figures (sizing.Model.Validate).
	key := map[string]string{}
	inRange := true
	for _, f := range sizing.ModelFields() {
		key[f.Name] = f.Key()
		lo, hi := f.Bounds(&m.Model)
		switch v := f.Get(&m.Model); {
		case f.Bool:
		case lo == 1 && v < 1:
			c.positive(f.Key(), float64(v))
			inRange = false
		case v < lo || v > hi:
			c.errorf(f.Key(), "%s is %d; it must be between %d and %d", f.Key(), v, lo, hi)
			inRange = false
		}
	}
	if err := m.Model.Validate(); err != nil && inRange {
		c.errorf(key[sizing.Field(err)], "%v", err)
	}
	m.textPos = checkI18n(c, m.Texts(), nil)
	c.sources("", m.Sources)
}

func mapKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
