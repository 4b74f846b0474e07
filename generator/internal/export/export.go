// Package export renders the catalog as machine-readable downloads: the
// JSON API documents under api/v1/ and a flat CSV of every price. It
// performs no I/O: each function takes the loaded catalog and returns the
// bytes to write.
//
// Numbers are written exactly as the catalog holds them (no rounding):
// encoding/json and strconv.FormatFloat(v, 'f', -1, 64) both print the
// shortest decimal that parses back to the same float64. The derived
// figures are the price per GPU, price / gpu_count (in the price's unit,
// as catalog.Price.PerGPU), and the hourly equivalent, price / hours of
// the unit (as catalog.Price.Hourly), per instance and per GPU.
package export

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
)

// SchemaVersion is the version of the JSON documents' layout. It changes
// only when a key is removed, renamed or changes meaning.
const SchemaVersion = 1

// Output paths, relative to the site root.
const (
	GPUsPath      = "api/v1/gpus.json"
	ProvidersPath = "api/v1/providers.json"
	OffersPath    = "api/v1/offers.json"
	ModelsPath    = "api/v1/models.json"
	UsagePath     = "api/v1/usage.json"
	CSVPath       = "api/v1/offers.csv"
)

// File is one generated file: its path relative to the site root and its
// contents.
type File struct {
	Path string
	Data []byte
}

// Meta is what the documents say about themselves.
type Meta struct {
	// Generated is the build date, written as YYYY-MM-DD.
	Generated time.Time
	// Licence is the licence statement of the documents. When empty,
	// DefaultLicence is used.
	Licence string
}

// DefaultLicence is the licence statement written when Meta.Licence is
// empty. The repository declares no licence of its own for the catalog,
// so it names none and points at the per-dataset licences instead.
const DefaultLicence = "See the source repository for the terms of the GPU Atlas catalog. Prices whose dataset is set come from that third-party dataset and are used under its licence (see attribution)."

// Document is the envelope of every JSON document; Data holds the
// records.
type Document[T any] struct {
	SchemaVersion int           `json:"schema_version"`
	Generated     string        `json:"generated"`
	Licence       string        `json:"licence"`
	Attribution   []Attribution `json:"attribution"`
	Source        string        `json:"source"`
	Data          []T           `json:"data"`
}

// Attribution is a third-party dataset some prices came from (data/site.toml
// [[datasets]]), with the licence and attribution its use requires.
type Attribution struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	URL         string `json:"url"`
	Licence     string `json:"licence"`
	Attribution string `json:"attribution"`
}

// Source is where a figure came from and when it was read.
type Source struct {
	URL      string `json:"url"`
	Title    string `json:"title"`
	Accessed string `json:"accessed"`
}

// GPU is one record of gpus.json. Optional figures are null when the
// catalog has no sourced value.
type GPU struct {
	ID                 string       `json:"id"`
	Name               string       `json:"name"`
	Vendor             string       `json:"vendor"`
	Architecture       string       `json:"architecture"`
	ReleaseYear        int          `json:"release_year"`
	FormFactor         string       `json:"form_factor"`
	Segment            string       `json:"segment"`
	ExportVariantOf    *string      `json:"export_variant_of"`
	MemoryGB           float64      `json:"memory_gb"`
	MemoryType         string       `json:"memory_type"`
	MemoryBandwidthGBs float64      `json:"memory_bandwidth_gbs"`
	FP32TFLOPS         *float64     `json:"fp32_tflops"`
	TF32TFLOPS         *float64     `json:"tf32_tflops"`
	BF16TFLOPS         *float64     `json:"bf16_tflops"`
	FP16Only           bool         `json:"fp16_only"`
	FP8TFLOPS          *float64     `json:"fp8_tflops"`
	INT8TOPS           *float64     `json:"int8_tops"`
	TDPW               *float64     `json:"tdp_w"`
	Interconnect       Interconnect `json:"interconnect"`
	Notes              *string      `json:"notes"`
	Offers             []string     `json:"offers"`
	Sources            []Source     `json:"sources"`
}

// Interconnect is how a GPU talks to its peers.
type Interconnect struct {
	Kind         string   `json:"kind"`
	Generation   *string  `json:"generation"`
	BandwidthGBs *float64 `json:"bandwidth_gbs"`
}

// Provider is one record of providers.json.
type Provider struct {
	ID           string       `json:"id"`
	Name         string       `json:"name"`
	Homepage     string       `json:"homepage"`
	Country      *string      `json:"country"`
	Kind         string       `json:"kind"`
	Description  *string      `json:"description"`
	Regions      []Region     `json:"regions"`
	Billing      Billing      `json:"billing"`
	Network      *Network     `json:"network"`
	Support      *Support     `json:"support"`
	FreeTrial    *string      `json:"free_trial"`
	StorageNotes *string      `json:"storage_notes"`
	HiddenCosts  *HiddenCosts `json:"hidden_costs"`
	// ExtraCosts are the dated charges beyond the instance price, every
	// observation in file order; Current marks the newest of each charge.
	ExtraCosts []ExtraCost             `json:"extra_costs"`
	I18n       map[string]ProviderText `json:"i18n"`
	Offers     []string                `json:"offers"`
	Sources    []Source                `json:"sources"`
}

// ProviderText is a provider's name and description in another language.
type ProviderText struct {
	Name        *string `json:"name"`
	Description *string `json:"description"`
}

// Region is a provider's location.
type Region struct {
	ID      string                `json:"id"`
	Name    *string               `json:"name"`
	City    *string               `json:"city"`
	Country *string               `json:"country"`
	I18n    map[string]RegionText `json:"i18n"`
}

// RegionText is a region's name in another language.
type RegionText struct {
	Name *string `json:"name"`
}

// ExtraCost is one dated observation of a charge beyond the instance
// price: egress (flat or tiered), a public IPv4 address, block storage,
// or what a stopped instance costs.
type ExtraCost struct {
	Kind          string   `json:"kind"`
	Name          *string  `json:"name"`
	Region        *string  `json:"region"`
	Currency      string   `json:"currency"`
	Price         *float64 `json:"price"`
	Unit          *string  `json:"unit"`
	Tiers         []Tier   `json:"tiers"`
	ComputeBilled *bool    `json:"compute_billed"`
	AsOf          string   `json:"as_of"`
	DateBasis     *string  `json:"date_basis"`
	Source        string   `json:"source"`
	Evidence      string   `json:"evidence"`
	Notes         *string  `json:"notes"`
	Current       bool     `json:"current"`
}

// Tier is an egress volume tier: Price per unit up to UpToGB (null on the
// last tier).
type Tier struct {
	UpToGB *float64 `json:"up_to_gb"`
	Price  float64  `json:"price"`
}

// Billing describes how a provider charges.
type Billing struct {
	OnDemand          bool       `json:"on_demand"`
	Increment         *string    `json:"increment"`
	MinimumSeconds    *int       `json:"minimum_seconds"`
	Spot              bool       `json:"spot"`
	SpotNoticeSeconds *int       `json:"spot_notice_seconds"`
	Reserved          []Reserved `json:"reserved"`
	Notes             *string    `json:"notes"`
}

// Reserved is one committed-use term.
type Reserved struct {
	TermMonths     int      `json:"term_months"`
	MaxDiscountPct *float64 `json:"max_discount_pct"`
	Notes          *string  `json:"notes"`
}

// Network describes a provider's cluster networking.
type Network struct {
	RDMA             *string  `json:"rdma"`
	MaxBandwidthGbps *float64 `json:"max_bandwidth_gbps"`
	Notes            *string  `json:"notes"`
}

// Support describes a provider's SLA and support.
type Support struct {
	SLAPct *float64 `json:"sla_pct"`
	Notes  *string  `json:"notes"`
}

// HiddenCosts are the charges beyond the instance price, in Currency.
type HiddenCosts struct {
	Currency          string   `json:"currency"`
	EgressPerGB       *float64 `json:"egress_per_gb"`
	PublicIPPerHour   *float64 `json:"public_ip_per_hour"`
	StoragePerGBMonth *float64 `json:"storage_per_gb_month"`
	Notes             *string  `json:"notes"`
}

// Offer is one record of offers.json: a priced instance type.
type Offer struct {
	ID           string   `json:"id"`
	Provider     string   `json:"provider"`
	Instance     string   `json:"instance"`
	GPU          string   `json:"gpu"`
	GPUCount     int      `json:"gpu_count"`
	VRAMPerGPUGB float64  `json:"vram_per_gpu_gb"`
	VRAMTotalGB  float64  `json:"vram_total_gb"`
	VCPU         *int     `json:"vcpu"`
	RAMGB        *float64 `json:"ram_gb"`
	LocalDiskGB  *float64 `json:"local_disk_gb"`
	NetworkGbps  *float64 `json:"network_gbps"`
	Regions      []string `json:"regions"`
	Currency     string   `json:"currency"`
	Notes        *string  `json:"notes"`
	Prices       []Price  `json:"prices"`
}

// Price is one dated observation of a whole instance's price in one
// billing mode, in the offer's currency, per Unit. Every observation of
// the catalog is listed, in file order; Current marks the newest of each
// price key (billing, unit, term_months, payment, commitment, region),
// and a current price lists the older observations of its key in
// History.
type Price struct {
	// Billing is on-demand, committed or spot (the legacy reserved-1y and
	// reserved-3y are written as committed with their term).
	Billing string  `json:"billing"`
	Price   float64 `json:"price"`
	// PricePerGPU is Price / gpu_count, not rounded, per Unit.
	PricePerGPU float64 `json:"price_per_gpu"`
	Unit        string  `json:"unit"`
	// HourlyEquivalent is Price / hours of the unit (day 24, week 168,
	// month 730); per GPU as well.
	HourlyEquivalent       float64 `json:"hourly_equivalent"`
	HourlyEquivalentPerGPU float64 `json:"hourly_equivalent_per_gpu"`
	TermMonths             *int    `json:"term_months"`
	Payment                *string `json:"payment"`
	Commitment             *string `json:"commitment"`
	// Region is a region id of the provider; null: the offer's regions.
	Region    *string `json:"region"`
	AsOf      string  `json:"as_of"`
	DateBasis *string `json:"date_basis"`
	Source    string  `json:"source"`
	// Evidence is first-party, first-party-docs-repo, third-party or
	// community-dataset; null where the catalog records none.
	Evidence *string `json:"evidence"`
	Dataset  *string `json:"dataset"`
	// ComputedFrom says how the price was computed where the source
	// quotes another figure ("8 x the quoted per-GPU price of 2.49
	// USD/h"); null for a price quoted as is.
	ComputedFrom *string `json:"computed_from"`
	// Latest marks the newest observation of its price key. Current is
	// the site's rule on top of it: the newest observation and at most
	// stale_days old on the generated date (catalog.Staleness.Current);
	// AgeDays is its age in days on that date. Only current prices
	// answer a question; a consumer reading the file later recomputes
	// the age from as_of.
	Latest  bool `json:"latest"`
	Current bool `json:"current"`
	AgeDays int  `json:"age_days"`
	// History holds, on the latest price, the older observations of its
	// key, oldest first ([] when none); null on an older observation.
	History []Observation `json:"history"`
	// Overlay is true (only in a team's build, -overlay) on a price that
	// comes from the team's overlay: a contract price, a discount, an
	// internal pool's cost. OverlayLabel describes it ("contract price,
	// valid until 2027-03-31") and PublicPrice is the public price it
	// replaces, when there is one. All three are absent on public prices.
	Overlay      bool     `json:"overlay,omitempty"`
	OverlayLabel string   `json:"overlay_label,omitempty"`
	PublicPrice  *float64 `json:"public_price,omitempty"`
}

// Observation is an older observation of a price.
type Observation struct {
	AsOf     string  `json:"as_of"`
	Price    float64 `json:"price"`
	Source   string  `json:"source"`
	Evidence *string `json:"evidence"`
}

// Model is one record of models.json: a model preset for sizing. The
// mixture-of-experts fields are null for dense models, the vision fields
// for text models.
type Model struct {
	ID              string `json:"id"`
	Name            string `json:"name"`
	Family          string `json:"family"`
	Params          int64  `json:"params"`
	ActiveParams    *int64 `json:"active_params"`
	Layers          int    `json:"layers"`
	HiddenSize      int    `json:"hidden_size"`
	Heads           int    `json:"heads"`
	KVHeads         int    `json:"kv_heads"`
	FFNSize         int    `json:"ffn_size"`
	VocabSize       int    `json:"vocab_size"`
	MaxContext      int    `json:"max_context"`
	Experts         *int   `json:"experts"`
	ExpertsPerToken *int   `json:"experts_per_token"`
	TiedEmbeddings  bool   `json:"tied_embeddings"`
	// VisionParams, ImageTokens and ImagePatches are a vision-language
	// model's encoder; null for a text model.
	VisionParams *int64   `json:"vision_params"`
	ImageTokens  *int     `json:"image_tokens"`
	ImagePatches *int     `json:"image_patches"`
	Notes        *string  `json:"notes"`
	Sources      []Source `json:"sources"`
}

// Usage is one record of usage.json: a usage price of a platform
// (data/usage), a hosted API's per million tokens of a model preset or a
// serverless GPU's per GPU-second. The fields of the other kind are null.
type Usage struct {
	Platform     string   `json:"platform"`
	PlatformName string   `json:"platform_name"`
	Homepage     string   `json:"homepage"`
	Kind         string   `json:"kind"` // "api" or "serverless"
	Model        *string  `json:"model"`
	GPU          *string  `json:"gpu"`
	ServedAs     string   `json:"served_as"`
	Precision    *string  `json:"precision"`
	InputPerM    *float64 `json:"input_per_million"`
	OutputPerM   *float64 `json:"output_per_million"`
	PerSecond    *float64 `json:"per_second"`
	ScaleToZero  *bool    `json:"scale_to_zero"`
	IdleSeconds  *float64 `json:"idle_seconds"` // a serverless GPU's documented idle timeout, billed; null where none is documented
	Currency     string   `json:"currency"`
	AsOf         string   `json:"as_of"`
	AgeDays      int      `json:"age_days"`
	Current      bool     `json:"current"`
	DateBasis    string   `json:"date_basis"`
	Source       string   `json:"source"`
	Evidence     string   `json:"evidence"`
	Notes        string   `json:"notes"`
}

// JSON returns the API documents (GPUsPath, ProvidersPath, OffersPath,
// ModelsPath, UsagePath, in that order). Records are in catalog order: GPUs,
// providers and models by id, offers by provider then file order.
func JSON(c *catalog.Catalog, m Meta) ([]File, error) {
	var gpus []GPU
	for _, g := range c.GPUs {
		gpus = append(gpus, gpuRecord(g))
	}
	var providers []Provider
	for _, p := range c.Providers {
		providers = append(providers, providerRecord(p))
	}
	var offers []Offer
	for _, o := range c.Offers {
		offers = append(offers, offerRecord(o, m.Generated, c.Site.Staleness))
	}
	var models []Model
	for _, x := range c.Models {
		models = append(models, modelRecord(x))
	}
	usage := []Usage{}
	for _, p := range c.Platforms {
		usage = append(usage, usageRecords(p, m.Generated, c.Site.Staleness)...)
	}
	var files []File
	for _, f := range []struct {
		path string
		doc  any
	}{
		{GPUsPath, envelope(c, m, gpus)},
		{ProvidersPath, envelope(c, m, providers)},
		{OffersPath, envelope(c, m, offers)},
		{ModelsPath, envelope(c, m, models)},
		{UsagePath, envelope(c, m, usage)},
	} {
		b, err := marshal(f.doc)
		if err != nil {
			return nil, err
		}
		files = append(files, File{Path: f.path, Data: b})
	}
	return files, nil
}

func envelope[T any](c *catalog.Catalog, m Meta, data []T) Document[T] {
	lic := m.Licence
	if lic == "" {
		lic = DefaultLicence
	}
	if data == nil {
		data = []T{}
	}
	return Document[T]{
		SchemaVersion: SchemaVersion,
		Generated:     date(m.Generated),
		Licence:       lic,
		Attribution:   attributions(c.Site.Datasets),
		Source:        c.Site.RepoURL,
		Data:          data,
	}
}

// attributions lists the datasets, never null.
func attributions(ds []catalog.Dataset) []Attribution {
	out := []Attribution{}
	for _, d := range ds {
		out = append(out, Attribution{ID: d.ID, Title: d.Title, URL: d.URL, Licence: d.Licence, Attribution: d.Attribution})
	}
	return out
}

// marshal encodes without HTML escaping (the documents are served as
// application/json) and without a trailing newline.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func date(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.DateOnly)
}

// opt returns nil for the empty string: an absent optional text.
func opt(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// optInt returns nil for zero: an absent optional count.
func optInt[T int | int64](v T) *T {
	if v == 0 {
		return nil
	}
	return &v
}

func sources(ss []catalog.Source) []Source {
	out := []Source{}
	for _, s := range ss {
		out = append(out, Source{URL: s.URL, Title: s.Title, Accessed: date(s.Accessed)})
	}
	return out
}

func offerIDs(offers []*catalog.Offer) []string {
	out := []string{}
	for _, o := range offers {
		out = append(out, o.ID)
	}
	return out
}

func gpuRecord(g *catalog.GPU) GPU {
	return GPU{
		ID: g.ID, Name: g.Name, Vendor: g.Vendor, Architecture: g.Architecture, ReleaseYear: g.ReleaseYear,
		FormFactor: g.FormFactor, Segment: g.Segment, ExportVariantOf: opt(g.ExportVariantOf),
		MemoryGB: g.MemoryGB, MemoryType: g.MemoryType, MemoryBandwidthGBs: g.MemoryBWGBs,
		FP32TFLOPS: g.FP32TFLOPS, TF32TFLOPS: g.TF32TFLOPS, BF16TFLOPS: g.BF16TFLOPS, FP16Only: g.FP16Only,
		FP8TFLOPS: g.FP8TFLOPS, INT8TOPS: g.INT8TOPS, TDPW: g.TDPW,
		Interconnect: Interconnect{Kind: g.Interconnect.Kind, Generation: opt(g.Interconnect.Generation), BandwidthGBs: g.Interconnect.BandwidthGBs},
		Notes:        opt(g.Notes), Offers: offerIDs(g.Offers), Sources: sources(g.Sources),
	}
}

func providerRecord(p *catalog.Provider) Provider {
	r := Provider{
		ID: p.ID, Name: p.Name, Homepage: p.Homepage, Country: opt(p.Country), Kind: p.Kind, Description: opt(p.Description),
		Regions: []Region{}, FreeTrial: opt(p.FreeTrial), StorageNotes: opt(p.StorageNotes),
		Offers: offerIDs(p.Offers), Sources: sources(p.Sources),
		Billing: Billing{
			OnDemand: p.Billing.OnDemand, Increment: opt(p.Billing.Increment), MinimumSeconds: p.Billing.MinimumSeconds,
			Spot: p.Billing.Spot, SpotNoticeSeconds: p.Billing.SpotNoticeSeconds, Reserved: []Reserved{}, Notes: opt(p.Billing.Notes),
		},
	}
	for _, g := range p.Regions {
		reg := Region{ID: g.ID, Name: opt(g.Name), City: opt(g.City), Country: opt(g.Country), I18n: map[string]RegionText{}}
		for lang, t := range g.I18n {
			reg.I18n[lang] = RegionText{Name: opt(t.Name)}
		}
		r.Regions = append(r.Regions, reg)
	}
	r.I18n = map[string]ProviderText{}
	for lang, t := range p.I18n {
		r.I18n[lang] = ProviderText{Name: opt(t.Name), Description: opt(t.Description)}
	}
	r.ExtraCosts = extraCosts(p)
	for _, x := range p.Billing.Reserved {
		r.Billing.Reserved = append(r.Billing.Reserved, Reserved{TermMonths: x.TermMonths, MaxDiscountPct: x.MaxDiscountPct, Notes: opt(x.Notes)})
	}
	if n := p.Network; n != nil {
		r.Network = &Network{RDMA: opt(n.RDMA), MaxBandwidthGbps: n.MaxBandwidthGbps, Notes: opt(n.Notes)}
	}
	if s := p.Support; s != nil {
		r.Support = &Support{SLAPct: s.SLAPct, Notes: opt(s.Notes)}
	}
	if h := p.HiddenCosts; h != nil {
		r.HiddenCosts = &HiddenCosts{Currency: h.Currency, EgressPerGB: h.EgressPerGB, PublicIPPerHour: h.PublicIPPerHour,
			StoragePerGBMonth: h.StoragePerGBMonth, Notes: opt(h.Notes)}
	}
	return r
}

func offerRecord(o *catalog.Offer, now time.Time, st catalog.Staleness) Offer {
	r := Offer{
		ID: o.ID, Provider: o.Provider.ID, Instance: o.Instance, GPU: o.GPU.ID, GPUCount: o.GPUCount,
		VRAMPerGPUGB: o.VRAMPerGPUGB, VRAMTotalGB: o.VRAMTotalGB, VCPU: o.VCPU, RAMGB: o.RAMGB,
		LocalDiskGB: o.LocalDiskGB, NetworkGbps: o.NetworkGbps, Regions: append([]string{}, o.Regions...),
		Currency: o.Currency, Notes: opt(o.Notes), Prices: []Price{},
	}
	hist := o.Histories()
	current := map[catalog.PriceKey]time.Time{}
	for _, p := range o.Current() {
		current[p.Key()] = p.AsOf
	}
	for _, p := range o.Prices {
		rec := Price{Billing: p.Billing, Price: p.Price, PricePerGPU: p.PerGPU(o), Unit: p.Unit,
			HourlyEquivalent: p.Hourly(), HourlyEquivalentPerGPU: p.HourlyPerGPU(o), TermMonths: optInt(p.TermMonths),
			Payment: opt(p.Payment), Commitment: opt(p.Commitment), Region: opt(p.Region),
			AsOf: date(p.AsOf), DateBasis: opt(p.DateBasis), Source: p.Source, Evidence: opt(p.Evidence), Dataset: opt(p.Dataset), ComputedFrom: opt(p.ComputedFrom)}
		if m := p.Overlay; m != nil {
			rec.Overlay, rec.OverlayLabel = true, m.Label()
			if m.Public != nil {
				pub := m.Public.Price
				rec.PublicPrice = &pub
			}
		}
		rec.AgeDays = catalog.AgeDays(p.AsOf, now)
		if at, ok := current[p.Key()]; ok && at.Equal(p.AsOf) {
			rec.Latest = true
			rec.Current = st.Current(rec.AgeDays)
			rec.History = []Observation{}
			for _, h := range hist[p.Key()] {
				if h.AsOf.Before(p.AsOf) {
					rec.History = append(rec.History, Observation{AsOf: date(h.AsOf), Price: h.Price, Source: h.Source, Evidence: opt(h.Evidence)})
				}
			}
		}
		r.Prices = append(r.Prices, rec)
	}
	return r
}

func extraCosts(p *catalog.Provider) []ExtraCost {
	current := map[catalog.CostKey]time.Time{}
	for _, e := range p.CurrentCosts() {
		current[e.Key()] = e.AsOf
	}
	out := []ExtraCost{}
	for _, e := range p.ExtraCosts {
		rec := ExtraCost{Kind: e.Kind, Name: opt(e.Name), Region: opt(e.Region), Currency: e.Currency, Price: e.Price, Unit: opt(e.Unit),
			Tiers: []Tier{}, ComputeBilled: e.ComputeBilled, AsOf: date(e.AsOf), DateBasis: opt(e.DateBasis), Source: e.Source,
			Evidence: e.Evidence, Notes: opt(e.Notes)}
		for _, t := range e.Tiers {
			rec.Tiers = append(rec.Tiers, Tier{UpToGB: t.UpToGB, Price: t.Price})
		}
		if at, ok := current[e.Key()]; ok && at.Equal(e.AsOf) {
			rec.Current = true
		}
		out = append(out, rec)
	}
	return out
}

func modelRecord(m *catalog.Model) Model {
	return Model{
		ID: m.ID, Name: m.Name, Family: m.Family, Params: m.Params, ActiveParams: optInt(m.ActiveParams),
		Layers: m.Layers, HiddenSize: m.Hidden, Heads: m.Heads, KVHeads: m.KVHeads, FFNSize: m.FFN,
		VocabSize: m.Vocab, MaxContext: m.MaxContext, Experts: optInt(m.Experts), ExpertsPerToken: optInt(m.ExpertsPerToken),
		TiedEmbeddings: m.TiedEmbeddings, VisionParams: optInt(m.VisionParams), ImageTokens: optInt(m.ImageTokens),
		ImagePatches: optInt(m.ImagePatches), Notes: opt(m.Notes), Sources: sources(m.Sources),
	}
}

// usageRecords are a platform's usage prices, API prices first, each aged
// at now by st.
func usageRecords(p *catalog.Platform, now time.Time, st catalog.Staleness) []Usage {
	var out []Usage
	rec := func(kind, served string, e catalog.UsageEvidence) Usage {
		age := catalog.AgeDays(e.AsOf, now)
		return Usage{Platform: p.ID, PlatformName: p.Name, Homepage: p.Homepage, Kind: kind, ServedAs: served,
			Currency: e.Currency, AsOf: date(e.AsOf), AgeDays: age, Current: st.Current(age), DateBasis: e.DateBasis,
			Source: e.Source, Evidence: e.Evidence, Notes: e.Notes}
	}
	for _, a := range p.API {
		u := rec("api", a.ServedAs, a.UsageEvidence)
		in, out2 := a.InputPerM, a.OutputPerM
		u.Model, u.Precision, u.InputPerM, u.OutputPerM = opt(a.Model), opt(a.Precision), &in, &out2
		out = append(out, u)
	}
	for _, s := range p.Serverless {
		u := rec("serverless", s.ServedAs, s.UsageEvidence)
		ps, z := s.PerSecond, s.ScaleToZero
		u.GPU, u.PerSecond, u.ScaleToZero, u.IdleSeconds = opt(s.GPU), &ps, &z, s.IdleSeconds
		out = append(out, u)
	}
	return out
}

// CSVHeader is the header row of offers.csv.
func CSVHeader() []string {
	return []string{"provider", "provider_name", "instance", "gpu", "gpu_name", "gpu_count", "vram_per_gpu_gb", "vram_total_gb",
		"vcpu", "ram_gb", "regions", "currency", "billing", "price_per_hour", "price_per_gpu_hour", "as_of", "source",
		"dataset", "dataset_licence", "unit", "term_months", "payment", "commitment", "region", "evidence", "date_basis",
		"hourly_equivalent", "hourly_equivalent_per_gpu", "current", "latest", "age_days"}
}

// CSV returns offers.csv: a header row, then one row per price
// observation in catalog order (offers by provider then file order,
// prices in file order); latest is "true" on the newest observation of
// each price key, current where it is also at most stale_days old on now
// (catalog.Staleness.Current), and age_days is its age on now. price_per_hour and price_per_gpu_hour are the price as
// quoted per its unit (per hour unless unit says otherwise: the columns
// keep their first names), hourly_equivalent(_per_gpu) divides by the
// unit's hours; amounts are in the offer's currency;
// regions are space-separated; an unknown vcpu or ram_gb is an empty
// cell; dataset and dataset_licence are empty for GPU Atlas's own rows.
// Lines end in "\n".
func CSV(c *catalog.Catalog, now time.Time) ([]byte, error) {
	licences := map[string]string{}
	for _, d := range c.Site.Datasets {
		licences[d.ID] = d.Licence
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	// A team's build (an overlay with prices) adds three columns: overlay
	// (true/false), overlay_label and public_price (see Price.Overlay).
	overlay := c.HasOverlay()
	header := CSVHeader()
	if overlay {
		header = append(header, "overlay", "overlay_label", "public_price")
	}
	if err := w.Write(header); err != nil {
		return nil, err
	}
	for _, o := range c.Offers {
		vcpu, ram := "", ""
		if o.VCPU != nil {
			vcpu = strconv.Itoa(*o.VCPU)
		}
		if o.RAMGB != nil {
			ram = num(*o.RAMGB)
		}
		current := map[catalog.PriceKey]time.Time{}
		for _, p := range o.Current() {
			current[p.Key()] = p.AsOf
		}
		for _, p := range o.Prices {
			term := ""
			if p.TermMonths > 0 {
				term = strconv.Itoa(p.TermMonths)
			}
			at, ok := current[p.Key()]
			latest, age := ok && at.Equal(p.AsOf), catalog.AgeDays(p.AsOf, now)
			row := []string{
				o.Provider.ID, o.Provider.Name, o.Instance, o.GPU.ID, o.GPU.Name, strconv.Itoa(o.GPUCount),
				num(o.VRAMPerGPUGB), num(o.VRAMTotalGB), vcpu, ram, strings.Join(o.Regions, " "), o.Currency,
				p.Billing, num(p.Price), num(p.PerGPU(o)), date(p.AsOf), p.Source, p.Dataset, licences[p.Dataset],
				p.Unit, term, p.Payment, p.Commitment, p.Region, p.Evidence, p.DateBasis,
				num(p.Hourly()), num(p.HourlyPerGPU(o)), strconv.FormatBool(latest && c.Site.Staleness.Current(age)),
				strconv.FormatBool(latest), strconv.Itoa(age),
			}
			if overlay {
				label, public := "", ""
				if p.Overlay != nil {
					label = p.Overlay.Label()
					if p.Overlay.Public != nil {
						public = num(p.Overlay.Public.Price)
					}
				}
				row = append(row, strconv.FormatBool(p.Overlay != nil), label, public)
			}
			if err := w.Write(row); err != nil {
				return nil, err
			}
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// num formats a float as the shortest decimal that parses back exactly.
func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
