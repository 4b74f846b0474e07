package build

import (
	"encoding/json"
	"html/template"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/output"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

// CalcPart is one segment of the memory breakdown.
type CalcPart struct {
	Key, Label string
	Bytes      int64
	X, W       string // SVG geometry in a 0..1000 viewBox
}

// CalcMin is one row of the "which GPUs fit" table.
type CalcMin struct {
	GPU *catalog.GPU
	N   int
}

// CalcOffer is a cheapest fitting offer with the job's cost.
type CalcOffer struct {
	Row  *derive.Row
	Cost float64 // display currency; 0 without training tokens
}

// CalcCommon is a row of the common-cases table.
type CalcCommon struct {
	Model  *catalog.Model
	Totals []int64
}

// CalcDefault names the default inputs of the calculator page.
type CalcDefault struct {
	ModelID, GPUID string
	Seq            int
}

// CalculatorPage is the data of the calculator page: the server-rendered
// result of the default inputs, and the catalog the script needs.
type CalculatorPage struct {
	Default   CalcDefault
	Models    []*catalog.Model
	GPUs      []*catalog.GPU
	GPU       *catalog.GPU
	Result    sizing.Result
	Usable    int64
	Fits      bool
	Parts     []CalcPart
	MinGPUs   []CalcMin
	Cheapest  []CalcOffer
	Scenarios []derive.Scenario
	Common    []CalcCommon
	Currency  string
	Targets   []string
	JSON      template.JS
}

// Parts splits a breakdown into labelled bar segments.
func Parts(b sizing.Breakdown) []CalcPart {
	parts := []CalcPart{
		{Key: "weights", Label: "Weights", Bytes: b.Weights},
		{Key: "kv_cache", Label: "KV cache", Bytes: b.KVCache},
		{Key: "activations", Label: "Activations", Bytes: b.Activations},
		{Key: "gradients", Label: "Gradients", Bytes: b.Gradients},
		{Key: "optimizer", Label: "Optimizer states", Bytes: b.Optimizer},
		{Key: "adapters", Label: "Adapters", Bytes: b.Adapters},
		{Key: "overhead", Label: "CUDA and framework overhead", Bytes: b.Overhead},
	}
	total := float64(b.Total())
	x := 0.0
	for i := range parts {
		w := 0.0
		if total > 0 {
			w = float64(parts[i].Bytes) / total * 1000
		}
		parts[i].X = strconv.FormatFloat(x, 'f', 1, 64)
		parts[i].W = strconv.FormatFloat(w, 'f', 1, 64)
		x += w
	}
	return parts
}

// calcData is the JSON the calculator script reads from the page.
type calcData struct {
	Currency string               `json:"currency"`
	Models   map[string]calcModel `json:"models"`
	GPUs     []calcGPU            `json:"gpus"`
	Offers   []calcOffer          `json:"offers"`
	Billing  map[string]string    `json:"billing"`
}

type calcModel struct {
	Name            string `json:"name"`
	Params          int64  `json:"params"`
	ActiveParams    int64  `json:"activeParams"`
	Layers          int    `json:"layers"`
	Hidden          int    `json:"hidden"`
	Heads           int    `json:"heads"`
	KVHeads         int    `json:"kvHeads"`
	FFN             int    `json:"ffn"`
	Vocab           int    `json:"vocab"`
	Experts         int    `json:"experts"`
	ExpertsPerToken int    `json:"expertsPerToken"`
}

type calcGPU struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	MemoryBytes int64   `json:"memoryBytes"`
	Bandwidth   float64 `json:"bandwidth"`
	BF16Flops   float64 `json:"bf16Flops"`
	MemoryGB    float64 `json:"memoryGB"`
}

type calcOffer struct {
	ID       string  `json:"id"`
	GPU      string  `json:"gpu"`
	GPUName  string  `json:"gpuName"`
	Count    int     `json:"count"`
	Provider string  `json:"provider"`
	Name     string  `json:"providerName"`
	Instance string  `json:"instance"`
	Billing  string  `json:"billing"`
	Price    float64 `json:"price"` // display currency per instance-hour
	AsOf     string  `json:"asOf"`
}

func (s *siteBuild) calculator() {
	c := s.cat
	if len(c.Models) == 0 || len(c.GPUs) == 0 {
		return
	}
	def := CalcDefault{ModelID: c.Models[0].ID, GPUID: c.GPUs[0].ID, Seq: 4096}
	if c.Model("llama-3-8b") != nil {
		def.ModelID = "llama-3-8b"
	}
	if c.GPU("h100-sxm5-80gb") != nil {
		def.GPUID = "h100-sxm5-80gb"
	}
	m, g := c.Model(def.ModelID), c.GPU(def.GPUID)
	in := sizing.DefaultInput(derive.SizingModel(m))
	sg := derive.SizingGPU(g)
	res, err := sizing.Estimate(in, &sg)
	if err != nil {
		s.d.Errorf(m.File, 1, 1, "calculator default inputs: %v", err)
		return
	}
	p := &CalculatorPage{Default: def, Models: c.Models, GPUs: c.GPUs, GPU: g, Result: res, Usable: sizing.UsableBytes(sg),
		Fits: sizing.Fits(res, sg), Parts: Parts(res.Breakdown), Scenarios: derive.Scenarios(), Currency: s.dd.Currency,
		Targets: sizing.LoRATargetNames()}
	minGPUs := map[string]int{}
	for _, cg := range c.GPUs {
		n, ok := sizing.MinGPUs(in, derive.SizingGPU(cg))
		if !ok {
			n = 0
		} else {
			minGPUs[cg.ID] = n
		}
		p.MinGPUs = append(p.MinGPUs, CalcMin{GPU: cg, N: n})
	}
	for _, r := range s.dd.CheapestFitting(minGPUs) {
		p.Cheapest = append(p.Cheapest, CalcOffer{Row: r})
	}
	for _, cm := range c.Models {
		row := CalcCommon{Model: cm}
		for _, sc := range p.Scenarios {
			r, err := sizing.Estimate(sc.Input(derive.SizingModel(cm)), nil)
			if err != nil {
				r = sizing.Result{}
			}
			row.Totals = append(row.Totals, r.TotalPerGPU)
		}
		p.Common = append(p.Common, row)
	}
	data := calcData{Currency: s.dd.Currency, Models: map[string]calcModel{}, Billing: map[string]string{}}
	for _, b := range catalog.BillingModes() {
		data.Billing[b] = s.r.T("billing." + b)
	}
	for _, cm := range c.Models {
		data.Models[cm.ID] = calcModel{Name: cm.Name, Params: cm.Params, ActiveParams: cm.ActiveParams, Layers: cm.Layers, Hidden: cm.HiddenSize,
			Heads: cm.Heads, KVHeads: cm.KVHeads, FFN: cm.FFNSize, Vocab: cm.VocabSize, Experts: cm.Experts, ExpertsPerToken: cm.ExpertsPerToken}
	}
	for _, cg := range c.GPUs {
		sg := derive.SizingGPU(cg)
		data.GPUs = append(data.GPUs, calcGPU{ID: cg.ID, Name: cg.Name, MemoryBytes: sg.MemoryBytes, Bandwidth: sg.BandwidthBytesPerSec, BF16Flops: sg.DenseBF16FLOPS, MemoryGB: cg.MemoryGB})
	}
	for _, r := range s.dd.Headline { // one row per offer and mode (its cheapest region), not every region
		data.Offers = append(data.Offers, calcOffer{ID: r.Offer.ID, GPU: r.Offer.GPU.ID, GPUName: r.Offer.GPU.Name, Count: r.Offer.GPUCount, Provider: r.Offer.Provider.ID, Name: r.Offer.Provider.Name,
			Instance: r.Offer.Instance, Billing: r.Price.Billing, Price: r.InstDC, AsOf: r.Price.AsOf.Format("2006-01-02")})
	}
	b, _ := json.Marshal(data)
	p.JSON = template.JS(b) // json.Marshal escapes <, > and & so the block cannot end early
	s.page(&render.Page{Kind: "calculator", Path: "calculator/", Title: s.r.T("calc.title"), Description: s.r.T("calc.description"),
		Data: p, Scripts: []string{"wasm_exec.js", "js/calculator.js"}})
}

// buildWASM compiles generator/wasm for GOOS=js GOARCH=wasm with the Go
// toolchain running the generator, and adds it with wasm_exec.js to the
// tree under content-hashed names.
func buildWASM(root string, tree *output.Tree, manifest map[string]string, d *diag.List) {
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		goBin = "go"
	}
	tmp, err := os.MkdirTemp("", "gpu-atlas-wasm-")
	if err != nil {
		d.Errorf("generator/wasm", 0, 0, "%v", err)
		return
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "size.wasm")
	cmd := exec.Command(goBin, "build", "-trimpath", "-ldflags=-s -w -buildid=", "-o", out, "./generator/wasm")
	cmd.Dir = moduleRoot(root)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		d.Errorf("generator/wasm", 0, 0, "building the calculator's WebAssembly: %v\n%s", err, msg)
		return
	}
	wasm, err := os.ReadFile(out)
	if err != nil {
		d.Errorf("generator/wasm", 0, 0, "%v", err)
		return
	}
	execJS, err := os.ReadFile(filepath.Join(goRoot(goBin), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		execJS, err = os.ReadFile(filepath.Join(goRoot(goBin), "misc", "wasm", "wasm_exec.js"))
	}
	if err != nil {
		d.Errorf("generator/wasm", 0, 0, "wasm_exec.js not found in GOROOT: %v", err)
		return
	}
	manifest["size.wasm"] = addHashed(tree, "assets/size", ".wasm", wasm)
	manifest["wasm_exec.js"] = addHashed(tree, "assets/wasm_exec", ".js", minifyJS(execJS, "wasm_exec.js", d))
}

func goRoot(goBin string) string {
	if out, err := exec.Command(goBin, "env", "GOROOT").Output(); err == nil {
		return string(trimNL(out))
	}
	return runtime.GOROOT()
}

func trimNL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// moduleRoot finds the directory holding go.mod at or above dir (the
// WebAssembly source belongs to the generator's module, not the site).
func moduleRoot(dir string) string {
	abs, _ := filepath.Abs(dir)
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	// A site root outside the module (a fixture in a temp dir): use the
	// working directory's module.
	wd, _ := os.Getwd()
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return wd
		}
	}
}
