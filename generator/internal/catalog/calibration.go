package catalog

import (
	"fmt"
	"sort"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

// CalibrationDir holds the sizing engine's calibration set: published
// measurements of real runs, one [[measurement]] table each.
const CalibrationDir = "data/calibration"

// CalibrationFile is one file of CalibrationDir.
type CalibrationFile struct {
	Measurements []*Measurement `toml:"measurement" doc:"One published measurement of a real run each."`
}

// Measurement is one published figure of a real training or serving run:
// the setup as its source states it, the figure, and where it was
// published. The accuracy page and the engine's calibration test compare
// the sizing engine's estimate of the same setup with it.
type Measurement struct {
	File string `toml:"-"`
	Line int    `toml:"-"` // the line of its id, for messages about it

	ID   string `toml:"id" doc:"Unique id (lower case, digits, hyphens)."`
	Kind string `toml:"kind" doc:"What was measured: train_memory, train_throughput, infer_memory, decode, throughput or ttft."`
	// HeldOut marks the measurements the engine's constants are not
	// fitted on, reported apart from the others.
	HeldOut bool   `toml:"held_out" doc:"True for the held-out part: the engine's constants are not fitted on it."`
	Model   string `toml:"model" doc:"The model preset id (data/models)."`
	GPU     string `toml:"gpu" doc:"The GPU id (data/gpus)."`
	GPUs    int    `toml:"gpus" doc:"GPUs in the run."`
	Engine  string `toml:"engine" doc:"The framework or serving engine, as the source names it: hf, vllm, sglang, trtllm, llamacpp, gpt-fast, megatron, nemo, deepspeed, fsdp, torchtitan, ..."`

	Workload         string   `toml:"workload" doc:"inference, full, lora or qlora (default inference for the inference kinds, full for the training kinds)."`
	DType            string   `toml:"dtype" doc:"Weight (and compute) format: fp32, bf16, fp16, fp8, int8, int4; default bf16."`
	KVDType          string   `toml:"kv_dtype" doc:"KV-cache format; default bf16."`
	Quant            string   `toml:"quant" doc:"The int4 format: nf4-dq, nf4, gptq, awq."`
	GroupSize        int      `toml:"group_size" doc:"GPTQ/AWQ group size."`
	BitsPerWeight    float64  `toml:"bits_per_weight" doc:"Average bits per weight of a mixed-width format (a GGUF file's size in bits over its parameters), with dtype int4 or int8."`
	TP               int      `toml:"tp" doc:"Tensor-parallel degree (default 1)."`
	PP               int      `toml:"pp" doc:"Pipeline-parallel degree (default 1)."`
	CP               int      `toml:"cp" doc:"Context-parallel degree (default 1)."`
	ZeRO             *int     `toml:"zero" doc:"ZeRO stage (FSDP full sharding is 3); unstated: the workload's recipe."`
	SequenceParallel bool     `toml:"sequence_parallel" doc:"Megatron sequence parallelism."`
	Checkpointing    string   `toml:"checkpointing" doc:"none, selective or full."`
	Optimizer        string   `toml:"optimizer" doc:"Training optimizer (default adamw)."`
	Loss             string   `toml:"loss" doc:"Training: how the loss holds the logits: fused (Megatron; LitGPT's chunked cross-entropy on 16-bit logits), fp32 (Hugging Face Transformers' upcast) or chunked (a fused linear cross-entropy kernel); unstated: the workload's recipe."`
	Offload          string   `toml:"offload" doc:"none, optimizer or full."`
	Batch            int      `toml:"batch" doc:"Training: micro-batch per GPU in sequences; inference: concurrent sequences (default 1)."`
	GlobalBatch      int      `toml:"global_batch" doc:"Training: sequences per optimizer step, when stated."`
	Seq              int      `toml:"seq" doc:"Training sequence length; inference: the context a decode step reads."`
	Prompt           int      `toml:"prompt" doc:"Inference: prompt tokens."`
	Output           int      `toml:"output" doc:"Inference: generated tokens."`
	Rate             float64  `toml:"rate" doc:"A time to first token measured under load: the requests per second the benchmark sent (a fixed QPS). The estimate then waits for the running decode step. Unstated: one request on an idle server."`
	LoRARank         int      `toml:"lora_rank" doc:"LoRA rank."`
	LoRATargets      []string `toml:"lora_targets" doc:"LoRA target projections (q k v o gate up down)."`

	Measured float64   `toml:"measured" doc:"The figure as published, in unit."`
	Unit     string    `toml:"unit" doc:"gib, gb, mib, tokens_per_s, tokens_per_s_per_gpu, tokens_per_s_total, mfu, gpu_hours, s or ms."`
	Tokens   float64   `toml:"tokens" doc:"With unit gpu_hours: the tokens trained."`
	Citation string    `toml:"citation" doc:"Where exactly the figure is: document, table, row."`
	URL      string    `toml:"url" doc:"The source's address; a repository file pinned to a commit."`
	Date     time.Time `toml:"date" doc:"When the figure was published (a TOML local date), where established; say how in note."`
	Note     string    `toml:"note" doc:"What the figure counts, and anything else needed to read it."`
}

// MeasurementKinds lists the kinds of measurement, training first.
func MeasurementKinds() []string {
	return []string{"train_memory", "train_throughput", "infer_memory", "decode", "throughput", "ttft"}
}

// unitsOf lists the units a kind of measurement may be given in.
var unitsOf = map[string][]string{
	"train_memory":     {"gib", "gb", "mib"},
	"infer_memory":     {"gib", "gb", "mib"},
	"train_throughput": {"tokens_per_s_per_gpu", "mfu", "gpu_hours"},
	"decode":           {"tokens_per_s"},
	"throughput":       {"tokens_per_s_per_gpu", "tokens_per_s_total"},
	"ttft":             {"s", "ms"},
}

// IsTraining reports whether the measurement is of a training run.
func (m *Measurement) IsTraining() bool {
	return m.Kind == "train_memory" || m.Kind == "train_throughput"
}

// loadCalibration decodes and checks every file of CalibrationDir: ids
// unique across files, the model and GPU known, the kind and unit
// matching, the setup one the sizing engine can read.
func (l *loader) loadCalibration() {
	seen := map[string]string{}
	for _, e := range listTOMLIn(l.root, "", CalibrationDir, l.d) {
		var cf CalibrationFile
		f := decodeFile(e.abs, e.rel, &cf, l.d)
		if f == nil {
			continue
		}
		ck := l.check(f)
		for i, m := range cf.Measurements {
			pre := fmt.Sprintf("measurement.%d", i)
			m.File = e.rel
			m.Line, _ = f.pos(pre + ".id")
			if !l.checkMeasurement(ck, pre, m) {
				continue
			}
			if at, dup := seen[m.ID]; dup {
				ck.errorf(pre+".id", "measurement %q is already at %s: give each measurement its own id", m.ID, at)
				continue
			}
			seen[m.ID] = fmt.Sprintf("%s:%d", m.File, m.Line)
			l.c.Calibration = append(l.c.Calibration, m)
		}
	}
	sort.SliceStable(l.c.Calibration, func(i, j int) bool { return l.c.Calibration[i].ID < l.c.Calibration[j].ID })
}

// checkMeasurement reports what is wrong with m; it is false when m
// cannot be evaluated.
func (l *loader) checkMeasurement(c checker, pre string, m *Measurement) bool {
	before := c.d.Len()
	c.require(pre, "id", "kind", "model", "gpu", "gpus", "measured", "unit", "citation", "url")
	if m.ID != "" && !idPattern.MatchString(m.ID) {
		c.errorf(pre+".id", "id %q is not lower case letters, digits and hyphens", m.ID)
	}
	c.oneOf(pre+".kind", m.Kind, MeasurementKinds()...)
	if units, ok := unitsOf[m.Kind]; ok {
		c.oneOf(pre+".unit", m.Unit, units...)
	}
	if m.Model != "" && l.c.models[m.Model] == nil {
		var ids []string
		for _, x := range l.c.Models {
			ids = append(ids, x.ID)
		}
		c.hintf(pre+".model", presetHint(m.Model, ids), "model %q is not a model preset id", m.Model)
	}
	if m.GPU != "" && l.c.gpus[m.GPU] == nil {
		c.hintf(pre+".gpu", diag.DidYouMean(m.GPU, l.c.gpuIDs()), "gpu %q is not a GPU id", m.GPU)
	}
	c.positive(pre+".gpus", float64(m.GPUs))
	c.positive(pre+".measured", m.Measured)
	if m.Unit == "mfu" && m.Measured > 1 {
		c.errorf(pre+".measured", "an MFU is a share in (0, 1], got %v: write 0.41 for 41%%", m.Measured)
	}
	if (m.Kind == "train_memory" || m.Kind == "train_throughput" && m.Unit == "tokens_per_s_per_gpu") && !c.has(pre+".seq") {
		c.errorf(pre, "a %s measurement needs seq, the training sequence length: memory and speed depend on it (leave the measurement out when the source does not state it)", m.Kind)
	}
	if c.has(pre + ".rate") {
		c.positive(pre+".rate", m.Rate)
		if m.Kind != "ttft" {
			c.errorf(pre+".rate", "rate is the load of a time-to-first-token measurement; a %s measurement takes none", m.Kind)
		}
	}
	if m.Unit == "gpu_hours" {
		c.require(pre, "tokens")
		c.positive(pre+".tokens", m.Tokens)
	}
	if m.BitsPerWeight < 0 || m.BitsPerWeight > 16 || (m.BitsPerWeight > 0 && m.DType != "int4" && m.DType != "int8") {
		c.errorf(pre+".bits_per_weight", "bits_per_weight %g needs dtype int4 or int8 and a value in (0, 16]", m.BitsPerWeight)
	}
	for k, v := range map[string]int{"tp": m.TP, "pp": m.PP, "cp": m.CP, "batch": m.Batch, "seq": m.Seq, "prompt": m.Prompt, "output": m.Output, "lora_rank": m.LoRARank, "group_size": m.GroupSize, "global_batch": m.GlobalBatch} {
		c.positive(pre+"."+k, float64(v))
	}
	if m.ZeRO != nil && (*m.ZeRO < 0 || *m.ZeRO > 3) {
		c.errorf(pre+".zero", "zero is a ZeRO stage, 0 to 3")
	}
	enum := func(key, v string, parse func(string) bool, names string) {
		if c.has(pre+"."+key) && !parse(v) {
			c.errorf(pre+"."+key, "%s %q is not one of: %s", key, v, names)
		}
	}
	enum("workload", m.Workload, func(s string) bool { _, ok := sizing.ParseWorkload(s); return ok }, "inference, full, lora, qlora")
	enum("dtype", m.DType, func(s string) bool { _, ok := sizing.ParseDType(s); return ok }, "fp32, bf16, fp16, fp8, int8, int4")
	enum("kv_dtype", m.KVDType, func(s string) bool { _, ok := sizing.ParseDType(s); return ok }, "fp32, bf16, fp16, fp8, int8")
	enum("quant", m.Quant, func(s string) bool { _, ok := sizing.ParseQuant(s); return ok }, "nf4-dq, nf4, gptq, awq")
	enum("checkpointing", m.Checkpointing, func(s string) bool { _, ok := sizing.ParseCheckpointing(s); return ok }, "none, selective, full")
	enum("optimizer", m.Optimizer, func(s string) bool { _, ok := sizing.ParseOptimizer(s); return ok }, "adamw, adamw8bit, adamw-bf16, sgd, paged-adamw, paged-adamw8bit")
	enum("offload", m.Offload, func(s string) bool { _, ok := sizing.ParseOffload(s); return ok }, "none, optimizer, full")
	enum("loss", m.Loss, func(s string) bool { _, ok := sizing.ParseLoss(s); return ok }, "fused, fp32, chunked")
	if w, ok := sizing.ParseWorkload(m.Workload); ok && w == sizing.Inference && m.IsTraining() {
		c.errorf(pre+".workload", "a %s measurement is of a training run: workload full, lora or qlora", m.Kind)
	}
	c.url(pre+".url", m.URL)
	c.date(pre+".date", m.Date)
	return c.d.Len() == before
}

// presetHint is the hint for a model id that names no preset: the nearest
// preset id, or where to add one.
func presetHint(id string, ids []string) string {
	if h := diag.DidYouMean(id, ids); h != "" {
		return h
	}
	return "add a preset under data/models first"
}
