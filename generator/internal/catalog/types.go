// Package catalog is GPU Atlas's data model: the types of the TOML files
// under data/, loading them with positions, and validating them (types,
// ranges, references between files and plausibility).
//
// A field's toml tag is its key in the data files and its doc tag the
// key's description, which the JSON Schemas of package schema show in
// editors (wording as CONTRIBUTING.md; a key without one gets none). A
// struct tag is a raw string: a backtick in a doc is written \x60.
package catalog

import (
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/tomlpos"
)

// Source is where a figure came from and when it was read.
type Source struct {
	URL      string    `toml:"url" doc:"Where the figure was read: a URL, or a document name where no URL exists."`
	Title    string    `toml:"title" doc:"What the source is, e.g. \"NVIDIA H100 Tensor Core GPU datasheet\"."`
	Accessed time.Time `toml:"accessed" doc:"The date the source was read (a TOML local date: 2025-04-21)."`
	// I18n holds the title in other languages (pages in that language
	// show it; the URL and date stay the same).
	I18n map[string]SourceText `toml:"i18n" doc:"The title in other languages: i18n = { zh = { title = \"NVIDIA H100 数据手册\" } }."`
}

// Site is data/site.toml: the site's configuration.
type Site struct {
	Title           string `toml:"title" doc:"The site's title."`
	Description     string `toml:"description" doc:"One sentence describing the site, for search results."`
	BaseURL         string `toml:"base_url" doc:"The public URL the site is served from; \x60build -base-url\x60 overrides it."`
	RepoURL         string `toml:"repo_url" doc:"The repository URL that \"report a problem\" links open an issue in."`
	Language        string `toml:"language" doc:"The site's language (BCP 47), e.g. en."`
	DisplayCurrency string `toml:"display_currency" doc:"The currency prices are shown in; a currency of data/fx.toml."`
	// RequireEvidence makes a price's evidence kind required (a price
	// with a dataset has it implied); without it evidence is optional.
	RequireEvidence bool      `toml:"require_evidence" doc:"When true, every price needs its evidence kind (a price with a dataset has it implied)."`
	Staleness       Staleness `toml:"staleness" doc:"Price age bands, in days since a price's as_of date."`
	Datasets        []Dataset `toml:"datasets" doc:"Third-party datasets some prices came from, with their licence and attribution."`
	// Languages are the site's editions, the default first (see Langs).
	Languages []Language `toml:"languages"`
	// Calculator is the calculator's first estimate.
	Calculator Calculator `toml:"calculator" doc:"The calculator's first estimate: the model preset and GPU it opens with."`
	// Compare holds the compare index's popular pairs.
	Compare Compare `toml:"compare" doc:"The compare index's popular pairs."`
	// QuotaContact is whom a team's readers ask for GPU quota (set by an
	// overlay's site.toml; "" on the public site).
	QuotaContact string `toml:"-"`
}

// Calculator names what the calculator page opens with; an empty field
// means the catalog's first model or GPU.
type Calculator struct {
	Model string `toml:"model" doc:"The id of the model preset the calculator opens with (data/models/ID.toml)."`
	GPU   string `toml:"gpu" doc:"The id of the GPU the calculator opens with (data/gpus/ID.toml)."`
}

// Compare lists the pairs of GPUs readers compare most, shown first on the
// compare index.
type Compare struct {
	Popular [][]string `toml:"popular" doc:"Pairs of GPU ids, e.g. [[\"rtx-4090\", \"l40s\"], [\"a800-sxm4-80gb\", \"h800-sxm5-80gb\"]]."`
}

// Staleness holds the price-age thresholds in days: a price is fresh up to
// FreshDays old, ageing up to StaleDays, and stale beyond. `check` warns
// about prices older than WarnDays.
type Staleness struct {
	FreshDays int `toml:"fresh_days" doc:"A price is fresh up to this many days old."`
	StaleDays int `toml:"stale_days" doc:"A price is ageing up to this many days old and stale beyond; greater than fresh_days."`
	WarnDays  int `toml:"warn_days" doc:"\x60check\x60 warns about prices older than this many days."`
}

// Dataset is a third-party dataset some prices came from, with the licence
// and attribution its use requires.
type Dataset struct {
	ID          string `toml:"id" doc:"The dataset's id, referred to by a price's dataset key."`
	Title       string `toml:"title" doc:"The dataset's name."`
	URL         string `toml:"url" doc:"Where the dataset is published (a pinned commit where possible)."`
	Licence     string `toml:"licence" doc:"The dataset's licence, e.g. MIT."`
	Attribution string `toml:"attribution" doc:"The attribution the licence requires, shown with every price from the dataset."`
}

// FX is data/fx.toml: exchange rates as units of each currency per one
// unit of Base, with their date and source. The top-level rates are the
// current ones; History holds older dated sets (see fx.go).
type FX struct {
	Base      string             `toml:"base" doc:"The base currency (ISO 4217) the rates are quoted against."`
	AsOf      time.Time          `toml:"as_of" doc:"The date the rates were true (a TOML local date: 2025-04-21)."`
	DateBasis string             `toml:"date_basis" doc:"How as_of was established: page-date, commit-date, accessed, dataset-row-date or api-retrieved."`
	Source    string             `toml:"source" doc:"Where the rates were read."`
	Rates     map[string]float64 `toml:"rates" doc:"Units of each currency (ISO 4217 code as the key) per 1 unit of base."`
	History   []FXRates          `toml:"history" doc:"Older dated sets of rates, each older than the current (top-level) set; kept as history."`
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

	Name            string             `toml:"name" doc:"Display name, e.g. \"H100 SXM5 80GB\"."`
	Vendor          string             `toml:"vendor" doc:"NVIDIA, AMD, Intel, Huawei, Google, ..."`
	Architecture    string             `toml:"architecture" doc:"The architecture, e.g. Hopper."`
	ReleaseYear     int                `toml:"release_year" doc:"Year of release, 2010 to the current year."`
	FormFactor      string             `toml:"form_factor" doc:"How the accelerator is packaged."`
	Segment         string             `toml:"segment" doc:"The market segment."`
	ExportVariantOf string             `toml:"export_variant_of" doc:"For A800/H800/H20-style export parts: the GPU id the part derives from."`
	MemoryGB        float64            `toml:"memory_gb" doc:"Memory as the vendor quotes it (GPU \"GB\" is binary: 80 GB = 80 GiB)."`
	MemoryType      string             `toml:"memory_type" doc:"Memory technology, e.g. HBM3."`
	MemoryBWGBs     float64            `toml:"memory_bandwidth_gbs" doc:"Memory bandwidth in GB/s."`
	FP32TFLOPS      *float64           `toml:"fp32_tflops" doc:"Dense, non-tensor FP32 TFLOPS."`
	TF32TFLOPS      *float64           `toml:"tf32_tflops" doc:"Dense tensor TF32 TFLOPS (never the sparse figure)."`
	BF16TFLOPS      *float64           `toml:"bf16_tflops" doc:"Dense tensor BF16 TFLOPS (FP16 where the part has no BF16; then set fp16_only = true)."`
	FP16Only        bool               `toml:"fp16_only" doc:"True when bf16_tflops holds FP16 (Volta, Turing, Ascend)."`
	FP8TFLOPS       *float64           `toml:"fp8_tflops" doc:"Dense FP8 TFLOPS."`
	INT8TOPS        *float64           `toml:"int8_tops" doc:"Dense INT8 TOPS."`
	Precisions      []string           `toml:"precisions" doc:"The formats the GPU computes matrix products in at full rate (fp16, bf16, fp8, fp4, int8): its tensor or matrix units, or, on GPUs without them, packed vector instructions (Pascal's fp16, its int8 dot product); from the vendor's architecture documentation in sources. [] records none. Absent: not recorded, and the calculator never excludes the GPU on precision."`
	TDPW            *float64           `toml:"tdp_w" doc:"Thermal design power in watts."`
	Notes           string             `toml:"notes" doc:"Shown on the GPU page; disagreements between sources go here."`
	I18n            map[string]GPUText `toml:"i18n" doc:"The notes (and a name that holds words) in other languages: [i18n.zh] notes = \"...\"."`
	Interconnect    Interconnect       `toml:"interconnect" doc:"How the GPU talks to its peers."`
	Sources         []Source           `toml:"sources" doc:"Where the specifications come from; at least one."`

	// Offers are filled by Load, sorted by price. A back-reference: page
	// fingerprints (package build) see only which offers they are, so a
	// template may count them but should reach an offer's prices through
	// the page's own rows.
	Offers []*Offer `toml:"-" fingerprint:"ids"`

	exportPos tomlpos.Pos
	textPos   map[string]tomlpos.Pos // where each text is written (checkI18n)
}

// Interconnect is how a GPU talks to its peers.
type Interconnect struct {
	Kind         string   `toml:"kind" doc:"The interconnect technology."`
	Generation   string   `toml:"generation" doc:"The generation, e.g. NVLink \"4\", PCIe \"5.0\"."`
	BandwidthGBs *float64 `toml:"bandwidth_gbs" doc:"GB/s per GPU, bidirectional."`
}

// Provider is data/providers/<id>.toml.
type Provider struct {
	ID   string `toml:"-"`
	File string `toml:"-"`

	Name         string       `toml:"name" doc:"The provider's name."`
	Homepage     string       `toml:"homepage" doc:"The provider's homepage (http or https)."`
	PricePage    string       `toml:"price_page" doc:"The provider's own price page or price calculator (http or https); a page whose newest price is stale sends readers there (else to the homepage)."`
	Country      string       `toml:"country" doc:"ISO 3166-1 alpha-2 code of the headquarters; omit when no source states it."`
	Kind         string       `toml:"kind" doc:"What kind of cloud the provider is."`
	Description  string       `toml:"description" doc:"One or two sentences, in our own words."`
	Regions      []Region     `toml:"regions" doc:"The provider's locations; offers refer to regions by id."`
	Billing      Billing      `toml:"billing" doc:"How the provider charges."`
	Network      *Network     `toml:"network" doc:"Cluster networking."`
	Support      *Support     `toml:"support" doc:"SLA and support."`
	FreeTrial    string       `toml:"free_trial" doc:"Credits or trial on offer."`
	StorageNotes string       `toml:"storage_notes" doc:"Notes on storage."`
	HiddenCosts  *HiddenCosts `toml:"hidden_costs" doc:"Charges beyond the instance price; all amounts in currency."`
	// ExtraCosts are dated, sourced charges beyond the instance price
	// (egress, public IPv4, block storage, stopped instances); see
	// hiddencosts.go. They take precedence over HiddenCosts.
	ExtraCosts []ExtraCost             `toml:"extra_costs" doc:"Dated, sourced charges beyond the instance price: egress, public IPv4, block storage, stopped instances. They take precedence over hidden_costs."`
	I18n       map[string]ProviderText `toml:"i18n" doc:"The provider's name and description in other languages, keyed by language code ([i18n.zh])."`
	Sources    []Source                `toml:"sources" doc:"Where the provider facts come from; at least one."`

	// Offers are filled by Load; a back-reference, like GPU.Offers.
	Offers []*Offer `toml:"-" fingerprint:"ids"`

	broken  bool                   // its file did not decode
	costPos []tomlpos.Pos          // where each extra_costs entry's currency is written
	textPos map[string]tomlpos.Pos // where each text is written (checkI18n)
	// hiddenCurPos is where hidden_costs.currency is written.
	hiddenCurPos tomlpos.Pos
}

// Region is a provider's location.
type Region struct {
	ID      string                `toml:"id" doc:"The provider's own region id where it has one."`
	Name    string                `toml:"name" doc:"The region's display name, e.g. \"US East (N. Virginia)\"."`
	City    string                `toml:"city" doc:"The city the region is in, where the source names one (never a country or state: those go in country and state)."`
	State   string                `toml:"state" doc:"The state, province or area the region is in where the source names no city, e.g. \"Virginia\"."`
	Country string                `toml:"country" doc:"ISO 3166-1 alpha-2 code of the region's country."`
	I18n    map[string]RegionText `toml:"i18n" doc:"The region's name in other languages: i18n = { zh = { name = \"华北2（北京）\" } }."`
}

// DisplayName is the region's name for readers: its name, else its city,
// else its state, else its id.
func (r Region) DisplayName() string {
	switch {
	case r.Name != "":
		return r.Name
	case r.City != "":
		return r.City
	case r.State != "":
		return r.State
	}
	return r.ID
}

// Billing describes how a provider charges.
type Billing struct {
	OnDemand          bool       `toml:"on_demand" doc:"Whether instances can be rented pay-as-you-go."`
	Increment         string     `toml:"increment" doc:"The billing increment."`
	MinimumSeconds    *int       `toml:"minimum_seconds" doc:"The minimum charge, in seconds."`
	Spot              bool       `toml:"spot" doc:"Whether spot (preemptible, interruptible) instances are offered."`
	SpotNoticeSeconds *int       `toml:"spot_notice_seconds" doc:"The interruption notice for spot instances, in seconds."`
	Notes             string     `toml:"notes" doc:"Notes on billing."`
	Reserved          []Reserved `toml:"reserved" doc:"Committed-use terms; zero or more."`
	// I18n holds the notes in other languages, as every note below.
	I18n map[string]NoteText `toml:"i18n" doc:"The notes in other languages, keyed by language code: [billing.i18n.zh] notes = \"...\"."`
}

// Reserved is one committed-use term.
type Reserved struct {
	TermMonths     int                 `toml:"term_months" doc:"The term in months, 1 to 60."`
	MaxDiscountPct *float64            `toml:"max_discount_pct" doc:"The provider's published \"up to\" discount, in percent."`
	Notes          string              `toml:"notes" doc:"Notes on the term."`
	I18n           map[string]NoteText `toml:"i18n" doc:"The notes in other languages: i18n = { zh = { notes = \"...\" } }."`
}

// Network describes a provider's cluster networking.
type Network struct {
	RDMA             string              `toml:"rdma" doc:"The RDMA fabric between instances."`
	MaxBandwidthGbps *float64            `toml:"max_bandwidth_gbps" doc:"Maximum network bandwidth per instance, in Gbit/s."`
	Notes            string              `toml:"notes" doc:"Notes on networking."`
	I18n             map[string]NoteText `toml:"i18n" doc:"The notes in other languages: [network.i18n.zh] notes = \"...\"."`
}

// Support describes a provider's SLA and support.
type Support struct {
	SLAPct *float64            `toml:"sla_pct" doc:"The published compute SLA, in percent (50 to 100)."`
	Notes  string              `toml:"notes" doc:"Notes on support."`
	I18n   map[string]NoteText `toml:"i18n" doc:"The notes in other languages: [support.i18n.zh] notes = \"...\"."`
}

// HiddenCosts are the charges beyond the instance price.
type HiddenCosts struct {
	Currency          string              `toml:"currency" doc:"The currency of the amounts; a currency of data/fx.toml."`
	EgressPerGB       *float64            `toml:"egress_per_gb" doc:"Internet egress per GB."`
	PublicIPPerHour   *float64            `toml:"public_ip_per_hour" doc:"A public IPv4 address per hour."`
	StoragePerGBMonth *float64            `toml:"storage_per_gb_month" doc:"Block storage per GB-month."`
	Notes             string              `toml:"notes" doc:"Notes on other charges."`
	I18n              map[string]NoteText `toml:"i18n" doc:"The notes in other languages: [hidden_costs.i18n.zh] notes = \"...\"."`
}

// OfferFile is data/offers/<provider-id>.toml.
type OfferFile struct {
	Offers []*Offer `toml:"offers" doc:"The priced instances of the provider the file is named after."`
}

// Offer is one priced instance type of a provider.
type Offer struct {
	Instance     string   `toml:"instance" doc:"The provider's name for the instance type."`
	GPUID        string   `toml:"gpu" doc:"The GPU, a data/gpus id."`
	GPUCount     int      `toml:"gpu_count" doc:"GPUs per instance, 1 to 1024 (fractional GPUs are not offers)."`
	VRAMPerGPUGB float64  `toml:"vram_per_gpu_gb" doc:"Memory per GPU in GB; equals the GPU's memory_gb."`
	VRAMTotalGB  float64  `toml:"vram_total_gb" doc:"Total GPU memory in GB; equals gpu_count * vram_per_gpu_gb."`
	VCPU         *int     `toml:"vcpu" doc:"Virtual CPUs per instance."`
	RAMGB        *float64 `toml:"ram_gb" doc:"Host memory in GB."`
	LocalDiskGB  *float64 `toml:"local_disk_gb" doc:"Local disk in GB."`
	NetworkGbps  *float64 `toml:"network_gbps" doc:"Network bandwidth in Gbit/s."`
	Regions      []string `toml:"regions" doc:"Region ids from the provider file where the instance is sold."`
	Currency     string   `toml:"currency" doc:"The currency the provider quotes (ISO 4217); a currency of data/fx.toml."`
	Notes        string   `toml:"notes" doc:"Notes on the offer."`
	Prices       []Price  `toml:"prices" doc:"Dated observations of the whole instance's price; entries with the same billing, unit, term, payment, commitment and region are one price's history (newest is current)."`

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
	Billing    string    `toml:"billing" doc:"on-demand, committed (a term: reserved, savings plan, committed-use discount, subscription) or spot; legacy reserved-1y / reserved-3y mean committed for 12 / 36 months."`
	Price      float64   `toml:"price" doc:"The price of the whole instance as quoted, in the offer's currency, per unit."`
	Unit       string    `toml:"unit" doc:"What the price is per: hour (default), day, week or month (24, 168, 730 hours for the hourly equivalent)."`
	TermMonths int       `toml:"term_months" doc:"committed only (required there): the term in months; 1 for a monthly subscription."`
	Payment    string    `toml:"payment" doc:"committed only: no-upfront, partial-upfront or all-upfront."`
	Commitment string    `toml:"commitment" doc:"committed only: reserved-instance, savings-plan, committed-use-discount or subscription."`
	Region     string    `toml:"region" doc:"A region id of the provider the price applies to; absent: the offer's regions."`
	AsOf       time.Time `toml:"as_of" doc:"The date this price was true (a TOML local date: 2025-04-21)."`
	DateBasis  string    `toml:"date_basis" doc:"How as_of was established: page-date, commit-date, accessed, dataset-row-date, api-retrieved (a capture of the provider's price API) or page-captured (a capture of its price page)."`
	Source     string    `toml:"source" doc:"The URL the price was read from (for a captured price: the API's or page's address)."`
	Capture    string    `toml:"capture" doc:"A stored capture the price was read from: its path under data/captures/ (provider/file.json), written by generator capture; the site publishes it under captures/."`
	CaptureSHA string    `toml:"capture_sha256" doc:"With capture (required there): the SHA-256 of the capture file, in hex; check verifies it."`
	Evidence   string    `toml:"evidence" doc:"first-party (the provider's page, document or API), first-party-docs-repo, third-party (a transcription) or community-dataset (implied by dataset)."`
	Dataset    string    `toml:"dataset" doc:"The id of a dataset in site.toml the price came from."`
	// ComputedFrom says how the price was computed where the source did
	// not quote it as is (pages show it beside the price).
	ComputedFrom string `toml:"computed_from" doc:"Where the source quotes another figure and this price was computed from it, the computation and the quoted figure, e.g. \"8 x the quoted per-GPU price of 2.49 USD/h\"; absent for a price quoted as is."`
	// I18n holds computed_from in other languages.
	I18n map[string]PriceText `toml:"i18n" doc:"computed_from in other languages: i18n = { zh = { computed_from = \"...\" } }."`
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

	Name   string `toml:"name" doc:"Display name, e.g. \"Llama 3 8B\"."`
	Family string `toml:"family" doc:"The model family, e.g. \"Llama 3\"."`
	// Model is the architecture, under its preset keys (params, layers,
	// hidden_size, ...; sizing.ModelFields lists them with their ranges).
	sizing.Model
	MaxContext int      `toml:"max_context" doc:"Maximum context length in tokens."`
	Notes      string   `toml:"notes" doc:"Notes on the preset."`
	Sources    []Source `toml:"sources" doc:"Where the architecture figures come from; at least one."`

	textPos map[string]tomlpos.Pos // where each text is written (checkI18n)
}
