package sizing

// computeFormat is the matrix format a weight format computes in: bf16
// and fp16 themselves, fp8 weights W8A8 in fp8; weight-only int8 and int4
// (bitsandbytes, GPTQ, AWQ) dequantize to a 16-bit format, either one;
// fp32 runs on any GPU. The empty string means no requirement.
func computeFormat(d DType) (need, or string) {
	switch d {
	case BF16:
		return "bf16", ""
	case FP16:
		return "fp16", ""
	case FP8:
		return "fp8", ""
	case INT8, INT4:
		return "fp16", "bf16"
	}
	return "", ""
}

// Runs reports whether g computes the weight format d natively: bf16
// needs bf16 matrix units (Ampere and later on NVIDIA), fp8 needs fp8
// (Ada, Hopper and later), fp16 fp16, and weight-only int8/int4 either
// 16-bit format. A GPU whose Precisions are not recorded runs everything:
// the engine excludes a GPU only on a recorded fact.
func (g GPU) Runs(d DType) bool {
	need, or := computeFormat(d)
	if need == "" || g.Precisions == "" {
		return true
	}
	return wordIndex(need, g.Precisions) >= 0 || (or != "" && wordIndex(or, g.Precisions) >= 0)
}
