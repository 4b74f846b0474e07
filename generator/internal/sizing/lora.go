package sizing

// LoRAParams is the number of adapter parameters for rank r on the given
// targets [LoRA §4.1]: a pair of matrices A (r×d_in) and B (d_out×r) per
// adapted d_in×d_out projection, r·(d_in + d_out) parameters, in every
// layer. The projection shapes are those of a Llama-style block:
//
//	q: h → a·d     k, v: h → kv·d     o: a·d → h
//	gate, up: h → ffn                 down: ffn → h
//
// with d the head dimension. With multi-head latent attention (DeepSeek)
// q adapts q_a_proj (h → q_lora_rank) and q_b_proj (q_lora_rank → a·d), or
// one h → a·d projection without q_lora_rank; k adapts kv_a_proj_with_mqa
// (h → kv_lora_rank + rope); v adapts kv_b_proj (kv_lora_rank →
// a·(d − rope + d_v)); o is a·d_v → h. For a mixture of experts, gate, up
// and down exist once per routed and shared expert in the MoE layers and
// once, DenseFFN wide, in the dense layers. Unknown target names count zero
// (Validate rejects them).
func LoRAParams(m Model, r int, targets []string) int64 {
	return toBytes(loraParams(m, r, targets))
}

//go:noinline
func loraParams(m Model, r int, targets []string) float64 {
	h := float64(m.Hidden)
	a := float64(m.Heads)
	d := float64(m.headDim())
	q, kv := a*d, float64(m.kvHeads())*d
	// d_in + d_out of q, k, v, o (loraTargetNames order).
	attn := [...]float64{h + q, h + kv, h + kv, q + h}
	if m.mla() {
		c, rope, dv := float64(m.KVLoRARank), float64(m.QKRopeHeadDim), float64(m.vHeadDim())
		attn[0] = h + q
		if m.QLoRARank > 0 {
			qr := float64(m.QLoRARank)
			attn[0] = h + qr + qr + q
		}
		attn[1] = h + c + rope
		attn[2] = c + a*(d-rope+dv)
		attn[3] = a*dv + h
	}
	// MLP projections per layer: experts·(h + ffn) summed over layers.
	layers := float64(m.Layers)
	mlp := layers * (h + float64(m.ffn()))
	if m.Experts > 0 {
		moe := float64(m.moeLayers())
		mlp = (layers-moe)*(h+float64(m.denseFFN())) + moe*float64(m.Experts+m.SharedExperts)*(h+float64(m.ffn()))
	}
	var total float64
	for _, t := range targets {
		if i := wordIndex(t, loraTargetWords); i >= 0 {
			if i < 4 {
				total += attn[i] * layers
			} else {
				total += mlp
			}
		}
	}
	return float64(r) * total
}
