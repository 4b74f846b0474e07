package sizing

// MaxSearchGPUs is the largest GPU count MinGPUs tries.
const MaxSearchGPUs = 4096

// MaxNodeTP is the largest tensor-parallel degree MinGPUs and AutoLayout
// use: tensor parallelism stays inside one node of (typically) 8 GPUs
// joined by NVLink, as in Megatron-LM practice.
const MaxNodeTP = 8

// searchTP is the tensor-parallel degree used on n GPUs: the largest of 8,
// 4, 2, 1 that is at most n, divides n, divides the attention heads and is
// compatible with the KV heads.
func searchTP(m Model, n int) int {
	for t := MaxNodeTP; t > 1; t /= 2 {
		if t <= n && n%t == 0 && m.Heads%t == 0 && kvCompatible(m.kvHeads(), t) {
			return t
		}
	}
	return 1
}

// Fit is the smallest layout of one GPU model that holds a configuration.
type Fit struct {
	_ noCompare
	// N is the number of GPUs, TP and PP its tensor- and pipeline-parallel
	// degrees (N/(TP·PP) data-parallel replicas for training).
	N, TP, PP int
	// Result is the estimate at that layout on that GPU, with its speed
	// figures.
	Result Result
}

// MinFit returns the smallest GPU count n on which in fits g, trying
// n = 1, 2, 4, …, MaxSearchGPUs, with the layout and the estimate at it;
// ok is false when none fits (or in is invalid). The search overrides
// in.GPUs, in.TP and in.PP (and keeps in.CP as given, multiplying n by it):
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
func MinFit(in Input, g GPU) (Fit, bool) {
	if g.Validate() != nil {
		return Fit{}, false
	}
	probe := in
	probe.GPUs, probe.TP, probe.PP = probe.cp(), 1, 1
	if probe.Validate() != nil {
		return Fit{}, false
	}
	for n := 1; n <= MaxSearchGPUs; n *= 2 {
		c := in
		c.TP = searchTP(in.Model, n)
		c.PP = 1
		if in.Workload == Inference {
			c.PP = n / c.TP
			if c.PP > in.Model.Layers {
				break
			}
		}
		c.GPUs = n * c.cp()
		r, err := Estimate(c, &g)
		if err != nil {
			continue
		}
		if Fits(r, g) {
			return Fit{N: n, TP: c.TP, PP: c.PP, Result: r}, true
		}
	}
	return Fit{}, false
}

// MinGPUs returns the smallest GPU count on which in fits g (see MinFit);
// ok is false when none up to MaxSearchGPUs fits.
func MinGPUs(in Input, g GPU) (n int, ok bool) {
	f, ok := MinFit(in, g)
	return f.N, ok
}

// AutoLayout returns in with the parallel layout its GPU count implies, as
// the calculator uses it when the reader gives only a number of GPUs:
// for training with ZeRO stage 3, which shards the model states over the
// data-parallel ranks as FSDP does, data parallelism over every GPU (TP =
// PP = 1); otherwise
// tensor parallelism within a node up to the GPU count (searchTP), then for
// training data parallelism over the rest (PP = 1), and for inference the
// fewest pipeline stages of the rest with which the model fits g (or all
// of them when it fits with none, or gpu is nil: PP = 1), the remaining
// GPUs serving as data-parallel replicas. CP is kept. An input whose GPU
// count is not a multiple of CP gets TP = PP = 1, for Validate to report
// the GPU count.
func AutoLayout(in Input, gpu *GPU) Input {
	cp := in.cp()
	if in.GPUs < 1 || in.GPUs%cp != 0 {
		out := in
		out.TP, out.PP = 1, 1
		return out
	}
	n := in.GPUs / cp
	out := in
	out.TP, out.PP = 1, 1
	if !in.DataParallelLayout() {
		out.TP = searchTP(in.Model, n)
	}
	r := n / out.TP
	if in.Workload != Inference || gpu == nil || r == 1 {
		return out
	}
	for p := 1; p <= r && p <= in.Model.Layers; p++ {
		if r%p != 0 {
			continue
		}
		c := out
		c.PP = p
		if res, err := Estimate(c, nil); err == nil && Fits(res, *gpu) {
			return c
		}
	}
	// Nothing fits: the most pipeline stages lower the memory the most.
	p := r
	for p > in.Model.Layers || r%p != 0 {
		p--
	}
	out.PP = p
	return out
}

// DataParallelLayout reports whether AutoLayout takes every GPU of in as
// a data-parallel rank: training with ZeRO stage 3.
func (in Input) DataParallelLayout() bool { return in.Workload != Inference && in.ZeRO == 3 }

// LargestBatch is the largest batch, at most limit, with which in fits on
// each of its GPUs of type g (Fits): for inference the most concurrent
// sequences the KV cache holds at context SeqLen. Zero when even one
// sequence does not fit or in is invalid. Memory grows with the batch,
// so a bisection finds it.
func LargestBatch(in Input, g GPU, limit int) int {
	fits := func(b int) bool {
		in.Batch = b
		r, err := Estimate(in, &g)
		return err == nil && Fits(r, g)
	}
	if limit < 1 || !fits(1) {
		return 0
	}
	lo, hi := 1, limit
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}
