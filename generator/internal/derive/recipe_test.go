package derive

import (
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

// TestRecipeFits: with the workloads' recipes (sizing.RecipeFor), the
// catalog's presets need the GPU counts practice shows: a 70B QLoRA on one
// 80 GB GPU (the QLoRA paper fine-tunes 65B on one 48 GB GPU), Qwen2.5 72B
// LoRA within one 8-GPU node, Llama 3.1 405B LoRA on 8-16 H100 80GB (its
// bf16 weights alone are 810 GB, more than 8 × 80 GB hold; fine-tuning
// guides run it on two 8×H100 nodes). Each fit must come from the recipe,
// not a hand-set input: the calculator, the size command and the pages'
// tables start from the same one.
func TestRecipeFits(t *testing.T) {
	c := testcat.Repo(t)
	for _, tc := range []struct {
		model, gpu string
		w          sizing.Workload
		min, max   int
	}{
		{"llama-3-1-70b", "a100-sxm4-80gb", sizing.QLoRA, 1, 1},
		{"llama-3-1-70b", "h100-sxm5-80gb", sizing.QLoRA, 1, 1},
		{"llama-3-70b", "h800-sxm5-80gb", sizing.QLoRA, 1, 1},
		{"qwen2-5-72b", "h800-sxm5-80gb", sizing.LoRA, 2, 8},
		{"qwen2-5-72b", "a100-sxm4-80gb", sizing.QLoRA, 1, 1},
		{"llama-3-1-405b", "h100-sxm5-80gb", sizing.LoRA, 8, 16},
		{"llama-3-1-8b", "rtx-4090", sizing.QLoRA, 1, 1},
		{"llama-3-1-70b", "h100-sxm5-80gb", sizing.FullTraining, 8, 32},
	} {
		m, g := c.Model(tc.model), c.GPU(tc.gpu)
		if m == nil || g == nil {
			t.Fatalf("%s or %s is not in the catalog", tc.model, tc.gpu)
		}
		in := sizing.WorkloadInput(m.Model, tc.w)
		if in.Checkpointing != sizing.FullCheckpointing {
			t.Errorf("%s recipe: checkpointing %s, want full", tc.w, in.Checkpointing)
		}
		f, ok := sizing.MinFit(in, SizingGPU(g))
		if !ok || f.N < tc.min || f.N > tc.max {
			t.Errorf("%s %s on %s: %d GPUs (fits %v), want %d-%d", tc.model, tc.w, tc.gpu, f.N, ok, tc.min, tc.max)
			continue
		}
		t.Logf("%s %s on %s: %d GPUs (TP %d), %.1f GiB per GPU", tc.model, tc.w, tc.gpu, f.N, f.TP, float64(f.Result.TotalPerGPU)/(1<<30))
	}
	// The QLoRA recipe is the reference script's: NF4 base, paged 32-bit
	// AdamW, bf16 adapters without a master copy.
	q := sizing.RecipeFor(sizing.QLoRA)
	if q.DType != sizing.INT4 || q.Optimizer != sizing.PagedAdamW || !q.NoMaster {
		t.Errorf("QLoRA recipe %+v", q)
	}
	// The scenario table the pages show is the recipe.
	for _, sc := range Scenarios() {
		in := sc.Input(c.Model("llama-3-1-70b").Model)
		if in.Workload != sizing.Inference && in.Checkpointing != sizing.FullCheckpointing {
			t.Errorf("scenario %s: checkpointing %s", sc.ID, in.Checkpointing)
		}
	}
}
