package importer

// collapse returns the prices of one billing mode from a value per
// region: a single price naming no region when every region of the offer
// has the same value, else one price per region (in the offer's region
// order). base carries everything but the value and region.
func collapse(base price, regions []string, byRegion map[string]string) []price {
	if len(byRegion) == 0 {
		return nil
	}
	same := len(byRegion) == len(regions)
	first := ""
	for _, r := range regions {
		v, ok := byRegion[r]
		if !ok {
			continue
		}
		if first == "" {
			first = v
		} else if v != first {
			same = false
		}
	}
	if same {
		p := base
		p.value = first
		return []price{p}
	}
	var out []price
	for _, r := range regions {
		if v, ok := byRegion[r]; ok {
			p := base
			p.value, p.region = v, r
			out = append(out, p)
		}
	}
	return out
}
