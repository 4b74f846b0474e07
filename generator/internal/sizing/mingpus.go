package sizing

// MaxSearchGPUs is the largest GPU count MinGPUs tries.
const MaxSearchGPUs = 4096

// MaxNodeTP is the largest tensor-parallel degree MinGPUs uses: tensor
// parallelism stays inside one node of (typically) 8 GPUs joined by
// NVLink, as in Megatron-LM practice.
const MaxNodeTP = 8

// searchTP is the tensor-parallel degree MinGPUs uses on n GPUs: the largest
// of 8, 4, 2, 1 that is at most n, divides n, divides the attention heads
// and is compatible with the KV heads.
func searchTP(m Model, n int) int {
	for t := MaxNodeTP; t > 1; t /= 2 {
		if t <= n && n%t == 0 && m.Heads%t == 0 && kvCompatible(m.kvHeads(), t) {
			return t
		}
	}
	return 1
}

// MinGPUs returns the smallest GPU count n on which in fits g, trying
// n = 1, 2, 4, …, MaxSearchGPUs; ok is false when none fits (or in is
// invalid). The search overrides in.GPUs, in.TP and in.PP:
//
//   - TP is the largest power of two up to min(n, 8) that divides n and the
//     attention heads and is compatible with the KV heads (searchTP);
//   - inference: the remaining n/TP GPUs are pipeline stages (PP = n/TP, at
//     most one layer per stage), since extra replicas would not lower the
//     memory per GPU;
//   - training: PP = 1 and the remaining n/TP GPUs are data-parallel
//     replicas, which shrink the per-GPU memory only as far as in.ZeRO
//     shards the model states (with ZeRO 0 only TP helps). The ZeRO stage,
//     offload, batch and everything else stay as given.
func MinGPUs(in Input, g GPU) (n int, ok bool) {
	if in.Validate() != nil || g.Validate() != nil {
		return 0, false
	}
	for n = 1; n <= MaxSearchGPUs; n *= 2 {
		c := in
		c.GPUs = n
		c.TP = searchTP(in.Model, n)
		c.PP = 1
		if in.Workload == Inference {
			c.PP = n / c.TP
			if c.PP > in.Model.Layers {
				break
			}
		}
		r, err := Estimate(c, nil)
		if err != nil {
			continue
		}
		if Fits(r, g) {
			return n, true
		}
	}
	return 0, false
}
