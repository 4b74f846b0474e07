package sizing

// FitContext is the context, in tokens, at which a serving option's
// concurrency is figured (unless the model allows less): the calculator's
// default sequence, a chat turn with its history.
const FitContext = 4096

// FitMaxConcurrency is the most concurrent sequences a serving option is
// searched for: beyond it a serving engine's batch limits (vLLM's
// max_num_seqs defaults to 256 to 1024) bind before memory does.
const FitMaxConcurrency = 1024

// ServingOption is one way to serve a model on a given set of GPUs: a
// weight format and a KV-cache format, with what they leave room for.
type ServingOption struct {
	_ noCompare
	// DType is the weight format, Quant its int4 scheme (AWQ, as serving
	// engines load 4-bit checkpoints), KVDType the KV cache's.
	DType   DType
	Quant   Quant
	KVDType DType
	// TP and PP are the layout of the GPUs (as MinFit lays them out).
	TP, PP int
	// WeightsPerGPU is the weights' share of each GPU, in bytes.
	WeightsPerGPU int64
	// MaxContext is the longest context one sequence can have, up to the
	// model's limit; 0 when even a 1-token sequence does not fit.
	MaxContext int
	// Context is the context Concurrency is figured at (FitContext, or the
	// model's limit when lower), Concurrency the most sequences of that
	// length that fit at once (at most FitMaxConcurrency; 0 for none).
	Context, Concurrency int
	// OverBytes is, when nothing fits, how much one short sequence needs
	// beyond each GPU's usable memory: what CPU offload would have to hold
	// per GPU. Zero when it fits.
	OverBytes int64
	// Decode is the expected decode speed of one sequence at Context
	// tokens (tokens/s), 0 when it does not fit or the GPU's speed is not
	// known.
	Decode float64
}

// Fits says a sequence of the option's Context fits.
func (o ServingOption) Fits() bool { return o.Concurrency > 0 }

// ServingFit lists the ways to serve model m (of at most maxContext tokens;
// 0 or more than MaxSeqLen means MaxSeqLen) on n GPUs of type g, most
// precise first: each weight format g runs (bf16, or fp16 where g has no
// bf16, or fp32 where it has neither; fp8; int8; int4 AWQ), each with a 16-bit KV cache and, where g
// runs fp8, an fp8 one. The n GPUs are split by tensor parallelism within
// a node and pipeline stages over the rest (searchTP), since replicas
// would not lower the memory per GPU. Nil when m or g is invalid, n < 1, or
// n GPUs cannot be laid out for m (more pipeline stages than layers).
func ServingFit(m Model, maxContext int, g GPU, n int) []ServingOption {
	ins, maxContext := servingInputs(m, maxContext, g, n)
	var out []ServingOption
	for _, in := range ins {
		out = append(out, servingOption(in, g, maxContext))
	}
	return out
}

// servingInputs are ServingFit's candidates in its order, and the context
// limit it uses.
func servingInputs(m Model, maxContext int, g GPU, n int) ([]Input, int) {
	if m.Validate() != nil || g.Validate() != nil || n < 1 || n > MaxSearchGPUs {
		return nil, 0
	}
	if maxContext <= 0 || maxContext > MaxSeqLen {
		maxContext = MaxSeqLen
	}
	tp := searchTP(m, n)
	pp := n / tp
	if tp*pp != n || pp > m.Layers {
		return nil, 0
	}
	half := g.halfFormat()
	kvs := []DType{half}
	if g.Runs(FP8) {
		kvs = append(kvs, FP8)
	}
	var out []Input
	for _, d := range []DType{half, FP8, INT8, INT4} {
		if !g.Runs(d) {
			continue
		}
		for _, kv := range kvs {
			in := DefaultInput(m)
			in.DType, in.KVDType, in.Quant = d, kv, ""
			if d == INT4 {
				in.Quant = AWQ
			}
			in.GPUs, in.TP, in.PP = n, tp, pp
			out = append(out, in)
		}
	}
	return out, maxContext
}

// halfFormat is the 16-bit format g computes in (bf16, else fp16), else
// fp32: its unquantized weights and KV cache.
func (g GPU) halfFormat() DType {
	switch {
	case g.Runs(BF16):
		return BF16
	case g.Runs(FP16):
		return FP16
	}
	return FP32
}

// servingOption sizes one format: the longest context at batch 1 and the
// concurrency at min(FitContext, maxContext), both by bisection (memory
// grows with each).
func servingOption(in Input, g GPU, maxContext int) ServingOption {
	o := ServingOption{DType: in.DType, Quant: in.Quant, KVDType: in.KVDType, TP: in.TP, PP: in.PP, Context: min(FitContext, maxContext)}
	at := func(seq, batch int) (Result, bool) {
		c := in
		c.SeqLen, c.PromptLen, c.Batch = seq, 0, batch
		r, err := Estimate(c, &g)
		return r, err == nil && Fits(r, g)
	}
	r, ok := at(1, 1)
	o.WeightsPerGPU = r.Breakdown.Weights
	if !ok {
		o.OverBytes = max(r.TotalPerGPU-UsableBytes(g), 0)
		return o
	}
	lo, hi := 1, maxContext
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if _, ok := at(mid, 1); ok {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	o.MaxContext = lo
	if o.MaxContext < o.Context {
		return o
	}
	c := in
	c.SeqLen, c.PromptLen = o.Context, 0
	o.Concurrency = LargestBatch(c, g, FitMaxConcurrency)
	if r, ok := at(o.Context, 1); ok {
		o.Decode = r.ExpectedDecode
	}
	return o
}

// RankedFit is a model of RankFits' list with its most precise fitting
// option.
type RankedFit struct {
	_      noCompare
	Index  int // the model's index in RankFits' argument
	Option ServingOption
}

// RankFits returns the models of ms (model i of at most maxContexts[i]
// tokens) that fit n GPUs of type g with a sequence of their option's
// Context, each with its most precise fitting option, best quality first:
// more parameters first, whatever the precision, since for a fixed memory
// a larger model at 4 bits predicts better than a smaller one at 8 or 16
// (Dettmers & Zettlemoyer, "The case for 4-bit precision: k-bit inference
// scaling laws", ICML 2023, §4: 4-bit precision is almost universally
// optimal for total model bits), then in input order.
func RankFits(ms []Model, maxContexts []int, g GPU, n int) []RankedFit {
	var out []RankedFit
	for i, m := range ms {
		ins, limit := servingInputs(m, maxContexts[i], g, n)
		for _, in := range ins {
			if o := servingOption(in, g, limit); o.Fits() {
				out = append(out, RankedFit{Index: i, Option: o})
				break
			}
		}
	}
	// A stable insertion sort, larger models first: package sort's
	// SliceStable added 29 kB to the WebAssembly build (2,135,234 ->
	// 2,106,086 bytes).
	for i := 1; i < len(out); i++ {
		for k := i; k > 0 && ms[out[k].Index].Params > ms[out[k-1].Index].Params; k-- {
			out[k], out[k-1] = out[k-1], out[k]
		}
	}
	return out
}
