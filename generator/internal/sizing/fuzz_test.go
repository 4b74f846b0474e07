package sizing

import (
	"math"
	"testing"
)

var (
	fuzzWorkloads = [...]Workload{Inference, FullTraining, LoRA, QLoRA}
	fuzzDTypes    = [...]DType{FP32, BF16, FP16, FP8, INT8, INT4}
	fuzzOffloads  = [...]Offload{NoOffload, OffloadOptimizer, OffloadFull}
	fuzzCkpts     = [...]Checkpointing{NoCheckpointing, SelectiveCheckpointing, FullCheckpointing}
	fuzzOpts      = [...]Optimizer{AdamW, AdamW8bit, SGD, PagedAdamW, PagedAdamW8bit}
	fuzzQuants    = [...]Quant{NF4DQ, NF4, GPTQ, AWQ}
	fuzzMethods   = [...]Method{SFT, DPO, GRPO, PPO, GRPOKL}
)

// pick returns list[i] for i in range, otherwise an unknown value so that
// the fuzzer also exercises the enum checks.
func pick[T ~string](list []T, i uint8) T {
	if int(i) < len(list) {
		return list[i]
	}
	return T("x" + itoa(int(i)))
}

// v2seed holds the fuzz arguments of the engine's second version: MLA,
// sliding windows, MoE structure, context parallelism, quantization
// formats and the training switches.
type v2seed struct {
	kvr, qr, rope, vdim, window, local, shared, dense, denseFFN, cp, group, prompt int
	quant, flags                                                                   uint8
}

var v2seeds = []v2seed{
	{},
	{512, 1536, 64, 128, 0, 0, 1, 3, 18432, 1, 0, 0, 0, 0},
	{0, 0, 0, 0, 4096, 0, 0, 0, 0, 2, 128, 1000, 2, 0x0f},
	{0, 0, 0, 0, 1024, 52, 0, 0, 0, 4, 32, 0, 1, 0x05},
}

// FuzzEstimate checks that for every input Validate accepts, Estimate and
// MinGPUs neither panic nor produce a negative, NaN or infinite figure, and
// that Estimate rejects exactly what Validate rejects.
//
//	go test -fuzz=FuzzEstimate ./generator/internal/sizing
func FuzzEstimate(f *testing.F) {
	type seed struct {
		m                                 Model
		w, d, kv, off, ck, opt            uint8
		seq, batch, gpus, tp, pp, zero, r int
		targets                           uint8
		flash                             bool
		tokens, mfu                       float64
		mem                               int64
		bw, flops                         float64
	}
	seeds := []seed{
		{llama3_8b, 0, 1, 1, 0, 0, 0, 4096, 1, 1, 1, 1, 0, 16, 0x0f, true, 0, 0.4, 80 << 30, 3.35e12, 989e12},
		{llama2_70b, 1, 1, 1, 1, 1, 0, 4096, 4, 64, 8, 1, 3, 16, 0x0f, false, 1e12, 0.5, 80 << 30, 3.35e12, 989e12},
		{mixtral_8x7b, 2, 2, 3, 0, 2, 1, 32768, 8, 16, 4, 2, 2, 64, 0x7f, true, 1e9, 1, 24 << 30, 1e12, 165e12},
		{llama31_405b, 3, 5, 5, 2, 2, 2, 131072, 1, 256, 8, 4, 3, 8, 0x70, false, 2e18, 0.3, 192 << 30, 8e12, 2.3e15},
		{llama2_7b, 0, 5, 5, 0, 0, 0, 10000000, 100000, 16, 16, 1, 0, 1, 0, true, 0, 1, 1, 0, 0},
		{gpt3_175b, 1, 0, 0, 1, 0, 0, 2048, 1, 1024, 8, 16, 1, 0, 0, false, 3e11, 0.45, 40 << 30, 1.5e12, 312e12},
	}
	for i, s := range seeds {
		v := v2seeds[i%len(v2seeds)]
		f.Add(s.m.Params, s.m.ActiveParams, s.m.Layers, s.m.Hidden, s.m.Heads, s.m.KVHeads, s.m.FFN, s.m.Vocab,
			s.m.Experts, s.m.ExpertsPerToken, s.m.HeadDim, s.w, s.d, s.kv, s.off, s.ck, s.opt,
			s.seq, s.batch, s.gpus, s.tp, s.pp, s.zero, s.r, s.targets, s.flash, s.tokens, s.mfu, s.mem, s.bw, s.flops,
			v.kvr, v.qr, v.rope, v.vdim, v.window, v.local, v.shared, v.dense, v.denseFFN, v.cp, v.group, v.prompt, v.quant, v.flags)
	}
	f.Fuzz(func(t *testing.T, params, active int64, layers, hidden, heads, kvHeads, ffn, vocab, experts, ept, headDim int,
		w, d, kv, off, ck, opt uint8, seq, batch, gpus, tp, pp, zero, rank int, targets uint8, flash bool,
		tokens, mfu float64, mem int64, bw, flops float64,
		kvr, qr, rope, vdim, window, local, shared, dense, denseFFN, cpd, group, prompt int, quant, flags uint8) {
		in := Input{
			Model: Model{Params: params, ActiveParams: active, Layers: layers, Hidden: hidden, Heads: heads,
				KVHeads: kvHeads, FFN: ffn, Vocab: vocab, Experts: experts, ExpertsPerToken: ept, HeadDim: headDim,
				TiedEmbeddings: flags&0x10 != 0, KVLoRARank: kvr, QLoRARank: qr, QKRopeHeadDim: rope, VHeadDim: vdim,
				SlidingWindow: window, LocalLayers: local, SharedExperts: shared, DenseLayers: dense, DenseFFN: denseFFN,
				VisionParams: params / 16, ImageTokens: rank % 600, ImagePatches: 4 * (rank % 600)},
			Images:           batch % 4,
			TrainVision:      flags&8 != 0,
			CP:               cpd,
			GroupSize:        group,
			PromptLen:        prompt,
			Quant:            pick(fuzzQuants[:], quant),
			QuantEmbeddings:  flags&1 != 0,
			NoMaster:         flags&2 != 0,
			SequenceParallel: flags&4 != 0,
			Workload:         pick(fuzzWorkloads[:], w),
			Method:           pick(fuzzMethods[:], flags>>6),
			OutputLen:        prompt / 2,
			DType:            pick(fuzzDTypes[:], d),
			KVDType:          pick(fuzzDTypes[:], kv),
			SeqLen:           seq,
			Batch:            batch,
			GPUs:             gpus,
			TP:               tp,
			PP:               pp,
			ZeRO:             zero,
			Offload:          pick(fuzzOffloads[:], off),
			Checkpointing:    pick(fuzzCkpts[:], ck),
			Flash:            flash,
			Optimizer:        pick(fuzzOpts[:], opt),
			LoRARank:         rank,
			Tokens:           tokens,
			MFU:              mfu,
			// The setups added since the signature was fixed draw on
			// arguments already there, so the corpus stays valid.
			OffloadActivations:  rank%3 == 1,
			OptimizerInBackward: rank%5 == 2,
			SpecTokens:          int(kv >> 3),
			SpecAccept:          float64(off>>3) / 32,
		}
		if flags&0x20 != 0 { // a mixed-width format: bits per weight from the MFU's draw
			in.BitsPerWeight = mfu * 16
		}
		for i, name := range loraTargetNames {
			if targets&(1<<i) != 0 {
				in.LoRATargets = append(in.LoRATargets, name)
			}
		}
		if targets&0x80 != 0 && len(in.LoRATargets) > 0 {
			in.LoRATargets = append(in.LoRATargets, in.LoRATargets[0]) // duplicate
		}
		g := GPU{ID: "fuzz", MemoryBytes: mem, BandwidthBytesPerSec: bw, DenseBF16FLOPS: flops, DenseFP8FLOPS: 2 * flops}

		// Every execution also checks a repaired copy of the input, mapped
		// into the valid ranges, so that the fuzzer spends its time on
		// accepted inputs as well as rejected ones.
		rin, rgpu := repair(in, g)
		if err := rin.Validate(); err != nil {
			t.Fatalf("repair produced an invalid input: %v (%+v)", err, rin)
		}
		if err := rgpu.Validate(); err != nil {
			t.Fatalf("repair produced an invalid GPU: %v", err)
		}
		checkValid(t, rin, rgpu)

		verr := in.Validate()
		r, err := Estimate(in, nil)
		if (verr == nil) != (err == nil) {
			t.Fatalf("Validate %v but Estimate %v", verr, err)
		}
		if verr != nil {
			return
		}
		checkResult(t, r)
		_ = FormatBytes(r.TotalPerGPU, true)
		_ = FormatBytes(r.TotalPerGPU, false)
		if g.Validate() != nil {
			if _, err := Estimate(in, &g); err == nil {
				t.Fatalf("invalid GPU %+v accepted", g)
			}
			return
		}
		rg, err := Estimate(in, &g)
		if err != nil {
			t.Fatalf("valid GPU rejected: %v", err)
		}
		checkResult(t, rg)
		if rg.Breakdown != r.Breakdown {
			t.Fatalf("the GPU changed the breakdown: %+v vs %+v", rg.Breakdown, r.Breakdown)
		}
		if u := UsableBytes(g); u < 0 || u > g.MemoryBytes {
			t.Fatalf("UsableBytes = %d for memory %d", u, g.MemoryBytes)
		}
		_ = Fits(rg, g)
		if n, ok := MinGPUs(in, g); ok != (n > 0) || n < 0 || n > MaxSearchGPUs {
			t.Fatalf("MinGPUs = %d, %v", n, ok)
		} else if ok && n&(n-1) != 0 {
			t.Fatalf("MinGPUs = %d is not a power of two", n)
		}
		if math.IsNaN(rg.TrainSeconds) {
			t.Fatal("NaN")
		}
	})
}

// checkValid runs everything on a valid input and GPU.
func checkValid(t *testing.T, in Input, g GPU) {
	t.Helper()
	r, err := Estimate(in, &g)
	if err != nil {
		t.Fatalf("valid input rejected: %v", err)
	}
	checkResult(t, r)
	_ = FormatBytes(r.TotalPerGPU, true)
	_ = Fits(r, g)
	if n, ok := MinGPUs(in, g); ok != (n > 0) || n < 0 || n > MaxSearchGPUs {
		t.Fatalf("MinGPUs = %d, %v", n, ok)
	}
	if a := AutoLayout(in, &g); a.Validate() != nil {
		t.Fatalf("AutoLayout produced an invalid input: %v", a.Validate())
	}
	for _, x := range [...]float64{r.DecodeTokensPerSec, r.TTFTSeconds, r.PrefillFLOPs, r.ThroughputTokensPerSec, r.TokensPerSecPerGPU} {
		if !(x >= 0) || math.IsInf(x, 0) {
			t.Fatalf("speed figure %v in %+v", x, r)
		}
	}
	if r.PagedOutBytes < 0 || r.PagedOutBytes > r.Breakdown.Total() {
		t.Fatalf("paged out %d of %d", r.PagedOutBytes, r.Breakdown.Total())
	}
}

func absInt(x int) int {
	if x < 0 {
		if x == -x {
			return 0
		}
		return -x
	}
	return x
}

func absI64(x int64) int64 {
	if x < 0 {
		if x == -x {
			return 0
		}
		return -x
	}
	return x
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// span maps x into [lo, hi].
func span(x, lo, hi int) int { return lo + absInt(x)%(hi-lo+1) }

// clampF maps f into [lo, hi], NaN to lo.
func clampF(f, lo, hi float64) float64 {
	f = math.Abs(f)
	if !(f >= lo) {
		return lo
	}
	if f > hi {
		return hi
	}
	return f
}

// repair maps an arbitrary input onto a valid one, deterministically.
func repair(in Input, g GPU) (Input, GPU) {
	m := &in.Model
	m.Params = 1 + absI64(m.Params)%int64(MaxParams)
	m.ActiveParams = absI64(m.ActiveParams) % (m.Params + 1)
	m.Layers = span(m.Layers, 1, MaxLayers)
	m.Heads = span(m.Heads, 1, MaxHeads)
	if m.HeadDim%2 == 0 {
		m.HeadDim = span(m.HeadDim, 1, MaxHeadDim)
		m.Hidden = span(m.Hidden, 1, MaxHidden)
	} else {
		m.HeadDim = 0
		m.Hidden = m.Heads * span(m.Hidden, 1, MaxHidden/m.Heads)
	}
	m.KVHeads = gcd(m.Heads, span(m.KVHeads, 1, m.Heads))
	m.FFN = span(m.FFN, 0, MaxFFN)
	m.Vocab = span(m.Vocab, 0, MaxVocab)
	m.Experts = span(m.Experts, 0, 64)
	if m.Experts%4 == 0 {
		m.Experts = span(m.Experts, 0, MaxExperts)
	}
	m.ExpertsPerToken = 0
	if m.Experts > 0 {
		m.ExpertsPerToken = span(in.LoRARank, 1, m.Experts)
	}
	m.KVLoRARank = span(m.KVLoRARank, 0, MaxHidden)
	m.QLoRARank = span(m.QLoRARank, 0, MaxHidden)
	m.VHeadDim = span(m.VHeadDim, 0, MaxHeadDim)
	m.QKRopeHeadDim = 0
	if m.KVLoRARank > 0 {
		if m.HeadDim < 2 {
			m.HeadDim = 2
		}
		m.QKRopeHeadDim = span(m.QKRopeHeadDim, 0, m.HeadDim-1)
	}
	m.SlidingWindow = span(m.SlidingWindow, 0, MaxSeqLen)
	m.LocalLayers = span(m.LocalLayers, 0, m.Layers)
	m.SharedExperts = span(m.SharedExperts, 0, MaxExperts)
	m.DenseLayers = span(m.DenseLayers, 0, m.Layers)
	m.DenseFFN = span(m.DenseFFN, 0, MaxFFN)
	in.GroupSize = span(in.GroupSize, 0, MaxHidden)
	in.PromptLen = span(in.PromptLen, 0, MaxSeqLen)
	if _, ok := ParseQuant(string(in.Quant)); !ok {
		in.Quant = NF4DQ
	}

	in.Workload = fuzzWorkloads[absInt(len(in.Workload))%len(fuzzWorkloads)]
	if i := targetIndexOf(fuzzWorkloads[:], in.Workload); i >= 0 {
		in.Workload = fuzzWorkloads[i]
	}
	if in.Workload == Inference || wordIndex(string(in.Method), methodNames) < 0 {
		in.Method = SFT
	}
	in.OutputLen = span(in.OutputLen, 0, MaxSeqLen)
	m.VisionParams = absI64(m.VisionParams) % int64(MaxParams+1)
	m.ImageTokens = span(m.ImageTokens, 0, MaxSeqLen)
	m.ImagePatches = span(m.ImagePatches, 0, MaxSeqLen)
	if mustDType(in.DType) == "" {
		in.DType = BF16
	}
	if mustDType(in.KVDType) == "" {
		in.KVDType = FP8
	}
	switch in.Workload {
	case QLoRA:
		in.DType = INT4
	case FullTraining:
		if in.DType != FP32 && in.DType != FP16 && in.DType != FP8 {
			in.DType = BF16
		}
	}
	in.SeqLen = span(in.SeqLen, 1, MaxSeqLen)
	in.Batch = span(in.Batch, 1, MaxBatch)

	// TP: a divisor of the heads up to 1024 that either divides the KV
	// heads or is a multiple of them.
	tp := gcd(m.Heads, span(in.TP, 1, 1024))
	if in.TP%2 == 0 {
		tp = gcd(tp, m.KVHeads)
	} else if m.KVHeads <= 1024 {
		tp = m.KVHeads * gcd(m.Heads/m.KVHeads, span(in.TP, 1, 1024/m.KVHeads))
	} else {
		tp = gcd(tp, m.KVHeads)
	}
	in.TP = tp
	in.PP = span(in.PP, 0, min(m.Layers, 64))
	in.CP = span(in.CP, 0, 8)
	mp := in.TP * max(in.PP, 1) * max(in.CP, 1)
	in.GPUs = mp * span(in.GPUs, 1, MaxGPUs/mp)
	in.ZeRO = span(in.ZeRO, 0, 3)
	if in.PP > 1 {
		in.OffloadActivations, in.OptimizerInBackward = false, false
	}
	in.SpecTokens = span(in.SpecTokens, 0, MaxSpecTokens)
	if !(in.SpecAccept >= 0 && in.SpecAccept <= 0.99) {
		in.SpecAccept = 0
	}
	if mustOffload(in.Offload) == "" {
		in.Offload = NoOffload
	}
	if in.Offload == OffloadOptimizer && in.ZeRO == 0 {
		in.ZeRO = 1
	}
	if in.Offload == OffloadFull {
		in.ZeRO = 3
	}
	if in.Checkpointing != NoCheckpointing && in.Checkpointing != SelectiveCheckpointing && in.Checkpointing != FullCheckpointing {
		in.Checkpointing = FullCheckpointing
	}
	if _, ok := ParseOptimizer(string(in.Optimizer)); !ok {
		in.Optimizer = AdamW8bit
	}
	if in.Optimizer == PagedAdamW || in.Optimizer == PagedAdamW8bit {
		in.Offload = NoOffload
	}
	in.LoRARank = span(in.LoRARank, 1, MaxLoRARank)
	seen := map[string]bool{}
	var ts []string
	for _, x := range in.LoRATargets {
		if !seen[x] {
			seen[x] = true
			ts = append(ts, x)
		}
	}
	if len(ts) == 0 {
		ts = []string{"down"}
	}
	in.LoRATargets = ts
	in.Tokens = clampF(in.Tokens, 0, MaxTokens)
	in.BitsPerWeight = clampF(in.BitsPerWeight, 0, MaxBitsPerWeight)
	switch {
	case in.Workload == FullTraining:
		in.BitsPerWeight = 0 // full training needs a compute format
	case in.BitsPerWeight > 0 && in.DType != INT4 && in.DType != INT8:
		in.DType = INT4
	}
	in.MFU = clampF(in.MFU, 0, 1)
	if in.MFU == 0 {
		in.MFU = 1e-9
	}
	g.MemoryBytes = 1 + absI64(g.MemoryBytes)%MaxGPUMemory
	g.BandwidthBytesPerSec = clampF(g.BandwidthBytesPerSec, 0, MaxBandwidth)
	g.DenseBF16FLOPS = clampF(g.DenseBF16FLOPS, 0, MaxDenseFLOPS)
	g.DenseFP8FLOPS = clampF(g.DenseFP8FLOPS, 0, MaxDenseFLOPS)
	if in.Images < 0 || m.ImageTokens == 0 || int64(in.Images)*int64(m.ImageTokens) > int64(in.SeqLen) {
		in.Images = 0
	}
	return in, g
}

func targetIndexOf(list []Workload, w Workload) int {
	for i, x := range list {
		if x == w {
			return i
		}
	}
	return -1
}

func mustOffload(o Offload) Offload {
	if p, ok := ParseOffload(string(o)); ok && p == o {
		return o
	}
	return ""
}
