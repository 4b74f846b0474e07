package sizing

import "math"

// largestLayerParams is the parameter count of the largest single module
// (an embedding or a linear layer), which ZeRO-3 gathers whole [DSMEM:
// largest_layer_params]: max(vocab·h, h·ffn, h·a·d) over the model's
// dense and expert MLP widths.
//
//go:noinline
func largestLayerParams(m Model) float64 {
	h := float64(m.Hidden)
	x := float64(m.Vocab) * h
	for _, y := range [...]float64{h * float64(m.ffn()), h * float64(m.denseFFN()), h * float64(m.Heads) * float64(m.headDim())} {
		if y > x {
			x = y
		}
	}
	return x
}

// ZeROModelStateBytes is the per-GPU model-state memory of mixed-precision
// training with ZeRO stage 0..3 over nd data-parallel GPUs [ZeRO §5,
// Figure 1], with K bytes of optimizer state per parameter:
//
//	stage 0 (baseline): (2 + 2 + K)·Ψ
//	stage 1 (Pos):      2Ψ + 2Ψ + K·Ψ/Nd
//	stage 2 (Pos+g):    2Ψ + (2 + K)·Ψ/Nd
//	stage 3 (Pos+g+p):  (2 + 2 + K)·Ψ/Nd
//
// The paper's example (Ψ = 7.5 B, Nd = 64, K = 12) gives 120 GB, 31.4 GB,
// 16.6 GB and 1.9 GB. Estimate applies the same rules per component, plus
// ZeRO-3's gathered layer and CPU offload.
func ZeROModelStateBytes(params int64, stage, nd int, k float64) int64 {
	if nd < 1 {
		nd = 1
	}
	p := float64(params)
	n := float64(nd)
	w, g, o := 2*p, 2*p, k*p
	if stage >= 1 {
		o /= n
	}
	if stage >= 2 {
		g /= n
	}
	if stage >= 3 {
		w /= n
	}
	return toBytes(finite(w + g + o))
}

// DeepSpeedZeRO2GPUBytes reproduces DeepSpeed's
// estimate_zero2_model_states_mem_needs GPU figure [DSMEM]: 2Ψ with CPU
// offload, otherwise 4Ψ + 16Ψ/total_gpus (fp16 weights and gradients, plus
// partitioned fp32 weights, fp32 gradients, momentum and variance). Estimate
// does not use it (see ModelStateBytesPerParam); the methodology page and the
// tests compare against it.
func DeepSpeedZeRO2GPUBytes(params int64, totalGPUs int, cpuOffload bool) int64 {
	if totalGPUs < 1 {
		totalGPUs = 1
	}
	p := float64(params)
	if cpuOffload {
		return toBytes(2 * p)
	}
	return toBytes(4*p + math.Floor(16*p/float64(totalGPUs)))
}

// DeepSpeedZeRO3GPUBytes reproduces DeepSpeed's
// estimate_zero3_model_states_mem_needs GPU figure [DSMEM]: the gathered
// largest layer (4 bytes per parameter: fp16 weights and gradients) plus
// nothing with parameter offload, 2Ψ/total_gpus with optimizer offload only,
// and 18Ψ/total_gpus without offload. The largest layer is charged whatever
// the GPU count: the layer being computed must be resident.
func DeepSpeedZeRO3GPUBytes(params, largestLayerParams int64, totalGPUs int, offloadOptimizer, offloadParams bool) int64 {
	if totalGPUs < 1 {
		totalGPUs = 1
	}
	p := float64(params)
	n := float64(totalGPUs)
	largest := 4 * float64(largestLayerParams)
	switch {
	case offloadOptimizer && offloadParams:
		return toBytes(largest)
	case offloadOptimizer:
		return toBytes(largest + math.Floor(2*p/n))
	default:
		return toBytes(largest + math.Floor(18*p/n))
	}
}
