package sizing

// CostPerMillionTokens is the price of generating one million output
// tokens on an instance of instanceGPUs GPUs at pricePerHour, when one
// replica of the model needs replicaGPUs of them and decodes tokensPerSec
// (DecodeTokensPerSec of that layout): the instance runs
// ⌊instanceGPUs/replicaGPUs⌋ replicas, so
//
//	cost = price per hour / (replicas · tokens/s · 3600) · 10⁶.
//
// Zero when the instance holds no replica or the speed is unknown. With the
// roofline bound for the speed it is a lower bound on the cost.
func CostPerMillionTokens(tokensPerSec float64, replicaGPUs, instanceGPUs int, pricePerHour float64) float64 {
	if replicaGPUs < 1 || instanceGPUs < replicaGPUs || !(tokensPerSec > 0) || !(pricePerHour > 0) {
		return 0
	}
	replicas := float64(instanceGPUs / replicaGPUs)
	return finite(pricePerHour / (replicas * tokensPerSec * 3600) * 1e6)
}
