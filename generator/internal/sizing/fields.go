package sizing

// A ModelField is one figure of a model's shape (a Model field), with the
// name each surface reads it by and the range the engine accepts. The
// table ModelFields is the one place a figure is declared: the preset
// files (package catalog decodes Model through its toml tags, which a test
// holds to Key), the size command's flags and JSON, the WebAssembly
// bridge, the calculator's form and Validate all range over it.
type ModelField struct {
	// Name is the figure's name in errors (the message "sizing.field."+Name)
	// and in the size command's JSON: "kv_heads".
	Name string
	// Key is the preset files' TOML key, which follows Hugging Face's
	// config.json where the two differ from Name: "hidden_size".
	Key string
	// Flag is the size command's flag and the calculator form's field
	// name (and URL parameter): "kv-heads".
	Flag string
	// JS is the key in the WebAssembly input and the calculator's data:
	// "kvHeads".
	JS string
	// Show names the calculator's group that shows the field ("" always,
	// "moe", "mla" or "window").
	Show string
	// Doc is the flag's one-line help, in English.
	Doc string
	// Bool says the figure is a yes/no (Model.TiedEmbeddings).
	Bool bool

	id     int   // which Model field (the f* constants)
	lo, hi int64 // the accepted range, where it does not depend on other figures
}

// The Model fields, for ModelField.Ref: one switch instead of a closure
// per field keeps the WebAssembly module small.
const (
	fParams = iota
	fActiveParams
	fLayers
	fHidden
	fHeads
	fKVHeads
	fFFN
	fVocab
	fTied
	fExperts
	fExpertsPerToken
	fSharedExperts
	fDenseLayers
	fDenseFFN
	fHeadDim
	fKVLoRARank
	fQLoRARank
	fRopeHeadDim
	fVHeadDim
	fSlidingWindow
	fLocalLayers
)

// Ref returns a pointer to f's figure in m: *int64, *int or *bool.
//
//go:noinline
func (f ModelField) Ref(m *Model) any {
	switch f.id {
	case fParams:
		return &m.Params
	case fActiveParams:
		return &m.ActiveParams
	case fLayers:
		return &m.Layers
	case fHidden:
		return &m.Hidden
	case fHeads:
		return &m.Heads
	case fKVHeads:
		return &m.KVHeads
	case fFFN:
		return &m.FFN
	case fVocab:
		return &m.Vocab
	case fTied:
		return &m.TiedEmbeddings
	case fExperts:
		return &m.Experts
	case fExpertsPerToken:
		return &m.ExpertsPerToken
	case fSharedExperts:
		return &m.SharedExperts
	case fDenseLayers:
		return &m.DenseLayers
	case fDenseFFN:
		return &m.DenseFFN
	case fHeadDim:
		return &m.HeadDim
	case fKVLoRARank:
		return &m.KVLoRARank
	case fQLoRARank:
		return &m.QLoRARank
	case fRopeHeadDim:
		return &m.QKRopeHeadDim
	case fVHeadDim:
		return &m.VHeadDim
	case fSlidingWindow:
		return &m.SlidingWindow
	case fLocalLayers:
		return &m.LocalLayers
	}
	return nil
}

// Get returns f's figure in m as an integer (a yes/no as 1 or 0).
func (f ModelField) Get(m *Model) int64 {
	switch p := f.Ref(m).(type) {
	case *int64:
		return *p
	case *int:
		return int64(*p)
	case *bool:
		if *p {
			return 1
		}
	}
	return 0
}

// Set stores x as f's figure in m (a yes/no is x != 0).
func (f ModelField) Set(m *Model, x int64) {
	switch p := f.Ref(m).(type) {
	case *int64:
		*p = x
	case *int:
		*p = int(x)
	case *bool:
		*p = x != 0
	}
}

// Label is the message key of the calculator form's label: "calc.label."
// and the flag.
func (f ModelField) Label() string { return "calc.label." + f.Flag }

// Bounds returns the range Validate accepts for f given the rest of m.
func (f ModelField) Bounds(m *Model) (lo, hi int64) {
	switch f.id {
	case fActiveParams:
		return 0, m.Params
	case fKVHeads:
		return 0, int64(m.Heads)
	case fExpertsPerToken:
		return min(int64(m.Experts), 1), int64(m.Experts)
	case fDenseLayers, fLocalLayers:
		return 0, int64(m.Layers)
	}
	return f.lo, f.hi
}

// ExampleModel is the shape the calculator's custom model starts from
// (Llama 2 7B's config.json).
func ExampleModel() Model {
	return Model{Params: 7_000_000_000, Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 32, FFN: 11008, Vocab: 32000}
}

// modelFields is ModelFields' table: a package-level array of constants,
// laid out as data in the binary (built by code it would cost the
// WebAssembly module about 15 kB). Nothing writes to it; ModelFields hands
// out copies.
var modelFields = [...]ModelField{
	{id: fParams, Name: "params", Flag: "params", Key: "params", JS: "params", Doc: "total parameters", lo: 1, hi: MaxParams},
	{id: fActiveParams, Name: "active_params", Flag: "active-params", Key: "active_params", JS: "activeParams", Doc: "active parameters per token (MoE; 0 = all)", Show: "moe"},
	{id: fLayers, Name: "layers", Flag: "layers", Key: "layers", JS: "layers", Doc: "transformer layers", lo: 1, hi: MaxLayers},
	{id: fHidden, Name: "hidden", Flag: "hidden", Key: "hidden_size", JS: "hidden", Doc: "hidden size", lo: 1, hi: MaxHidden},
	{id: fHeads, Name: "heads", Flag: "heads", Key: "heads", JS: "heads", Doc: "attention heads", lo: 1, hi: MaxHeads},
	{id: fKVHeads, Name: "kv_heads", Flag: "kv-heads", Key: "kv_heads", JS: "kvHeads", Doc: "key/value heads (0 = heads)"},
	{id: fFFN, Name: "ffn", Flag: "ffn", Key: "ffn_size", JS: "ffn", Doc: "MLP intermediate size, per expert for MoE (0 = 4×hidden)", hi: MaxFFN},
	{id: fVocab, Name: "vocab", Flag: "vocab", Key: "vocab_size", JS: "vocab", Doc: "vocabulary size", hi: MaxVocab},
	{id: fTied, Name: "tied_embeddings", Key: "tied_embeddings", Flag: "tied", JS: "tied", Doc: "the output layer shares the input embedding", Bool: true, hi: 1},
	{id: fExperts, Name: "experts", Flag: "experts", Key: "experts", JS: "experts", Doc: "routed experts per MoE layer", hi: MaxExperts},
	{id: fExpertsPerToken, Name: "experts_per_token", Flag: "experts-per-token", Key: "experts_per_token", JS: "expertsPerToken", Doc: "experts routed per token", Show: "moe"},
	{id: fSharedExperts, Name: "shared_experts", Flag: "shared-experts", Key: "shared_experts", JS: "sharedExperts", Doc: "shared experts per MoE layer", Show: "moe", hi: MaxExperts},
	{id: fDenseLayers, Name: "dense_layers", Flag: "dense-layers", Key: "dense_layers", JS: "denseLayers", Doc: "MoE layers replaced by a dense MLP", Show: "moe"},
	{id: fDenseFFN, Name: "dense_ffn", Flag: "dense-ffn", Key: "dense_ffn_size", JS: "denseFFN", Doc: "MLP width of the dense layers (0 = ffn)", Show: "moe", hi: MaxFFN},
	{id: fHeadDim, Name: "head_dim", Flag: "head-dim", Key: "head_dim", JS: "headDim", Doc: "head dimension (0 = hidden/heads; MLA: nope + rope)", hi: MaxHeadDim},
	{id: fKVLoRARank, Name: "kv_lora_rank", Flag: "kv-lora-rank", Key: "kv_lora_rank", JS: "kvLoraRank", Doc: "multi-head latent attention's KV rank (0 = no MLA)", hi: MaxHidden},
	{id: fQLoRARank, Name: "q_lora_rank", Flag: "q-lora-rank", Key: "q_lora_rank", JS: "qLoraRank", Doc: "MLA's query rank", Show: "mla", hi: MaxHidden},
	{id: fRopeHeadDim, Name: "rope_head_dim", Flag: "rope-head-dim", Key: "qk_rope_head_dim", JS: "ropeHeadDim", Doc: "MLA's decoupled RoPE key dimension", Show: "mla", hi: MaxHeadDim},
	{id: fVHeadDim, Name: "v_head_dim", Flag: "v-head-dim", Key: "v_head_dim", JS: "vHeadDim", Doc: "value head dimension (0 = head dim)", Show: "mla", hi: MaxHeadDim},
	{id: fSlidingWindow, Name: "sliding_window", Flag: "sliding-window", Key: "sliding_window", JS: "slidingWindow", Doc: "sliding attention window in tokens (0 = none)", hi: MaxSeqLen},
	{id: fLocalLayers, Name: "local_layers", Flag: "local-layers", Key: "local_layers", JS: "localLayers", Doc: "layers using the window (0 = all)", Show: "window"},
}

// ModelFields returns the figures of a model's shape in a fixed order (the
// order of the JSON objects that carry them).
func ModelFields() []ModelField {
	fs := modelFields
	return fs[:]
}
