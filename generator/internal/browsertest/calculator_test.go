package browsertest

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/hfconfig"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/message"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/pages"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/site"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

func TestMain(m *testing.M) { Main(m) }

// formOrder is the calculator form's controls by name, in the order a user
// meets them; basic ones first, then those inside <details id="advanced">
// (parallelism, precision, inference, training, the custom model).
var formOrder = []string{"model", "workload", "dtype", "seq", "batch", "images", "gpu", "gpus",
	"tp", "pp", "cp", "sequence-parallel", "kv-dtype", "quant", "bpw", "group-size", "quant-embeddings", "flash", "prompt", "concurrency", "spec-tokens", "spec-accept", "include-stale",
	"method", "output", "zero", "offload", "checkpointing", "optimizer", "loss", "no-master", "optimizer-in-backward", "offload-activations", "train-vision", "lora-rank", "lora-targets", "tokens", "mfu",
	"params", "layers", "hidden", "heads", "kv-heads", "head-dim", "ffn", "vocab", "tied", "sliding-window", "local-layers",
	"experts", "experts-per-token", "active-params", "shared-experts", "dense-layers", "dense-ffn",
	"kv-lora-rank", "q-lora-rank", "rope-head-dim", "v-head-dim", "vision-params", "image-tokens", "image-patches",
	"rate", "plan-prompt", "answer", "ttft", "tpot"}

// loadFields are the load's controls, beside the plan they change
// (outside the form's element, its controls by form="calc").
var loadFields = map[string]bool{"rate": true, "plan-prompt": true, "answer": true, "ttft": true, "tpot": true}

var basicFields = map[string]bool{"model": true, "workload": true, "dtype": true, "seq": true, "batch": true, "images": true, "gpu": true, "gpus": true,
	"rate": true, "plan-prompt": true, "answer": true, "ttft": true, "tpot": true}

// checkboxes are the boolean controls ("true" or "false" in a case).
var checkboxes = map[string]bool{"flash": true, "sequence-parallel": true, "quant-embeddings": true, "no-master": true, "optimizer-in-backward": true, "offload-activations": true, "tied": true,
	"include-stale": true, "train-vision": true}

// pageDefaults are the form's initial values (templates/calculator.html;
// the model and GPU are build.calculator's defaults). tp "" is "auto".
var pageDefaults = map[string]string{
	"model": "llama-3-8b", "workload": "inference", "dtype": "bf16", "seq": "4096", "batch": "1",
	"gpu": "h100-sxm5-80gb", "gpus": "1", "tp": "", "pp": "1", "cp": "1", "sequence-parallel": "false",
	"kv-dtype": "bf16", "quant": "nf4-dq", "bpw": "0", "group-size": "0", "quant-embeddings": "false", "flash": "true", "prompt": "0",
	"concurrency": "32", "include-stale": "false", "zero": "0", "offload": "none", "checkpointing": "none", "optimizer": "adamw", "loss": "fused", "no-master": "false", "optimizer-in-backward": "false",
	"offload-activations": "false", "spec-tokens": "0", "spec-accept": "0",
	"lora-rank": "16", "lora-targets": "q,k,v,o", "tokens": "0", "mfu": "0", "method": "sft", "output": "512", "images": "0", "train-vision": "false", "vision-params": "0", "image-tokens": "0", "image-patches": "0",
	"params": "7000000000", "layers": "32", "hidden": "4096", "heads": "32", "kv-heads": "32", "head-dim": "0",
	"ffn": "11008", "vocab": "32000", "tied": "false", "sliding-window": "0", "local-layers": "0",
	"experts": "0", "experts-per-token": "0", "active-params": "0", "shared-experts": "0", "dense-layers": "0",
	"dense-ffn": "0", "kv-lora-rank": "0", "q-lora-rank": "0", "rope-head-dim": "0", "v-head-dim": "0",
	"rate": "20", "plan-prompt": "2000", "answer": "300", "ttft": "1000", "tpot": "30", // sizing.DefaultLoad
}

// applies says whether a control applies to the inputs v: the rule of the
// data-show attributes in templates/calculator.html. A control that does
// not apply is hidden, takes its default and stays out of the URL.
func applies(name string, v map[string]string) bool {
	train := v["workload"] != "inference"
	multi := atoiOr(v["gpus"]) > 1
	custom := v["model"] == "custom"
	vision := visionPresets[v["model"]] || custom && atoiOr(v["vision-params"]) > 0
	switch name {
	case "images":
		return vision
	case "train-vision":
		return vision && v["workload"] == "full"
	case "image-tokens", "image-patches":
		return custom && vision
	case "tp", "cp":
		return multi
	case "pp":
		return multi && v["tp"] != ""
	case "sequence-parallel":
		return multi && train
	case "kv-dtype", "prompt", "concurrency", "spec-tokens", "spec-accept", "rate", "plan-prompt", "answer", "ttft", "tpot":
		return !train
	case "quant":
		return v["dtype"] == "int4"
	case "bpw":
		return v["dtype"] == "int4" || v["dtype"] == "int8"
	case "group-size":
		return v["dtype"] == "int4" && (v["quant"] == "gptq" || v["quant"] == "awq")
	case "quant-embeddings":
		return v["dtype"] == "fp8" || v["dtype"] == "int8" || v["dtype"] == "int4"
	case "zero", "offload", "checkpointing", "optimizer", "loss", "no-master", "optimizer-in-backward", "offload-activations", "tokens", "mfu", "method":
		return train
	case "output":
		return train && sizing.Method(v["method"]).Generates()
	case "lora-rank", "lora-targets":
		return v["workload"] == "lora" || v["workload"] == "qlora"
	case "params", "layers", "hidden", "heads", "kv-heads", "head-dim", "ffn", "vocab", "tied", "sliding-window", "experts", "kv-lora-rank", "vision-params":
		return custom
	case "local-layers":
		return custom && atoiOr(v["sliding-window"]) > 0
	case "experts-per-token", "active-params", "shared-experts", "dense-layers", "dense-ffn":
		return custom && atoiOr(v["experts"]) > 0
	case "q-lora-rank", "rope-head-dim", "v-head-dim":
		return custom && atoiOr(v["kv-lora-rank"]) > 0
	}
	return true
}

// visionPresets are the catalog's vision-language presets (a vision
// encoder: the images field applies); TestVisionPresetsListed holds the
// list to the catalog.
var visionPresets = map[string]bool{"gemma-3-27b": true, "qwen2-5-vl-7b": true}

func TestVisionPresetsListed(t *testing.T) {
	c := testcat.Repo(t)
	for _, m := range c.Models {
		if (m.VisionParams > 0) != visionPresets[m.ID] {
			t.Errorf("preset %s: vision params %d, but visionPresets says %v", m.ID, m.VisionParams, visionPresets[m.ID])
		}
	}
}

func atoiOr(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// effective is v with every control that does not apply at its default:
// what the script gives the engine.
func effective(v map[string]string) map[string]string {
	out := map[string]string{}
	for k, x := range v {
		out[k] = x
		if !applies(k, v) {
			out[k] = pageDefaults[k]
		}
	}
	return out
}

// calcCase is one set of inputs, given as form values by control name;
// the other controls keep their page defaults.
type calcCase struct {
	name    string
	set     map[string]string
	implied map[string]string // values the page picks itself after set
	reload  bool              // also reload the URL and compare again
	invalid bool              // the Go engine rejects the input
	// what the case is there to show, checked besides the equality with
	// the Go engine
	layout   string // a text #layout must contain
	fits     bool   // the headline says it fits
	noGPU    bool   // no catalog GPU holds the job: #mingpus-none shows
	spans    bool   // no instance has enough GPUs: an offer row spans several instances
	showsRow string // a breakdown row that must be shown (b-gathered, b-paged)
	// plan is what the plan section must answer: "rows" (some GPU has a
	// plan and some other misses one), or the note "off", "bad" or "none"
	// (calc.plan.*); noFormat says no format holds a sequence on the
	// reader's GPUs (calc.serve.none).
	plan     string
	noFormat bool
	// presets opens the list of presets that fit the GPUs and compares it
	// with sizing.RankFits.
	presets bool
	// pay opens the ways to pay and compares them with sizing.PayWays;
	// payShows is a way (sizing.PayAPI, ...) or a sentence key
	// ("pay.be.never", "calc.plan.off", ...) the case is there to show.
	pay      bool
	payShows []string
}

var calcCases = []calcCase{
	{name: "defaults", set: map[string]string{}, reload: true, fits: true, layout: "tensor parallel 1 × pipeline parallel 1 × data parallel 1"},
	// issue 11: the GPU count alone drives the layout.
	{name: "llama3-70b on 4 gpus: tensor parallel 4 chosen", reload: true, fits: true, set: map[string]string{
		"model": "llama-3-70b", "gpus": "4"}, layout: "Layout: 4 GPU(s) as tensor parallel 4 × pipeline parallel 1 × data parallel 1 (chosen"},
	{name: "llama2-70b on 8 gpus: tensor parallel 8 chosen", fits: true, set: map[string]string{
		"model": "llama-2-70b", "gpus": "8"}, layout: "Layout: 8 GPU(s) as tensor parallel 8 × pipeline parallel 1 × data parallel 1 (chosen"},
	{name: "llama2-70b on 4 a100-40gb: pipeline stages added", set: map[string]string{
		"model": "llama-2-70b", "gpus": "4", "gpu": "a100-sxm4-40gb"}, layout: "tensor parallel 4"},
	{name: "llama3-8b int4 weights fp8 kv 32k batch 8 on rtx-4090", set: map[string]string{
		"dtype": "int4", "seq": "32768", "batch": "8", "gpu": "rtx-4090", "kv-dtype": "fp8"}},
	{name: "llama3-70b fp8 tp4 batch 16", reload: true, set: map[string]string{
		"model": "llama-3-70b", "dtype": "fp8", "seq": "8192", "batch": "16", "gpus": "4", "tp": "4"}},
	{name: "llama3.1-405b fp8 tp4 pp2 on h200", set: map[string]string{
		"model": "llama-3-1-405b", "dtype": "fp8", "gpu": "h200-sxm-141gb", "gpus": "8", "tp": "4", "pp": "2"},
		layout: "tensor parallel 4 × pipeline parallel 2 × data parallel 1"},
	{name: "mixtral inference on mi300x batch 32", set: map[string]string{
		"model": "mixtral-8x7b", "seq": "2048", "batch": "32", "gpu": "mi300x"}},
	// Not fitting, the speeds are those of the headline's layout (2 × H100).
	{name: "llama3-70b bf16 on one h100: needs 2, speeds at 2", reload: true, set: map[string]string{
		"model": "llama-3-70b", "gpu": "h100-sxm5-80gb", "gpus": "1"}},
	{name: "qwen2-7b fp32 on t4 does not fit", set: map[string]string{
		"model": "qwen2-7b", "dtype": "fp32", "seq": "512", "gpu": "t4", "kv-dtype": "fp32"}},
	{name: "mistral int8 batch 64 without flash on l4, 16-bit embeddings", set: map[string]string{
		"model": "mistral-7b", "dtype": "int8", "seq": "1024", "batch": "64", "gpu": "l4", "flash": "false"}},
	{name: "mistral 7b sliding window at 32k", fits: true, set: map[string]string{
		"model": "mistral-7b", "seq": "32768", "batch": "4"}},
	{name: "deepseek-v3 fp8 on 8 h200 at 32k (MLA)", reload: true, fits: true, set: map[string]string{
		"model": "deepseek-v3", "dtype": "fp8", "gpu": "h200-sxm-141gb", "gpus": "8", "seq": "32768", "batch": "4", "prompt": "2048"}},
	{name: "deepseek-v3 bf16 128k batch 16: no instance has enough gpus", spans: true, set: map[string]string{
		"model": "deepseek-v3", "seq": "131072", "batch": "16"}},
	{name: "qwen3-30b-a3b awq group 64 on l4", set: map[string]string{
		"model": "qwen3-30b-a3b", "dtype": "int4", "quant": "awq", "group-size": "64", "gpu": "l4"}},
	{name: "qwen3-32b gptq with quantized embeddings on rtx-4090", reload: true, set: map[string]string{
		"model": "qwen3-32b", "dtype": "int4", "quant": "gptq", "quant-embeddings": "true", "gpu": "rtx-4090", "seq": "8192"}},
	{name: "gpt2-xl tp5 (25 heads) on v100", set: map[string]string{
		"model": "gpt2-xl", "seq": "1024", "batch": "4", "gpu": "v100-sxm2-16gb", "gpus": "5", "tp": "5"}},
	{name: "llama2-70b int4 kv int4 tp2 on a100-80", set: map[string]string{
		"model": "llama-2-70b", "dtype": "int4", "kv-dtype": "int4", "gpu": "a100-pcie-80gb", "gpus": "2", "tp": "2"}},
	{name: "llama3-8b lora rank 64 all targets selective", set: map[string]string{
		"workload": "lora", "seq": "2048", "batch": "4", "gpu": "a100-sxm4-40gb", "lora-rank": "64",
		"lora-targets": "q,k,v,o,gate,up,down", "checkpointing": "selective"}},
	{name: "llama2-7b qlora 8-bit adam full checkpointing on rtx-4090", reload: true, set: map[string]string{
		"model": "llama-2-7b", "workload": "qlora", "dtype": "int4", "gpu": "rtx-4090",
		"checkpointing": "full", "optimizer": "adamw8bit"}},
	{name: "llama3-8b lora with a chunked loss", set: map[string]string{
		"workload": "lora", "seq": "8192", "batch": "2", "loss": "chunked"}},
	{name: "llama3-8b full training, fp32 loss", set: map[string]string{
		"workload": "full", "gpus": "8", "seq": "4096", "batch": "2", "loss": "fp32"}},
	{name: "llama2-13b qlora recipe: paged 8-bit adam, bf16 adapters, nf4 on rtx-4090", reload: true, showsRow: "r-paged", set: map[string]string{
		"model": "llama-2-13b", "workload": "qlora", "gpu": "rtx-4090", "seq": "512", "checkpointing": "full",
		"optimizer": "paged-adamw8bit", "no-master": "true", "lora-rank": "64", "lora-targets": "q,k,v,o,gate,up,down"},
		implied: map[string]string{"dtype": "int4"}},
	{name: "qlora picks int4 weights by itself", reload: true, set: map[string]string{
		"model": "mistral-7b", "workload": "qlora"}, implied: map[string]string{"dtype": "int4"}},
	{name: "custom model chosen opens the advanced section", set: map[string]string{
		"model": "custom", "workload": "lora", "gpu": "a10"}},
	{name: "llama3-70b as a 4.82-bit GGUF on two 4090s", set: map[string]string{
		"model": "llama-3-70b", "dtype": "int4", "bpw": "4.82", "gpu": "rtx-4090", "gpus": "2"}},
	{name: "llama2-13b lora int8 base sgd on l4", set: map[string]string{
		"model": "llama-2-13b", "workload": "lora", "dtype": "int8", "seq": "1024", "gpu": "l4", "optimizer": "sgd",
		"lora-rank": "8", "lora-targets": "q,v"}},
	// issue 34: ZeRO-3 shards the model states over data-parallel ranks,
	// so the GPU count alone is data parallel (FSDP); ZeRO-1 keeps
	// tensor parallelism in the node.
	{name: "llama3-8b full bf16 zero3 8 gpus with tokens: data parallel 8 chosen", set: map[string]string{
		"workload": "full", "gpus": "8", "zero": "3", "checkpointing": "full", "tokens": "2e10", "mfu": "0.35"},
		layout: "tensor parallel 1 × pipeline parallel 1 × data parallel 8"},
	{name: "llama3-8b full bf16 zero1 8 gpus: tensor parallel 8 chosen", set: map[string]string{
		"workload": "full", "gpus": "8", "zero": "1", "checkpointing": "full"},
		layout: "tensor parallel 8 × pipeline parallel 1 × data parallel 1"},
	{name: "llama3-8b full bf16 zero3 data parallel 8 shards and gathers", set: map[string]string{
		"workload": "full", "gpus": "8", "tp": "1", "zero": "3", "checkpointing": "full", "tokens": "2e10"},
		showsRow: "r-gathered", layout: "data parallel 8"},
	// issue 34: optimizer states in bf16 (pure bf16 training: torchtune).
	{name: "llama3-8b full training in pure bf16: bf16 moments, no master copy, 8 gpus", set: map[string]string{
		"workload": "full", "gpus": "8", "tp": "1", "zero": "3", "optimizer": "adamw-bf16", "no-master": "true"}},
	{name: "llama3-8b full training with the optimizer step in backward on one h200", reload: true, set: map[string]string{
		"workload": "full", "gpu": "h200-sxm-141gb", "zero": "0", "optimizer-in-backward": "true"}},
	{name: "invalid: optimizer step in backward with 2 pipeline stages", invalid: true, set: map[string]string{
		"workload": "full", "gpus": "2", "tp": "1", "pp": "2", "optimizer-in-backward": "true"}},
	// issue 34: activation offload (its copies slow a run without
	// recomputation) and speculative decoding with a draft head.
	{name: "llama3-8b full training at 8k, activations offloaded, no recomputation, on 8 h100s", reload: true, set: map[string]string{
		"workload": "full", "gpus": "8", "tp": "1", "zero": "3", "seq": "8192", "checkpointing": "none", "offload-activations": "true", "tokens": "1e9"}},
	{name: "invalid: activation offload with 2 pipeline stages", invalid: true, set: map[string]string{
		"workload": "full", "gpus": "2", "tp": "1", "pp": "2", "offload-activations": "true"}},
	{name: "llama3-70b with 3 draft tokens accepted at 0.7 on 2 h100s", reload: true, set: map[string]string{
		"model": "llama-3-70b", "gpus": "2", "spec-tokens": "3", "spec-accept": "0.7"}},
	{name: "invalid: 17 draft tokens", invalid: true, set: map[string]string{"spec-tokens": "17"}},
	{name: "llama3-8b full zero3 full offload on one gpu keeps the gathered layer", showsRow: "r-gathered", set: map[string]string{
		"workload": "full", "zero": "3", "offload": "full", "checkpointing": "full"}},
	{name: "llama3-8b full fp8 zero1 tp1 8 gpus", set: map[string]string{
		"workload": "full", "dtype": "fp8", "gpus": "8", "tp": "1", "zero": "1", "tokens": "1e10"},
		layout: "tensor parallel 1 × pipeline parallel 1 × data parallel 8"},
	{name: "llama3-8b full zero2 optimizer offload", set: map[string]string{
		"workload": "full", "gpus": "8", "zero": "2", "offload": "optimizer", "batch": "2"}},
	{name: "llama3-8b full tp4 cp2 sequence parallel 32k", set: map[string]string{
		"workload": "full", "gpus": "8", "tp": "4", "cp": "2", "sequence-parallel": "true", "seq": "32768", "zero": "1",
		"checkpointing": "selective"}, layout: ", context parallel 2"},
	{name: "llama3-70b full zero3 full offload tp8 64 gpus on h200", set: map[string]string{
		"model": "llama-3-70b", "workload": "full", "gpu": "h200-sxm-141gb", "gpus": "64", "tp": "8", "zero": "3",
		"offload": "full", "checkpointing": "full", "tokens": "1e12", "mfu": "0.5"}},
	{name: "llama3.1-405b full fp32 without zero fits nowhere", noGPU: true, set: map[string]string{
		"model": "llama-3-1-405b", "workload": "full", "dtype": "fp32", "zero": "0"}},
	{name: "gpt2 full fp32 sgd no flash on t4", set: map[string]string{
		"model": "gpt2", "workload": "full", "dtype": "fp32", "seq": "1024", "batch": "8", "gpu": "t4",
		"optimizer": "sgd", "flash": "false", "tokens": "1000000000", "mfu": "0.3"}},
	{name: "bert-base full fp16 zero1 2 gpus 8-bit adam no master", set: map[string]string{
		"model": "bert-base", "workload": "full", "dtype": "fp16", "seq": "512", "batch": "32", "gpu": "a100-sxm4-40gb",
		"gpus": "2", "zero": "1", "optimizer": "adamw8bit", "no-master": "true"}},
	{name: "qwen2-7b lora tp2 zero1 4 gpus", set: map[string]string{
		"model": "qwen2-7b", "workload": "lora", "gpu": "l4", "gpus": "4", "tp": "2", "zero": "1", "seq": "8192"}},
	{name: "mixtral qlora rank 8 q,v on h100", set: map[string]string{
		"model": "mixtral-8x7b", "workload": "qlora", "dtype": "int4", "seq": "8192", "lora-rank": "8", "lora-targets": "q,v"}},
	{name: "llama3.1-8b lora zero2 tokens on gaudi3", set: map[string]string{
		"model": "llama-3-1-8b", "workload": "lora", "gpu": "gaudi3", "gpus": "2", "zero": "2",
		"tokens": "500000000", "mfu": "0.45"}},
	// Vision-language models: the encoder's weights, images in the sequence.
	{name: "qwen2.5-vl-7b with 4 images at 4k on rtx-4090", reload: true, fits: true, set: map[string]string{
		"model": "qwen2-5-vl-7b", "images": "4", "seq": "4096", "gpu": "rtx-4090"}},
	{name: "qwen2.5-vl-7b full training with the vision encoder on 8 gpus", set: map[string]string{
		"model": "qwen2-5-vl-7b", "workload": "full", "images": "2", "train-vision": "true", "gpus": "8", "tp": "1", "zero": "3",
		"checkpointing": "full", "seq": "2048", "tokens": "1e9"}},
	{name: "custom vision model: 16 images of 576 tokens overflow 8k", invalid: true, set: map[string]string{
		"model": "custom", "vision-params": "324487168", "image-tokens": "576", "images": "16", "seq": "8192"}},
	// Alignment methods (sizing.Method): what each keeps beside the policy.
	{name: "llama3-8b dpo full zero3 data parallel 8: a frozen reference", showsRow: "r-reference", set: map[string]string{
		"workload": "full", "method": "dpo", "gpus": "8", "tp": "1", "zero": "3", "checkpointing": "full", "seq": "1024",
		"batch": "4", "tokens": "1e9"}},
	{name: "qwen3-8b grpo lora on h100: vLLM beside the trainer, its generation time", reload: true, showsRow: "r-rollout", set: map[string]string{
		"model": "qwen3-8b", "workload": "lora", "method": "grpo", "seq": "1536", "output": "1024", "batch": "4",
		"checkpointing": "full", "tokens": "1e8"}},
	{name: "llama3-8b ppo full zero3 8 gpus: critic, reward and reference", showsRow: "r-critic", set: map[string]string{
		"workload": "full", "method": "ppo", "gpus": "8", "tp": "1", "zero": "3", "checkpointing": "full", "seq": "2048",
		"output": "1024", "batch": "2", "tokens": "1e8"}},
	// issue 36: what fits the reader's GPUs, and plans from a load and
	// its latency targets.
	{name: "plan: a tighter time to first token drops GPUs", reload: true, plan: "rows", set: map[string]string{"ttft": "150", "tpot": "25"}},
	{name: "plan: a longer chat at 2 requests/s on 2 gpus", plan: "rows", set: map[string]string{
		"model": "llama-3-70b", "gpus": "2", "rate": "2", "plan-prompt": "6000", "answer": "800", "ttft": "0", "tpot": "50"}},
	{name: "presets that fit two rtx-4090s", presets: true, reload: true, set: map[string]string{"gpu": "rtx-4090", "gpus": "2"}},
	{name: "presets that fit one t4", presets: true, set: map[string]string{"gpu": "t4"}},
	{name: "plan: no rate, no plan", plan: "off", set: map[string]string{"rate": "0"}},
	{name: "plan: prompt and answer beyond the model's context", plan: "bad", set: map[string]string{"plan-prompt": "8000", "answer": "300"}},
	{name: "plan: targets no gpu meets", plan: "none", set: map[string]string{"ttft": "1", "tpot": "1"}},
	{name: "pay: the default load, a model no hosted API serves", pay: true, reload: true, payShows: []string{sizing.PayCommitted, sizing.PaySpot, sizing.PayServerless, "calc.pay.noapi", "pay.be.serverless"}},
	{name: "pay: llama 3.1 8b, which hosted APIs serve", pay: true, set: map[string]string{"model": "llama-3-1-8b"},
		payShows: []string{sizing.PayAPI, "pay.be.dedicated"}},
	{name: "pay: llama 3.1 70b at 0.05 requests/s", pay: true, set: map[string]string{"model": "llama-3-1-70b", "gpus": "2", "rate": "0.05"},
		payShows: []string{sizing.PayAPI, "pay.be.never"}},
	{name: "pay: no rate", pay: true, set: map[string]string{"rate": "0"}, payShows: []string{"calc.plan.off"}},
	{name: "fit: llama3-70b on one rtx-4090 fits in no format", noFormat: true, set: map[string]string{"model": "llama-3-70b", "gpu": "rtx-4090"}},
	{name: "custom model inference", reload: true, set: map[string]string{
		"model": "custom", "seq": "8192", "gpu": "rtx-4090", "params": "3200000000", "layers": "26", "hidden": "3072",
		"heads": "24", "kv-heads": "8", "ffn": "8192", "vocab": "128256", "tied": "true"}},
	{name: "custom windowed model with global layers at 128k", reload: true, set: map[string]string{
		"model": "custom", "seq": "131072", "params": "27227128320", "layers": "62", "hidden": "5376", "heads": "32",
		"kv-heads": "16", "head-dim": "128", "ffn": "21504", "vocab": "262208", "tied": "true",
		"sliding-window": "1024", "local-layers": "52"}},
	{name: "custom MoE with shared experts and dense layers", set: map[string]string{
		"model": "custom", "gpus": "2", "params": "15706484224", "layers": "27", "hidden": "2048", "heads": "16",
		"kv-heads": "16", "ffn": "1408", "vocab": "102400", "experts": "64", "experts-per-token": "6",
		"active-params": "2660000000", "shared-experts": "2", "dense-layers": "1", "dense-ffn": "10944"}},
	{name: "custom MLA model", set: map[string]string{
		"model": "custom", "seq": "65536", "params": "15706484224", "layers": "27", "hidden": "2048", "heads": "16",
		"kv-heads": "16", "head-dim": "192", "ffn": "10944", "vocab": "102400", "kv-lora-rank": "512",
		"rope-head-dim": "64", "v-head-dim": "128"}},
	{name: "custom model full training", set: map[string]string{
		"model": "custom", "workload": "full", "gpus": "2", "zero": "3", "params": "1300000000", "layers": "24",
		"hidden": "2048", "heads": "16", "kv-heads": "16", "ffn": "5504", "vocab": "50304", "tokens": "3e10"}},
	{name: "invalid: tp 3 does not divide 32 heads", invalid: true, set: map[string]string{
		"gpus": "3", "tp": "3"}},
	{name: "invalid: optimizer offload without zero", invalid: true, set: map[string]string{
		"workload": "full", "zero": "0", "offload": "optimizer"}},
	{name: "invalid: 4 gpus are no multiple of cp 3", invalid: true, set: map[string]string{
		"gpus": "4", "cp": "3"}},
	{name: "invalid: MLA rope dim not under the head dim", invalid: true, set: map[string]string{
		"model": "custom", "head-dim": "64", "kv-lora-rank": "512", "rope-head-dim": "64"}},
}

// goSide computes what the page must show, with the functions the build
// uses: catalog.Load, derive, sizing.AutoLayout, Estimate and MinFit,
// pages.CalcHeadline, CalcJob, CalcOffers and CalcPlanText (sizing.Job.Plan),
// and the English UI strings.
type goSide struct {
	cat *catalog.Catalog
	dd  *derive.Data
	en  map[string]string
	now time.Time
}

// t is the English UI string of key, as the build's edition looks it up.
func (g goSide) t(key string) string { return g.en[key] }

func loadCatalog(t *testing.T) goSide {
	t.Helper()
	now, err := site.Today()
	if err != nil {
		t.Fatal(err)
	}
	cat, d := catalog.Load(testcat.RepoRoot(), now)
	if cat == nil || d.HasErrors() {
		var b strings.Builder
		d.Print(&b)
		t.Fatalf("loading the catalog:\n%s", b.String())
	}
	raw, err := os.ReadFile(filepath.Join(testcat.RepoRoot(), "templates", "i18n", "en.toml"))
	if err != nil {
		t.Fatal(err)
	}
	en := map[string]string{}
	if err := toml.Unmarshal(raw, &en); err != nil {
		t.Fatal(err)
	}
	return goSide{cat: cat, dd: derive.New(cat, now), en: en, now: now}
}

// msg fills an English UI string as build's translator does.
func (g goSide) msg(key string, args ...string) string {
	var a [5]string
	copy(a[:], args)
	return message.Fill(g.en[key], a[:], func(f string) string { return g.en[sizing.FieldKeyPrefix+f] })
}

func (g goSide) q(q sizing.Quantity) string { return g.msg(q.Unit, "", q.Num) }

// values merges a case's values over the page defaults.
func (c calcCase) values() map[string]string {
	v := map[string]string{}
	for k, x := range pageDefaults {
		v[k] = x
	}
	// Picking a workload applies its recipe (sizing.RecipeFor) before the
	// case's own settings, which the form fills after the workload.
	if w, ok := c.set["workload"]; ok {
		for k, x := range recipeValues(sizing.Workload(w)) {
			v[k] = x
		}
	}
	for k, x := range c.set {
		v[k] = x
	}
	for k, x := range c.implied {
		v[k] = x
	}
	return v
}

// recipeValues is workload w's recipe as the form's values.
func recipeValues(w sizing.Workload) map[string]string {
	r := sizing.RecipeFor(w)
	return map[string]string{"dtype": string(r.DType), "checkpointing": string(r.Checkpointing), "zero": strconv.Itoa(r.ZeRO),
		"optimizer": string(r.Optimizer), "no-master": strconv.FormatBool(r.NoMaster), "loss": string(r.Loss)}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func atoi64(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func atof(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// customModel is the custom model of the form values v.
func customModel(t *testing.T, v map[string]string) sizing.Model {
	return sizing.Model{Params: atoi64(t, v["params"]), ActiveParams: atoi64(t, v["active-params"]),
		Layers: atoi(t, v["layers"]), Hidden: atoi(t, v["hidden"]), Heads: atoi(t, v["heads"]),
		KVHeads: atoi(t, v["kv-heads"]), HeadDim: atoi(t, v["head-dim"]), FFN: atoi(t, v["ffn"]), Vocab: atoi(t, v["vocab"]),
		TiedEmbeddings: v["tied"] == "true", SlidingWindow: atoi(t, v["sliding-window"]), LocalLayers: atoi(t, v["local-layers"]),
		Experts: atoi(t, v["experts"]), ExpertsPerToken: atoi(t, v["experts-per-token"]), SharedExperts: atoi(t, v["shared-experts"]),
		DenseLayers: atoi(t, v["dense-layers"]), DenseFFN: atoi(t, v["dense-ffn"]), KVLoRARank: atoi(t, v["kv-lora-rank"]),
		QLoRARank: atoi(t, v["q-lora-rank"]), QKRopeHeadDim: atoi(t, v["rope-head-dim"]), VHeadDim: atoi(t, v["v-head-dim"]),
		VisionParams: atoi64(t, v["vision-params"]), ImageTokens: atoi(t, v["image-tokens"]), ImagePatches: atoi(t, v["image-patches"])}
}

// input builds the sizing input the page builds from the form
// (static/js/calculator.js input(), generator/wasm read()): the controls
// that apply, AutoLayout when tp is "auto"; err is the engine's error
// when the model itself is invalid and the layout cannot be chosen.
func (g goSide) input(t *testing.T, form map[string]string) (sizing.Input, sizing.GPU, bool, error) {
	t.Helper()
	v := effective(form)
	var m sizing.Model
	if v["model"] == "custom" {
		m = customModel(t, v)
	} else {
		cm := g.cat.Model(v["model"])
		if cm == nil {
			t.Fatalf("no model %q in the catalog", v["model"])
		}
		m = cm.Model
	}
	cg := g.cat.GPU(v["gpu"])
	if cg == nil {
		t.Fatalf("no GPU %q in the catalog", v["gpu"])
	}
	gpu := derive.SizingGPU(cg)
	in := sizing.DefaultInput(m)
	in.Workload = sizing.Workload(v["workload"])
	in.DType = sizing.DType(v["dtype"])
	in.KVDType = sizing.DType(v["kv-dtype"])
	in.Quant = sizing.Quant(v["quant"])
	in.GroupSize = atoi(t, v["group-size"])
	in.QuantEmbeddings = v["quant-embeddings"] == "true"
	in.SeqLen = atoi(t, v["seq"])
	in.PromptLen = atoi(t, v["prompt"])
	in.Batch = atoi(t, v["batch"])
	in.GPUs = atoi(t, v["gpus"])
	in.TP = atoiOr(v["tp"]) // "" is 0: auto
	in.PP = atoi(t, v["pp"])
	in.CP = atoi(t, v["cp"])
	in.SequenceParallel = v["sequence-parallel"] == "true"
	in.ZeRO = atoi(t, v["zero"])
	in.Offload = sizing.Offload(v["offload"])
	in.Checkpointing = sizing.Checkpointing(v["checkpointing"])
	in.Flash = v["flash"] == "true"
	in.Optimizer = sizing.Optimizer(v["optimizer"])
	in.Loss = sizing.Loss(v["loss"])
	in.NoMaster = v["no-master"] == "true"
	in.OptimizerInBackward = v["optimizer-in-backward"] == "true"
	in.OffloadActivations = v["offload-activations"] == "true"
	in.SpecTokens = atoi(t, v["spec-tokens"])
	in.SpecAccept = atof(t, v["spec-accept"])
	in.LoRARank = atoi(t, v["lora-rank"])
	in.LoRATargets = strings.Split(v["lora-targets"], ",")
	in.Tokens = atof(t, v["tokens"])
	in.MFU = atof(t, v["mfu"])
	in.BitsPerWeight = atof(t, v["bpw"])
	in.Images = atoi(t, v["images"])
	in.TrainVision = v["train-vision"] == "true"
	in.Method = sizing.Method(v["method"])
	if applies("output", v) {
		in.OutputLen = atoi(t, v["output"])
	}
	auto := in.TP == 0
	if auto {
		if err := m.Validate(); err != nil {
			return in, gpu, auto, err
		}
		in = sizing.AutoLayout(in, &gpu)
	}
	return in, gpu, auto, nil
}

// figureIDs are the result's figures by CSS selector.
var figureIDs = []string{"#headline", "#why", "#layout", "#total", "#usable", "#gpuname", "#fits",
	"#b-weights", "#b-kv_cache", "#b-activations", "#b-gradients", "#b-optimizer", "#b-adapters", "#b-gathered",
	"#b-reference", "#b-critic", "#b-rollout", "#b-overhead", "#b-paged", "#decode", "#ttft", "#tput", "#prefill-flops",
	"#flops", "#time", "#rollout-time"}

// optionalRows are the breakdown rows shown only when not zero.
var optionalRows = []string{"gathered", "reference", "critic", "rollout"}

// expected is what the page must show for one input.
type expected struct {
	figures            map[string]string
	mins               map[string][3]string // GPU id -> GPUs needed, decode, time to first token
	offers, cheapest   [][]string           // rows: offer, per hour, billing, instances, per month, job, input and output per million, as of
	offersNone         string               // the note when offers is empty
	cheapestNone, left string               // the note when cheapest is empty; what the alternatives leave out
	pertoken           [][]string           // rows: offer, output and input per million, instances, per hour
	anyFit, pagedRow   bool
	infer              bool
	optional           map[string]bool // optionalRows shown
	err                string          // the engine's error, in English
	// Serving (inference): what fits the reader's GPUs (sizing.ServingFit;
	// rows: format, longest context, sequences, decode, weights, layout)
	// and the plan for the load (sizing.PlanServing; rows: GPU, per hour,
	// per million output tokens, layout, format, TTFT, TPOT, load, per
	// million input tokens, offer), with their notes.
	serveTitle, serveNote, planNote string
	serve, plans                    [][]string
	misses                          []string
}

func (g goSide) errText(t *testing.T, err error) string {
	key, args, ok := sizing.Message(err)
	if !ok {
		t.Fatalf("not an engine message: %v", err)
	}
	return g.msg(key, args[:]...)
}

func offerText(o *catalog.Offer) string {
	return fmt.Sprintf("%s %s (%d× %s)", o.Provider.Name, o.Instance, o.GPUCount, o.GPU.Name)
}

// want returns what the Go engine and the build's rules give for the form
// values v.
func (g goSide) want(t *testing.T, v map[string]string) expected {
	t.Helper()
	in, gpu, auto, err := g.input(t, v)
	if err == nil {
		var res sizing.Result
		if res, err = sizing.Estimate(in, &gpu); err == nil {
			return g.wantResult(t, effective(v), in, gpu, auto, res)
		}
		if verr := in.Validate(); verr == nil || verr.Error() != err.Error() {
			t.Fatalf("Estimate error %q is not Validate's %v", err, verr)
		}
	}
	return expected{err: g.errText(t, err)}
}

func (g goSide) wantResult(t *testing.T, v map[string]string, in sizing.Input, gpu sizing.GPU, auto bool, res sizing.Result) expected {
	itoa := strconv.Itoa
	b := res.Breakdown
	fits := sizing.Fits(res, gpu)
	fitWord := g.msg("calc.result.nofit")
	if fits {
		fitWord = g.msg("calc.result.fits")
	}
	var chosen *sizing.Fit
	if f, ok := sizing.MinFit(in, gpu); ok {
		chosen = &f
	}
	t.Helper()
	layout := g.msg("calc.layout", itoa(in.GPUs), itoa(res.TP), itoa(res.PP), itoa(res.DataParallel))
	if res.CP > 1 {
		layout += g.msg("calc.layout.cp", "", itoa(res.CP))
	}
	switch {
	case auto && in.DataParallelLayout():
		layout += g.msg("calc.layout.autodp")
	case auto:
		layout += g.msg("calc.layout.auto")
	}
	if !fits {
		layout = "" // the headline gives the layout that holds the job
	}
	// Not fitting, the speeds are those of the layout that holds the job.
	sp, n := pages.SpeedAt(in, res, chosen, fits)
	bound := g.msg("calc.bound.memory")
	if sp.DecodeComputeBound {
		bound = g.msg("calc.bound.compute")
	}
	gib := func(x int64) string { return g.q(sizing.GiBQuantity(x)) }
	lat := func(x float64) string { return g.q(sizing.LatencyQuantity(x)) }
	rate := func(x float64) string { return g.q(sizing.RateQuantity(x)) }
	e := expected{infer: in.Workload == sizing.Inference, pagedRow: res.PagedOutBytes > 0, optional: map[string]bool{
		"gathered": b.GatheredLayer > 0, "reference": b.Reference > 0, "critic": b.Critic > 0, "rollout": b.Rollout > 0}}
	rolloutTime := ""
	if sp.RolloutSeconds > 0 {
		rolloutTime = strings.TrimSpace(g.msg("calc.train.rollout", "", g.q(sizing.DurationQuantity(sp.RolloutSeconds))))
	}
	e.figures = map[string]string{
		"#headline": pages.CalcHeadline(g.t, in, res, gpu, chosen, fits),
		"#why":      pages.CalcWhy(g.t, in, res, gpu, chosen, fits),
		"#layout":   layout,
		"#total":    gib(res.TotalPerGPU), "#usable": gib(sizing.UsableBytes(gpu)), "#gpuname": gpu.Name, "#fits": fitWord,
		"#b-weights": gib(b.Weights), "#b-kv_cache": gib(b.KVCache), "#b-activations": gib(b.Activations),
		"#b-gradients": gib(b.Gradients), "#b-optimizer": gib(b.Optimizer), "#b-adapters": gib(b.Adapters),
		"#b-gathered": gib(b.GatheredLayer), "#b-reference": gib(b.Reference), "#b-critic": gib(b.Critic),
		"#b-rollout": gib(b.Rollout), "#b-overhead": gib(b.Overhead), "#b-paged": gib(res.PagedOutBytes), "#rollout-time": rolloutTime,
		"#decode": g.msg("calc.speed.decode", bound, rate(sp.DecodeTokensPerSec), rate(sp.ExpectedDecode)),
		"#ttft":   g.msg("calc.speed.ttft", "", lat(sp.TTFTSeconds), itoa(in.PromptTokens()), lat(sp.ExpectedTTFT)),
		"#tput":   g.msg("calc.speed.throughput", rate(sp.ThroughputTokensPerSec), rate(sp.ExpectedThroughput), itoa(n), rate(sp.ExpectedPerGPU)),
		"#flops":  g.q(sizing.FLOPsQuantity(res.TrainFLOPs)), "#time": g.q(sizing.DurationQuantity(sp.TrainSeconds)),
		"#prefill-flops": g.q(sizing.FLOPsQuantity(res.PrefillFLOPs)),
	}
	dash := g.msg("sizing.unit.none")
	e.mins = map[string][3]string{}
	fitsOf := map[string]sizing.Fit{}
	for _, cg := range g.cat.GPUs {
		row := [3]string{dash, dash, dash}
		if f, ok := sizing.MinFit(in, derive.SizingGPU(cg)); ok {
			fitsOf[cg.ID], e.anyFit = f, true
			row = [3]string{itoa(f.N), rate(f.Result.ExpectedDecode), lat(f.Result.ExpectedTTFT)}
		}
		e.mins[cg.ID] = row
	}
	// The plan: pages.CalcJob and CalcOffers, as the build prices the
	// default estimate, at the form's concurrency and stale choice.
	cur := g.dd.Currency
	job := pages.CalcJob(g.cat, in, res, g.cat.GPU(gpu.ID), fitsOf, atoi(t, v["concurrency"]))
	job.IncludeStale = v["include-stale"] == "true"
	plan := job.Plan(pages.CalcOffers(g.cat, g.dd.Headline, g.now))
	text := pages.CalcPlanText(plan, job, g.dd.Headline, g.t, cur, "en", g.cat.Site.Staleness.StaleDays)
	rows := func(cs []pages.CalcCost) (out [][]string) {
		for _, c := range cs {
			out = append(out, []string{offerText(c.Row.Offer), c.Hourly, g.en["billing."+c.Row.Price.Billing], itoa(c.Instances), c.Monthly,
				c.Job, c.Input, c.Output, c.Row.Price.AsOf.Format("2006-01-02")})
		}
		return out
	}
	e.offers, e.cheapest = rows(text.Chosen), rows(text.Cheapest)
	e.offersNone, e.cheapestNone, e.left = text.ChosenNone, text.CheapestNone, text.Left
	for _, c := range text.PerToken {
		e.pertoken = append(e.pertoken, []string{offerText(c.Row.Offer), c.Output, c.Input, itoa(c.Instances), c.Hourly})
	}
	if e.infer {
		g.wantServing(t, v, in, gpu, &e)
	}
	return e
}

// wantServing fills e's serving answers for input in on gpu: the
// formats sizing.ServingFit gives for the reader's GPUs, and the plans
// and misses of sizing.PlanServing for the form's load over the catalog's
// GPUs and current on-demand offers, in the page's words.
func (g goSide) wantServing(t *testing.T, v map[string]string, in sizing.Input, gpu sizing.GPU, e *expected) {
	t.Helper()
	itoa := strconv.Itoa
	maxCtx := 0
	if cm := g.cat.Model(v["model"]); cm != nil {
		maxCtx = cm.MaxContext
	}
	dash := g.msg("sizing.unit.none")
	e.serveTitle = g.msg("calc.serve.title", gpu.Name, v["gpus"])
	opts := sizing.ServingFit(in.Model, maxCtx, gpu, in.GPUs)
	fits := false
	for _, o := range opts {
		row := []string{sizing.FormatLabel(o.DType, o.Quant, o.KVDType), sizing.Group(o.MaxContext),
			g.msg("calc.serve.seqs", "", sizing.Group(o.Concurrency), sizing.Group(o.Context)),
			g.q(sizing.RateQuantity(o.Decode)), g.q(sizing.GiBQuantity(o.WeightsPerGPU)), g.msg("calc.serve.layout", "", itoa(o.TP), itoa(o.PP))}
		switch {
		case o.MaxContext == 0:
			row[1], row[2] = g.msg("calc.serve.over", "", g.q(sizing.GiBQuantity(o.OverBytes))), dash
		case o.Concurrency == 0:
			row[2] = g.msg("calc.serve.seqs.none", "", sizing.Group(o.Context))
		}
		fits = fits || o.Fits()
		e.serve = append(e.serve, row)
	}
	switch {
	case len(opts) == 0:
		e.serveNote = g.msg("calc.serve.nolayout", "", v["gpus"], itoa(in.Model.Layers))
	case !fits:
		e.serveNote = g.msg("calc.serve.none", gpu.Name, sizing.Group(opts[0].Context), v["gpus"])
	}
	load := sizing.Load{Rate: atof(t, v["rate"]), Prompt: atoi(t, v["plan-prompt"]), Answer: atoi(t, v["answer"]),
		TTFT: atof(t, v["ttft"]) / 1000, TPOT: atof(t, v["tpot"]) / 1000}
	if load.Rate == 0 {
		e.planNote = g.msg("calc.plan.off")
		return
	}
	var gpus []sizing.GPU
	for _, cg := range g.cat.GPUs {
		gpus = append(gpus, derive.SizingGPU(cg))
	}
	plans, misses, ok := sizing.PlanServing(in.Model, maxCtx, load, gpus, pages.CalcOffers(g.cat, g.dd.Headline, g.now), nil)
	if !ok {
		limit := maxCtx
		if limit <= 0 {
			limit = sizing.MaxSeqLen
		}
		e.planNote = g.msg("calc.plan.bad", "", sizing.Group(limit))
		return
	}
	cur := g.dd.Currency
	money := func(x float64) string { return render.Money(x, cur) }
	for _, p := range plans {
		r := g.dd.Headline[p.Offer]
		e.plans = append(e.plans, []string{gpus[p.GPU].Name, money(p.Hourly), money(p.OutputPerM),
			g.msg("calc.plan.layout", itoa(p.Replicas), itoa(p.TP), itoa(p.GPUs), itoa(p.Batch)), sizing.FormatLabel(p.DType, p.Quant, p.KVDType),
			g.q(sizing.LatencyQuantity(p.TTFT)), g.q(sizing.LatencyQuantity(p.TPOT)), itoa(int(math.Round(p.Utilization*100))) + "%", money(p.InputPerM),
			fmt.Sprintf("%d × %s %s, %s", p.Instances, r.Offer.Provider.Name, r.Offer.Instance, r.Price.AsOf.Format("2006-01-02"))})
	}
	for _, m := range misses {
		best := itoa(int(m.Best))
		switch m.Reason {
		case sizing.MissTTFT, sizing.MissTPOT:
			best = g.q(sizing.LatencyQuantity(m.Best))
		case sizing.MissFit:
			best = itoa(sizing.MaxNodeTP)
		}
		e.misses = append(e.misses, g.msg("calc.plan.miss."+m.Reason, gpus[m.GPU].Name, best))
	}
	if len(plans) == 0 {
		e.planNote = g.msg("calc.plan.none", "", itoa(len(misses)))
	}
}

// shown is what the page shows.
type shown struct {
	Figures      map[string]string    `json:"figures"`
	Mins         map[string][3]string `json:"mins"`
	Offers       [][]string           `json:"offers"`
	OffersNone   string               `json:"offersNone"`
	OffersOn     bool                 `json:"offersNoneShown"`
	Cheapest     [][]string           `json:"cheapest"`
	CheapestNone string               `json:"cheapestNone"`
	CheapestOn   bool                 `json:"cheapestNoneShown"`
	Left         string               `json:"left"`
	LeftOn       bool                 `json:"leftShown"`
	WhyOn        bool                 `json:"whyShown"`
	MinsNoneOn   bool                 `json:"minsNoneShown"`
	PerToken     [][]string           `json:"pertoken"`
	PerTokenOn   bool                 `json:"pertokenShown"`
	PagedOn      bool                 `json:"pagedShown"`
	OptionalOn   map[string]bool      `json:"optionalShown"`
	Error        string               `json:"error"`
	ErrorOn      bool                 `json:"errorShown"`
	FitClass     string               `json:"fitClass"`
	HeadClass    string               `json:"headClass"`
	ServeTitle   string               `json:"serveTitle"`
	ServeNote    string               `json:"serveNote"`
	ServeNoteOn  bool                 `json:"serveNoteShown"`
	Serve        [][]string           `json:"serve"`
	ServeOn      bool                 `json:"serveShown"`
	PlanNote     string               `json:"planNote"`
	PlanNoteOn   bool                 `json:"planNoteShown"`
	Plans        [][]string           `json:"plans"`
	PlanOn       bool                 `json:"planShown"`
	Misses       []string             `json:"misses"`
	MissesOn     bool                 `json:"missesShown"`
}

const shownJS = `(() => {
	const vis = (el) => !!el && el.getClientRects().length > 0;
	const txt = (el) => el.textContent.trim().replace(/\s+/g, " ");
	const figures = {};
	for (const id of IDS) figures[id] = txt(document.querySelector(id));
	const mins = {};
	for (const tr of document.querySelectorAll("#mingpus tbody tr")) mins[tr.dataset.gpu] = [...tr.querySelectorAll("td")].slice(1).map(txt);
	const rows = (sel) => [...document.querySelectorAll(sel + " tbody tr")].map((tr) => [...tr.children].map(txt));
	const err = document.getElementById("error");
	return {figures, mins, offers: rows("#offers"), offersNone: txt(document.getElementById("offers-none")),
		offersNoneShown: vis(document.getElementById("offers-none")), left: txt(document.getElementById("left")),
		leftShown: vis(document.getElementById("left")), whyShown: vis(document.getElementById("why")), cheapest: rows("#cheapest"), cheapestNone: txt(document.getElementById("cheapest-none")),
		cheapestNoneShown: vis(document.getElementById("cheapest-none")), minsNoneShown: vis(document.getElementById("mingpus-none")),
		pertoken: rows("#pertoken"), pertokenShown: vis(document.getElementById("pertoken-box")),
		pagedShown: vis(document.getElementById("r-paged")),
		optionalShown: Object.fromEntries(["gathered", "reference", "critic", "rollout"].map((k) => [k, vis(document.getElementById("r-" + k))])),
		error: txt(err), errorShown: vis(err), fitClass: document.getElementById("fits").className,
		headClass: document.getElementById("headline").className,
		serveTitle: txt(document.getElementById("serve-title")), serveNote: txt(document.getElementById("serve-note")),
		serveNoteShown: vis(document.getElementById("serve-note")), serve: rows("#serve"), serveShown: vis(document.getElementById("serve-box")),
		planNote: txt(document.getElementById("plan-note")), planNoteShown: vis(document.getElementById("plan-note")),
		plans: rows("#plans"), planShown: vis(document.getElementById("plan-box")),
		misses: [...document.querySelectorAll("#plan-misses li")].map(txt), missesShown: vis(document.getElementById("plan-misses"))};
})()`

func readShown(b *Browser) shown {
	b.t.Helper()
	var s shown
	ids, _ := json.Marshal(figureIDs)
	b.Eval(strings.Replace(shownJS, "IDS", string(ids), 1), &s)
	return s
}

// readForm reads the form's controls back, in the case's vocabulary.
func readForm(b *Browser) map[string]string {
	b.t.Helper()
	var v map[string]string
	b.Eval(`(() => {
		const f = document.getElementById("calc"), v = {};
		for (const el of f.elements) {
			if (!el.name) continue;
			if (el.name === "lora-targets") { if (el.checked) v["lora-targets"] = (v["lora-targets"] ? v["lora-targets"] + "," : "") + el.value; }
			else if (el.type === "checkbox") v[el.name] = String(el.checked);
			else v[el.name] = el.value;
		}
		return v;
	})()`, &v)
	return v
}

// visibleControls reads which named controls are rendered.
func visibleControls(b *Browser) map[string]bool {
	b.t.Helper()
	var v map[string]bool
	b.Eval(`(() => {
		const v = {};
		for (const el of document.getElementById("calc").elements) if (el.name) v[el.name] = (v[el.name] || false) || el.getClientRects().length > 0;
		return v;
	})()`, &v)
	return v
}

// fill sets the case's values through the form, as a user would: the
// advanced section is opened by clicking its summary first; each control
// is set once the ones before it made it appear.
func fill(t *testing.T, b *Browser, c calcCase) {
	t.Helper()
	advanced := false
	for k := range c.set {
		if !basicFields[k] {
			advanced = true
		}
	}
	if advanced {
		var open bool
		b.Eval(`document.getElementById("advanced").open`, &open)
		if !open {
			b.Click("#advanced > summary")
			b.WaitVisible("#f-flash")
		}
	}
	for _, name := range formOrder {
		val, ok := c.set[name]
		if !ok {
			continue
		}
		switch {
		case checkboxes[name]:
			b.SetChecked("#f-"+name, val == "true")
		case name == "lora-targets":
			want := strings.Split(val, ",")
			for _, tgt := range sizing.LoRATargetNames() {
				b.SetChecked(fmt.Sprintf(`input[name="lora-targets"][value=%q]`, tgt), slices.Contains(want, tgt))
			}
		case loadFields[name]:
			b.SetValue("#f-"+name, val)
		default:
			b.SetValue(`#calc [name="`+name+`"]`, val)
		}
	}
}

// check compares what the page shows with the Go side.
func check(t *testing.T, b *Browser, g goSide, c calcCase, v map[string]string, when string) {
	t.Helper()
	w := g.want(t, v)
	got := readShown(b)
	if w.err != "" {
		if !got.ErrorOn || got.Error != w.err {
			t.Errorf("%s: error line = %q (shown %v), want %q (the Go engine's error)", when, got.Error, got.ErrorOn, w.err)
		}
		if want := g.msg("calc.headline.error", w.err); got.Figures["#headline"] != want {
			t.Errorf("%s: headline = %q, want %q", when, got.Figures["#headline"], want)
		}
		return
	}
	if got.ErrorOn {
		t.Errorf("%s: unexpected error line %q", when, got.Error)
	}
	for _, id := range figureIDs {
		if got.Figures[id] != w.figures[id] {
			t.Errorf("%s: %s = %q, want %q", when, id, got.Figures[id], w.figures[id])
		}
	}
	wantClass := "nofit"
	if w.figures["#fits"] == g.msg("calc.result.fits") {
		wantClass = "fits"
	}
	if got.FitClass != wantClass || got.HeadClass != "headline "+wantClass {
		t.Errorf("%s: #fits class = %q, #headline class %q, want %q", when, got.FitClass, got.HeadClass, wantClass)
	}
	if c.fits && wantClass != "fits" {
		t.Errorf("%s: the case is there to fit, the engine says %q", when, w.figures["#headline"])
	}
	if c.layout != "" && !strings.Contains(got.Figures["#layout"], c.layout) {
		t.Errorf("%s: #layout %q does not say %q", when, got.Figures["#layout"], c.layout)
	}
	if got.PagedOn != w.pagedRow {
		t.Errorf("%s: paged row shown %v (want %v)", when, got.PagedOn, w.pagedRow)
	}
	for _, k := range optionalRows {
		if got.OptionalOn[k] != w.optional[k] {
			t.Errorf("%s: %s row shown %v (want %v)", when, k, got.OptionalOn[k], w.optional[k])
		}
	}
	if (c.showsRow == "r-paged" && !got.PagedOn) || (strings.HasPrefix(c.showsRow, "r-") && c.showsRow != "r-paged" && !got.OptionalOn[c.showsRow[2:]]) {
		t.Errorf("%s: the case is there to show %s", when, c.showsRow)
	}
	if len(got.Mins) != len(w.mins) {
		t.Errorf("%s: #mingpus has %d rows, the catalog %d GPUs", when, len(got.Mins), len(w.mins))
	}
	for id, row := range w.mins {
		if got.Mins[id] != row {
			t.Errorf("%s: #mingpus %s = %q, want %q (sizing.MinFit)", when, id, got.Mins[id], row)
		}
	}
	if got.MinsNoneOn == w.anyFit {
		t.Errorf("%s: the note that no GPU fits is shown %v, some GPU fits %v (case: none %v)", when, got.MinsNoneOn, w.anyFit, c.noGPU)
	}
	if c.noGPU && w.anyFit {
		t.Errorf("%s: the case is there to fit no GPU", when)
	}
	if got.WhyOn != (w.figures["#why"] != "") {
		t.Errorf("%s: #why shown %v with text %q", when, got.WhyOn, w.figures["#why"])
	}
	// The plan: the chosen GPU's offers, the cheapest alternatives and the
	// note on what they leave out, the cost per token (inference only).
	for _, tb := range []struct {
		name      string
		got, want [][]string
	}{{"#offers", got.Offers, w.offers}, {"#cheapest", got.Cheapest, w.cheapest}, {"#pertoken", got.PerToken, w.pertoken}} {
		if tb.name == "#pertoken" && !w.infer {
			continue
		}
		if !slices.EqualFunc(tb.got, tb.want, slices.Equal) {
			t.Errorf("%s: %s rows = %q, want %q (sizing.Job.Plan)", when, tb.name, tb.got, tb.want)
		}
	}
	if got.OffersOn != (len(w.offers) == 0) || (got.OffersOn && got.OffersNone != w.offersNone) {
		t.Errorf("%s: #offers-none shown %v = %q with %d rows, want %q", when, got.OffersOn, got.OffersNone, len(w.offers), w.offersNone)
	}
	if got.CheapestOn != (len(w.cheapest) == 0) {
		t.Errorf("%s: the empty-offers note is shown %v with %d rows", when, got.CheapestOn, len(w.cheapest))
	}
	if got.CheapestNone != w.cheapestNone {
		t.Errorf("%s: #cheapest-none = %q, want %q", when, got.CheapestNone, w.cheapestNone)
	}
	if got.Left != w.left || got.LeftOn != (w.left != "") {
		t.Errorf("%s: #left = %q (shown %v), want %q", when, got.Left, got.LeftOn, w.left)
	}
	if c.spans && !slices.ContainsFunc(append(got.Offers, got.Cheapest...), func(r []string) bool { return len(r) > 3 && atoiOr(r[3]) > 1 }) {
		t.Errorf("%s: the case is there to need several instances; #offers %q, #cheapest %q", when, got.Offers, got.Cheapest)
	}
	if got.PerTokenOn != w.infer {
		t.Errorf("%s: the cost-per-token table is shown %v for workload %s", when, got.PerTokenOn, v["workload"])
	}
	checkServing(t, got, w, when)
	switch {
	case c.plan == "rows" && (len(got.Plans) == 0 || len(got.Misses) == 0):
		t.Errorf("%s: the case is there to plan on some GPUs and not others: %d plans, %d misses", when, len(got.Plans), len(got.Misses))
	case c.plan != "" && c.plan != "rows" && !strings.HasPrefix(got.PlanNote, strings.SplitN(g.msg("calc.plan."+c.plan, "", "\x00"), "\x00", 2)[0]):
		t.Errorf("%s: the case is there to show the note calc.plan.%s; #plan-note = %q", when, c.plan, got.PlanNote)
	}
	if c.noFormat && (!got.ServeNoteOn || !strings.HasPrefix(w.serveNote, "No format holds")) {
		t.Errorf("%s: the case is there to fit in no format; #serve-note = %q", when, got.ServeNote)
	}
}

// checkPresets opens the list of the presets that fit the reader's GPUs
// and compares it with sizing.RankFits over the catalog's models.
func checkPresets(t *testing.T, b *Browser, g goSide, v map[string]string) {
	t.Helper()
	_, gpu, _, err := g.input(t, v)
	if err != nil {
		t.Fatal(err)
	}
	n := atoi(t, v["gpus"])
	ms, ctxs := make([]sizing.Model, len(g.cat.Models)), make([]int, len(g.cat.Models))
	for i, m := range g.cat.Models {
		ms[i], ctxs[i] = m.Model, m.MaxContext
	}
	var want [][]string
	for _, r := range sizing.RankFits(ms, ctxs, gpu, n) {
		o := r.Option
		want = append(want, []string{g.cat.Models[r.Index].Name, sizing.FormatLabel(o.DType, o.Quant, o.KVDType), sizing.Group(o.MaxContext),
			g.msg("calc.serve.seqs", "", sizing.Group(o.Concurrency), sizing.Group(o.Context)), g.q(sizing.RateQuantity(o.Decode))})
	}
	if len(want) == 0 {
		t.Fatalf("no preset fits %d × %s: choose GPUs some preset fits", n, gpu.Name)
	}
	// Opening the list computes it; until then it holds the build's list
	// for the default GPU. The rows must become RankFits' (Poll fails with
	// the rows shown when they do not).
	b.Click("#presets > summary")
	rows := `JSON.stringify([...document.querySelectorAll("#presets-table tbody tr")].map((tr) => [...tr.children].map((c) => c.textContent.trim().replace(/\s+/g, " "))))`
	w, _ := json.Marshal(want)
	b.Poll(rows+` === `+strconv.Quote(string(w)), rows)
	if title := b.Text("#presets-title"); title != g.msg("calc.presets.title", gpu.Name, v["gpus"]) {
		t.Errorf("#presets-title = %q", title)
	}
}

// checkPay opens the ways to pay and compares them with sizing.PayWays
// on the catalog's GPUs, offers and usage prices (pages.UsageOffers):
// rows (way, per month, per 1,000 requests, the offer or usage price and
// its date), the break-evens and the note.
func checkPay(t *testing.T, b *Browser, g goSide, c calcCase, v map[string]string) {
	t.Helper()
	in, _, _, err := g.input(t, v)
	if err != nil {
		t.Fatal(err)
	}
	model, maxCtx := v["model"], 0
	if cm := g.cat.Model(model); cm != nil {
		maxCtx = cm.MaxContext
	}
	load := sizing.Load{Rate: atof(t, v["rate"]), Prompt: atoi(t, v["plan-prompt"]), Answer: atoi(t, v["answer"]),
		TTFT: atof(t, v["ttft"]) / 1000, TPOT: atof(t, v["tpot"]) / 1000}
	var gpus []sizing.GPU
	for _, cg := range g.cat.GPUs {
		gpus = append(gpus, derive.SizingGPU(cg))
	}
	cur := g.dd.Currency
	money := func(x float64) string { return render.Money(x, cur) }
	use, refs := pages.UsageOffers(g.cat, model, cur, g.now)
	ways, ok := sizing.PayWays(in.Model, maxCtx, load, gpus, pages.CalcOffers(g.cat, g.dd.Headline, g.now), use, nil)
	rows, sentences, note, bars := [][]string{}, []string{}, "", []string{}
	shows := map[string]bool{}
	dearest := 0.0
	for _, w := range ways {
		dearest = max(dearest, w.Monthly)
	}
	for _, w := range ways {
		bars = append(bars, strconv.FormatFloat(w.Monthly/dearest*1000, 'f', 1, 64))
		shows[w.Way] = true
		where := ""
		if w.Way == sizing.PayServerless || w.Way == sizing.PayAPI {
			ref, u := refs[w.Index], use[w.Index]
			switch {
			case ref.API != nil:
				where = g.msg("pay.api", ref.API.ServedAs, money(u.InputPerM), money(u.OutputPerM))
			case u.IdleSeconds > 0:
				where = g.msg("pay.serverless.idle", ref.Serverless.ServedAs, money(u.PerSecond*3600), render.Num(u.IdleSeconds), strconv.FormatFloat(w.IdleSeconds, 'f', 2, 64))
			default:
				where = g.msg("pay.serverless", ref.Serverless.ServedAs, money(u.PerSecond*3600))
			}
			where = ref.Platform.Name + " " + where + ", " + ref.AsOf().Format("2006-01-02")
		} else {
			r := g.dd.Headline[w.Index]
			term := ""
			if r.Price.Billing == "committed" && r.Price.TermMonths > 0 {
				term = g.msg("pay.term", itoa(r.Price.TermMonths))
			}
			where = fmt.Sprintf("%d × %s %s%s, %s", w.Plan.Instances, r.Offer.Provider.Name, r.Offer.Instance, term, r.Price.AsOf.Format("2006-01-02"))
		}
		rows = append(rows, []string{g.t("pay.way." + w.Way), money(w.Monthly), money(w.PerRequest * 1000), where})
		if key, fig := sizing.BreakEven(w, ways); key != "" {
			shows["pay.be."+key] = true
			sentences = append(sentences, g.msg("pay.be."+key, g.t("pay.way."+w.Way), fig))
		}
	}
	switch {
	case load.Rate == 0:
		note = g.msg("calc.plan.off")
	case !ok:
		limit := maxCtx
		if limit <= 0 {
			limit = sizing.MaxSeqLen
		}
		note = g.msg("calc.plan.bad", "", sizing.Group(limit))
	case len(ways) == 0:
		note = g.t("pay.none")
	case !shows[sizing.PayAPI]:
		sentences = append(sentences, g.t("calc.pay.noapi"))
		shows["calc.pay.noapi"] = true
	}
	shows["calc.plan.off"] = load.Rate == 0
	for _, k := range c.payShows {
		if !shows[k] {
			t.Errorf("the case is there to show %s; PayWays gives %d ways, note %q", k, len(ways), note)
		}
	}
	want, _ := json.Marshal(struct { // in the order the script's object below has
		Rows  [][]string `json:"rows"`
		BE    []string   `json:"be"`
		Note  string     `json:"note"`
		Table bool       `json:"table"`
		Bars  []string   `json:"bars"`
	}{rows, sentences, note, len(rows) > 0, bars})
	got := `JSON.stringify({rows: [...document.querySelectorAll("#pay-table tbody tr")].map((tr) => [...tr.children].map((c) => c.textContent.trim().replace(/\s+/g, " "))),
		be: [...document.querySelectorAll("#pay-be li")].map((li) => li.textContent), note: document.getElementById("pay-note").hidden ? "" : document.getElementById("pay-note").textContent,
		table: !document.getElementById("pay-wrap").hidden, bars: [...document.querySelectorAll("#pay-table tbody .paybar rect")].map((r) => Number(r.getAttribute("width")).toFixed(1))})`
	// Opening the section loads the second module and computes the ways;
	// until then it holds the build's answer for the page's defaults
	// (pages.calcPay), which must be the same.
	if len(c.set) == 0 {
		var pre string
		if b.Eval(got, &pre); pre != string(want) {
			t.Errorf("the page's ways to pay for its defaults\n%s\ndiffer from sizing.PayWays\n%s", pre, want)
		}
	}
	b.Click("#pay > summary")
	b.Poll(got+` === `+strconv.Quote(string(want)), got)
}

// checkServing compares the serving answers (inference only): what fits
// the reader's GPUs and the plan for the load.
func checkServing(t *testing.T, got shown, w expected, when string) {
	t.Helper()
	if got.ServeOn != w.infer || got.PlanOn != w.infer {
		t.Errorf("%s: the fit and plan sections are shown %v and %v for inference %v", when, got.ServeOn, got.PlanOn, w.infer)
	}
	if !w.infer {
		return
	}
	if got.ServeTitle != w.serveTitle {
		t.Errorf("%s: #serve-title = %q, want %q", when, got.ServeTitle, w.serveTitle)
	}
	if !slices.EqualFunc(got.Serve, w.serve, slices.Equal) {
		t.Errorf("%s: #serve rows = %q, want %q (sizing.ServingFit)", when, got.Serve, w.serve)
	}
	if got.ServeNote != w.serveNote || got.ServeNoteOn != (w.serveNote != "") {
		t.Errorf("%s: #serve-note = %q (shown %v), want %q", when, got.ServeNote, got.ServeNoteOn, w.serveNote)
	}
	if !slices.EqualFunc(got.Plans, w.plans, slices.Equal) {
		t.Errorf("%s: #plans rows = %q, want %q (sizing.PlanServing)", when, got.Plans, w.plans)
	}
	if got.PlanNote != w.planNote || got.PlanNoteOn != (w.planNote != "") {
		t.Errorf("%s: #plan-note = %q (shown %v), want %q", when, got.PlanNote, got.PlanNoteOn, w.planNote)
	}
	if !slices.Equal(got.Misses, w.misses) || got.MissesOn != (len(w.misses) > 0) {
		t.Errorf("%s: #plan-misses (shown %v) = %q, want %q", when, got.MissesOn, got.Misses, w.misses)
	}
}

// checkApplies compares which controls the form shows with applies().
func checkApplies(t *testing.T, b *Browser, v map[string]string, when string) {
	t.Helper()
	vis := visibleControls(b)
	for name := range pageDefaults {
		if basicFields[name] {
			continue
		}
		if vis[name] != applies(name, v) {
			t.Errorf("%s: control %s shown %v, applies %v", when, name, vis[name], applies(name, v))
		}
	}
}

// TestCalculatorMatchesGoEngine drives the calculator page through its form
// and compares every figure with the Go engine's for the same inputs.
func TestCalculatorMatchesGoEngine(t *testing.T) {
	t.Parallel()
	base := Site(t)
	g := loadCatalog(t)
	if len(calcCases) < 40 {
		t.Fatalf("only %d cases", len(calcCases))
	}
	browser := New(t, base)
	for _, c := range calcCases {
		t.Run(c.name, func(t *testing.T) {
			b := browser.For(t)
			v := c.values()
			if e := g.want(t, v).err; (e != "") != c.invalid {
				t.Fatalf("the Go engine's error %q does not match invalid=%v: fix the case", e, c.invalid)
			}
			b.Navigate("calculator/")
			// Without a query string the engine loads on the reader's first
			// interaction with the form.
			var early bool
			b.Eval(engineLoadedJS, &early)
			if early {
				t.Fatal("the engine (wasm_exec.js or the WebAssembly) loaded before any interaction on a page without a query string")
			}
			wakeCalculator(b)
			if got := readForm(b); !mapsEqual(got, pageDefaults) {
				t.Fatalf("the form's initial values\n%v\ndiffer from the test's page defaults\n%v", got, pageDefaults)
			}
			fill(t, b, c)
			check(t, b, g, c, v, "after filling the form")
			if got := readForm(b); !mapsEqual(got, v) {
				t.Errorf("after filling, the form holds\n%v\nwant\n%v", got, v)
			}
			checkApplies(t, b, v, "after filling the form")
			if c.presets {
				checkPresets(t, b, g, v)
			}
			if c.pay {
				checkPay(t, b, g, c, v)
			}
			var open bool
			if b.Eval(`document.getElementById("advanced").open`, &open); v["model"] == "custom" && !open {
				t.Errorf("the model is custom but the advanced section (its fields) is closed")
			}

			// The URL holds the inputs that apply, and only those.
			loc := b.Location()
			u, err := url.Parse(loc)
			if err != nil {
				t.Fatal(err)
			}
			q := u.Query()
			for name, val := range v {
				if !applies(name, v) {
					if q.Has(name) {
						t.Errorf("URL %s holds %s, which does not apply", u.RawQuery, name)
					}
					continue
				}
				if _, ok := c.set[name]; !ok {
					if _, ok := c.implied[name]; !ok {
						continue
					}
				}
				got := q.Get(name)
				if name == "lora-targets" {
					got = strings.Join(q[name], ",")
				} else if checkboxes[name] && name != "flash" && !q.Has(name) {
					got = "false"
				}
				if got != val {
					t.Errorf("URL %s: %s = %q, want %q", u.RawQuery, name, got, val)
				}
			}
			if len(c.set) > 0 && u.RawQuery == "" {
				t.Errorf("URL %s holds no query", loc)
			}

			if c.reload {
				b.Navigate(loc)
				wakeCalculator(b)
				got := readForm(b)
				for name := range v {
					if applies(name, v) && got[name] != v[name] {
						t.Errorf("after reloading %s the form holds %s = %q, want %q", loc, name, got[name], v[name])
					}
				}
				check(t, b, g, c, v, "after reloading "+loc)
				checkApplies(t, b, v, "after reloading "+loc)
				var open bool
				if b.Eval(`document.getElementById("advanced").open`, &open); open != (v["model"] == "custom") {
					t.Errorf("after reloading %s the advanced section is open=%v; want it open only for a custom model", loc, open)
				}
			}
		})
	}
}

// TestCalculatorConfigPaste pastes, drops and chooses real config.json
// files (generator/internal/hfconfig/testdata) and bad ones: the page's
// custom model must be what hfconfig.Parse reads, every figure the Go
// engine's, and an error must be shown next to the box with its line and
// column. Pasting is the first interaction: it loads the engine.
func TestCalculatorConfigPaste(t *testing.T) {
	t.Parallel()
	base := Site(t)
	g := loadCatalog(t)
	browser := New(t, base)
	dir := filepath.Join(testcat.RepoRoot(), "generator", "internal", "hfconfig", "testdata")
	read := func(t *testing.T, name string) string {
		raw, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(raw)
	}
	// how the text reaches the page
	const (
		paste = iota
		drop
	)
	good := []struct {
		file         string
		how          int
		set, implied map[string]string // other inputs, set before
	}{
		{"qwen3-30b-a3b.json", paste, nil, nil},
		{"deepseek-v3.json", drop, map[string]string{"dtype": "fp8", "gpus": "8", "gpu": "h200-sxm-141gb"}, nil},
		{"gemma-2-27b-it.json", paste, map[string]string{"seq": "8192"}, nil},
		{"gemma-3-27b-it.json", paste, map[string]string{"seq": "32768"}, nil},
		{"phi-4.json", drop, map[string]string{"workload": "qlora"}, map[string]string{"dtype": "int4"}},
	}
	for _, tc := range good {
		t.Run(tc.file, func(t *testing.T) {
			b := browser.For(t)
			b.Navigate("calculator/")
			text := read(t, tc.file)
			cfg, err := hfconfig.Parse([]byte(text))
			if err != nil {
				t.Fatal(hfconfig.Positioned(err))
			}
			c := calcCase{set: map[string]string{}, implied: tc.implied}
			if tc.set != nil {
				wakeCalculator(b)
				c.set = tc.set
				fill(t, b, c)
			} else {
				var early bool
				b.Eval(engineLoadedJS, &early)
				if early {
					t.Fatal("the engine loaded before any interaction")
				}
			}
			b.Click("#config > summary")
			arg, _ := json.Marshal(text)
			switch tc.how {
			case paste:
				b.Eval(`(() => { const el = document.getElementById("f-config"); el.focus(); el.value = `+string(arg)+`;
					el.dispatchEvent(new Event("input", {bubbles: true})); })()`, nil)
			case drop:
				b.Eval(`(() => { const dt = new DataTransfer(); dt.items.add(new File([`+string(arg)+`], "config.json", {type: "application/json"}));
					document.getElementById("f-config").dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true})); })()`, nil)
			}
			b.Poll(`document.getElementById("calc").dataset.ready === "true" && document.getElementById("f-model").value === "custom"`,
				`document.getElementById("config-msg").textContent`)
			m := cfg.Model
			v := c.values()
			for k, x := range map[string]string{"model": "custom", "params": i64(m.Params), "active-params": i64(m.ActiveParams),
				"layers": itoa(m.Layers), "hidden": itoa(m.Hidden), "heads": itoa(m.Heads), "kv-heads": itoa(m.KVHeads),
				"head-dim": itoa(m.HeadDim), "ffn": itoa(m.FFN), "vocab": itoa(m.Vocab), "tied": strconv.FormatBool(m.TiedEmbeddings),
				"sliding-window": itoa(m.SlidingWindow), "local-layers": itoa(m.LocalLayers), "experts": itoa(m.Experts),
				"experts-per-token": itoa(m.ExpertsPerToken), "shared-experts": itoa(m.SharedExperts), "dense-layers": itoa(m.DenseLayers),
				"dense-ffn": itoa(m.DenseFFN), "kv-lora-rank": itoa(m.KVLoRARank), "q-lora-rank": itoa(m.QLoRARank),
				"rope-head-dim": itoa(m.QKRopeHeadDim), "v-head-dim": itoa(m.VHeadDim)} {
				v[k] = x
			}
			if got := readForm(b); !mapsEqual(got, v) {
				t.Errorf("after the config the form holds\n%v\nwant\n%v", got, v)
			}
			if got := customModel(t, effective(v)); !reflect.DeepEqual(got, m) {
				t.Errorf("the custom model the page sizes is %+v, hfconfig read %+v", got, m)
			}
			wantMsg := g.msg("calc.config.ok", cfg.ModelType, strconv.FormatFloat(float64(m.Params)/1e9, 'f', 2, 64))
			if got := b.Text("#config-msg"); got != wantMsg {
				t.Errorf("#config-msg = %q, want %q", got, wantMsg)
			}
			check(t, b, g, c, v, "after the config")
			checkApplies(t, b, v, "after the config")
			// The URL reproduces the result.
			loc := b.Location()
			b.Navigate(loc)
			wakeCalculator(b)
			check(t, b, g, c, v, "after reloading "+loc)
		})
	}

	bad := []struct{ name, text string }{
		{"not JSON", "{\n  \"model_type\": \"llama\",\n  \"hidden_size\": 4096,,\n}"},
		{"missing key", `{"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008, "num_attention_heads": 32, "vocab_size": 32000}`},
		{"heads do not divide hidden", "{\"model_type\": \"llama\", \"hidden_size\": 4000, \"intermediate_size\": 11008,\n\"num_hidden_layers\": 32, \"num_attention_heads\": 48, \"vocab_size\": 32000}"},
		{"unknown architecture", `{"model_type": "t5", "d_model": 512, "num_layers": 6, "vocab_size": 32128}`},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			b := browser.For(t)
			b.Navigate("calculator/")
			_, err := hfconfig.Parse([]byte(tc.text))
			var he *hfconfig.Error
			if err == nil || !asError(err, &he) {
				t.Fatalf("hfconfig.Parse accepts the bad file or gives no keyed error: %v", err)
			}
			want := g.msg(he.Key, he.Args[:]...)
			if he.Line > 0 {
				want = g.msg(hfconfig.AtKey, want, itoa(he.Line), itoa(he.Col))
			}
			if want != hfconfig.Positioned(err) {
				t.Errorf("the English UI string %q differs from the parser's %q", want, hfconfig.Positioned(err))
			}
			b.Click("#config > summary")
			arg, _ := json.Marshal(tc.text)
			b.Eval(`(() => { const el = document.getElementById("f-config"); el.focus(); el.value = `+string(arg)+`;
				el.dispatchEvent(new Event("input", {bubbles: true})); })()`, nil)
			b.Poll(`document.getElementById("f-config").getAttribute("aria-invalid") === "true"`, `document.getElementById("config-msg").textContent`)
			if got := b.Text("#config-msg"); got != want {
				t.Errorf("#config-msg = %q, want %q", got, want)
			}
			var next struct {
				Described string `json:"described"`
				Visible   bool   `json:"visible"`
				Model     string `json:"model"`
			}
			b.Eval(`(() => { const m = document.getElementById("config-msg"); return {described: document.getElementById("f-config").getAttribute("aria-describedby"),
				visible: m.getClientRects().length > 0, model: document.getElementById("f-model").value}; })()`, &next)
			if next.Described != "config-msg" || !next.Visible || next.Model != pageDefaults["model"] {
				t.Errorf("the error is not shown next to the box, or the model changed: %+v", next)
			}
		})
	}
}

func asError(err error, he **hfconfig.Error) bool {
	e, ok := err.(*hfconfig.Error)
	*he = e
	return ok
}

func itoa(n int) string  { return strconv.Itoa(n) }
func i64(n int64) string { return strconv.FormatInt(n, 10) }

// TestCalculatorOnAPhone checks at 390 × 844 px that the headline result
// is on screen without scrolling, with the layout it assumed, and at
// 390 px and 1280 px that no select cuts off any of its options' text.
func TestCalculatorOnAPhone(t *testing.T) {
	t.Parallel()
	base := Site(t)
	browser := New(t, base)
	for _, vp := range []struct {
		w, h   int64
		mobile bool
	}{{390, 844, true}, {1280, 900, false}} {
		t.Run(strconv.FormatInt(vp.w, 10), func(t *testing.T) {
			b := browser.For(t)
			setViewport(b, vp.w, vp.h, vp.mobile)
			b.Navigate("calculator/?model=llama-3-70b&gpus=8")
			b.WaitReady(`#calc[data-ready="true"]`)
			var head struct {
				Bottom, Height float64
				Text, Layout   string
			}
			b.Eval(`(() => { const r = document.getElementById("summary").getBoundingClientRect();
				return {Bottom: r.bottom, Height: innerHeight, Text: document.getElementById("headline").textContent, Layout: document.getElementById("layout").textContent}; })()`, &head)
			if head.Bottom > head.Height || !strings.Contains(head.Text, "on 8 × ") || !strings.Contains(head.Layout, "tensor parallel 8") {
				t.Errorf("headline ends at %.0f px in a %.0f px viewport: %q / %q", head.Bottom, head.Height, head.Text, head.Layout)
			}
			// Every select, with the advanced section open and the training
			// and int4 options shown.
			b.Click("#advanced > summary")
			b.SetValue("#f-workload", "lora")
			b.SetValue("#f-dtype", "int4")
			var cut []string
			b.Eval(`(() => {
				const ctx = document.createElement("canvas").getContext("2d"), cut = [];
				for (const s of document.querySelectorAll("#calc select")) {
					if (!s.getClientRects().length) continue;
					const cs = getComputedStyle(s);
					ctx.font = cs.font;
					// room for the text: the box less its padding, border and the arrow (about 20 px)
					const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
					for (const o of s.options) if (ctx.measureText(o.text).width > room) cut.push(s.id + ": " + o.text + " (" + Math.round(ctx.measureText(o.text).width) + " > " + Math.round(room) + " px)");
				}
				return cut;
			})()`, &cut)
			if len(cut) > 0 {
				t.Errorf("selects too narrow for their options:\n%s", strings.Join(cut, "\n"))
			}
		})
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// engineLoadedJS is true once any part of the calculator's engine has
// loaded: Go's wasm_exec.js (the Go class) or the WebAssembly.
const engineLoadedJS = `document.getElementById("calc").dataset.ready === "true" || typeof Go !== "undefined" ||
	performance.getEntriesByType("resource").some(e => e.name.endsWith(".wasm") || e.name.includes("/wasm_exec."))`

// wakeCalculator does what a reader's pointer over the form does (the
// engine loads on the first interaction when the URL has no inputs) and
// waits for the engine.
func wakeCalculator(b *Browser) {
	b.t.Helper()
	b.Eval(`document.getElementById("f-model").dispatchEvent(new Event("pointerover", {bubbles: true}))`, nil)
	b.WaitReady(`#calc[data-ready="true"]`)
}
