package browsertest

import (
	"encoding/json"
	"fmt"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/build"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

func TestMain(m *testing.M) { Main(m) }

// formOrder is the calculator form's controls by name, in the order a user
// meets them; basic ones first, then those inside <details id="advanced">.
var formOrder = []string{"model", "workload", "dtype", "seq", "batch", "gpu", "gpus",
	"kv-dtype", "tp", "zero", "offload", "checkpointing", "optimizer", "flash", "lora-rank", "lora-targets",
	"tokens", "mfu", "params", "layers", "hidden", "heads", "kv-heads", "ffn", "vocab"}

var basicFields = map[string]bool{"model": true, "workload": true, "dtype": true, "seq": true, "batch": true, "gpu": true, "gpus": true}

// pageDefaults are the form's initial values (templates/calculator.html;
// the model and GPU are build.calculator's defaults).
var pageDefaults = map[string]string{
	"model": "llama-3-8b", "workload": "inference", "dtype": "bf16", "seq": "4096", "batch": "1",
	"gpu": "h100-sxm5-80gb", "gpus": "1", "kv-dtype": "bf16", "tp": "1", "zero": "0", "offload": "none",
	"checkpointing": "none", "optimizer": "adamw", "flash": "true", "lora-rank": "16", "lora-targets": "q,k,v,o",
	"tokens": "0", "mfu": "0.4", "params": "7000000000", "layers": "32", "hidden": "4096", "heads": "32",
	"kv-heads": "32", "ffn": "11008", "vocab": "32000",
}

// calcCase is one set of inputs, given as form values by control name;
// the other controls keep their page defaults.
type calcCase struct {
	name    string
	set     map[string]string
	implied map[string]string // values the page picks itself after set
	reload  bool              // also reload the URL and compare again
	invalid bool              // the Go engine rejects the input
}

var calcCases = []calcCase{
	{name: "defaults", set: map[string]string{}, reload: true},
	{name: "llama3-8b int4 weights fp8 kv 32k batch 8 on rtx-4090", set: map[string]string{
		"dtype": "int4", "seq": "32768", "batch": "8", "gpu": "rtx-4090", "kv-dtype": "fp8"}},
	{name: "llama3-70b fp8 tp4 batch 16", reload: true, set: map[string]string{
		"model": "llama-3-70b", "dtype": "fp8", "seq": "8192", "batch": "16", "gpus": "4", "tp": "4"}},
	{name: "llama3.1-405b bf16 tp8 on b200", set: map[string]string{
		"model": "llama-3-1-405b", "seq": "16384", "gpu": "b200-sxm-180gb", "gpus": "8", "tp": "8"}},
	{name: "mixtral inference on mi300x batch 32", set: map[string]string{
		"model": "mixtral-8x7b", "seq": "2048", "batch": "32", "gpu": "mi300x"}},
	{name: "qwen2-7b fp32 on t4 does not fit", set: map[string]string{
		"model": "qwen2-7b", "dtype": "fp32", "seq": "512", "gpu": "t4", "kv-dtype": "fp32"}},
	{name: "mistral int8 batch 64 without flash on l4", set: map[string]string{
		"model": "mistral-7b", "dtype": "int8", "seq": "1024", "batch": "64", "gpu": "l4", "flash": "false"}},
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
	{name: "qlora picks int4 weights by itself", reload: true, set: map[string]string{
		"model": "mistral-7b", "workload": "qlora"}, implied: map[string]string{"dtype": "int4"}},
	{name: "custom model chosen opens the advanced section", set: map[string]string{
		"model": "custom", "workload": "lora", "gpu": "a10"}},
	{name: "llama2-13b lora int8 base sgd on l4", set: map[string]string{
		"model": "llama-2-13b", "workload": "lora", "dtype": "int8", "seq": "1024", "gpu": "l4", "optimizer": "sgd",
		"lora-rank": "8", "lora-targets": "q,v"}},
	{name: "llama3-8b full bf16 zero3 8 gpus with tokens", set: map[string]string{
		"workload": "full", "gpus": "8", "zero": "3", "checkpointing": "full", "tokens": "2e10", "mfu": "0.35"}},
	{name: "llama3-8b full zero2 optimizer offload", set: map[string]string{
		"workload": "full", "gpus": "8", "zero": "2", "offload": "optimizer", "batch": "2"}},
	{name: "llama3-70b full zero3 full offload tp8 64 gpus on h200", set: map[string]string{
		"model": "llama-3-70b", "workload": "full", "gpu": "h200-sxm-141gb", "gpus": "64", "tp": "8", "zero": "3",
		"offload": "full", "checkpointing": "full", "tokens": "1e12", "mfu": "0.5"}},
	{name: "gpt2 full fp32 sgd no flash on t4", set: map[string]string{
		"model": "gpt2", "workload": "full", "dtype": "fp32", "seq": "1024", "batch": "8", "gpu": "t4",
		"optimizer": "sgd", "flash": "false", "tokens": "1000000000", "mfu": "0.3"}},
	{name: "bert-base full fp16 zero1 2 gpus 8-bit adam", set: map[string]string{
		"model": "bert-base", "workload": "full", "dtype": "fp16", "seq": "512", "batch": "32", "gpu": "a100-sxm4-40gb",
		"gpus": "2", "zero": "1", "optimizer": "adamw8bit"}},
	{name: "qwen2-7b lora tp2 zero1 4 gpus", set: map[string]string{
		"model": "qwen2-7b", "workload": "lora", "gpu": "l4", "gpus": "4", "tp": "2", "zero": "1", "seq": "8192"}},
	{name: "mixtral qlora rank 8 q,v on h100", set: map[string]string{
		"model": "mixtral-8x7b", "workload": "qlora", "dtype": "int4", "seq": "8192", "lora-rank": "8", "lora-targets": "q,v"}},
	{name: "llama3.1-8b lora zero2 tokens on gaudi3", set: map[string]string{
		"model": "llama-3-1-8b", "workload": "lora", "gpu": "gaudi3", "gpus": "2", "zero": "2",
		"tokens": "500000000", "mfu": "0.45"}},
	{name: "custom model inference", reload: true, set: map[string]string{
		"model": "custom", "seq": "8192", "gpu": "rtx-4090", "params": "3200000000", "layers": "26", "hidden": "3072",
		"heads": "24", "kv-heads": "8", "ffn": "8192", "vocab": "128256"}},
	{name: "custom model full training", set: map[string]string{
		"model": "custom", "workload": "full", "gpus": "2", "zero": "3", "params": "1300000000", "layers": "24",
		"hidden": "2048", "heads": "16", "kv-heads": "16", "ffn": "5504", "vocab": "50304", "tokens": "3e10"}},
	{name: "invalid: tp 3 does not divide 32 heads", invalid: true, set: map[string]string{
		"gpus": "3", "tp": "3"}},
	{name: "invalid: optimizer offload without zero", invalid: true, set: map[string]string{
		"workload": "full", "offload": "optimizer"}},
}

// goSide computes what the page must show, with the functions the build
// uses: catalog.Load, derive.SizingModel / SizingGPU, sizing.Estimate and
// MinGPUs, and the sizing.Format* helpers.
type goSide struct {
	cat *catalog.Catalog
}

func loadCatalog(t *testing.T) goSide {
	t.Helper()
	now, err := build.Today()
	if err != nil {
		t.Fatal(err)
	}
	cat, d := catalog.Load(testcat.RepoRoot(), now)
	if cat == nil || d.HasErrors() {
		var b strings.Builder
		d.Print(&b)
		t.Fatalf("loading the catalog:\n%s", b.String())
	}
	return goSide{cat: cat}
}

// values merges a case's values over the page defaults.
func (c calcCase) values() map[string]string {
	v := map[string]string{}
	for k, x := range pageDefaults {
		v[k] = x
	}
	for k, x := range c.set {
		v[k] = x
	}
	for k, x := range c.implied {
		v[k] = x
	}
	return v
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
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

// input builds the sizing input the page builds from the form
// (static/js/calculator.js input()).
func (g goSide) input(t *testing.T, v map[string]string) (sizing.Input, sizing.GPU) {
	t.Helper()
	var m sizing.Model
	if v["model"] == "custom" {
		params, err := strconv.ParseInt(v["params"], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		m = sizing.Model{Params: params, Layers: atoi(t, v["layers"]), Hidden: atoi(t, v["hidden"]), Heads: atoi(t, v["heads"]),
			KVHeads: atoi(t, v["kv-heads"]), FFN: atoi(t, v["ffn"]), Vocab: atoi(t, v["vocab"])}
	} else {
		cm := g.cat.Model(v["model"])
		if cm == nil {
			t.Fatalf("no model %q in the catalog", v["model"])
		}
		m = derive.SizingModel(cm)
	}
	cg := g.cat.GPU(v["gpu"])
	if cg == nil {
		t.Fatalf("no GPU %q in the catalog", v["gpu"])
	}
	in := sizing.DefaultInput(m)
	in.Workload = sizing.Workload(v["workload"])
	in.DType = sizing.DType(v["dtype"])
	in.KVDType = sizing.DType(v["kv-dtype"])
	in.SeqLen = atoi(t, v["seq"])
	in.Batch = atoi(t, v["batch"])
	in.GPUs = atoi(t, v["gpus"])
	in.TP = atoi(t, v["tp"])
	in.ZeRO = atoi(t, v["zero"])
	in.Offload = sizing.Offload(v["offload"])
	in.Checkpointing = sizing.Checkpointing(v["checkpointing"])
	in.Flash = v["flash"] == "true"
	in.Optimizer = sizing.Optimizer(v["optimizer"])
	in.LoRARank = atoi(t, v["lora-rank"])
	in.LoRATargets = strings.Split(v["lora-targets"], ",")
	in.Tokens = atof(t, v["tokens"])
	in.MFU = atof(t, v["mfu"])
	return in, derive.SizingGPU(cg)
}

// figures is what the result section shows, by CSS selector.
type figures map[string]string

var figureIDs = []string{"#total", "#usable", "#gpuname", "#fits", "#b-weights", "#b-kv_cache", "#b-activations",
	"#b-gradients", "#b-optimizer", "#b-adapters", "#b-overhead", "#flops", "#decode", "#time"}

// want returns the figures of the Go engine for the inputs, the
// #mingpus column by GPU id, and the Validate error ("" when valid).
func (g goSide) want(t *testing.T, v map[string]string) (figures, map[string]string, string) {
	t.Helper()
	in, gpu := g.input(t, v)
	res, err := sizing.Estimate(in, &gpu)
	if err != nil {
		if verr := in.Validate(); verr == nil || verr.Error() != err.Error() {
			t.Fatalf("Estimate error %q is not Validate's %v", err, verr)
		}
		return nil, nil, err.Error()
	}
	b := res.Breakdown
	fits := "does not fit"
	if sizing.Fits(res, gpu) {
		fits = "fits"
	}
	f := figures{
		"#total": sizing.FormatGiB(res.TotalPerGPU), "#usable": sizing.FormatGiB(sizing.UsableBytes(gpu)),
		"#gpuname": gpu.Name, "#fits": fits,
		"#b-weights": sizing.FormatGiB(b.Weights), "#b-kv_cache": sizing.FormatGiB(b.KVCache),
		"#b-activations": sizing.FormatGiB(b.Activations), "#b-gradients": sizing.FormatGiB(b.Gradients),
		"#b-optimizer": sizing.FormatGiB(b.Optimizer), "#b-adapters": sizing.FormatGiB(b.Adapters),
		"#b-overhead": sizing.FormatGiB(b.Overhead), "#flops": sizing.FormatFLOPs(res.TrainFLOPs),
		"#decode": sizing.FormatRate(res.DecodeTokensPerSec), "#time": sizing.FormatDuration(res.TrainSeconds),
	}
	mins := map[string]string{}
	for _, cg := range g.cat.GPUs {
		n, ok := sizing.MinGPUs(in, derive.SizingGPU(cg))
		mins[cg.ID] = "–"
		if ok {
			mins[cg.ID] = strconv.Itoa(n)
		}
	}
	return f, mins, ""
}

// shown reads the result section, the #mingpus column and the error line.
type shown struct {
	Figures  map[string]string `json:"figures"`
	Mins     map[string]string `json:"mins"`
	Error    string            `json:"error"`
	ErrorOn  bool              `json:"errorShown"`
	FitClass string            `json:"fitClass"`
}

func readShown(b *Browser) shown {
	b.t.Helper()
	var s shown
	ids, _ := json.Marshal(figureIDs)
	b.Eval(`(() => {
		const figures = {};
		for (const id of `+string(ids)+`) figures[id] = document.querySelector(id).textContent.trim();
		const mins = {};
		for (const tr of document.querySelectorAll("#mingpus tbody tr")) mins[tr.dataset.gpu] = tr.lastElementChild.textContent.trim();
		const err = document.getElementById("error");
		return {figures, mins, error: err.textContent.trim(), errorShown: !err.hidden && getComputedStyle(err).display !== "none",
			fitClass: document.getElementById("fits").className};
	})()`, &s)
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
			if (el.name === "flash") v.flash = String(el.checked);
			else if (el.name === "lora-targets") { if (el.checked) v["lora-targets"] = (v["lora-targets"] ? v["lora-targets"] + "," : "") + el.value; }
			else v[el.name] = el.value;
		}
		return v;
	})()`, &v)
	return v
}

// fill sets the case's values through the form, as a user would: the
// advanced section is opened by clicking its summary first.
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
			b.WaitVisible("#f-tp")
		}
	}
	for _, name := range formOrder {
		val, ok := c.set[name]
		if !ok {
			continue
		}
		switch name {
		case "flash":
			b.SetChecked("#f-flash", val == "true")
		case "lora-targets":
			want := strings.Split(val, ",")
			for _, tgt := range sizing.LoRATargetNames() {
				b.SetChecked(fmt.Sprintf(`input[name="lora-targets"][value=%q]`, tgt), slices.Contains(want, tgt))
			}
		default:
			b.SetValue(`#calc [name="`+name+`"]`, val)
		}
	}
}

// check compares what the page shows with the Go engine.
func check(t *testing.T, b *Browser, g goSide, v map[string]string, when string) {
	t.Helper()
	wantFig, wantMins, wantErr := g.want(t, v)
	got := readShown(b)
	if wantErr != "" {
		if !got.ErrorOn || got.Error != wantErr {
			t.Errorf("%s: error line = %q (shown %v), want %q (the Go engine's Validate error)", when, got.Error, got.ErrorOn, wantErr)
		}
		return
	}
	if got.ErrorOn {
		t.Errorf("%s: unexpected error line %q", when, got.Error)
	}
	for _, id := range figureIDs {
		if got.Figures[id] != wantFig[id] {
			t.Errorf("%s: %s = %q, want %q", when, id, got.Figures[id], wantFig[id])
		}
	}
	wantClass := "nofit"
	if wantFig["#fits"] == "fits" {
		wantClass = "fits"
	}
	if got.FitClass != wantClass {
		t.Errorf("%s: #fits class = %q, want %q", when, got.FitClass, wantClass)
	}
	if len(got.Mins) != len(wantMins) {
		t.Errorf("%s: #mingpus has %d rows, the catalog %d GPUs", when, len(got.Mins), len(wantMins))
	}
	for id, n := range wantMins {
		if got.Mins[id] != n {
			t.Errorf("%s: #mingpus %s = %q, want %q (sizing.MinGPUs)", when, id, got.Mins[id], n)
		}
	}
}

// TestCalculatorMatchesGoEngine drives the calculator page through its form
// and compares every figure with the Go engine's for the same inputs.
func TestCalculatorMatchesGoEngine(t *testing.T) {
	t.Parallel()
	base := Site(t)
	g := loadCatalog(t)
	if len(calcCases) < 20 {
		t.Fatalf("only %d cases", len(calcCases))
	}
	browser := New(t, base)
	for _, c := range calcCases {
		t.Run(c.name, func(t *testing.T) {
			b := browser.For(t)
			v := c.values()
			if _, _, e := g.want(t, v); (e != "") != c.invalid {
				t.Fatalf("the Go engine's error %q does not match invalid=%v: fix the case", e, c.invalid)
			}
			b.Navigate("calculator/")
			// Without a query string the engine loads on the reader's first
			// interaction with the form.
			var early bool
			b.Eval(`document.getElementById("calc").dataset.ready === "true" || performance.getEntriesByType("resource").some(e => e.name.endsWith(".wasm"))`, &early)
			if early {
				t.Fatal("the engine loaded before any interaction on a page without a query string")
			}
			wakeCalculator(b)
			if got := readForm(b); !mapsEqual(got, pageDefaults) {
				t.Fatalf("the form's initial values\n%v\ndiffer from the test's page defaults\n%v", got, pageDefaults)
			}
			fill(t, b, c)
			check(t, b, g, v, "after filling the form")
			if got := readForm(b); !mapsEqual(got, v) {
				t.Errorf("after filling, the form holds\n%v\nwant\n%v", got, v)
			}
			var open bool
			if b.Eval(`document.getElementById("advanced").open`, &open); v["model"] == "custom" && !open {
				t.Errorf("the model is custom but the advanced section (its fields) is closed")
			}

			// The URL holds the inputs.
			loc := b.Location()
			u, err := url.Parse(loc)
			if err != nil {
				t.Fatal(err)
			}
			q := u.Query()
			for name, val := range v {
				if _, ok := c.set[name]; !ok {
					if _, ok := c.implied[name]; !ok {
						continue
					}
				}
				got := q.Get(name)
				if name == "lora-targets" {
					got = strings.Join(q[name], ",")
				}
				if got != val {
					t.Errorf("URL %s: %s = %q, want %q", u.RawQuery, name, got, val)
				}
			}
			if len(c.set) > 0 && u.RawQuery == "" {
				t.Errorf("URL %s holds no query", loc)
			}
			if v["model"] != "custom" {
				var stray []string
				for _, k := range []string{"params", "layers", "hidden", "heads", "kv-heads", "ffn", "vocab"} {
					if q.Has(k) {
						stray = append(stray, k)
					}
				}
				if len(stray) > 0 {
					t.Errorf("URL %s holds the custom model's fields %v with a preset model", u.RawQuery, stray)
				}
			}

			if c.reload {
				b.Navigate(loc)
				wakeCalculator(b)
				if got := readForm(b); !mapsEqual(got, v) {
					t.Errorf("after reloading %s the form holds\n%v\nwant\n%v", loc, got, v)
				}
				check(t, b, g, v, "after reloading "+loc)
				var open bool
				if b.Eval(`document.getElementById("advanced").open`, &open); open != (v["model"] == "custom") {
					t.Errorf("after reloading %s the advanced section is open=%v; want it open only for a custom model", loc, open)
				}
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

// wakeCalculator does what a reader's pointer over the form does (the
// engine loads on the first interaction when the URL has no inputs) and
// waits for the engine.
func wakeCalculator(b *Browser) {
	b.t.Helper()
	b.Eval(`document.getElementById("f-model").dispatchEvent(new Event("pointerover", {bubbles: true}))`, nil)
	b.WaitReady(`#calc[data-ready="true"]`)
}
