package sizing

import (
	"math"
	"strings"
	"testing"
)

// alignInput is Qwen3-8B training at 2,048 tokens, batch 4, on n GPUs with
// ZeRO-3, full checkpointing and bf16 AdamW: Recipe's full fine-tuning.
func alignInput(w Workload, method Method, n int) Input {
	in := WorkloadInput(qwen3_8b, w)
	in.SeqLen, in.Batch, in.GPUs, in.TP = 2048, 4, n, 1
	in.Method = method
	in.Tokens = 1e8
	return in
}

// TestMethodMemory checks what each alignment method adds beside the
// policy, part by part, against the SFT estimate of the same input.
func TestMethodMemory(t *testing.T) {
	m := qwen3_8b
	copy16 := float64(m.Params) * 2
	kv := float64(KVBytesPerToken(m, BF16))
	for _, c := range []struct {
		name     string
		w        Workload
		method   Method
		gpus     int
		ref      float64 // expected Reference bytes
		critic   bool    // Critic = the policy's model states
		rollout  float64 // expected Rollout bytes
		actTimes float64 // activations over SFT's
	}{
		{"dpo full: a frozen 16-bit copy, sharded by ZeRO-3", FullTraining, DPO, 8, copy16 / 8, false, 0, 2},
		{"dpo lora: the reference is the base without adapters", LoRA, DPO, 1, 0, false, 0, 2},
		{"grpo full (beta 0): no reference, a colocated vLLM", FullTraining, GRPO, 8, 0, false, copy16 + 4*2048*kv, 1},
		{"grpo-kl full: the reference too", FullTraining, GRPOKL, 8, copy16 / 8, false, copy16 + 4*2048*kv, 1},
		{"grpo-kl qlora: reference is the base", QLoRA, GRPOKL, 1, 0, false, copy16 + 4*2048*kv, 1},
		{"ppo full: reference and reward model, a critic", FullTraining, PPO, 8, 2 * copy16 / 8, true, copy16 + 4*2048*kv, 1},
		{"ppo lora: the reward model only", LoRA, PPO, 1, copy16, true, copy16 + 4*2048*kv, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			sft, err := Estimate(alignInput(c.w, SFT, c.gpus), nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Estimate(alignInput(c.w, c.method, c.gpus), nil)
			if err != nil {
				t.Fatal(err)
			}
			b, s := got.Breakdown, sft.Breakdown
			near := func(what string, got int64, want float64) {
				t.Helper()
				if math.Abs(float64(got)-want) > 1 {
					t.Errorf("%s = %d, want %.0f", what, got, want)
				}
			}
			near("reference", b.Reference, c.ref)
			near("rollout", b.Rollout, c.rollout)
			wantCritic := 0.0
			if c.critic {
				wantCritic = float64(s.Weights + s.Adapters + s.Gradients + s.Optimizer)
			}
			near("critic", b.Critic, wantCritic)
			near("activations", b.Activations, c.actTimes*float64(s.Activations))
			if b.Weights != s.Weights || b.Optimizer != s.Optimizer || b.Gradients != s.Gradients {
				t.Errorf("the policy's states changed: %+v vs SFT %+v", b, s)
			}
			if got.TotalPerGPU != b.Total()-got.PagedOutBytes {
				t.Errorf("total %d is not the breakdown's %d", got.TotalPerGPU, b.Total())
			}
			if s.Reference+s.Critic+s.Rollout != 0 {
				t.Errorf("SFT has method parts: %+v", s)
			}
		})
	}
}

// TestMethodFLOPs checks the compute per trained token: the policy's plus
// each frozen model's forward pass and each critic's training.
func TestMethodFLOPs(t *testing.T) {
	sft, _ := Estimate(alignInput(FullTraining, SFT, 8), nil)
	in := alignInput(FullTraining, SFT, 8)
	fwd := (2*in.Model.matmulParams() + attentionFLOPs(in.Model, 2048)/2048) * in.Tokens
	for _, c := range []struct {
		method Method
		want   float64
	}{
		{DPO, sft.TrainFLOPs + fwd},
		{GRPO, sft.TrainFLOPs},
		{GRPOKL, sft.TrainFLOPs + fwd},
		{PPO, 2*sft.TrainFLOPs + 4*fwd},
	} {
		r, err := Estimate(alignInput(FullTraining, c.method, 8), nil)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.TrainFLOPs/c.want-1) > 1e-12 {
			t.Errorf("%s: train FLOPs %.4g, want %.4g", c.method, r.TrainFLOPs, c.want)
		}
	}
}

// TestRolloutTime checks that GRPO's time is its training time plus the
// generation of its completions, and unknown without their length.
func TestRolloutTime(t *testing.T) {
	g := h100
	in := alignInput(FullTraining, GRPO, 8)
	sft := in
	sft.Method = SFT
	base, _ := Estimate(sft, &g)
	if r, _ := Estimate(in, &g); r.TrainSeconds != 0 || r.RolloutSeconds != 0 {
		t.Errorf("without an output length: train %g s, rollout %g s, want both unknown (0)", r.TrainSeconds, r.RolloutSeconds)
	}
	in.OutputLen = 1024
	r, err := Estimate(in, &g)
	if err != nil {
		t.Fatal(err)
	}
	if !(r.RolloutSeconds > 0) || math.Abs(r.TrainSeconds-(base.TrainSeconds+r.RolloutSeconds)) > 1e-6*r.TrainSeconds {
		t.Errorf("train %g s, want SFT's %g s + rollout %g s", r.TrainSeconds, base.TrainSeconds, r.RolloutSeconds)
	}
	// Half the completion tokens: less generation time.
	in.OutputLen = 512
	if r2, _ := Estimate(in, &g); !(r2.RolloutSeconds < r.RolloutSeconds) {
		t.Errorf("rollout %g s for 512-token completions, not below %g s for 1024", r2.RolloutSeconds, r.RolloutSeconds)
	}
}

func TestMethodValidate(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*Input)
		want string
	}{
		{"unknown", func(in *Input) { in.Workload = LoRA; in.Method = "rlhf" }, `unknown method "rlhf"`},
		{"inference ignores it, as it does ZeRO", func(in *Input) { in.Method = DPO }, ""},
		{"sft is the zero value", func(in *Input) { in.Method = "" }, ""},
		{"sft by name", func(in *Input) { in.Method = SFT }, ""},
	} {
		in := DefaultInput(qwen3_8b)
		c.edit(&in)
		err := in.Validate()
		if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestMethodPublishedFits checks the methods against published runs that
// state their full setup and that they ran. Only "it fits" is published
// for these methods (no measured peak), so each case checks that the
// estimate fits where the run did.
func TestMethodPublishedFits(t *testing.T) {
	for _, c := range []struct {
		name string
		in   func() Input
		gpu  GPU
	}{
		// huggingface/alignment-handbook @925acdf, recipes/zephyr-7b-beta:
		// full DPO of Zephyr 7B (Mistral 7B) "You will require 8 GPUs (80GB
		// of VRAM)", DeepSpeed ZeRO-3 (accelerate zero3.yaml), bf16,
		// per_device_train_batch_size 8, max_length 1024, gradient
		// checkpointing, adamw_torch.
		{"alignment-handbook zephyr-7b full DPO, 8 x A100 80GB, ZeRO-3", func() Input {
			in := WorkloadInput(mistral_7b, FullTraining)
			in.Method, in.GPUs, in.TP, in.ZeRO, in.SeqLen, in.Batch = DPO, 8, 1, 3, 1024, 8
			return in
		}, a100sxm80},
	} {
		r, err := Estimate(c.in(), &c.gpu)
		if err != nil {
			t.Fatal(err)
		}
		if !Fits(r, c.gpu) {
			t.Errorf("%s: %.1f GiB per GPU, over the %.1f GiB usable; the published run fits", c.name,
				float64(r.TotalPerGPU)/(1<<30), float64(UsableBytes(c.gpu))/(1<<30))
		}
	}
}

// TestJobCostRollout: a generating method's job cost adds the fit's
// generation time on the instances' GPUs, and is unknown (0) without it.
func TestJobCostRollout(t *testing.T) {
	g := h100
	in := alignInput(FullTraining, GRPO, 8)
	in.OutputLen = 1024
	r, err := Estimate(in, &g)
	if err != nil {
		t.Fatal(err)
	}
	fit := &Fit{N: 8, TP: 1, PP: 1, Result: r}
	offers := []Offer{{GPU: 0, GPUs: 8, Price: 24}, {GPU: 0, GPUs: 1, Price: 3}}
	job := Job{Chosen: 0, DType: BF16, TrainFLOPs: r.TrainFLOPs, Pipeline: 1, Rollout: true, GPUs: []GPU{g}, Fits: []*Fit{fit}}
	p := job.Plan(offers)
	if len(p.Chosen) != 2 {
		t.Fatalf("chosen rows %d, want 2", len(p.Chosen))
	}
	want := r.TrainSeconds / 3600 * 24 // training and generation on the 8 GPUs
	for _, c := range p.Chosen {
		if math.Abs(c.Job/want-1) > 1e-9 {
			t.Errorf("offer %d: job %.4f, want %.4f (%.2f h at 24/h)", c.Offer, c.Job, want, r.TrainSeconds/3600)
		}
	}
	fit.Result.RolloutSeconds = 0
	for _, c := range job.Plan(offers).Chosen {
		if c.Job != 0 {
			t.Errorf("offer %d: job %.4f without a rollout time, want 0 (unknown)", c.Offer, c.Job)
		}
	}
}
