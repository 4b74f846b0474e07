package hfconfig

import (
	"reflect"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

// TestPresetsMatchConfigs checks that every model preset made from a
// config.json under testdata is exactly what the parser reads from that
// file: the architecture, the parameter counts and the context length.
func TestPresetsMatchConfigs(t *testing.T) {
	cat := testcat.Repo(t)
	presets := map[string]string{
		"deepseek-v3":     "deepseek-v3.json",
		"qwen2-5-7b":      "qwen2.5-7b.json",
		"qwen3-8b":        "qwen3-8b.json",
		"qwen3-32b":       "qwen3-32b.json",
		"qwen3-30b-a3b":   "qwen3-30b-a3b.json",
		"phi-4":           "phi-4.json",
		"llama-3-1-70b":   "llama-3.1-70b-instruct.json",
		"qwen2-5-72b":     "qwen2.5-72b.json",
		"qwen3-235b-a22b": "qwen3-235b-a22b.json",
		"llama-3-3-70b":   "llama-3.3-70b-instruct.json",
		"gemma-2-9b":      "gemma-2-9b-it.json",
		"gemma-2-27b":     "gemma-2-27b-it.json",
		"gemma-3-27b":     "gemma-3-27b-it.json",
		"mistral-nemo":    "mistral-nemo-base-2407.json",
	}
	for id, file := range presets {
		t.Run(id, func(t *testing.T) {
			m := cat.Model(id)
			if m == nil {
				t.Fatalf("no preset %q", id)
			}
			c := parseFile(t, file)
			// The parser reads the language model; a vision-language
			// preset's encoder figures come from its own sources.
			got := m.Model
			got.VisionParams, got.ImageTokens, got.ImagePatches = 0, 0, 0
			if !reflect.DeepEqual(got, c.Model) {
				t.Errorf("preset\n%+v\nconfig\n%+v", got, c.Model)
			}
			if m.MaxContext != c.MaxContext {
				t.Errorf("max_context %d, config %d", m.MaxContext, c.MaxContext)
			}
		})
	}
}
