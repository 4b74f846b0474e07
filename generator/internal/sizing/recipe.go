package sizing

// Recipe is what a practitioner sets for a workload before anything else:
// the settings the calculator, the size command and the pages' tables
// start from, so that they give the same answer.
//
//   - Inference: bf16 weights, nothing of training's.
//   - Full fine-tuning: bf16 with an fp32 master copy and AdamW, ZeRO-3
//     (the states shard over data-parallel GPUs when there are several)
//     and full activation checkpointing [ZeRO; Korthikanti].
//   - LoRA: the same over a frozen bf16 base (ZeRO-3 shards the base too),
//     with Hugging Face Transformers' fp32 loss (FP32Loss): LoRA runs on
//     PEFT and the Transformers models.
//   - QLoRA: the QLoRA recipe [QLoRA; qlora.py]: an NF4 double-quantized
//     base, bf16 adapters without a master copy (qlora.py casts the LoRA
//     layers to bf16 with --bf16), paged AdamW with 32-bit states
//     (--optim paged_adamw_32bit, qlora.py's default), gradient
//     checkpointing on (--gradient_checkpointing, default True) and the
//     Transformers models' fp32 loss; ZeRO-3 when the run spans several
//     GPUs.
//
// Full training keeps the fused loss (Megatron's, Korthikanti's count).
//
// Activation checkpointing is the standard setting for fine-tuning (the
// Hugging Face Trainer's gradient_checkpointing, Megatron's
// --recompute-activations): without it a 70B model's activations alone
// exceed an 80 GB GPU at a 4k sequence.
type Recipe struct {
	DType         DType
	Checkpointing Checkpointing
	ZeRO          int
	Optimizer     Optimizer
	NoMaster      bool
	Loss          Loss
}

// RecipeFor returns workload w's recipe (an unknown workload gets
// inference's).
func RecipeFor(w Workload) Recipe {
	switch w {
	case FullTraining:
		return Recipe{DType: BF16, Checkpointing: FullCheckpointing, ZeRO: 3, Optimizer: AdamW, Loss: FusedLoss}
	case LoRA:
		return Recipe{DType: BF16, Checkpointing: FullCheckpointing, ZeRO: 3, Optimizer: AdamW, Loss: FP32Loss}
	case QLoRA:
		return Recipe{DType: INT4, Checkpointing: FullCheckpointing, ZeRO: 3, Optimizer: PagedAdamW, NoMaster: true, Loss: FP32Loss}
	}
	return Recipe{DType: BF16, Checkpointing: NoCheckpointing, ZeRO: 0, Optimizer: AdamW, Loss: FusedLoss}
}

// Apply returns in with the recipe's settings.
func (r Recipe) Apply(in Input) Input {
	in.DType, in.Checkpointing, in.ZeRO, in.Optimizer, in.NoMaster, in.Loss = r.DType, r.Checkpointing, r.ZeRO, r.Optimizer, r.NoMaster, r.Loss
	return in
}

// WorkloadInput is DefaultInput(m) for workload w, with w's recipe.
func WorkloadInput(m Model, w Workload) Input {
	in := DefaultInput(m)
	in.Workload = w
	return RecipeFor(w).Apply(in)
}

// Workloads lists the workloads, inference first.
func Workloads() []Workload { return []Workload{Inference, LoRA, QLoRA, FullTraining} }
