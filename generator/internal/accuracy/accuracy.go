// Package accuracy measures the sizing engine against the calibration set
// (catalog.Measurement: published figures of real runs). For each
// measurement it builds the engine's input from the stated setup, takes
// the estimate in the measurement's unit and the ratio estimate/measured,
// and summarises the ratios by kind, for the fitted and the held-out
// parts. The accuracy page, the calculator's spread and the engine's
// calibration test all read this one report.
package accuracy

import (
	"fmt"
	"math"
	"sort"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

// Band returns the ratios estimate/measured counted as a hit for a kind
// of measurement: 0.8–1.25 for memory, 0.7–1.3 for speeds and times.
func Band(kind string) (lo, hi float64) {
	if kind == "train_memory" || kind == "infer_memory" {
		return 0.8, 1.25
	}
	return 0.7, 1.3
}

// Row is one measurement with the engine's estimate of it.
type Row struct {
	M *catalog.Measurement
	// Estimate is the engine's figure in M.Unit; Ratio is
	// Estimate/M.Measured; Within says Ratio lies in Band(M.Kind).
	Estimate, Ratio float64
	Within          bool
	// Input is the setup the engine was given.
	Input sizing.Input
}

// Summary is the ratios of one kind of measurement in one part of the
// set.
type Summary struct {
	Kind string
	// Part is "fit", "held-out" or "all".
	Part      string
	N, Within int
	// Share is Within/N; GeoMean the geometric mean of the ratios.
	Share, GeoMean float64
	// Spread is the ±fraction that holds 80 % of the ratios: the 80th
	// percentile of |ln ratio|, as exp(·) − 1 (0.2 reads "±20 %").
	Spread float64
}

// Report is the whole set evaluated.
type Report struct {
	Rows []Row
	// Summaries are by kind (catalog.MeasurementKinds order, kinds with
	// no measurement left out), each fit, held-out and all, then the
	// three over every kind (Kind "").
	Summaries []Summary
}

// Evaluate runs the engine on every measurement of c.Calibration. It
// fails on a measurement whose setup the engine rejects, naming it at its
// file and line.
func Evaluate(c *catalog.Catalog) (*Report, error) {
	r := &Report{}
	for _, m := range c.Calibration {
		row, err := evaluate(c, m)
		if err != nil {
			return nil, fmt.Errorf("%s:%d:1: measurement %s: %v", m.File, m.Line, m.ID, err)
		}
		r.Rows = append(r.Rows, row)
	}
	kinds := append(catalog.MeasurementKinds(), "")
	for _, k := range kinds {
		for _, part := range []string{"fit", "held-out", "all"} {
			var ratios []float64
			s := Summary{Kind: k, Part: part}
			for _, row := range r.Rows {
				if (k != "" && row.M.Kind != k) || (part == "fit" && row.M.HeldOut) || (part == "held-out" && !row.M.HeldOut) {
					continue
				}
				ratios = append(ratios, row.Ratio)
				s.N++
				if row.Within {
					s.Within++
				}
			}
			if s.N == 0 && (k != "" || part != "all") {
				continue
			}
			s.Share, s.GeoMean, s.Spread = summarise(ratios, s.Within)
			r.Summaries = append(r.Summaries, s)
		}
	}
	return r, nil
}

// Summary returns the summary of kind ("" for all kinds) and part, and
// false when the set has no such measurement.
func (r *Report) Summary(kind, part string) (Summary, bool) {
	for _, s := range r.Summaries {
		if s.Kind == kind && s.Part == part {
			return s, true
		}
	}
	return Summary{}, false
}

func summarise(ratios []float64, within int) (share, geo, spread float64) {
	if len(ratios) == 0 {
		return 0, 0, 0
	}
	logs := make([]float64, len(ratios))
	var sum float64
	for i, x := range ratios {
		sum += math.Log(x)
		logs[i] = math.Abs(math.Log(x))
	}
	sort.Float64s(logs)
	p80 := logs[int(math.Ceil(0.8*float64(len(logs))))-1]
	return float64(within) / float64(len(ratios)), math.Exp(sum / float64(len(ratios))), math.Exp(p80) - 1
}

// evaluate estimates one measurement.
func evaluate(c *catalog.Catalog, m *catalog.Measurement) (Row, error) {
	in := Input(c, m)
	g := derive.SizingGPU(c.GPU(m.GPU))
	if m.Kind == "throughput" && m.Batch == 0 {
		// An offline benchmark queues every request at once: the engine
		// runs as many as its KV cache holds.
		if in.Batch = sizing.LargestBatch(in, g, maxConcurrency); in.Batch == 0 {
			return Row{}, fmt.Errorf("the model does not fit on %d × %s", in.GPUs, g.ID)
		}
	}
	res, err := sizing.Estimate(in, &g)
	if err != nil {
		return Row{}, err
	}
	if m.Rate > 0 {
		// A time to first token under load: with the wait for the
		// step running when the request arrives.
		res.ExpectedTTFT = sizing.TTFTUnderLoad(in, g, m.Rate)
	}
	est, err := figure(m, in, res)
	if err != nil {
		return Row{}, err
	}
	row := Row{M: m, Estimate: est, Input: in}
	row.Ratio = est / m.Measured
	lo, hi := Band(m.Kind)
	row.Within = row.Ratio >= lo && row.Ratio <= hi
	return row, nil
}

// maxConcurrency caps the concurrent sequences of an offline throughput
// benchmark that states no batch. Engines cap the sequences per step by
// configuration (trtllm-serve --max_batch_size, vLLM's max_num_seqs), so
// the KV cache alone does not set it; 2048 is an assumption, above the
// largest batch of TensorRT-LLM's own peak-throughput tables (1,280).
const maxConcurrency = 2048

// trainTokens is the token count a training throughput is figured over
// when the measurement gives none: any count gives the same rate.
const trainTokens = 1e12

// Input is the engine's input for m's setup: the workload's recipe
// (sizing.WorkloadInput) with every field the measurement states put in.
func Input(c *catalog.Catalog, m *catalog.Measurement) sizing.Input {
	w := sizing.Inference
	if m.IsTraining() {
		w = sizing.FullTraining
	}
	if m.Workload != "" {
		w, _ = sizing.ParseWorkload(m.Workload)
	}
	in := sizing.WorkloadInput(c.Model(m.Model).Model, w)
	in.GPUs, in.TP, in.PP, in.CP = m.GPUs, or1(m.TP), or1(m.PP), or1(m.CP)
	in.Batch = or1(m.Batch)
	if m.IsTraining() {
		if m.ZeRO != nil {
			in.ZeRO = *m.ZeRO
		}
		in.SequenceParallel = m.SequenceParallel
		if m.Seq > 0 {
			in.SeqLen = m.Seq
		}
		if m.LoRARank > 0 {
			in.LoRARank = m.LoRARank
		}
		if len(m.LoRATargets) > 0 {
			in.LoRATargets = m.LoRATargets
		}
		in.Tokens = trainTokens
		if m.Unit == "gpu_hours" {
			in.Tokens = m.Tokens
		}
		if dp := in.GPUs / (in.TP * in.PP * in.CP); m.GlobalBatch > 0 && dp > 0 {
			in.MicroBatches = max(m.GlobalBatch/(dp*in.Batch), 1)
		}
	}
	set := func(s string, p *string) {
		if s != "" {
			*p = s
		}
	}
	set(m.DType, (*string)(&in.DType))
	set(m.KVDType, (*string)(&in.KVDType))
	set(m.Quant, (*string)(&in.Quant))
	set(m.Checkpointing, (*string)(&in.Checkpointing))
	set(m.Optimizer, (*string)(&in.Optimizer))
	set(m.Loss, (*string)(&in.Loss))
	set(m.Offload, (*string)(&in.Offload))
	in.GroupSize = m.GroupSize
	in.BitsPerWeight = m.BitsPerWeight
	if e, ok := sizing.ParseEngine(m.Engine); ok && (!m.IsTraining() || e == sizing.Megatron) {
		in.Engine = e
	}
	if !m.IsTraining() {
		switch m.Kind {
		case "decode":
			// A decode step's mean context over the run: the prompt and
			// half the answer.
			in.SeqLen = max(m.Seq, m.Prompt+m.Output/2, 1)
			in.PromptLen = max(m.Prompt, 1)
		case "ttft":
			in.SeqLen, in.PromptLen = max(m.Prompt, m.Seq, 1), max(m.Prompt, m.Seq, 1)
			if m.Rate > 0 {
				// Under load the running sequences decode at the mean
				// context of their answers.
				in.SeqLen, in.OutputLen = max(m.Prompt+m.Output/2, 1), m.Output
			}
		case "throughput":
			in.SeqLen = max(m.Seq, m.Prompt+m.Output/2, 1)
			in.PromptLen = max(m.Prompt, 1)
			in.OutputLen = m.Output
		case "infer_memory":
			in.SeqLen = max(m.Seq, m.Prompt+m.Output, 1)
			in.PromptLen = max(m.Prompt, 1)
		}
	}
	return in.Normalize()
}

// figure is the estimate of res in m's unit.
func figure(m *catalog.Measurement, in sizing.Input, res sizing.Result) (float64, error) {
	var x float64
	switch m.Unit {
	case "gib":
		x = float64(res.TotalPerGPU) / (1 << 30)
	case "gb":
		x = float64(res.TotalPerGPU) / 1e9
	case "mib":
		x = float64(res.TotalPerGPU) / (1 << 20)
	case "tokens_per_s_per_gpu":
		if m.IsTraining() {
			if res.TrainSeconds > 0 {
				x = in.Tokens / res.TrainSeconds / float64(in.GPUs)
			}
		} else {
			x = res.ExpectedPerGPU
		}
	case "tokens_per_s_total":
		x = res.ExpectedThroughput
	case "mfu":
		// The MFU the run reaches: the assumed one, less the pipeline
		// bubble.
		x = res.MFU / in.PipelineFactor()
	case "gpu_hours":
		x = res.TrainSeconds * float64(in.GPUs) / 3600
	case "tokens_per_s":
		x = res.ExpectedDecode / float64(in.Batch)
	case "s":
		x = res.ExpectedTTFT
	case "ms":
		x = res.ExpectedTTFT * 1000
	}
	if !(x > 0) {
		return 0, fmt.Errorf("the engine gives no %s figure for this setup (a GPU spec it needs is unknown?)", m.Unit)
	}
	return x, nil
}

// or1 is n, or 1 when n is not stated.
func or1(n int) int { return max(n, 1) }
