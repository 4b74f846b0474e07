package schema

// fieldDoc returns the description of a field, keyed "Type.toml_key" (Type
// is the Go type name in package catalog). The wording follows
// CONTRIBUTING.md; fields without an entry get no description.
func fieldDoc(key string) string {
	switch key {
	// data/site.toml
	case "Site.title":
		return "The site's title."
	case "Site.description":
		return "One sentence describing the site, for search results."
	case "Site.base_url":
		return "The public URL the site is served from; `build -base-url` overrides it."
	case "Site.repo_url":
		return "The repository URL that \"report a problem\" links open an issue in."
	case "Site.language":
		return "The site's language (BCP 47), e.g. en."
	case "Site.display_currency":
		return "The currency prices are shown in; a currency of data/fx.toml."
	case "Site.staleness":
		return "Price age bands, in days since a price's as_of date."
	case "Site.require_evidence":
		return "When true, every price needs its evidence kind (a price with a dataset has it implied)."
	case "Site.datasets":
		return "Third-party datasets some prices came from, with their licence and attribution."
	case "Staleness.fresh_days":
		return "A price is fresh up to this many days old."
	case "Staleness.stale_days":
		return "A price is ageing up to this many days old and stale beyond; greater than fresh_days."
	case "Staleness.warn_days":
		return "`check` warns about prices older than this many days."
	case "Dataset.id":
		return "The dataset's id, referred to by a price's dataset key."
	case "Dataset.title":
		return "The dataset's name."
	case "Dataset.url":
		return "Where the dataset is published (a pinned commit where possible)."
	case "Dataset.licence":
		return "The dataset's licence, e.g. MIT."
	case "Dataset.attribution":
		return "The attribution the licence requires, shown with every price from the dataset."

	// data/fx.toml
	case "FX.base":
		return "The base currency (ISO 4217) the rates are quoted against."
	case "FX.as_of":
		return "The date the rates were true (a TOML local date: 2025-04-21)."
	case "FX.source":
		return "Where the rates were read."
	case "FX.rates":
		return "Units of each currency (ISO 4217 code as the key) per 1 unit of base."
	case "FX.date_basis":
		return "How as_of was established: page-date, commit-date, accessed, dataset-row-date or api-retrieved."
	case "FX.history":
		return "Older dated sets of rates, each older than the current (top-level) set; kept as history."
	case "FXRates.as_of":
		return "The date these rates were true; before the current as_of."
	case "FXRates.date_basis":
		return "How as_of was established."
	case "FXRates.source":
		return "Where these rates were read."
	case "FXRates.rates":
		return "Units of each currency per 1 unit of base, on that date."

	// Sources
	case "Source.url":
		return "Where the figure was read: a URL, or a document name where no URL exists."
	case "Source.title":
		return "What the source is, e.g. \"NVIDIA H100 Tensor Core GPU datasheet\"."
	case "Source.accessed":
		return "The date the source was read (a TOML local date: 2025-04-21)."

	// data/gpus/<id>.toml
	case "GPU.name":
		return "Display name, e.g. \"H100 SXM5 80GB\"."
	case "GPU.vendor":
		return "NVIDIA, AMD, Intel, Huawei, Google, ..."
	case "GPU.architecture":
		return "The architecture, e.g. Hopper."
	case "GPU.release_year":
		return "Year of release, 2010 to the current year."
	case "GPU.form_factor":
		return "How the accelerator is packaged."
	case "GPU.segment":
		return "The market segment."
	case "GPU.export_variant_of":
		return "For A800/H800/H20-style export parts: the GPU id the part derives from."
	case "GPU.memory_gb":
		return "Memory as the vendor quotes it (GPU \"GB\" is binary: 80 GB = 80 GiB)."
	case "GPU.memory_type":
		return "Memory technology, e.g. HBM3."
	case "GPU.memory_bandwidth_gbs":
		return "Memory bandwidth in GB/s."
	case "GPU.fp32_tflops":
		return "Dense, non-tensor FP32 TFLOPS."
	case "GPU.tf32_tflops":
		return "Dense tensor TF32 TFLOPS (never the sparse figure)."
	case "GPU.bf16_tflops":
		return "Dense tensor BF16 TFLOPS (FP16 where the part has no BF16; then set fp16_only = true)."
	case "GPU.fp16_only":
		return "True when bf16_tflops holds FP16 (Volta, Turing, Ascend)."
	case "GPU.fp8_tflops":
		return "Dense FP8 TFLOPS."
	case "GPU.int8_tops":
		return "Dense INT8 TOPS."
	case "GPU.tdp_w":
		return "Thermal design power in watts."
	case "GPU.notes":
		return "Shown on the GPU page; disagreements between sources go here."
	case "GPU.interconnect":
		return "How the GPU talks to its peers."
	case "GPU.sources":
		return "Where the specifications come from; at least one."
	case "Interconnect.kind":
		return "The interconnect technology."
	case "Interconnect.generation":
		return "The generation, e.g. NVLink \"4\", PCIe \"5.0\"."
	case "Interconnect.bandwidth_gbs":
		return "GB/s per GPU, bidirectional."

	// data/providers/<id>.toml
	case "Provider.name":
		return "The provider's name."
	case "Provider.homepage":
		return "The provider's homepage (http or https)."
	case "Provider.country":
		return "ISO 3166-1 alpha-2 code of the headquarters; omit when no source states it."
	case "Provider.kind":
		return "What kind of cloud the provider is."
	case "Provider.description":
		return "One or two sentences, in our own words."
	case "Provider.regions":
		return "The provider's locations; offers refer to regions by id."
	case "Provider.billing":
		return "How the provider charges."
	case "Provider.network":
		return "Cluster networking."
	case "Provider.support":
		return "SLA and support."
	case "Provider.free_trial":
		return "Credits or trial on offer."
	case "Provider.storage_notes":
		return "Notes on storage."
	case "Provider.hidden_costs":
		return "Charges beyond the instance price; all amounts in currency."
	case "Provider.sources":
		return "Where the provider facts come from; at least one."
	case "Provider.extra_costs":
		return "Dated, sourced charges beyond the instance price: egress, public IPv4, block storage, stopped instances. They take precedence over hidden_costs."
	case "Provider.i18n":
		return "The provider's name and description in other languages, keyed by language code ([i18n.zh])."
	case "ProviderText.name":
		return "The provider's name in that language, e.g. 阿里云."
	case "ProviderText.description":
		return "The description in that language."
	case "Region.name":
		return "The region's display name, e.g. \"US East (N. Virginia)\"."
	case "Region.i18n":
		return "The region's name in other languages: i18n = { zh = { name = \"华北2（北京）\" } }."
	case "RegionText.name":
		return "The region's name in that language."
	case "ExtraCost.kind":
		return "egress (internet egress), public-ipv4 (an address), block-storage, or stopped-instance (what a stopped instance costs)."
	case "ExtraCost.name":
		return "Tells apart charges of one kind: storage class, network tier, \"in use\" or \"unused\" addresses."
	case "ExtraCost.region":
		return "A region id of this provider the charge applies to; absent: all regions."
	case "ExtraCost.currency":
		return "The currency of the amounts; a currency of data/fx.toml."
	case "ExtraCost.price":
		return "The charge per unit (egress may give tiers instead)."
	case "ExtraCost.unit":
		return "egress: gb or gib; public-ipv4: hour or month; block-storage: gb-month, gib-month, gb-hour or gib-hour; stopped-instance: hour, month or gb-month."
	case "ExtraCost.tiers":
		return "Egress volume tiers per month, in order; the last has no up_to_gb."
	case "ExtraCost.compute_billed":
		return "stopped-instance only: whether the instance price is still charged while it is stopped."
	case "ExtraCost.as_of":
		return "The date the charge was true (a TOML local date)."
	case "ExtraCost.date_basis":
		return "How as_of was established."
	case "ExtraCost.source":
		return "The URL the charge was read from."
	case "ExtraCost.evidence":
		return "first-party, first-party-docs-repo, third-party or community-dataset."
	case "ExtraCost.notes":
		return "What else is charged or free; shown on the provider page."
	case "Tier.up_to_gb":
		return "The tier's upper bound of monthly volume, in the entry's unit (GB or GiB); absent on the last tier."
	case "Tier.price":
		return "The price per unit within the tier."
	case "Region.id":
		return "The provider's own region id where it has one."
	case "Region.city":
		return "The city the region is in."
	case "Region.country":
		return "ISO 3166-1 alpha-2 code of the region's country."
	case "Billing.on_demand":
		return "Whether instances can be rented pay-as-you-go."
	case "Billing.increment":
		return "The billing increment."
	case "Billing.minimum_seconds":
		return "The minimum charge, in seconds."
	case "Billing.spot":
		return "Whether spot (preemptible, interruptible) instances are offered."
	case "Billing.spot_notice_seconds":
		return "The interruption notice for spot instances, in seconds."
	case "Billing.notes":
		return "Notes on billing."
	case "Billing.reserved":
		return "Committed-use terms; zero or more."
	case "Reserved.term_months":
		return "The term in months, 1 to 60."
	case "Reserved.max_discount_pct":
		return "The provider's published \"up to\" discount, in percent."
	case "Reserved.notes":
		return "Notes on the term."
	case "Network.rdma":
		return "The RDMA fabric between instances."
	case "Network.max_bandwidth_gbps":
		return "Maximum network bandwidth per instance, in Gbit/s."
	case "Network.notes":
		return "Notes on networking."
	case "Support.sla_pct":
		return "The published compute SLA, in percent (50 to 100)."
	case "Support.notes":
		return "Notes on support."
	case "HiddenCosts.currency":
		return "The currency of the amounts; a currency of data/fx.toml."
	case "HiddenCosts.egress_per_gb":
		return "Internet egress per GB."
	case "HiddenCosts.public_ip_per_hour":
		return "A public IPv4 address per hour."
	case "HiddenCosts.storage_per_gb_month":
		return "Block storage per GB-month."
	case "HiddenCosts.notes":
		return "Notes on other charges."

	// data/offers/<provider-id>.toml
	case "OfferFile.offers":
		return "The priced instances of the provider the file is named after."
	case "Offer.instance":
		return "The provider's name for the instance type."
	case "Offer.gpu":
		return "The GPU, a data/gpus id."
	case "Offer.gpu_count":
		return "GPUs per instance, 1 to 1024 (fractional GPUs are not offers)."
	case "Offer.vram_per_gpu_gb":
		return "Memory per GPU in GB; equals the GPU's memory_gb."
	case "Offer.vram_total_gb":
		return "Total GPU memory in GB; equals gpu_count * vram_per_gpu_gb."
	case "Offer.vcpu":
		return "Virtual CPUs per instance."
	case "Offer.ram_gb":
		return "Host memory in GB."
	case "Offer.local_disk_gb":
		return "Local disk in GB."
	case "Offer.network_gbps":
		return "Network bandwidth in Gbit/s."
	case "Offer.regions":
		return "Region ids from the provider file where the instance is sold."
	case "Offer.currency":
		return "The currency the provider quotes (ISO 4217); a currency of data/fx.toml."
	case "Offer.notes":
		return "Notes on the offer."
	case "Offer.prices":
		return "Dated observations of the whole instance's price; entries with the same billing, unit, term, payment, commitment and region are one price's history (newest is current)."
	case "Price.billing":
		return "on-demand, committed (a term: reserved, savings plan, committed-use discount, subscription) or spot; legacy reserved-1y / reserved-3y mean committed for 12 / 36 months."
	case "Price.price":
		return "The price of the whole instance as quoted, in the offer's currency, per unit."
	case "Price.unit":
		return "What the price is per: hour (default), day, week or month (24, 168, 730 hours for the hourly equivalent)."
	case "Price.term_months":
		return "committed only (required there): the term in months; 1 for a monthly subscription."
	case "Price.payment":
		return "committed only: no-upfront, partial-upfront or all-upfront."
	case "Price.commitment":
		return "committed only: reserved-instance, savings-plan, committed-use-discount or subscription."
	case "Price.region":
		return "A region id of the provider the price applies to; absent: the offer's regions."
	case "Price.as_of":
		return "The date this price was true (a TOML local date: 2025-04-21)."
	case "Price.date_basis":
		return "How as_of was established: page-date, commit-date, accessed, dataset-row-date or api-retrieved."
	case "Price.source":
		return "The URL the price was read from."
	case "Price.evidence":
		return "first-party (the provider's page, document or API), first-party-docs-repo, third-party (a transcription) or community-dataset (implied by dataset)."
	case "Price.dataset":
		return "The id of a dataset in site.toml the price came from."

	// data/models/<id>.toml
	case "Model.name":
		return "Display name, e.g. \"Llama 3 8B\"."
	case "Model.family":
		return "The model family, e.g. \"Llama 3\"."
	case "Model.params":
		return "Total parameters."
	case "Model.active_params":
		return "MoE only: parameters active per token."
	case "Model.layers":
		return "Transformer layers."
	case "Model.hidden_size":
		return "Hidden (model) dimension."
	case "Model.heads":
		return "Attention heads."
	case "Model.kv_heads":
		return "Key/value heads (equals heads without GQA)."
	case "Model.ffn_size":
		return "Feed-forward (MLP) width."
	case "Model.vocab_size":
		return "Vocabulary size."
	case "Model.max_context":
		return "Maximum context length in tokens."
	case "Model.experts":
		return "MoE: experts per layer."
	case "Model.experts_per_token":
		return "MoE: experts active per token."
	case "Model.tied_embeddings":
		return "Whether input and output embeddings are shared."
	case "Model.notes":
		return "Notes on the preset."
	case "Model.sources":
		return "Where the architecture figures come from; at least one."
	}
	return ""
}
