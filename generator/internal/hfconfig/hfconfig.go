// Package hfconfig reads a Hugging Face config.json into the sizing
// engine's model description, computing the parameter counts the file does
// not state. The same code runs in the `size` command (-config), at build
// time (the presets' tests) and in the calculator's WebAssembly engine
// (a pasted or dropped file), so it avoids encoding/json and fmt: it has a
// small positioned JSON reader of its own.
//
// The model types it knows, with the keys it reads (transformers'
// configuration classes name them):
//
//   - llama, mistral, phi3: hidden_size, num_hidden_layers,
//     num_attention_heads, num_key_value_heads, intermediate_size,
//     vocab_size, head_dim, tie_word_embeddings, sliding_window,
//     attention_bias / mlp_bias (llama);
//   - qwen2, qwen3: the same plus the q/k/v biases (qwen2), q/k norms
//     (qwen3), use_sliding_window and max_window_layers;
//   - qwen3_moe: num_experts, num_experts_per_tok, moe_intermediate_size,
//     decoder_sparse_step, mlp_only_layers;
//   - mixtral: num_local_experts, num_experts_per_tok;
//   - gemma2, gemma3 (and gemma3_text; a multimodal config's text_config):
//     head_dim, sliding_window, the alternating (gemma2) or
//     sliding_window_pattern (gemma3) local/global layers, or layer_types;
//   - deepseek_v3 (and deepseek_v2): kv_lora_rank, q_lora_rank,
//     qk_nope_head_dim, qk_rope_head_dim, v_head_dim, n_routed_experts,
//     n_shared_experts, num_experts_per_tok, moe_intermediate_size,
//     first_k_dense_replace, num_nextn_predict_layers.
//
// Another model type is read with the Llama keys when it has all of them
// and no mixture-of-experts or latent-attention keys (Config.Generic says
// so); otherwise Parse names what it cannot read.
//
// Parameter counts follow the modules transformers builds for each type
// (embeddings, attention and MLP projections with their biases, norms,
// routers); the tests compare them with the counts the model publishers
// state.
package hfconfig

import (
	"strconv"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/jsonpos"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

// Config is what Parse reads from a config.json.
type Config struct {
	// ModelType is the file's model_type (of text_config for a multimodal
	// file).
	ModelType string
	// Model is the architecture for the sizing engine, with Params and
	// ActiveParams computed.
	Model sizing.Model
	// MaxContext is max_position_embeddings (0 when absent; for gemma3 the
	// Gemma3TextConfig default, 131,072).
	MaxContext int
	// MTPLayers is the number of multi-token-prediction layers the file
	// declares (num_nextn_predict_layers); they are not counted in
	// Model.Params, since serving loads them only for speculative decoding.
	MTPLayers int
	// Generic says the model type is not one the parser knows and the file
	// was read with the Llama keys.
	Generic bool
}

// KnownTypes returns the model types the parser reads, in the order the
// messages list them.
//
//go:noinline
func KnownTypes() []string {
	return []string{"llama", "mistral", "mixtral", "qwen2", "qwen3", "qwen3_moe", "gemma2", "gemma3", "deepseek_v3", "phi3"}
}

// archOf maps a model_type to the architecture family the reader handles.
//
//go:noinline
func archOf(t string) string {
	switch t {
	case "llama", "mistral", "phi3", "qwen2", "qwen3", "qwen3_moe", "mixtral", "gemma2", "deepseek_v3":
		return t
	case "gemma3", "gemma3_text":
		return "gemma3"
	case "deepseek_v2":
		return "deepseek_v3"
	}
	return ""
}

// MaxSize is the largest config file Parse reads (real ones are a few
// kilobytes; some carry a tokenizer or chat template of ~100 KB).
const MaxSize = 4 << 20

// Limits on the sizes the reader accepts (the engine's limits).
const maxDim = 1 << 24

// reader reads keys from one config object, recording the first problem.
type reader struct {
	obj  *jsonpos.Value // the object holding the architecture keys
	root *jsonpos.Value // the whole file (for keys kept at the top of multimodal files)
	err  *Error
}

// num returns the whole number under key, def when it is absent or null,
// recording a type or range error. required keys report their absence.
//
//go:noinline
func (r *reader) num(key string, def int, required bool, lo int) int {
	if r.err != nil {
		return def
	}
	v := r.obj.Get(key)
	if v == nil && r.root != r.obj {
		v = r.root.Get(key)
	}
	if !v.Present() {
		if required {
			r.err = r.missing(key)
		}
		return def
	}
	x, ok := v.Number()
	if !ok {
		r.err = errorAt("type", v.Line, v.Col, key)
		return def
	}
	if x < float64(lo) || x > maxDim {
		r.err = newError("range", v.Line, v.Col, key, v.Literal(), strconv.Itoa(lo), strconv.Itoa(maxDim), "")
		return def
	}
	if x != float64(int64(x)) {
		r.err = errorAt("type", v.Line, v.Col, key)
		return def
	}
	return int(x)
}

// boolean returns the boolean under key, def when absent or null.
//
//go:noinline
func (r *reader) boolean(key string, def bool) bool {
	if r.err != nil {
		return def
	}
	v := r.obj.Get(key)
	if v == nil && r.root != r.obj {
		v = r.root.Get(key)
	}
	if !v.Present() {
		return def
	}
	b, ok := v.Bool()
	if !ok {
		r.err = errorAt("bool", v.Line, v.Col, key)
		return def
	}
	return b
}

//go:noinline
func (r *reader) missing(key string) *Error {
	return errorAt("missing", r.obj.Line, r.obj.Col, key)
}

// at returns the value of key (in the architecture object, else the top
// level) for an error position; the object itself when absent.
//
//go:noinline
func (r *reader) at(key string) *jsonpos.Value {
	if v := r.obj.Get(key); v != nil {
		return v
	}
	if v := r.root.Get(key); v != nil {
		return v
	}
	return r.obj
}

// has reports whether key is present and not null.
//
//go:noinline
func (r *reader) has(key string) bool {
	return r.obj.Get(key).Present()
}

// Parse reads a config.json. Errors are *Error, positioned at the
// offending value (or, for a missing key, the object that should hold it).
//
//go:noinline
func Parse(data []byte) (Config, error) {
	if len(data) > MaxSize {
		return Config{}, newError("size", 1, 1, "", "1", "1", strconv.Itoa(MaxSize), "")
	}
	root, perr := jsonpos.Parse(data)
	if perr != nil {
		return Config{}, errorAt(perr.Code, perr.Line, perr.Col, perr.Arg) // the syntax error codes are message keys
	}
	if root.Kind() != jsonpos.Object {
		return Config{}, errorAt("not_object", root.Line, root.Col, "")
	}
	obj := root
	if tc := root.Get("text_config"); tc.Kind() == jsonpos.Object {
		obj = tc // a multimodal file: the language model's keys
	}
	mt := modelType(obj)
	if mt == "" {
		mt = modelType(root)
	}
	r := &reader{obj: obj, root: root}
	arch := archOf(mt)
	c := Config{ModelType: mt}
	if arch == "" {
		// Unknown type: name what the Llama reading would need.
		var miss []string
		for _, k := range [...]string{"hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size", "vocab_size"} {
			if !r.has(k) {
				miss = append(miss, k)
			}
		}
		name := mt
		if name == "" {
			name = "(none)"
		}
		if len(miss) > 0 {
			return Config{}, newError("unknown_type", obj.Line, obj.Col, name, join(miss), strconv.Itoa(obj.Line), strconv.Itoa(obj.Col), join(KnownTypes()))
		}
		for _, k := range [...]string{"num_experts", "num_local_experts", "n_routed_experts", "kv_lora_rank", "moe_intermediate_size"} {
			if r.has(k) {
				return Config{}, newError("unknown_arch", obj.Line, obj.Col, name, k, strconv.Itoa(obj.Line), strconv.Itoa(obj.Col), join(KnownTypes()))
			}
		}
		arch, c.Generic = "llama", true
	}
	m, err := r.model(arch)
	if err != nil {
		return Config{}, err
	}
	c.Model = m
	ctxDefault := 0
	if arch == "gemma3" {
		ctxDefault = 131072 // Gemma3TextConfig's max_position_embeddings default
	}
	c.MaxContext = r.num("max_position_embeddings", ctxDefault, false, 0)
	c.MTPLayers = r.num("num_nextn_predict_layers", 0, false, 0)
	if r.err != nil {
		return Config{}, r.err
	}
	if verr := c.Model.Validate(); verr != nil {
		// The reader's own checks come first; this catches the rest with
		// the engine's message.
		return Config{}, verr
	}
	return c, nil
}

//go:noinline
func modelType(obj *jsonpos.Value) string {
	s, _ := obj.Get("model_type").Text()
	return s
}

//go:noinline
func join(list []string) string {
	var b []byte
	for i, s := range list {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, s...)
	}
	return string(b)
}

// model reads the architecture of one family and counts its parameters, in
// phases: the dimensions every family has, the modules of a dense layer,
// the sliding windows, the family's experts (and DeepSeek's latent
// attention), and the totals.
//
//go:noinline
func (r *reader) model(arch string) (sizing.Model, error) {
	dm, err := r.dims(arch)
	if err != nil {
		return sizing.Model{}, err
	}
	m := dm.sizingModel()
	cnt := r.layerCounts(arch, dm)
	r.slidingWindow(arch, &m, dm.layers)
	switch arch {
	case "mixtral":
		r.mixtralExperts(&m, &cnt)
	case "qwen3_moe":
		r.qwen3MoEExperts(&m, &cnt, dm)
	case "deepseek_v3":
		r.latentAttention(&m, &cnt, dm)
		r.deepseekExperts(&m, &cnt, dm)
	}
	if r.err != nil {
		return m, r.err
	}
	// The totals.
	if m.Experts > 0 && m.ExpertsPerToken > m.Experts {
		v := r.at("num_experts_per_tok")
		return m, newError("experts", v.Line, v.Col, "num_experts_per_tok", strconv.Itoa(m.ExpertsPerToken), strconv.Itoa(m.Experts), "", "")
	}
	m.Params, m.ActiveParams = cnt.totals()
	if m.ActiveParams == m.Params {
		m.ActiveParams = 0
	}
	return m, nil
}

// dims are the dimensions every family has, as the file states them or the
// family defaults them.
type dims struct {
	hidden, layers, heads, kvHeads int
	vocab, ffn, headDim            int
	tied                           bool
}

// dims reads the dimensions every family has: hidden_size,
// num_hidden_layers, num_attention_heads, num_key_value_heads, vocab_size,
// intermediate_size, head_dim and tie_word_embeddings, with the family's
// defaults, and checks that the heads divide as attention needs.
func (r *reader) dims(arch string) (dims, error) {
	var d dims
	d.hidden = r.num("hidden_size", 0, true, 1)
	d.layers = r.num("num_hidden_layers", 0, true, 1)
	d.heads = r.num("num_attention_heads", 0, true, 1)
	d.kvHeads = r.num("num_key_value_heads", d.heads, false, 1)
	// Gemma3TextConfig defaults vocab_size to 262,208, and Google's
	// gemma-3 files leave it out (transformers configuration_gemma3.py).
	vocabDefault := 0
	if arch == "gemma3" {
		vocabDefault = 262208
	}
	d.vocab = r.num("vocab_size", vocabDefault, vocabDefault == 0, 1)
	d.ffn = r.num("intermediate_size", 0, arch != "qwen3_moe", 1)
	if arch == "qwen3_moe" && d.ffn == 0 {
		d.ffn = r.num("moe_intermediate_size", 0, true, 1)
	}
	headDimDefault := 0
	tieDefault := false
	switch arch {
	case "gemma2", "gemma3":
		tieDefault = true
		headDimDefault = 256 // Gemma2Config / Gemma3TextConfig default
	}
	d.headDim = r.num("head_dim", headDimDefault, false, 1)
	d.tied = r.boolean("tie_word_embeddings", tieDefault)
	if r.err != nil {
		return d, r.err
	}
	// The KV heads must divide the heads and, without a head_dim, the
	// heads the hidden size, whose share is then the head dimension.
	h, heads, kv := d.hidden, d.heads, d.kvHeads
	if kv > heads || heads%kv != 0 {
		v := r.at("num_key_value_heads")
		return d, newError("kv_heads", v.Line, v.Col, "num_key_value_heads", strconv.Itoa(kv), strconv.Itoa(heads), "", "")
	}
	if d.headDim == 0 && h%heads != 0 {
		v := r.at("num_attention_heads")
		return d, newError("heads_hidden", v.Line, v.Col, "num_attention_heads", strconv.Itoa(heads), strconv.Itoa(h), "", "")
	}
	if d.headDim == 0 {
		d.headDim = h / heads
	}
	return d, nil
}

// sizingModel is the engine's model of the dimensions, with HeadDim set
// only when it is not hidden/heads.
func (d dims) sizingModel() sizing.Model {
	h, heads := d.hidden, d.heads
	m := sizing.Model{Layers: d.layers, Hidden: h, Heads: heads, KVHeads: d.kvHeads, FFN: d.ffn, Vocab: d.vocab, TiedEmbeddings: d.tied}
	if d.headDim != h/heads || h%heads != 0 {
		m.HeadDim = d.headDim
	}
	return m
}

// layerCounts counts the parameters of the embeddings and of every layer as
// a dense layer (see counts): the attention projections, the norms and the
// gated MLP, with the family's biases and extra norms.
func (r *reader) layerCounts(arch string, dm dims) counts {
	var cnt counts
	cnt.h, cnt.layers, cnt.vocab, cnt.tied = float64(dm.hidden), float64(dm.layers), float64(dm.vocab), dm.tied
	hf, a, kvf, d := float64(dm.hidden), float64(dm.heads), float64(dm.kvHeads), float64(dm.headDim)
	cnt.attn = hf*a*d + 2*hf*kvf*d + a*d*hf // q, k, v, o
	cnt.norms = 2 * hf                      // input and post-attention RMSNorm
	mlp := 3 * hf * float64(dm.ffn)         // gate, up, down

	switch arch {
	case "llama":
		if r.boolean("attention_bias", false) {
			cnt.attn += a*d + 2*kvf*d + hf
		}
		if r.boolean("mlp_bias", false) {
			mlp += 2*float64(dm.ffn) + hf
		}
	case "qwen2":
		cnt.attn += a*d + 2*kvf*d // q, k, v biases (Qwen2Attention)
	case "qwen3", "qwen3_moe":
		cnt.attn += 2 * d // q_norm, k_norm
		if r.boolean("attention_bias", false) {
			cnt.attn += a*d + 2*kvf*d
		}
	case "gemma2":
		cnt.norms = 4 * hf // input, post-attention, pre- and post-feedforward
	case "gemma3":
		cnt.norms = 4 * hf
		cnt.attn += 2 * d // q_norm, k_norm
	}
	cnt.dense, cnt.denseLayers = mlp, cnt.layers
	return cnt
}

// slidingWindow reads the family's sliding-window attention into m: the
// window and, when not every one of the layers uses it, how many do
// (LocalLayers).
func (r *reader) slidingWindow(arch string, m *sizing.Model, layers int) {
	switch arch {
	case "mistral", "phi3", "mixtral":
		if w := r.num("sliding_window", 0, false, 0); w > 0 {
			m.SlidingWindow = w // every layer
		}
	case "qwen2", "qwen3", "qwen3_moe":
		if r.boolean("use_sliding_window", false) {
			if w := r.num("sliding_window", 0, false, 0); w > 0 {
				// Layers from max_window_layers on use the window
				// (Qwen2Attention).
				mwl := r.num("max_window_layers", layers, false, 0)
				if mwl < layers {
					m.SlidingWindow, m.LocalLayers = w, layers-mwl
				}
			}
		}
	case "gemma2", "gemma3":
		w := r.num("sliding_window", 4096, false, 0)
		local := 0
		if arch == "gemma2" {
			local = (layers + 1) / 2 // layers 0, 2, 4, … slide (Gemma2DecoderLayer)
		} else {
			pattern := r.num("sliding_window_pattern", 6, false, 1)
			local = layers - layers/pattern // every pattern-th layer is global
		}
		if lt := r.obj.Get("layer_types"); lt.Len() >= 0 {
			local = 0
			for i := range lt.Len() {
				if s, _ := lt.Index(i).Text(); s == "sliding_attention" {
					local++
				}
			}
		}
		if w > 0 && local > 0 {
			m.SlidingWindow, m.LocalLayers = w, local
			if local == layers {
				m.LocalLayers = 0
			}
		}
	}
}

// mixtralExperts reads Mixtral's mixture of experts: every layer routes to
// num_experts_per_tok of num_local_experts copies of the dense MLP.
func (r *reader) mixtralExperts(m *sizing.Model, cnt *counts) {
	e := r.num("num_local_experts", 0, true, 1)
	k := r.num("num_experts_per_tok", 0, true, 1)
	m.Experts, m.ExpertsPerToken = e, k
	cnt.moeLayers, cnt.denseLayers = cnt.layers, 0
	cnt.router = cnt.h * float64(e)
	cnt.expert, cnt.experts, cnt.active = cnt.dense, float64(e), float64(k)
}

// qwen3MoEExperts reads Qwen3-MoE's mixture of experts: num_experts
// experts moe_intermediate_size wide, num_experts_per_tok per token, in the
// sparse layers (decoder_sparse_step, mlp_only_layers); the other layers
// keep the dense MLP.
func (r *reader) qwen3MoEExperts(m *sizing.Model, cnt *counts, dm dims) {
	layers, hf := dm.layers, cnt.h
	e := r.num("num_experts", 0, true, 1)
	k := r.num("num_experts_per_tok", 0, true, 1)
	f := r.num("moe_intermediate_size", 0, true, 1)
	step := r.num("decoder_sparse_step", 1, false, 1)
	// Layer i is sparse when (i+1) is a multiple of the step and i is
	// not listed in mlp_only_layers (Qwen3MoeDecoderLayer); counted
	// with a bit per layer only when the list is given.
	moe := layers / step
	if ml := r.obj.Get("mlp_only_layers"); ml.Len() > 0 {
		seen := make([]uint64, layers/64+1)
		for j := range ml.Len() {
			if x, ok := ml.Index(j).Number(); ok && x >= 0 && x < float64(layers) && x == float64(int(x)) {
				i := int(x)
				if seen[i/64]&(1<<(i%64)) == 0 && (i+1)%step == 0 {
					moe--
				}
				seen[i/64] |= 1 << (i % 64)
			}
		}
	}
	m.Experts, m.ExpertsPerToken, m.FFN = e, k, f
	m.DenseLayers = layers - moe
	if m.DenseLayers > 0 {
		m.DenseFFN = dm.ffn
	}
	cnt.moeLayers, cnt.denseLayers = float64(moe), float64(layers-moe)
	cnt.router = hf * float64(e)
	cnt.expert, cnt.experts, cnt.active = 3*hf*float64(f), float64(e), float64(k)
}

// latentAttention reads DeepSeek's multi-head latent attention
// (kv_lora_rank, q_lora_rank, qk_nope_head_dim, qk_rope_head_dim,
// v_head_dim) into m and counts its projections and their norms in place
// of the dense attention.
func (r *reader) latentAttention(m *sizing.Model, cnt *counts, dm dims) {
	kvr := r.num("kv_lora_rank", 0, true, 1)
	qr := r.num("q_lora_rank", 0, false, 0)
	nope := r.num("qk_nope_head_dim", 0, true, 1)
	rope := r.num("qk_rope_head_dim", 0, true, 1)
	vd := r.num("v_head_dim", 0, true, 1)
	if r.err != nil {
		return
	}
	hf, a := cnt.h, float64(dm.heads)
	qk := float64(nope + rope)
	m.KVLoRARank, m.QLoRARank, m.QKRopeHeadDim, m.VHeadDim = kvr, qr, rope, vd
	m.HeadDim = nope + rope
	m.KVHeads = dm.heads // MLA has no KV heads of its own; the latent serves all
	// MLA projections and their norms (DeepseekV3Attention).
	if qr > 0 {
		cnt.attn = hf*float64(qr) + float64(qr) + float64(qr)*a*qk
	} else {
		cnt.attn = hf * a * qk
	}
	cnt.attn += hf*float64(kvr+rope) + float64(kvr) + float64(kvr)*a*float64(nope+vd) + a*float64(vd)*hf
}

// deepseekExperts reads DeepSeek's mixture of experts, when it has
// n_routed_experts: the first first_k_dense_replace layers are dense, and
// from there every moe_layer_freq-th layer routes to num_experts_per_tok
// of the routed experts, moe_intermediate_size wide, beside
// n_shared_experts shared ones.
func (r *reader) deepseekExperts(m *sizing.Model, cnt *counts, dm dims) {
	e := r.num("n_routed_experts", 0, false, 0)
	if e <= 0 {
		return
	}
	layers, hf := dm.layers, cnt.h
	k := r.num("num_experts_per_tok", 0, true, 1)
	f := r.num("moe_intermediate_size", 0, true, 1)
	shared := r.num("n_shared_experts", 0, false, 0)
	first := r.num("first_k_dense_replace", 0, false, 0)
	freq := r.num("moe_layer_freq", 1, false, 1)
	if first > layers {
		first = layers
	}
	moe := 0
	for i := first; i < layers; i++ {
		if i%freq == 0 {
			moe++
		}
	}
	m.Experts, m.ExpertsPerToken, m.FFN = e, k, f
	m.SharedExperts, m.DenseLayers, m.DenseFFN = shared, layers-moe, dm.ffn
	if m.DenseLayers == 0 {
		m.DenseFFN = 0
	}
	cnt.moeLayers, cnt.denseLayers = float64(moe), float64(layers-moe)
	cnt.router = hf * float64(e)
	if s, _ := r.obj.Get("topk_method").Text(); s == "noaux_tc" {
		cnt.router += float64(e) // e_score_correction_bias
	}
	cnt.expert, cnt.experts, cnt.active = 3*hf*float64(f), float64(e), float64(k)
	cnt.shared = float64(shared) * 3 * hf * float64(f)
}

// counts holds the per-module parameter counts of one model.
type counts struct {
	h, layers, vocab float64
	tied             bool
	attn, norms      float64 // per layer
	dense            float64 // a dense layer's MLP
	denseLayers      float64
	moeLayers        float64
	router           float64 // per MoE layer
	expert           float64 // one routed expert
	experts, active  float64 // routed experts, routed per token
	shared           float64 // the shared experts of one MoE layer
}

// totals returns the total and the per-token (active) parameter counts:
// the embeddings (twice unless tied), every layer's attention and norms,
// the dense layers' MLPs, the MoE layers' routers, routed and shared
// experts (top-k routed for the active count), and the final norm.
//
//go:noinline
func (c counts) totals() (total, active int64) {
	emb := c.vocab * c.h
	if !c.tied {
		emb *= 2
	}
	common := emb + c.h + c.layers*(c.attn+c.norms) + c.denseLayers*c.dense
	t := common + c.moeLayers*(c.router+c.experts*c.expert+c.shared)
	a := common + c.moeLayers*(c.router+c.active*c.expert+c.shared)
	return int64(t), int64(a)
}
