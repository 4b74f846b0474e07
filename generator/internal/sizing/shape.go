package sizing

// kvHeads returns the number of KV heads, defaulting to Heads.
func (m Model) kvHeads() int {
	if m.KVHeads > 0 {
		return m.KVHeads
	}
	return m.Heads
}

// headDim returns the (query/key) head dimension, defaulting to
// Hidden/Heads.
func (m Model) headDim() int {
	if m.HeadDim > 0 {
		return m.HeadDim
	}
	if m.Heads > 0 {
		return m.Hidden / m.Heads
	}
	return 0
}

// vHeadDim returns the value head dimension, defaulting to headDim.
func (m Model) vHeadDim() int {
	if m.VHeadDim > 0 {
		return m.VHeadDim
	}
	return m.headDim()
}

// mla reports whether the model uses multi-head latent attention.
func (m Model) mla() bool { return m.KVLoRARank > 0 }

// ffn returns the MLP width (per expert for MoE), defaulting to 4·Hidden.
func (m Model) ffn() int {
	if m.FFN > 0 {
		return m.FFN
	}
	return 4 * m.Hidden
}

// denseFFN returns the MLP width of an MoE model's dense layers.
func (m Model) denseFFN() int {
	if m.DenseFFN > 0 {
		return m.DenseFFN
	}
	return m.ffn()
}

// moeLayers is the number of MoE layers (0 for a dense model).
func (m Model) moeLayers() int {
	if m.Experts == 0 {
		return 0
	}
	return max(m.Layers-m.DenseLayers, 0)
}

// localLayers is the number of sliding-window layers.
func (m Model) localLayers() int {
	if m.SlidingWindow <= 0 {
		return 0
	}
	if m.LocalLayers > 0 {
		return m.LocalLayers
	}
	return m.Layers
}

// activeParams returns the per-token parameter count.
func (m Model) activeParams() int64 {
	if m.ActiveParams > 0 {
		return m.ActiveParams
	}
	return m.Params
}

// embedParams is the number of embedding parameters: the vocab×hidden input
// embedding and, unless tied, the output layer of the same shape.
func (m Model) embedParams() float64 {
	e := float64(m.Vocab) * float64(m.Hidden)
	if !m.TiedEmbeddings {
		e *= 2
	}
	return e
}

// mlpWidth is the MLP width one token passes through in the widest layer,
// for activation sizing: for MoE layers (routed top-k + shared experts) ×
// the expert width, for dense layers their width.
func (m Model) mlpWidth() float64 {
	if m.Experts == 0 {
		return float64(m.ffn())
	}
	k := 1
	if m.ExpertsPerToken > 0 {
		k = m.ExpertsPerToken
	}
	w := float64(k+m.SharedExperts) * float64(m.ffn())
	if m.DenseLayers > 0 && float64(m.denseFFN()) > w {
		w = float64(m.denseFFN())
	}
	return w
}

func (in Input) pp() int {
	if in.PP > 0 {
		return in.PP
	}
	return 1
}

func (in Input) cp() int {
	if in.CP > 0 {
		return in.CP
	}
	return 1
}

func (in Input) quant() Quant {
	if in.Quant == "" {
		return NF4DQ
	}
	return in.Quant
}

func (in Input) paged() bool {
	return in.Optimizer == PagedAdamW || in.Optimizer == PagedAdamW8bit
}

// engine is the serving engine, "" read as Tuned.
func (in Input) engine() Engine {
	if in.Engine == "" {
		return Tuned
	}
	return in.Engine
}

// microBatches is MicroBatches, or its default (see Input.MicroBatches).
func (in Input) microBatches() int {
	if in.MicroBatches > 0 {
		return in.MicroBatches
	}
	if p := in.pp(); p > 1 {
		return PipelineMicroBatchesPerStage * p
	}
	return 1
}

// noCompare is a zero-size field that makes a struct not comparable, so
// that the compiler emits no equality function for it: in the
// WebAssembly build each such function costs code (about 1.2 kB for
// Result). NoCompare is the exported name the wasm binding uses.
type noCompare [0]func()

// NoCompare is noCompare for other packages' structs.
type NoCompare = noCompare
