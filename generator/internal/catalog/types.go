// Package catalog is GPU Atlas's data model: the types of the TOML files
// under data/, loading them with positions, and validating them (types,
// ranges, references between files and plausibility).
package catalog

import (
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/tomlpos"
)

// Source is where a figure came from and when it was read.
type Source struct {
	URL      string    `toml:"url"`
	Title    string    `toml:"title"`
	Accessed time.Time `toml:"accessed"`
}

// Site is data/site.toml: the site's configuration.
type Site struct {
	Title           string `toml:"title"`
	Description     string `toml:"description"`
	BaseURL         string `toml:"base_url"`
	RepoURL         string `toml:"repo_url"`
	Language        string `toml:"language"`
	DisplayCurrency string `toml:"display_currency"`
	// RequireEvidence makes a price's evidence kind required (a price
	// with a dataset has it implied); without it evidence is optional.
	RequireEvidence bool      `toml:"require_evidence"`
	Staleness       Staleness `toml:"staleness"`
	Datasets        []Dataset `toml:"datasets"`
	// Languages are the site's editions, the default first (see Langs).
	Languages []Language `toml:"languages"`
	// QuotaContact is whom a team's readers ask for GPU quota (set by an
	// overlay's site.toml; "" on the public site).
	QuotaContact string `toml:"-"`
}

// Staleness holds the price-age thresholds in days: a price is fresh up to
// FreshDays old, ageing up to StaleDays, and stale beyond. `check` warns
// about prices older than WarnDays.
type Staleness struct {
	FreshDays int `toml:"fresh_days"`
	StaleDays int `toml:"stale_days"`
	WarnDays  int `toml:"warn_days"`
}

// Dataset is a third-party dataset some prices came from, with the licence
// and attribution its use requires.
type Dataset struct {
	ID          string `toml:"id"`
	Title       string `toml:"title"`
	URL         string `toml:"url"`
	Licence     string `toml:"licence"`
	Attribution string `toml:"attribution"`
}

// FX is data/fx.toml: exchange rates as units of each currency per one
// unit of Base, with their date and source. The top-level rates are the
// current ones; History holds older dated sets (see fx.go).
type FX struct {
	Base      string             `toml:"base"`
	AsOf      time.Time          `toml:"as_of"`
	DateBasis string             `toml:"date_basis"`
	Source    string             `toml:"source"`
	Rates     map[string]float64 `toml:"rates"`
	History   []FXRates          `toml:"history"`
}

// Convert converts amount from currency `from` to currency `to`. It
// returns false when either currency is unknown.
func (fx *FX) Convert(amount float64, from, to string) (float64, bool) {
	rf, ok1 := fx.rate(from)
	rt, ok2 := fx.rate(to)
	if !ok1 || !ok2 {
		return 0, false
	}
	return amount / rf * rt, true
}

func (fx *FX) rate(c string) (float64, bool) {
	if c == fx.Base {
		return 1, true
	}
	r, ok := fx.Rates[c]
	return r, ok && r > 0
}

// Currencies returns the base currency and every currency with a rate.
func (fx *FX) Currencies() []string {
	out := []string{fx.Base}
	for c := range fx.Rates {
		out = append(out, c)
	}
	sortStrings(out[1:])
	return out
}

// GPU is data/gpus/<id>.toml: one accelerator's specifications. Optional
// figures are pointers: nil means no sourced figure.
type GPU struct {
	ID   string `toml:"-"`
	File string `toml:"-"`

	Name            string       `toml:"name"`
	Vendor          string       `toml:"vendor"`
	Architecture    string       `toml:"architecture"`
	ReleaseYear     int          `toml:"release_year"`
	FormFactor      string       `toml:"form_factor"`
	Segment         string       `toml:"segment"`
	ExportVariantOf string       `toml:"export_variant_of"`
	MemoryGB        float64      `toml:"memory_gb"`
	MemoryType      string       `toml:"memory_type"`
	MemoryBWGBs     float64      `toml:"memory_bandwidth_gbs"`
	FP32TFLOPS      *float64     `toml:"fp32_tflops"`
	TF32TFLOPS      *float64     `toml:"tf32_tflops"`
	BF16TFLOPS      *float64     `toml:"bf16_tflops"`
	FP16Only        bool         `toml:"fp16_only"`
	FP8TFLOPS       *float64     `toml:"fp8_tflops"`
	INT8TOPS        *float64     `toml:"int8_tops"`
	TDPW            *float64     `toml:"tdp_w"`
	Notes           string       `toml:"notes"`
	Interconnect    Interconnect `toml:"interconnect"`
	Sources         []Source     `toml:"sources"`

	// Offers are filled by Load, sorted by price. A back-reference: page
	// fingerprints (package build) see only which offers they are, so a
	// template may count them but should reach an offer's prices through
	// the page's own rows.
	Offers []*Offer `toml:"-" fingerprint:"ids"`

	exportPos tomlpos.Pos
}

// Interconnect is how a GPU talks to its peers.
type Interconnect struct {
	Kind         string   `toml:"kind"`
	Generation   string   `toml:"generation"`
	BandwidthGBs *float64 `toml:"bandwidth_gbs"`
}

// Provider is data/providers/<id>.toml.
type Provider struct {
	ID   string `toml:"-"`
	File string `toml:"-"`

	Name         string       `toml:"name"`
	Homepage     string       `toml:"homepage"`
	Country      string       `toml:"country"`
	Kind         string       `toml:"kind"`
	Description  string       `toml:"description"`
	Regions      []Region     `toml:"regions"`
	Billing      Billing      `toml:"billing"`
	Network      *Network     `toml:"network"`
	Support      *Support     `toml:"support"`
	FreeTrial    string       `toml:"free_trial"`
	StorageNotes string       `toml:"storage_notes"`
	HiddenCosts  *HiddenCosts `toml:"hidden_costs"`
	// ExtraCosts are dated, sourced charges beyond the instance price
	// (egress, public IPv4, block storage, stopped instances); see
	// hiddencosts.go. They take precedence over HiddenCosts.
	ExtraCosts []ExtraCost             `toml:"extra_costs"`
	I18n       map[string]ProviderText `toml:"i18n"`
	Sources    []Source                `toml:"sources"`

	// Offers are filled by Load; a back-reference, like GPU.Offers.
	Offers []*Offer `toml:"-" fingerprint:"ids"`

	broken  bool          // its file did not decode
	costPos []tomlpos.Pos // where each extra_costs entry's currency is written
	// hiddenCurPos is where hidden_costs.currency is written.
	hiddenCurPos tomlpos.Pos
}

// Region is a provider's location.
type Region struct {
	ID      string                `toml:"id"`
	Name    string                `toml:"name"`
	City    string                `toml:"city"`
	Country string                `toml:"country"`
	I18n    map[string]RegionText `toml:"i18n"`
}

// DisplayName is the region's name for readers: its name, else its city,
// else its id.
func (r Region) DisplayName() string {
	switch {
	case r.Name != "":
		return r.Name
	case r.City != "":
		return r.City
	}
	return r.ID
}

// Billing describes how a provider charges.
type Billing struct {
	OnDemand          bool       `toml:"on_demand"`
	Increment         string     `toml:"increment"`
	MinimumSeconds    *int       `toml:"minimum_seconds"`
	Spot              bool       `toml:"spot"`
	SpotNoticeSeconds *int       `toml:"spot_notice_seconds"`
	Notes             string     `toml:"notes"`
	Reserved          []Reserved `toml:"reserved"`
}

// Reserved is one committed-use term.
type Reserved struct {
	TermMonths     int      `toml:"term_months"`
	MaxDiscountPct *float64 `toml:"max_discount_pct"`
	Notes          string   `toml:"notes"`
}

// Network describes a provider's cluster networking.
type Network struct {
	RDMA             string   `toml:"rdma"`
	MaxBandwidthGbps *float64 `toml:"max_bandwidth_gbps"`
	Notes            string   `toml:"notes"`
}

// Support describes a provider's SLA and support.
type Support struct {
	SLAPct *float64 `toml:"sla_pct"`
	Notes  string   `toml:"notes"`
}

// HiddenCosts are the charges beyond the instance price.
type HiddenCosts struct {
	Currency          string   `toml:"currency"`
	EgressPerGB       *float64 `toml:"egress_per_gb"`
	PublicIPPerHour   *float64 `toml:"public_ip_per_hour"`
	StoragePerGBMonth *float64 `toml:"storage_per_gb_month"`
	Notes             string   `toml:"notes"`
}

// OfferFile is data/offers/<provider-id>.toml.
type OfferFile struct {
	Offers []*Offer `toml:"offers"`
}

// Offer is one priced instance type of a provider.
type Offer struct {
	Instance     string   `toml:"instance"`
	GPUID        string   `toml:"gpu"`
	GPUCount     int      `toml:"gpu_count"`
	VRAMPerGPUGB float64  `toml:"vram_per_gpu_gb"`
	VRAMTotalGB  float64  `toml:"vram_total_gb"`
	VCPU         *int     `toml:"vcpu"`
	RAMGB        *float64 `toml:"ram_gb"`
	LocalDiskGB  *float64 `toml:"local_disk_gb"`
	NetworkGbps  *float64 `toml:"network_gbps"`
	Regions      []string `toml:"regions"`
	Currency     string   `toml:"currency"`
	Notes        string   `toml:"notes"`
	Prices       []Price  `toml:"prices"`

	ID       string    `toml:"-"` // provider-id/instance slug, unique
	File     string    `toml:"-"`
	Line     int       `toml:"-"`
	Provider *Provider `toml:"-"`
	GPU      *GPU      `toml:"-"`

	current []int // indexes into Prices of the newest observation of each price key (prices.go)
}

// Price is one dated observation of a whole instance's price in one
// billing mode (see prices.go for keys, history and the hourly
// equivalent). Load normalises the legacy billing modes reserved-1y and
// reserved-3y to committed with TermMonths 12 and 36, an absent unit to
// "hour", and an absent evidence kind to community-dataset when Dataset
// is set.
type Price struct {
	Billing    string    `toml:"billing"`
	Price      float64   `toml:"price"`
	Unit       string    `toml:"unit"`
	TermMonths int       `toml:"term_months"`
	Payment    string    `toml:"payment"`
	Commitment string    `toml:"commitment"`
	Region     string    `toml:"region"`
	AsOf       time.Time `toml:"as_of"`
	DateBasis  string    `toml:"date_basis"`
	Source     string    `toml:"source"`
	Evidence   string    `toml:"evidence"`
	Dataset    string    `toml:"dataset"`
	// Overlay is set on a price that comes from a team's overlay (a
	// contract price, a discount, an internal pool's cost); nil on
	// public prices.
	Overlay *Overlay `toml:"-"`
}

// PerGPU is the price divided by the offer's GPU count, in the price's
// unit (per GPU-hour for hourly prices; see HourlyPerGPU).
func (p Price) PerGPU(o *Offer) float64 { return p.Price / float64(o.GPUCount) }

// Model is data/models/<id>.toml: a model preset for sizing.
type Model struct {
	ID   string `toml:"-"`
	File string `toml:"-"`

	Name            string `toml:"name"`
	Family          string `toml:"family"`
	Params          int64  `toml:"params"`
	ActiveParams    int64  `toml:"active_params"`
	Layers          int    `toml:"layers"`
	HiddenSize      int    `toml:"hidden_size"`
	Heads           int    `toml:"heads"`
	KVHeads         int    `toml:"kv_heads"`
	FFNSize         int    `toml:"ffn_size"`
	VocabSize       int    `toml:"vocab_size"`
	MaxContext      int    `toml:"max_context"`
	Experts         int    `toml:"experts"`
	ExpertsPerToken int    `toml:"experts_per_token"`
	TiedEmbeddings  bool   `toml:"tied_embeddings"`
	// Architecture details for the sizing engine (sizing.Model documents
	// each); zero means the model does not have the feature.
	HeadDim       int      `toml:"head_dim"`         // when not hidden_size/heads (with MLA: qk_nope + qk_rope)
	KVLoRARank    int      `toml:"kv_lora_rank"`     // multi-head latent attention
	QLoRARank     int      `toml:"q_lora_rank"`      // MLA's compressed query dimension
	QKRopeHeadDim int      `toml:"qk_rope_head_dim"` // MLA's decoupled RoPE key dimension
	VHeadDim      int      `toml:"v_head_dim"`       // value head dimension when not head_dim
	SlidingWindow int      `toml:"sliding_window"`   // tokens a local layer attends to
	LocalLayers   int      `toml:"local_layers"`     // sliding-window layers (0 with a window: all)
	SharedExperts int      `toml:"shared_experts"`   // MoE experts every token uses
	DenseLayers   int      `toml:"dense_layers"`     // MoE model layers with a dense MLP
	DenseFFNSize  int      `toml:"dense_ffn_size"`   // those layers' MLP width
	Notes         string   `toml:"notes"`
	Sources       []Source `toml:"sources"`
}
