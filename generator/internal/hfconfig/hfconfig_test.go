package hfconfig

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

func parseFile(t *testing.T, name string) Config {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse(b)
	if err != nil {
		t.Fatalf("%s: %s", name, Positioned(err))
	}
	return c
}

// TestRealConfigs reads the real config files under testdata (SOURCES.md
// names where each was copied from) and checks the architecture and the
// parameter counts against the figures the publishers state.
func TestRealConfigs(t *testing.T) {
	tests := []struct {
		file  string
		typ   string
		model sizing.Model
		ctx   int
		// published total and active parameter counts, and the relative
		// tolerance: publishers give three significant figures (7.61B,
		// truncated) or the model's name (8B, 30B-A3B: the count rounded
		// down), so the tolerance is one unit of the last published digit.
		pubTotal, pubActive, tol float64
		source                   string
	}{
		{"deepseek-v3.json", "deepseek_v3",
			sizing.Model{Params: 671026419200, ActiveParams: 37552297472, Layers: 61, Hidden: 7168, Heads: 128, KVHeads: 128, HeadDim: 192,
				FFN: 2048, Vocab: 129280, Experts: 256, ExpertsPerToken: 8, KVLoRARank: 512, QLoRARank: 1536, QKRopeHeadDim: 64, VHeadDim: 128,
				SharedExperts: 1, DenseLayers: 3, DenseFFN: 18432},
			163840, 671e9, 36.6e9 + 0.93e9, 0.0015,
			// tt-metal's copy of DeepSeek's README_WEIGHTS.md: "Total
			// parameters: 671B, Activation parameters: 36.6B (including
			// 0.9B for the output Head)"; the active count here also has
			// the 0.93 B input embedding, which a token only indexes.
			"DeepSeek-V3 README_WEIGHTS.md"},
		{"qwen2.5-7b.json", "qwen2",
			sizing.Model{Params: 7615616512, Layers: 28, Hidden: 3584, Heads: 28, KVHeads: 4, FFN: 18944, Vocab: 152064},
			131072, 7.61e9, 0, 0.0014, "Qwen2.5-7B model card (paddlenlp_model_readme's copy): Number of Parameters 7.61B"},
		{"qwen2.5-7b-instruct.json", "qwen2",
			sizing.Model{Params: 7615616512, Layers: 28, Hidden: 3584, Heads: 28, KVHeads: 4, FFN: 18944, Vocab: 152064},
			32768, 7.61e9, 0, 0.0014, "Qwen2.5-7B model card: 7.61B, the same architecture"},
		{"qwen3-8b.json", "qwen3",
			sizing.Model{Params: 8190735360, Layers: 36, Hidden: 4096, Heads: 32, KVHeads: 8, FFN: 12288, Vocab: 151936},
			40960, 8e9, 0, 0.125, "Qwen3's naming (QwenLM/Qwen3 docs, concepts.md): total parameters, 8B"},
		{"qwen3-32b.json", "qwen3",
			sizing.Model{Params: 32762123264, Layers: 64, Hidden: 5120, Heads: 64, KVHeads: 8, HeadDim: 128, FFN: 25600, Vocab: 151936},
			40960, 32e9, 0, 0.0313, "Qwen3's naming: 32B"},
		{"qwen3-30b-a3b.json", "qwen3_moe",
			sizing.Model{Params: 30532122624, ActiveParams: 3353032704, Layers: 48, Hidden: 2048, Heads: 32, KVHeads: 4, HeadDim: 128,
				FFN: 768, Vocab: 151936, Experts: 128, ExpertsPerToken: 8},
			40960, 30e9, 3e9, 0.334, "Qwen3's naming: 30B total, A3B active (QwenLM/Qwen3 docs, concepts.md); 1/3 for the one-digit active count"},
		{"phi-4.json", "phi3",
			sizing.Model{Params: 14659507200, Layers: 40, Hidden: 5120, Heads: 40, KVHeads: 10, FFN: 17920, Vocab: 100352},
			16384, 14e9, 0, 0.05, "Phi-4 technical report: a 14-billion parameter model"},
		{"llama-3.1-70b-instruct.json", "llama",
			sizing.Model{Params: 70553706496, Layers: 80, Hidden: 8192, Heads: 64, KVHeads: 8, FFN: 28672, Vocab: 128256},
			131072, 70e9, 0, 0.0143, "Meta's naming: 70B"},
		{"mistral-7b-instruct-v0.3.json", "mistral",
			sizing.Model{Params: 7248023552, Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8, FFN: 14336, Vocab: 32768},
			// KerasHub's Mistral 7B v0.1 count, 7,241,732,096, plus v0.3's
			// 768 extra vocabulary rows in the embedding and the output layer.
			32768, 7241732096 + 2*768*4096, 0, 0, "KerasHub mistral_7b_en + the v0.3 vocabulary"},
		{"gemma-2-27b-it.json", "gemma2",
			sizing.Model{Params: 27227128320, Layers: 46, Hidden: 4608, Heads: 32, KVHeads: 16, HeadDim: 128, FFN: 36864, Vocab: 256000,
				TiedEmbeddings: true, SlidingWindow: 4096, LocalLayers: 23},
			// Table 2 counts 256,128 embedding rows (its Table 1 vocabulary);
			// the file has 256,000: 128·4608 = 589,824 fewer (0.0022%). The
			// non-embedding count is equal; the tolerance is that row gap.
			8192, 1180237824 + 26047480320, 0, 0.000022, "Gemma 2 report (arXiv:2408.00118), Table 2: 1,180,237,824 embedding + 26,047,480,320 non-embedding parameters"},
		{"gemma-2-9b-it.json", "gemma2",
			sizing.Model{Params: 9241705984, Layers: 42, Hidden: 3584, Heads: 16, KVHeads: 8, HeadDim: 256, FFN: 14336, Vocab: 256000,
				TiedEmbeddings: true, SlidingWindow: 4096, LocalLayers: 21},
			// As for 27B: 128·3584 = 458,752 fewer embedding rows (0.005%).
			8192, 917962752 + 8324201984, 0, 0.00005, "Gemma 2 report (arXiv:2408.00118), Table 2: 917,962,752 embedding + 8,324,201,984 non-embedding parameters"},
		{"gemma-3-27b-it.json", "gemma3_text",
			// vocab_size and max_position_embeddings absent: Gemma3TextConfig's
			// defaults (262,208 and 131,072); 62 − 62/6 = 52 local layers.
			sizing.Model{Params: 27009346304, Layers: 62, Hidden: 5376, Heads: 32, KVHeads: 16, HeadDim: 128, FFN: 21504, Vocab: 262208,
				TiedEmbeddings: true, SlidingWindow: 1024, LocalLayers: 52},
			// Published to one decimal in billions: one unit, 0.1/27.0.
			131072, 1.4e9 + 25.6e9, 0, 0.0037, "Gemma 3 technical report (arXiv:2503.19786) as summarised by oss.report: 25.6B non-embedding + 1.4B embedding, text model only"},
		{"qwen2.5-72b.json", "qwen2",
			sizing.Model{Params: 72706203648, Layers: 80, Hidden: 8192, Heads: 64, KVHeads: 8, FFN: 29568, Vocab: 152064},
			131072, 72.7e9, 0, 0.0014, "Qwen2.5-72B model card (paddlenlp_model_readme's copy): Number of Parameters 72.7B"},
		{"qwen3-235b-a22b.json", "qwen3_moe",
			sizing.Model{Params: 235093634560, ActiveParams: 22190763520, Layers: 94, Hidden: 4096, Heads: 64, KVHeads: 4, HeadDim: 128,
				FFN: 1536, Vocab: 151936, Experts: 128, ExpertsPerToken: 8},
			40960, 235e9, 22e9, 0.0455, "Qwen3's naming: 235B total, A22B active (QwenLM/Qwen3 docs, concepts.md); 1/22 for the two-digit active count"},
		{"llama-3.3-70b-instruct.json", "llama",
			sizing.Model{Params: 70553706496, Layers: 80, Hidden: 8192, Heads: 64, KVHeads: 8, FFN: 28672, Vocab: 128256},
			131072, 70e9, 0, 0.0143, "Meta's naming: 70B"},
		{"mistral-nemo-base-2407.json", "mistral",
			sizing.Model{Params: 12247782400, Layers: 40, Hidden: 5120, Heads: 32, KVHeads: 8, HeadDim: 128, FFN: 14336, Vocab: 131072},
			// head_dim 128 is given: 32·128 = 4096, narrower than hidden_size 5120.
			128000, 12e9, 0, 0.0834, "NVIDIA's name for it, Mistral-NeMo-12B (the model card links nvidia/Mistral-NeMo-12B-Instruct): 12B"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			c := parseFile(t, tt.file)
			if c.ModelType != tt.typ || c.Generic {
				t.Errorf("type %q generic %v, want %q", c.ModelType, c.Generic, tt.typ)
			}
			if !reflect.DeepEqual(c.Model, tt.model) {
				t.Errorf("model\n%+v\nwant\n%+v", c.Model, tt.model)
			}
			if c.MaxContext != tt.ctx {
				t.Errorf("context %d, want %d", c.MaxContext, tt.ctx)
			}
			if rel := math.Abs(float64(c.Model.Params)/tt.pubTotal - 1); rel > tt.tol {
				t.Errorf("params %d vs published %g (%s): %.3f%% off, tolerance %.3f%%", c.Model.Params, tt.pubTotal, tt.source, rel*100, tt.tol*100)
			}
			if tt.pubActive > 0 {
				if rel := math.Abs(float64(c.Model.ActiveParams)/tt.pubActive - 1); rel > tt.tol {
					t.Errorf("active %d vs published %g (%s): %.2f%% off", c.Model.ActiveParams, tt.pubActive, tt.source, rel*100)
				}
			}
			if err := c.Model.Validate(); err != nil {
				t.Errorf("the engine rejects the model: %v", err)
			}
		})
	}
	if c := parseFile(t, "deepseek-v3.json"); c.MTPLayers != 1 {
		t.Errorf("DeepSeek-V3 MTP layers %d, want 1", c.MTPLayers)
	}
}

// Inputs shaped after the transformers configuration classes for the types
// without a real file under testdata (Mixtral, Gemma 3 with text_config,
// Qwen2 with use_sliding_window): they test the reading rules, not a
// published model.
func TestTypeRules(t *testing.T) {
	mixtral := `{"model_type": "mixtral", "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
		"num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 32000, "num_local_experts": 8,
		"num_experts_per_tok": 2, "sliding_window": null, "tie_word_embeddings": false}`
	c, err := Parse([]byte(mixtral))
	if err != nil {
		t.Fatal(Positioned(err))
	}
	// The Mixtral 8x7B preset's published counts (KerasHub 46,702,792,704;
	// 12,879,925,248 active from the same config).
	if c.Model.Params != 46702792704 || c.Model.ActiveParams != 12879925248 || c.Model.Experts != 8 || c.Model.ExpertsPerToken != 2 {
		t.Errorf("mixtral %+v", c.Model)
	}

	gemma3 := `{"architectures": ["Gemma3ForConditionalGeneration"], "model_type": "gemma3",
		"text_config": {"model_type": "gemma3_text", "hidden_size": 5376, "intermediate_size": 21504, "num_hidden_layers": 62,
		"num_attention_heads": 32, "num_key_value_heads": 16, "head_dim": 128, "sliding_window": 1024, "vocab_size": 262208},
		"vision_config": {"hidden_size": 1152}}`
	c, err = Parse([]byte(gemma3))
	if err != nil {
		t.Fatal(Positioned(err))
	}
	// sliding_window_pattern 6 (Gemma3TextConfig's default): every sixth
	// layer is global, 62 − 10 = 52 local; embeddings tied by default.
	if c.ModelType != "gemma3_text" || c.Model.SlidingWindow != 1024 || c.Model.LocalLayers != 52 || !c.Model.TiedEmbeddings || c.Model.HeadDim != 128 {
		t.Errorf("gemma3 %+v", c.Model)
	}
	withTypes := strings.Replace(gemma3, `"vocab_size": 262208`, `"vocab_size": 262208, "layer_types": ["sliding_attention", "full_attention"]`, 1)
	if c, err := Parse([]byte(withTypes)); err != nil || c.Model.LocalLayers != 1 {
		t.Errorf("layer_types: %+v %v", c.Model, err)
	}

	qwen := `{"model_type": "qwen2", "hidden_size": 1024, "intermediate_size": 4096, "num_hidden_layers": 24,
		"num_attention_heads": 16, "num_key_value_heads": 16, "vocab_size": 1000, "use_sliding_window": true,
		"sliding_window": 4096, "max_window_layers": 20}`
	if c, err := Parse([]byte(qwen)); err != nil || c.Model.SlidingWindow != 4096 || c.Model.LocalLayers != 4 {
		t.Errorf("qwen2 sliding window: %+v %v", c.Model, err)
	}
	// Qwen3MoeDecoderLayer: layer i is sparse when (i+1) % decoder_sparse_step
	// == 0 and i is not in mlp_only_layers. 8 layers, step 2: layers 1, 3, 5
	// and 7 are sparse; mlp_only_layers [3, 3, 4, 99] removes 3 once (4 is
	// dense already, 99 is out of range): 3 sparse, 5 dense.
	moe := `{"model_type": "qwen3_moe", "hidden_size": 256, "intermediate_size": 1024, "moe_intermediate_size": 128,
		"num_hidden_layers": 8, "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 1000,
		"num_experts": 16, "num_experts_per_tok": 2, "decoder_sparse_step": 2, "mlp_only_layers": [3, 3, 4, 99]}`
	if c, err := Parse([]byte(moe)); err != nil || c.Model.DenseLayers != 5 || c.Model.DenseFFN != 1024 || c.Model.FFN != 128 {
		t.Errorf("qwen3_moe sparse step: %+v %v", c.Model, err)
	}
	huge := strings.Replace(moe, `"num_hidden_layers": 8`, `"num_hidden_layers": 16000000`, 1)
	if c, err := Parse([]byte(huge)); err == nil && c.Model.DenseLayers != 16000000-8000000+1 {
		t.Errorf("qwen3_moe huge layer count: %+v", c.Model)
	}
	// Unknown type with every Llama key: read generically.
	generic := `{"model_type": "granite", "hidden_size": 2048, "intermediate_size": 8192, "num_hidden_layers": 40,
		"num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 49155, "tie_word_embeddings": true}`
	if c, err := Parse([]byte(generic)); err != nil || !c.Generic || c.Model.Layers != 40 {
		t.Errorf("generic: %+v %v", c, err)
	}
}

// TestBadInput checks that every kind of bad file gets one positioned
// error naming the key or the place, in English and as a message key.
func TestBadInput(t *testing.T) {
	good := `{"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008, "num_hidden_layers": 32,
"num_attention_heads": 32, "num_key_value_heads": 32, "vocab_size": 32000}`
	tests := []struct {
		name, src, key, text string
		line, col            int
	}{
		{"empty", ``, "hfconfig.err.eof", "the file ends in the middle of the JSON", 1, 1},
		{"not json", `model_type: llama`, "hfconfig.err.char", `unexpected character "m"`, 1, 1},
		{"trailing comma", "{\"a\": 1,}", "hfconfig.err.char", `unexpected character "}"`, 1, 9},
		{"cut off", "{\"hidden_size\": 40", "hfconfig.err.eof", "the file ends in the middle of the JSON", 1, 19},
		{"unclosed string", "{\n  \"model_type\": \"llama", "hfconfig.err.unterminated", "a string is not closed", 2, 17},
		{"text after", good + ` {}`, "hfconfig.err.trailing", "there is text after the end of the JSON", 2, 76},
		{"array", `[1, 2]`, "hfconfig.err.not_object", "a config.json must be a JSON object", 1, 1},
		{"missing key", strings.Replace(good, `"vocab_size": 32000`, `"vocabulary": 32000`, 1), "hfconfig.err.missing", "vocab_size is missing", 1, 1},
		{"null required", strings.Replace(good, `"vocab_size": 32000`, `"vocab_size": null`, 1), "hfconfig.err.missing", "vocab_size is missing", 1, 1},
		{"string number", strings.Replace(good, `"hidden_size": 4096`, `"hidden_size": "4096"`, 1), "hfconfig.err.type", "hidden_size must be a whole number", 1, 40},
		{"fraction", strings.Replace(good, `"hidden_size": 4096`, `"hidden_size": 4096.5`, 1), "hfconfig.err.type", "hidden_size must be a whole number", 1, 40},
		{"NaN", strings.Replace(good, `"hidden_size": 4096`, `"hidden_size": NaN`, 1), "hfconfig.err.type", "hidden_size must be a whole number", 1, 40},
		{"negative", strings.Replace(good, `"hidden_size": 4096`, `"hidden_size": -1`, 1), "hfconfig.err.range", "hidden_size must be between 1 and 16777216 (got -1)", 1, 40},
		{"huge", strings.Replace(good, `"hidden_size": 4096`, `"hidden_size": 1e300`, 1), "hfconfig.err.range", "hidden_size must be between 1 and 16777216 (got 1e300)", 1, 40},
		{"kv heads do not divide", strings.Replace(good, `"num_key_value_heads": 32`, `"num_key_value_heads": 5`, 1), "hfconfig.err.kv_heads", "num_key_value_heads 5 must divide num_attention_heads 32", 2, 51},
		{"heads do not divide hidden", strings.Replace(good, `"num_attention_heads": 32, "num_key_value_heads": 32`, `"num_attention_heads": 30, "num_key_value_heads": 30`, 1), "hfconfig.err.heads_hidden", "num_attention_heads 30 must divide hidden_size 4096, or the file must give head_dim", 2, 24},
		{"bool", strings.Replace(good, `"vocab_size": 32000`, `"vocab_size": 32000, "tie_word_embeddings": "no"`, 1), "hfconfig.err.bool", "tie_word_embeddings must be true or false", 2, 99},
		{"unknown type, keys missing", `{"model_type": "mamba", "hidden_size": 768, "vocab_size": 50280}`, "hfconfig.err.unknown_type",
			`model_type "mamba" is not one this reader knows (llama, mistral, mixtral, qwen2, qwen3, qwen3_moe, gemma2, gemma3, deepseek_v3, phi3); read as a Llama-style model it lacks num_hidden_layers, num_attention_heads, intermediate_size`, 1, 1},
		{"no model_type", `{"hidden_size": 768}`, "hfconfig.err.unknown_type",
			`model_type "(none)" is not one this reader knows (llama, mistral, mixtral, qwen2, qwen3, qwen3_moe, gemma2, gemma3, deepseek_v3, phi3); read as a Llama-style model it lacks num_hidden_layers, num_attention_heads, intermediate_size, vocab_size`, 1, 1},
		{"unknown MoE type", strings.Replace(good, `"llama"`, `"qwen2_moe"`, 1)[:len(good)-1] + `, "num_experts": 60}`, "hfconfig.err.unknown_arch",
			`model_type "qwen2_moe" is not one this reader knows (llama, mistral, mixtral, qwen2, qwen3, qwen3_moe, gemma2, gemma3, deepseek_v3, phi3), and its num_experts key says it is not a Llama-style model`, 1, 1},
		{"deepseek without MLA keys", `{"model_type": "deepseek_v3", "hidden_size": 7168, "intermediate_size": 18432, "num_hidden_layers": 61,
"num_attention_heads": 128, "vocab_size": 129280}`, "hfconfig.err.missing", "kv_lora_rank is missing", 1, 1},
		{"experts per token", `{"model_type": "mixtral", "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
"num_attention_heads": 4, "vocab_size": 100, "num_local_experts": 2, "num_experts_per_tok": 4}`, "hfconfig.err.experts", "num_experts_per_tok 4 must not exceed the 2 experts", 2, 93},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.src))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T), want *Error", err, err)
			}
			if e.Key != tt.key || e.Error() != tt.text || e.Line != tt.line || e.Col != tt.col {
				t.Errorf("got %s %d:%d %q\nwant %s %d:%d %q", e.Key, e.Line, e.Col, e.Error(), tt.key, tt.line, tt.col, tt.text)
			}
		})
	}
	// A multi-megabyte file is refused before it is read.
	if _, err := Parse(make([]byte, MaxSize+1)); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("huge file: %v", err)
	}
	// Deep nesting stops at maxDepth instead of exhausting the stack.
	deep := strings.Repeat("[", 100000)
	if _, err := Parse([]byte(deep)); err == nil || err.(*Error).Key != "hfconfig.err.depth" {
		t.Errorf("deep nesting: %v", err)
	}
	// Positioned prefixes the position in English.
	_, err := Parse([]byte("{\n  \"x\": tru"))
	if got := Positioned(err); got != `line 2, column 8: unexpected character "t"` {
		t.Errorf("Positioned = %q", got)
	}
}

// FuzzParse checks that Parse never panics, that every error is an *Error
// with a position inside the input (or a sizing validation error), and
// that every accepted config gives a model the engine accepts.
//
//	go test -fuzz=FuzzParse ./generator/internal/hfconfig
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"model_type": "gemma3", "text_config": {"hidden_size": 8, "intermediate_size": 8, "num_hidden_layers": 7, "num_attention_heads": 2, "vocab_size": 9}}`))
	f.Add([]byte(`{"a": [1, -0.5e+3, "\u00e9\n", true, null, {}], "b": {"c": []}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data)
		if err != nil {
			var e *Error
			if errors.As(err, &e) {
				if e.Line < 1 || e.Col < 1 || e.Line > len(data)+1 || e.Error() == "" {
					t.Fatalf("bad error position %d:%d for %q", e.Line, e.Col, e.Error())
				}
				return
			}
			if _, _, ok := sizing.Message(err); !ok {
				t.Fatalf("error %v is neither an *Error nor an engine message", err)
			}
			return
		}
		if err := c.Model.Validate(); err != nil {
			t.Fatalf("accepted a model the engine rejects: %v", err)
		}
		if c.Model.Params < 1 || c.Model.ActiveParams < 0 || c.Model.ActiveParams > c.Model.Params {
			t.Fatalf("counts %d / %d", c.Model.Params, c.Model.ActiveParams)
		}
	})
}
