package sizing

import (
	"math"
	"strings"
	"testing"
)

// qwen25VL7B is Qwen2.5-VL 7B: Qwen2.5 7B's language model, a 676.55M
// vision encoder and merger, 256 tokens (1,024 encoder patches) per
// 448 x 448 image (data/models/qwen2-5-vl-7b.toml).
var qwen25VL7B = Model{Params: 7615616512, Layers: 28, Hidden: 3584, Heads: 28, KVHeads: 4, FFN: 18944, Vocab: 152064,
	VisionParams: 676550144, ImageTokens: 256, ImagePatches: 1024}

// TestVision checks what the vision encoder adds: its 16-bit weights
// (over TP; ZeRO-3 shards them), its forward FLOPs per image patch, and
// when trained its gradients, optimizer states and 6 FLOPs per parameter
// and patch.
func TestVision(t *testing.T) {
	text := qwen25VL7B
	text.VisionParams, text.ImageTokens, text.ImagePatches = 0, 0, 0
	v := float64(qwen25VL7B.VisionParams)
	for _, c := range []struct {
		name                   string
		w                      Workload
		tp, gpus, images       int
		train                  bool
		weights, grads, states float64 // added bytes per GPU
		flopsPerPatch          float64
	}{
		{"inference, one GPU", Inference, 1, 1, 4, false, 2 * v, 0, 0, 2},
		{"inference, TP 2", Inference, 2, 2, 4, false, v, 0, 0, 2},
		{"full training, frozen encoder, ZeRO-3 over 4", FullTraining, 1, 4, 2, false, 2 * v / 4, 0, 0, 2},
		{"full training, trained encoder, ZeRO-3 over 4", FullTraining, 1, 4, 2, true, 2 * v / 4, 2 * v / 4, 12 * v / 4, 6}, // AdamW: fp32 master and two moments
		{"lora: the encoder stays frozen", LoRA, 1, 1, 2, true, 2 * v, 0, 0, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := WorkloadInput(qwen25VL7B, c.w)
			in.SeqLen, in.GPUs, in.TP, in.Images, in.TrainVision, in.Tokens = 4096, c.gpus, c.tp, c.images, c.train, 1e9
			base := in
			base.Model, base.Images, base.TrainVision = text, 0, false
			r, err := Estimate(in, nil)
			if err != nil {
				t.Fatal(err)
			}
			b0, _ := Estimate(base, nil)
			near := func(what string, got, want float64) {
				t.Helper()
				if math.Abs(got-want) > 2 {
					t.Errorf("%s adds %.0f bytes, want %.0f", what, got, want)
				}
			}
			near("weights", float64(r.Breakdown.Weights-b0.Breakdown.Weights), c.weights)
			near("gradients", float64(r.Breakdown.Gradients-b0.Breakdown.Gradients), c.grads)
			near("optimizer", float64(r.Breakdown.Optimizer-b0.Breakdown.Optimizer), c.states)
			patches := float64(c.images) * 1024
			if c.w == Inference {
				in.PromptLen, base.PromptLen = 2048, 2048
				r, _ = Estimate(in, nil)
				b0, _ = Estimate(base, nil)
				if got := r.PrefillFLOPs - b0.PrefillFLOPs; math.Abs(got/(c.flopsPerPatch*v*patches)-1) > 1e-9 {
					t.Errorf("prefill adds %.4g FLOPs, want %.4g", got, c.flopsPerPatch*v*patches)
				}
			} else if got, want := r.TrainFLOPs-b0.TrainFLOPs, c.flopsPerPatch*v*patches*1e9/4096; math.Abs(got/want-1) > 1e-9 {
				t.Errorf("training adds %.4g FLOPs, want %.4g", got, want)
			}
		})
	}
}

func TestVisionValidate(t *testing.T) {
	for _, c := range []struct {
		m      Model
		images int
		want   string
	}{
		{qwen25VL7B, 16, ""},                 // 16 × 256 = 4,096 tokens: the whole sequence
		{qwen25VL7B, 17, "17 images of 256"}, // more than the sequence
		{mistral_7b, 1, "1 images of 0 tokens"},
	} {
		in := DefaultInput(c.m)
		in.SeqLen, in.Images = 4096, c.images
		err := in.Validate()
		if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%d images: %v, want %q", c.images, err, c.want)
		}
		if err != nil && Field(err) != "images" {
			t.Errorf("the error names %q, want images", Field(err))
		}
	}
}
