package sizing

// Method is how a training workload learns: from fixed sequences (SFT,
// the zero value) or by preference and reinforcement-learning alignment,
// which keeps other models beside the trained policy. The memory layouts
// follow the frameworks' recipes (Hugging Face TRL at commit f2cd577,
// 2026-07-24; OpenRLHF at 3c3be62, 2026-08-13):
//
//   - DPO: TRL's DPOTrainer. A frozen reference model, a second full
//     model prepared with the same DeepSpeed/FSDP setting as the policy;
//     none with LoRA or QLoRA, where the reference is the policy with its
//     adapters disabled (dpo_trainer.py: "If PEFT is used, the reference
//     model is not needed"). Each example is a chosen and a rejected
//     answer run through the model together (concatenated_forward), so
//     the activations are those of 2·Batch sequences; per token, the
//     reference's forward pass is added to the policy's.
//   - GRPO: TRL's GRPOTrainer with beta 0, its default since v0.19 (no
//     reference model), num_iterations 1 (no extra forward pass for the
//     old policy's log-probabilities), and vLLM for generation
//     (use_vllm=True) in its default colocate mode, awake through
//     training (vllm_enable_sleep_mode False): each GPU also holds the
//     generation engine (Breakdown.Rollout), which generates at once the
//     completions of steps_per_generation (= gradient accumulation)
//     micro-batches of Batch sequences (TRL sizes vLLM's max_num_seqs
//     so).
//   - GRPOKL: the same with a KL penalty (beta > 0; DeepSeek-R1 used
//     0.001), which loads the reference model (none with LoRA).
//   - PPO: OpenRLHF with every model on the same GPUs (--train.colocate_all,
//     the README's recipe for one 8 × A100 node): the actor (the policy), a
//     critic of the same size that trains too, a frozen reward model and a
//     frozen reference (created while --algo.kl.init_coef > 0, default
//     0.01), and the vLLM engine. Making experience runs four forward
//     passes per token (the actor's and the reference's log-probabilities,
//     the critic's values, the reward), then the actor and the critic each
//     train. The reward and critic models are taken as the policy's size
//     (OpenRLHF initialises the critic from the reward model); with LoRA
//     the critic is costed as a second LoRA policy.
//
// With full (parameter) offload the frozen models' weights are offloaded
// as the policy's are. What stays out: vLLM reserves a set fraction of
// the GPU (gpu_memory_utilization: TRL's colocate default 0.3), not what
// it needs; Rollout is what it needs, so that fraction must be at least
// Rollout over the GPU's memory, and what it reserves beyond counts too.
// With sleep mode (TRL's vllm_enable_sleep_mode, verl's free_cache_engine)
// the engine frees its memory while the trainer runs, and the peak is the
// larger phase instead of the sum.
type Method string

// The methods the estimator knows.
const (
	SFT    Method = "sft"
	DPO    Method = "dpo"
	GRPO   Method = "grpo"
	GRPOKL Method = "grpo-kl"
	PPO    Method = "ppo"
)

const methodNames = "sft dpo grpo grpo-kl ppo"

// method is in.Method, with "" read as SFT.
func (in Input) method() Method {
	if in.Method == "" {
		return SFT
	}
	return in.Method
}

// models says what method m runs beside the policy: ref frozen
// reference models (the reference, and PPO's reward model), the extra
// forward passes per trained token, critics trained as the policy is, and
// whether a rollout engine generates the samples. A table in methodNames'
// order, which costs the WebAssembly build less than a switch.
func (m Method) models() (ref, forwards, critics float64, rollout bool) {
	const table = "\x00\x00\x00\x00" + // sft
		"\x01\x01\x00\x00" + // dpo
		"\x00\x00\x00\x01" + // grpo
		"\x01\x01\x00\x01" + // grpo-kl
		"\x02\x04\x01\x01" // ppo
	i := 4 * max(wordIndex(string(m), methodNames), 0) // "": sft
	return float64(table[i]), float64(table[i+1]), float64(table[i+2]), table[i+3] != 0
}

// Generates reports whether m generates its samples during training
// (GRPO and PPO), so that its time includes the rollout.
func (m Method) Generates() bool {
	_, _, _, r := m.models()
	return r
}

// alignmentMemory adds to b, the policy's breakdown of in, what in's
// method keeps beside it: the frozen models (Reference; a LoRA policy's
// reference is its own base, so only PPO's reward model counts), the
// critics (Critic: the policy's weights, adapters, gradients and
// optimizer states again) and the rollout engine (Rollout: an inference
// copy of the weights in 16 bits split over TP, and the KV cache of the
// completions it generates at once, Batch·MicroBatches sequences of SeqLen
// tokens). mp is the model-parallel degree, d3 ZeRO-3's shard count.
func alignmentMemory(in Input, b *Breakdown, mp, d3 float64) {
	ref, _, critics, rollout := in.Method.models()
	m := in.Model
	tb := HalfBytes
	if in.DType == FP32 {
		tb = FP32Bytes
	}
	copyBytes := float64(m.Params) * tb / mp / d3
	if in.Workload != FullTraining && ref > 0 {
		ref-- // the reference is the base with the adapters disabled
	}
	if in.Offload == OffloadFull {
		ref = 0
	}
	b.Reference = toBytes(ref * copyBytes)
	b.Critic = toBytes(critics * float64(b.Weights+b.Adapters+b.Gradients+b.Optimizer))
	if rollout {
		seqs := float64(in.Batch * in.microBatches())
		tp := float64(in.TP)
		b.Rollout = toBytes(float64(m.Params)*HalfBytes/tp + seqs*float64(in.SeqLen)*float64(KVBytesPerToken(m, in.KVDType))/tp)
	}
}

// rolloutSeconds is the expected time the rollout engine takes to
// generate in's samples: Tokens·OutputLen/SeqLen completion tokens, each
// replica (TP GPUs, vLLM) serving Batch·MicroBatches sequences at a time
// with prompts of SeqLen−OutputLen tokens (servedRate: the prompts'
// prefill, then the completions' decode at the mean context). Zero
// without a rollout, an OutputLen or a known rate.
func rolloutSeconds(in Input, g GPU) float64 {
	_, _, _, rollout := in.Method.models()
	out := in.OutputLen
	if !rollout || out <= 0 || out >= in.SeqLen || in.Tokens <= 0 {
		return 0
	}
	r := in
	r.Workload, r.DType, r.BitsPerWeight, r.Engine, r.Flash, r.PP, r.CP, r.GPUs = Inference, BF16, 0, VLLM, true, 1, 1, in.TP
	r.SeqLen, r.PromptLen, r.Batch = in.SeqLen-out/2, in.SeqLen-out, in.Batch*in.microBatches()
	peak := inferencePeak(BF16, g)
	rate := servedRate(r, expectedDecode(r, g, peak), prefillRate(r, prefillFLOPs(r), g, peak)) * float64(in.GPUs/in.TP)
	if !(rate > 0) {
		return 0
	}
	return finite(in.Tokens * float64(out) / float64(in.SeqLen) / rate)
}

// Vision-language models. The vision encoder (Model.VisionParams, with
// its projector) is held in 16 bits beside the language model, split
// over tensor parallelism: serving engines quantize the language model's
// linear layers and keep the encoder's (vLLM's AWQ and GPTQ layers, the
// QLoRA recipes' skipped modules). Each image runs ImagePatches tokens
// through the encoder, 2·VisionParams FLOPs each (its linear layers; its
// own attention is not counted), and becomes ImageTokens of the sequence.
// In training the encoder is frozen unless Input.TrainVision (full
// training only): a frozen encoder runs forward only, without stored
// activations, gradients or optimizer states; a trained one adds them
// (its activations are not counted).

// patches is the encoder tokens of one image.
func (m Model) patches() float64 {
	if m.ImagePatches > 0 {
		return float64(m.ImagePatches)
	}
	return float64(m.ImageTokens)
}

// visionFLOPs is the encoder's compute for one sequence's images: 2·V per
// patch forward, 6·V with the encoder trained.
//
//go:noinline
func visionFLOPs(in Input) float64 {
	per := 2.0
	if in.trainsVision() {
		per = 6
	}
	return per * float64(in.Model.VisionParams) * in.Model.patches() * float64(in.Images)
}

// trainsVision reports whether the vision encoder is trained.
func (in Input) trainsVision() bool {
	return in.TrainVision && in.Workload == FullTraining && in.Model.VisionParams > 0
}

// visionMemory adds the encoder's weights to b (16 bits over tp, ZeRO-3
// sharded by d3 in training) and, when it is trained, its gradients (d2)
// and optimizer states (d1).
func visionMemory(in Input, b *Breakdown, tp, d1, d2, d3 float64) {
	v := float64(in.Model.VisionParams) / tp
	b.Weights += toBytes(v * HalfBytes / d3)
	if in.trainsVision() {
		b.Gradients += toBytes(v * HalfBytes / d2)
		b.Optimizer += toBytes(v * optimizerBytesPerParam(in.Optimizer, !in.NoMaster) / d1)
	}
}
