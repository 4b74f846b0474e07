package sizing

import (
	"testing"
)

// baseInputs are one realistic input per workload, the starting points of
// the property tests.
func baseInputs(m Model) []Input {
	var out []Input
	for _, w := range []Workload{Inference, FullTraining, LoRA, QLoRA} {
		for _, flash := range []bool{true, false} {
			for _, ck := range []Checkpointing{NoCheckpointing, SelectiveCheckpointing, FullCheckpointing} {
				in := DefaultInput(m)
				in.Workload = w
				in.Flash = flash
				in.Checkpointing = ck
				in.SeqLen = 2048
				in.Batch = 2
				if w == QLoRA {
					in.DType = INT4
				}
				out = append(out, in)
			}
		}
	}
	return out
}

func mustEstimate(t *testing.T, in Input) Result {
	t.Helper()
	r, err := Estimate(in, &gpu80)
	if err != nil {
		t.Fatalf("Estimate(%+v): %v", in, err)
	}
	return r
}

// checkNoFall asserts that no component and not the total falls from a to b.
func checkNoFall(t *testing.T, what string, a, b Result) {
	t.Helper()
	x, y := a.Breakdown, b.Breakdown
	pairs := []struct {
		name string
		a, b int64
	}{
		{"weights", x.Weights, y.Weights},
		{"kv", x.KVCache, y.KVCache},
		{"activations", x.Activations, y.Activations},
		{"gradients", x.Gradients, y.Gradients},
		{"optimizer", x.Optimizer, y.Optimizer},
		{"adapters", x.Adapters, y.Adapters},
		{"total", a.TotalPerGPU, b.TotalPerGPU},
	}
	for _, p := range pairs {
		if p.b < p.a {
			t.Errorf("%s: %s fell from %d to %d", what, p.name, p.a, p.b)
		}
	}
}

func TestMemoryNeverFallsWhenBatchSeqOrParamsGrow(t *testing.T) {
	for _, m := range []Model{llama2_7b, llama2_70b, llama3_8b, mixtral_8x7b} {
		for _, base := range baseInputs(m) {
			name := string(base.Workload) + "/" + string(base.Checkpointing)
			prev := mustEstimate(t, base)
			for _, batch := range []int{3, 4, 16, 17, 256, 1000} {
				in := base
				in.Batch = batch
				r := mustEstimate(t, in)
				checkNoFall(t, name+" batch", prev, r)
				prev = r
			}
			prev = mustEstimate(t, base)
			for _, seq := range []int{2049, 4096, 8191, 8192, 8193, 32768, 131072} {
				in := base
				in.SeqLen = seq
				r := mustEstimate(t, in)
				checkNoFall(t, name+" seq", prev, r)
				prev = r
			}
			prev = mustEstimate(t, base)
			for _, f := range []float64{1.01, 1.5, 2, 10} {
				in := base
				in.Model.Params = int64(float64(m.Params) * f)
				r := mustEstimate(t, in)
				checkNoFall(t, name+" params", prev, r)
				if r.TotalPerGPU <= prev.TotalPerGPU {
					t.Errorf("%s: total did not grow with params", name)
				}
				prev = r
			}
		}
	}
}

func TestZeROStagesOrder(t *testing.T) {
	// ZeRO-3 ≤ ZeRO-2 ≤ ZeRO-1 ≤ ZeRO-0 per GPU for GPUs > 1, strictly from
	// stage 0 to 2 (each stage partitions one more model state [ZeRO §5]).
	for _, m := range []Model{llama2_7b, llama2_13b, llama3_8b, mixtral_8x7b} {
		for _, w := range []Workload{FullTraining, LoRA, QLoRA} {
			for _, gpus := range []int{2, 4, 8, 64, 1024} {
				for _, tp := range []int{1, 2} {
					prev := int64(-1)
					for stage := 0; stage <= 3; stage++ {
						in := DefaultInput(m)
						in.Workload = w
						if w == QLoRA {
							in.DType = INT4
						}
						in.GPUs, in.TP, in.ZeRO = gpus, tp, stage
						r := mustEstimate(t, in)
						if prev >= 0 && r.TotalPerGPU > prev {
							t.Errorf("%s %s gpus=%d tp=%d: stage %d total %d > stage %d total %d",
								m.label(), w, gpus, tp, stage, r.TotalPerGPU, stage-1, prev)
						}
						if w == FullTraining && stage > 0 && stage < 3 && gpus/tp > 1 && r.TotalPerGPU >= prev {
							t.Errorf("%s gpus=%d tp=%d: stage %d did not lower memory", m.label(), gpus, tp, stage)
						}
						prev = r.TotalPerGPU
					}
				}
			}
		}
	}
}

func (m Model) label() string { return i64toa(m.Params) }

func TestDTypeOrder(t *testing.T) {
	// int4 < int8 < bf16 < fp32 for weights and totals (fp8 = int8 for
	// weights).
	order := []DType{INT4, INT8, BF16, FP32}
	for _, m := range []Model{llama2_7b, llama3_8b, mixtral_8x7b, llama2_70b} {
		for _, w := range []Workload{Inference, LoRA} {
			var prev Result
			for i, d := range order {
				in := DefaultInput(m)
				in.Workload = w
				in.DType = d
				r := mustEstimate(t, in)
				if i > 0 {
					if r.Breakdown.Weights <= prev.Breakdown.Weights {
						t.Errorf("%s %s: %s weights %d <= %s weights %d", m.label(), w, d, r.Breakdown.Weights, order[i-1], prev.Breakdown.Weights)
					}
					if r.TotalPerGPU <= prev.TotalPerGPU {
						t.Errorf("%s %s: %s total %d <= %s total %d", m.label(), w, d, r.TotalPerGPU, order[i-1], prev.TotalPerGPU)
					}
				}
				prev = r
			}
		}
		// Full training: bf16 < fp32.
		in := DefaultInput(m)
		in.Workload = FullTraining
		lo := mustEstimate(t, in)
		in.DType = FP32
		hi := mustEstimate(t, in)
		if lo.Breakdown.Weights >= hi.Breakdown.Weights || lo.TotalPerGPU >= hi.TotalPerGPU {
			t.Errorf("%s full: bf16 %d not below fp32 %d", m.label(), lo.TotalPerGPU, hi.TotalPerGPU)
		}
	}
	// KV cache: int4 < int8 < bf16 < fp32.
	var prev int64
	for i, d := range order {
		in := DefaultInput(llama3_8b)
		in.KVDType = d
		r := mustEstimate(t, in)
		if i > 0 && r.Breakdown.KVCache <= prev {
			t.Errorf("kv %s = %d not above %s = %d", d, r.Breakdown.KVCache, order[i-1], prev)
		}
		prev = r.Breakdown.KVCache
	}
}

func TestParallelismLowersMemory(t *testing.T) {
	// More TP or PP never raises per-GPU memory for inference.
	in := DefaultInput(llama2_70b)
	one := mustEstimate(t, in)
	in.GPUs, in.TP = 8, 8
	tp8 := mustEstimate(t, in)
	in.GPUs, in.PP = 16, 2
	pp2 := mustEstimate(t, in)
	if !(tp8.TotalPerGPU < one.TotalPerGPU && pp2.TotalPerGPU < tp8.TotalPerGPU) {
		t.Errorf("per-GPU totals: tp1 %d, tp8 %d, tp8pp2 %d", one.TotalPerGPU, tp8.TotalPerGPU, pp2.TotalPerGPU)
	}
}

func TestOffloadLowersMemory(t *testing.T) {
	in := DefaultInput(llama2_13b)
	in.Workload = FullTraining
	in.GPUs, in.ZeRO = 8, 3
	none := mustEstimate(t, in)
	in.Offload = OffloadOptimizer
	opt := mustEstimate(t, in)
	in.Offload = OffloadFull
	full := mustEstimate(t, in)
	if !(opt.TotalPerGPU < none.TotalPerGPU && full.TotalPerGPU < opt.TotalPerGPU) {
		t.Errorf("offload none %d, optimizer %d, full %d", none.TotalPerGPU, opt.TotalPerGPU, full.TotalPerGPU)
	}
	if opt.Breakdown.Optimizer != 0 || full.Breakdown.Optimizer != 0 {
		t.Errorf("offloaded optimizer still on GPU: %d, %d", opt.Breakdown.Optimizer, full.Breakdown.Optimizer)
	}
}

func TestCheckpointingLowersActivations(t *testing.T) {
	for _, flash := range []bool{false, true} {
		in := DefaultInput(llama2_7b)
		in.Workload = FullTraining
		in.Flash = flash
		var acts []int64
		for _, ck := range []Checkpointing{NoCheckpointing, SelectiveCheckpointing, FullCheckpointing} {
			in.Checkpointing = ck
			acts = append(acts, mustEstimate(t, in).Breakdown.Activations)
		}
		if !(acts[0] >= acts[1] && acts[1] > acts[2]) || (!flash && acts[0] == acts[1]) {
			t.Errorf("flash=%v: activations none %d, selective %d, full %d", flash, acts[0], acts[1], acts[2])
		}
	}
}
