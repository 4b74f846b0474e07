package scaffold

// The templates use placeholder values that fail `check` until they are
// edited: empty required strings, zero where a positive number is
// required, and required dates left commented out. They never hold a
// plausible-looking figure: comments show the format. Markers in braces
// are replaced by New.

const gpuTemplate = `{SCHEMA}
# A new GPU: data/gpus/{ID}.toml, written by "generator new gpu {ID}".
# Fill in every "required" line; ` + "`make check`" + ` reports each one until you do.
# Leave an optional figure commented out when no source states it. Tensor figures are
# dense (half the "with sparsity" headline for NVIDIA Ampere and later).
# Field meanings: CONTRIBUTING.md, section "data/gpus/<id>.toml".

name = ""                        # required: display name, e.g. "H100 SXM5 80GB"
vendor = ""                      # required: NVIDIA, AMD, Intel, Huawei, Google, ...
architecture = ""                # required: e.g. "Hopper"
release_year = 0                 # required: a year, 2010 to this year
form_factor = ""                 # required: {FORM_FACTORS}
segment = ""                     # required: {SEGMENTS}
memory_gb = 0                    # required: GB as the vendor quotes it (GPU "GB" is binary)
memory_type = ""                 # required: e.g. "HBM3"
memory_bandwidth_gbs = 0         # required: GB/s
# export_variant_of = ""         # optional: for an export part (A800/H800/H20), the GPU id it derives from
# fp32_tflops =                  # optional: a number, dense non-tensor FP32 TFLOPS
# tf32_tflops =                  # optional: a number, dense tensor TF32 TFLOPS
# bf16_tflops =                  # optional: a number, dense tensor BF16 TFLOPS (FP16 where there is no BF16)
# fp16_only = true               # optional: only when bf16_tflops holds FP16 (Volta, Turing, Ascend)
# fp8_tflops =                   # optional: a number, dense FP8 TFLOPS
# int8_tops =                    # optional: a number, dense INT8 TOPS
# tdp_w =                        # optional: a number, watts
# notes = ""                     # optional: shown on the GPU page; disagreements between sources go here

[interconnect]                   # required
kind = ""                        # required: {INTERCONNECT_KINDS}
# generation = ""                # optional: e.g. NVLink "4", PCIe "5.0"
# bandwidth_gbs =                # optional: a number, GB/s per GPU, bidirectional

[[sources]]                      # at least one; repeat the block for each source
url = ""                         # required: the URL the figures were read from
title = ""                       # required: what the source is
# accessed = YYYY-MM-DD          # required: uncomment and give the date you read it (no quotes)
`

const providerTemplate = `{SCHEMA}
# A new provider: data/providers/{ID}.toml, written by "generator new provider {ID}".
# Fill in every "required" line; ` + "`make check`" + ` reports each one until you do.
# Its offers go in data/offers/{ID}.toml ("generator new offer {ID}").
# Field meanings: CONTRIBUTING.md, section "data/providers/<id>.toml".

name = ""                        # required: the provider's name
homepage = ""                    # required: https://...
kind = ""                        # required: {PROVIDER_KINDS}
# country = ""                   # optional: ISO 3166-1 alpha-2 of the headquarters (US, DE, CN); omit when no source states it
# description = ""               # optional: one or two sentences, in our own words
# free_trial = ""                # optional: credits or trial on offer
# storage_notes = ""             # optional

[[regions]]                      # at least one; offers refer to regions by id
id = ""                          # required: the provider's own region id where it has one
# city = ""                      # optional
# country = ""                   # optional: ISO 3166-1 alpha-2

[billing]                        # required
# on_demand = true               # required: uncomment, true or false: can instances be rented pay-as-you-go?
# increment = ""                 # optional: {INCREMENTS}
# minimum_seconds =              # optional: a whole number, the minimum charge in seconds
# spot = true                    # optional: true or false
# spot_notice_seconds =          # optional: a whole number, the interruption notice in seconds
# notes = ""                     # optional

# [[billing.reserved]]           # optional, zero or more committed-use terms
# term_months =                  # required in the block: a whole number, 1..60
# max_discount_pct =             # optional: the provider's published "up to" figure, 0..100
# notes = ""

# [network]                      # optional
# rdma = ""                      # optional: {RDMA}
# max_bandwidth_gbps =           # optional: a number, per instance
# notes = ""

# [support]                      # optional
# sla_pct =                      # optional: a number, the published compute SLA, 50..100
# notes = ""

# [[extra_costs]]                # optional, zero or more dated charges beyond the instance price
# kind = ""                      # required: {COST_KINDS}
# name = ""                      # optional: storage class, network tier, "in use" / "unused" address
# region = ""                    # optional: a region id above (absent: all regions)
# currency = ""                  # required: a currency of data/fx.toml
# price =                        # the charge per unit (egress may give [[extra_costs.tiers]] instead)
# unit = ""                      # egress: gb, gib; public-ipv4: hour, month; block-storage: gb-month, gib-month, gb-hour, gib-hour
# compute_billed = false         # stopped-instance only, required there: is the instance price charged while stopped?
# as_of = YYYY-MM-DD             # required
# source = ""                    # required: the URL the charge was read from
# evidence = ""                  # required: {EVIDENCE}
# notes = ""
#
# [[extra_costs.tiers]]          # egress only, in order: up_to_gb = monthly volume bound; the last tier has none
# up_to_gb =
# price =

[[sources]]                      # at least one; repeat the block for each source
url = ""                         # required: the URL the facts were read from
title = ""                       # required: what the source is
# accessed = YYYY-MM-DD          # required: uncomment and give the date you read it (no quotes)
`

const offersHeader = `{SCHEMA}
# Offers of provider {ID} (data/providers/{ID}.toml): one [[offers]] block per instance type.
# Field meanings: CONTRIBUTING.md, section "data/offers/<provider-id>.toml".
`

// offerMarker is the line that marks an offer template not yet filled in.
const offerMarker = `instance = ""`

const offerTemplate = `
# A new offer, written by "generator new offer {ID}". Fill in every "required" line;
# ` + "`make check`" + ` reports each one until you do.
[[offers]]
` + offerMarker + `                    # required: the provider's name for it (an instance type, a plan)
gpu = ""                         # required: a data/gpus id
gpu_count = 0                    # required: a whole number of GPUs per instance (fractional GPUs are not offers)
vram_per_gpu_gb = 0              # required: equals the GPU's memory_gb
vram_total_gb = 0                # required: gpu_count x vram_per_gpu_gb
# vcpu =                         # optional: a whole number
# ram_gb =                       # optional: a number
# local_disk_gb =                # optional: a number
# network_gbps =                 # optional: a number
regions = []                     # required: region ids of {ID}: {REGIONS}
currency = ""                    # required: the currency the provider quotes, one of: {CURRENCIES}
# notes = ""                     # optional

[[offers.prices]]                # at least one; one block per dated observation (a newer block with the same
                                 # billing, unit, term, payment, commitment and region keeps the older one as history)
billing = ""                     # required: {BILLING}
price = 0                        # required: the whole instance's price as quoted, in currency, per unit (per-GPU prices are derived, never typed)
# unit = "hour"                  # optional: {UNITS} (default hour)
# term_months =                  # committed only, required there: 1 (monthly subscription), 12, 36, ...
# payment = ""                   # committed only, optional: {PAYMENTS}
# commitment = ""                # committed only, optional: {COMMITMENTS}
# region = ""                    # optional: a region id of {ID} the price applies to (absent: the offer's regions)
# as_of = YYYY-MM-DD             # required: uncomment and give the date the price was true (no quotes)
# date_basis = ""                # optional: how as_of was established: {DATE_BASES}
source = ""                      # required: the URL the price was read from
evidence = ""                    # required: {EVIDENCE}
# dataset = ""                   # optional: a dataset id from data/site.toml (then leave out evidence: it is community-dataset)
`

const modelTemplate = `{SCHEMA}
# A new model preset: data/models/{ID}.toml, written by "generator new model {ID}".
# Fill in every "required" line from the model's published config; ` + "`make check`" + `
# reports each one until you do.
# Field meanings: CONTRIBUTING.md, section "data/models/<id>.toml".

name = ""                        # required: display name, e.g. "Llama 3 8B"
family = ""                      # required: e.g. "Llama 3"
params = 0                       # required: a whole number, total parameters
layers = 0                       # required: a whole number
hidden_size = 0                  # required: a whole number
heads = 0                        # required: a whole number
kv_heads = 0                     # required: a whole number (equals heads without GQA)
ffn_size = 0                     # required: a whole number
vocab_size = 0                   # required: a whole number
max_context = 0                  # required: a whole number of tokens
# active_params =                # optional, MoE only: parameters active per token
# experts =                      # optional, MoE: experts per layer
# experts_per_token =            # optional, MoE
# tied_embeddings = true         # optional: true when input and output embeddings are shared
# notes = ""                     # optional

[[sources]]                      # at least one; repeat the block for each source
url = ""                         # required: e.g. the model's config.json at a pinned revision
title = ""                       # required: what the source is
# accessed = YYYY-MM-DD          # required: uncomment and give the date you read it (no quotes)
`

const guideTemplate = `+++
title = ""                      # required: the page title
description = ""                # required: one sentence for search results and the guides index
section = ""                    # required: {SECTIONS}
weight = 0                      # order within the section
# updated = YYYY-MM-DD          # the date of the last substantive change (uncomment, no quotes)
raw_html = false                # true lets raw HTML through for this file only
+++

Write the guide here in Markdown (written by "generator new guide {ID}").

Figures the catalog holds are never typed into a guide: take them from the catalog with a
shortcode (gpu, cheapest, link); see CONTRIBUTING.md, section "Guides".
`
