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
	// JS is the key in the WebAssembly input and the calculator's data:
	// "kvHeads".
	JS string
	// Show names the calculator's group that shows the field ("" always,
	// "moe", "mla", "window" or "vision").
	Show string
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
	fVisionParams
	fImageTokens
	fImagePatches
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
	case fVisionParams:
		return &m.VisionParams
	case fImageTokens:
		return &m.ImageTokens
	case fImagePatches:
		return &m.ImagePatches
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
func (f ModelField) Label() string { return "calc.label." + f.Flag() }

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
	{id: fParams, Name: "params", JS: "params", lo: 1, hi: MaxParams},
	{id: fActiveParams, Name: "active_params", JS: "activeParams", Show: "moe"},
	{id: fLayers, Name: "layers", JS: "layers", lo: 1, hi: MaxLayers},
	{id: fHidden, Name: "hidden", JS: "hidden", lo: 1, hi: MaxHidden},
	{id: fHeads, Name: "heads", JS: "heads", lo: 1, hi: MaxHeads},
	{id: fKVHeads, Name: "kv_heads", JS: "kvHeads"},
	{id: fFFN, Name: "ffn", JS: "ffn", hi: MaxFFN},
	{id: fVocab, Name: "vocab", JS: "vocab", hi: MaxVocab},
	{id: fTied, Name: "tied_embeddings", JS: "tied", Bool: true, hi: 1},
	{id: fExperts, Name: "experts", JS: "experts", hi: MaxExperts},
	{id: fExpertsPerToken, Name: "experts_per_token", JS: "expertsPerToken", Show: "moe"},
	{id: fSharedExperts, Name: "shared_experts", JS: "sharedExperts", Show: "moe", hi: MaxExperts},
	{id: fDenseLayers, Name: "dense_layers", JS: "denseLayers", Show: "moe"},
	{id: fDenseFFN, Name: "dense_ffn", JS: "denseFFN", Show: "moe", hi: MaxFFN},
	{id: fHeadDim, Name: "head_dim", JS: "headDim", hi: MaxHeadDim},
	{id: fKVLoRARank, Name: "kv_lora_rank", JS: "kvLoraRank", hi: MaxHidden},
	{id: fQLoRARank, Name: "q_lora_rank", JS: "qLoraRank", Show: "mla", hi: MaxHidden},
	{id: fRopeHeadDim, Name: "rope_head_dim", JS: "ropeHeadDim", Show: "mla", hi: MaxHeadDim},
	{id: fVHeadDim, Name: "v_head_dim", JS: "vHeadDim", Show: "mla", hi: MaxHeadDim},
	{id: fSlidingWindow, Name: "sliding_window", JS: "slidingWindow", hi: MaxSeqLen},
	{id: fLocalLayers, Name: "local_layers", JS: "localLayers", Show: "window"},
	{id: fVisionParams, Name: "vision_params", JS: "visionParams", hi: MaxParams},
	{id: fImageTokens, Name: "image_tokens", JS: "imageTokens", Show: "vision", hi: MaxSeqLen},
	{id: fImagePatches, Name: "image_patches", JS: "imagePatches", Show: "vision", hi: MaxSeqLen},
}

// fieldText holds, by Model field (the f* constants), the names and help
// only the build-time surfaces read: the preset files' TOML key (which
// follows Hugging Face's config.json where it differs from Name:
// "hidden_size"), the size command's flag and the calculator form's field
// name and URL parameter ("kv-heads"), and the flag's one-line help. Kept
// apart from modelFields and read only through Key, Flag and Doc, so
// that the WebAssembly module, which calls none of them, leaves it out.
var fieldText = [...]struct{ key, flag, doc string }{
	fParams:          {"params", "params", "total parameters"},
	fActiveParams:    {"active_params", "active-params", "active parameters per token (MoE; 0 = all)"},
	fLayers:          {"layers", "layers", "transformer layers"},
	fHidden:          {"hidden_size", "hidden", "hidden size"},
	fHeads:           {"heads", "heads", "attention heads"},
	fKVHeads:         {"kv_heads", "kv-heads", "key/value heads (0 = heads)"},
	fFFN:             {"ffn_size", "ffn", "MLP intermediate size, per expert for MoE (0 = 4×hidden)"},
	fVocab:           {"vocab_size", "vocab", "vocabulary size"},
	fTied:            {"tied_embeddings", "tied", "the output layer shares the input embedding"},
	fExperts:         {"experts", "experts", "routed experts per MoE layer"},
	fExpertsPerToken: {"experts_per_token", "experts-per-token", "experts routed per token"},
	fSharedExperts:   {"shared_experts", "shared-experts", "shared experts per MoE layer"},
	fDenseLayers:     {"dense_layers", "dense-layers", "MoE layers replaced by a dense MLP"},
	fDenseFFN:        {"dense_ffn_size", "dense-ffn", "MLP width of the dense layers (0 = ffn)"},
	fHeadDim:         {"head_dim", "head-dim", "head dimension (0 = hidden/heads; MLA: nope + rope)"},
	fKVLoRARank:      {"kv_lora_rank", "kv-lora-rank", "multi-head latent attention's KV rank (0 = no MLA)"},
	fQLoRARank:       {"q_lora_rank", "q-lora-rank", "MLA's query rank"},
	fRopeHeadDim:     {"qk_rope_head_dim", "rope-head-dim", "MLA's decoupled RoPE key dimension"},
	fVHeadDim:        {"v_head_dim", "v-head-dim", "value head dimension (0 = head dim)"},
	fSlidingWindow:   {"sliding_window", "sliding-window", "sliding attention window in tokens (0 = none)"},
	fLocalLayers:     {"local_layers", "local-layers", "layers using the window (0 = all)"},
	fVisionParams:    {"vision_params", "vision-params", "vision encoder and projector parameters (0 = text only)"},
	fImageTokens:     {"image_tokens", "image-tokens", "language-model tokens per image"},
	fImagePatches:    {"image_patches", "image-patches", "vision-encoder tokens per image (0 = image tokens)"},
}

// Key is f's TOML key in the preset files.
func (f ModelField) Key() string { return fieldText[f.id].key }

// Flag is f's size-command flag and calculator form field name.
func (f ModelField) Flag() string { return fieldText[f.id].flag }

// Doc is f's one-line help, in English.
func (f ModelField) Doc() string { return fieldText[f.id].doc }

// ModelFields returns the figures of a model's shape in a fixed order (the
// order of the JSON objects that carry them).
func ModelFields() []ModelField {
	fs := modelFields
	return fs[:]
}
