package importer

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/tomlpos"
)

// RegionDecl is a region a source file names, with the display name it
// gives (if any), for the provider file.
type RegionDecl struct {
	Provider, ID, Name string
}

// Regions returns the regions the import's file names for its provider
// (structured formats), in file order.
func (r *Result) Regions() []RegionDecl { return r.regions }

// MergeReport is what MergeInto did, file by file.
type MergeReport struct {
	Files []string // the files written
	// Added counts the new price observations, offers, cost entries and
	// regions; Kept the observations already present (same key, date and
	// value).
	Prices, Offers, Costs, Regions, Kept int
	// Conflicts are what could not be merged, for a reviewer: an offer
	// whose GPU or count differs from the file's, an observation on the
	// same date with another value, an offer whose region-less prices
	// cannot be pinned to one region.
	Conflicts []string
}

// AddRegions adds the regions the provider file lacks, as [[regions]]
// blocks after its last one. It returns the new text and how many it
// added.
func AddRegions(src []byte, regions []RegionDecl) ([]byte, int, error) {
	var p catalog.Provider
	if _, err := toml.Decode(string(src), &p); err != nil {
		return nil, 0, err
	}
	have := map[string]bool{}
	for _, r := range p.Regions {
		have[r.ID] = true
	}
	var add strings.Builder
	n := 0
	for _, r := range regions {
		if have[r.ID] {
			continue
		}
		have[r.ID] = true
		n++
		add.WriteString("\n[[regions]]\n")
		kv(&add, "id", tomlString(r.ID))
		if r.Name != "" {
			kv(&add, "name", tomlString(r.Name))
		}
	}
	if n == 0 {
		return src, 0, nil
	}
	lines := strings.Split(string(src), "\n")
	at := len(lines)
	if len(p.Regions) > 0 {
		ix := tomlpos.Scan(src)
		last := ix.Key(fmt.Sprintf("regions.%d", len(p.Regions)-1)).Line
		at = blockEnd(lines, last)
	}
	return []byte(insertAt(lines, at, strings.TrimSuffix(add.String(), "\n"))), n, nil
}

// blockEnd returns the index (0-based) after the last non-blank line of
// the table whose header is at 1-based line header: the line before the
// next table header, blank lines and comments directly above it excluded.
func blockEnd(lines []string, header int) int {
	end := len(lines)
	for i := header; i < len(lines); i++ {
		if strings.HasPrefix(strings.TrimSpace(lines[i]), "[") {
			end = i
			break
		}
	}
	for end > header && (strings.TrimSpace(lines[end-1]) == "" || strings.HasPrefix(strings.TrimSpace(lines[end-1]), "#")) {
		end--
	}
	return end
}

// insertAt inserts text (lines joined by "\n") before 0-based line at.
func insertAt(lines []string, at int, text string) string {
	out := append([]string{}, lines[:at]...)
	out = append(out, strings.Split(text, "\n")...)
	out = append(out, lines[at:]...)
	return strings.Join(out, "\n")
}

// MergeOffers merges imported offers into an offers file's text: a new
// observation of an existing offer's price is appended to that offer (its
// history grows; nothing is overwritten), an observation already there is
// kept once, a new offer is appended at the end. When the offer gains
// regions, its regions list is widened, and its prices that name no
// region are pinned to its one former region (so they do not come to
// claim the new regions); an offer with several former regions and such
// prices is a conflict.
func MergeOffers(src []byte, f File, rep *MergeReport) ([]byte, error) {
	var of catalog.OfferFile
	if _, err := toml.Decode(string(src), &of); err != nil {
		return nil, err
	}
	m := &offerMerge{offers: of.Offers, ix: tomlpos.Scan(src), lines: strings.Split(string(src), "\n"), provider: f.Provider, rep: rep}
	byInstance := map[string]int{}
	for i, o := range of.Offers {
		byInstance[o.Instance] = i
	}
	var appended strings.Builder
	for _, imp := range f.offers {
		i, ok := byInstance[imp.instance]
		if !ok {
			appended.WriteString(offerTOML(imp))
			rep.Offers++
			rep.Prices += len(imp.prices)
			continue
		}
		m.merge(i, imp)
	}
	out := m.apply()
	if appended.Len() > 0 {
		out = strings.TrimRight(out, "\n") + "\n" + appended.String()
	}
	return []byte(out), nil
}

// offerMerge collects the edits that merging imported offers into an
// existing offers file makes to the file's lines, and reports what it
// merged in rep.
type offerMerge struct {
	offers   []*catalog.Offer // the file's offers, decoded
	ix       *tomlpos.Index   // where the file's keys and values are
	lines    []string         // the file's lines
	provider string
	rep      *MergeReport
	edits    []lineEdit
}

// lineEdit is a change to a file's lines: text (lines joined by "\n")
// inserted before 0-based line at or, when replace is set, put in place
// of line at.
type lineEdit struct {
	at      int
	text    string
	replace bool
}

// merge merges the imported offer imp into the file's offer i: it widens
// the offer's regions and adds the observations the offer lacks. When the
// two differ in GPU or GPU count, or the regions cannot be widened, it
// records a conflict and merges nothing more.
func (m *offerMerge) merge(i int, imp *offer) {
	ex := m.offers[i]
	if ex.GPUID != imp.gpu.ID || ex.GPUCount != imp.count {
		m.rep.Conflicts = append(m.rep.Conflicts, fmt.Sprintf("%s: %s is %dx %s in the file, %dx %s in the import: not merged", m.provider, imp.instance, ex.GPUCount, ex.GPUID, imp.count, imp.gpu.ID))
		return
	}
	pinned, ok := m.widenRegions(i, imp)
	if !ok {
		return
	}
	m.addPrices(i, imp, pinned)
}

// widenRegions adds the regions of imp that the file's offer i lacks to
// the offer's regions list, pinning the offer's prices that name no
// region to its one former region. It returns the pinned prices (price
// index -> region), or false after recording a conflict when the offer
// has such prices and several former regions, or its regions list is not
// written on one line; then it edits nothing.
func (m *offerMerge) widenRegions(i int, imp *offer) (map[int]string, bool) {
	ex := m.offers[i]
	pre := fmt.Sprintf("offers.%d", i)
	var newRegions []string
	for _, r := range imp.regions {
		if !slices.Contains(ex.Regions, r) {
			newRegions = append(newRegions, r)
		}
	}
	pinned := map[int]string{}
	if len(newRegions) == 0 {
		return pinned, true
	}
	var loose []int
	for j, p := range ex.Prices {
		if p.Region == "" {
			loose = append(loose, j)
		}
	}
	if len(loose) > 0 && len(ex.Regions) != 1 {
		m.rep.Conflicts = append(m.rep.Conflicts, fmt.Sprintf("%s: %s has prices naming no region and %d regions (%s): they cannot be pinned to one; not merged", m.provider, imp.instance, len(ex.Regions), strings.Join(ex.Regions, ", ")))
		return nil, false
	}
	// The regions line is checked before any edit is queued: an offer
	// that is not merged is not edited at all.
	all := append(slices.Clone(ex.Regions), newRegions...)
	rl := m.ix.Value(pre + ".regions").Line
	if rl == 0 || !strings.HasSuffix(strings.TrimSpace(m.lines[rl-1]), "]") || !strings.HasPrefix(strings.TrimSpace(m.lines[rl-1]), "regions") {
		m.rep.Conflicts = append(m.rep.Conflicts, fmt.Sprintf("%s: %s: its regions are not written on one line; not merged", m.provider, imp.instance))
		return nil, false
	}
	for _, j := range loose {
		pinned[j] = ex.Regions[0]
		at := m.ix.Value(fmt.Sprintf("%s.prices.%d.billing", pre, j)).Line
		m.edits = append(m.edits, lineEdit{at: at, text: "region = " + tomlString(ex.Regions[0])})
	}
	quoted := make([]string, len(all))
	for k, r := range all {
		quoted[k] = tomlString(r)
	}
	m.edits = append(m.edits, lineEdit{at: rl - 1, replace: true, text: "regions = [" + strings.Join(quoted, ", ") + "]"})
	return pinned, true
}

// addPrices appends to the file's offer i the observations of imp that it
// lacks. An observation it already has is counted as kept when the
// values agree and recorded as a conflict (the file's value kept) when
// they do not. pinned gives the regions widenRegions gave to the offer's
// region-less prices.
func (m *offerMerge) addPrices(i int, imp *offer, pinned map[int]string) {
	have := map[string]float64{}
	for j, p := range m.offers[i].Prices {
		q := p
		if r, ok := pinned[j]; ok {
			q.Region = r
		}
		have[obsID(q)] = q.Price
	}
	var add strings.Builder
	for _, p := range imp.prices {
		q := catalogPrice(p)
		if v, ok := have[obsID(q)]; ok {
			if strconv.FormatFloat(v, 'f', -1, 64) == p.value {
				m.rep.Kept++
			} else {
				m.rep.Conflicts = append(m.rep.Conflicts, fmt.Sprintf("%s: %s %s on %s: %s in the file, %s in the import; the file's kept", m.provider, imp.instance, q.Key(), p.asOf.Format(time.DateOnly), strconv.FormatFloat(v, 'f', -1, 64), p.value))
			}
			continue
		}
		add.WriteString(p.toml())
		m.rep.Prices++
	}
	if add.Len() > 0 {
		m.edits = append(m.edits, lineEdit{at: blockEndOfOffer(m.lines, m.ix, i, len(m.offers)), text: strings.TrimSuffix(add.String(), "\n")})
	}
}

// apply makes the edits to the file's lines, from the bottom up so that
// earlier line numbers hold (edits at one line in the order they were
// made), and returns the new text.
func (m *offerMerge) apply() string {
	lines := m.lines
	slices.SortStableFunc(m.edits, func(a, b lineEdit) int { return b.at - a.at })
	for _, e := range m.edits {
		if e.replace {
			lines[e.at] = e.text
			continue
		}
		lines = strings.Split(insertAt(lines, e.at, e.text), "\n")
	}
	return strings.Join(lines, "\n")
}

// blockEndOfOffer returns where an offer's last price block ends.
func blockEndOfOffer(lines []string, ix *tomlpos.Index, i, n int) int {
	end := len(lines)
	if i+1 < n {
		end = ix.Key(fmt.Sprintf("offers.%d", i+1)).Line - 1
	}
	for end > 0 && (strings.TrimSpace(lines[end-1]) == "" || strings.HasPrefix(strings.TrimSpace(lines[end-1]), "#")) {
		end--
	}
	return end
}

// obsID identifies an observation: its key and date.
func obsID(p catalog.Price) string {
	if p.Unit == "" {
		p.Unit = "hour"
	}
	if t, ok := map[string]int{"reserved-1y": 12, "reserved-3y": 36}[p.Billing]; ok {
		p.Billing, p.TermMonths = "committed", t
	}
	return p.Key().String() + "@" + p.AsOf.Format(time.DateOnly)
}

func catalogPrice(p price) catalog.Price {
	v, _ := strconv.ParseFloat(p.value, 64)
	return catalog.Price{Billing: p.billing, Price: v, Unit: p.unit, TermMonths: p.term, Payment: p.payment, Commitment: p.commitment, Region: p.region, AsOf: p.asOf}
}

// offerTOML writes a whole offer block (as render does).
func offerTOML(of *offer) string {
	var b strings.Builder
	b.WriteString("\n[[offers]]\n")
	kv(&b, "instance", tomlString(of.instance))
	kv(&b, "gpu", tomlString(of.gpu.ID))
	kv(&b, "gpu_count", strconv.Itoa(of.count))
	kv(&b, "vram_per_gpu_gb", num(of.gpu.MemoryGB))
	kv(&b, "vram_total_gb", num(float64(of.count)*of.gpu.MemoryGB))
	if of.vcpu != "" {
		kv(&b, "vcpu", of.vcpu)
	}
	if of.ramGB != "" {
		kv(&b, "ram_gb", of.ramGB)
	}
	quoted := make([]string, len(of.regions))
	for i, r := range of.regions {
		quoted[i] = tomlString(r)
	}
	kv(&b, "regions", "["+strings.Join(quoted, ", ")+"]")
	kv(&b, "currency", tomlString(of.currency))
	kv(&b, "notes", tomlString(of.note))
	for _, p := range of.prices {
		b.WriteString(p.toml())
	}
	return b.String()
}

// MergeCosts appends the imported [[extra_costs]] entries a provider
// file lacks (same kind, name, region, unit and date).
func MergeCosts(src []byte, cs []cost, rep *MergeReport) ([]byte, error) {
	var p catalog.Provider
	if _, err := toml.Decode(string(src), &p); err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for _, e := range p.ExtraCosts {
		have[fmt.Sprint(e.Key())+e.AsOf.Format(time.DateOnly)] = true
	}
	var add strings.Builder
	for _, c := range cs {
		id := fmt.Sprint(catalog.CostKey{Kind: c.kind, Name: c.name, Region: c.region, Unit: c.unit}) + c.asOf.Format(time.DateOnly)
		if have[id] {
			rep.Kept++
			continue
		}
		have[id] = true
		add.WriteString(c.toml())
		rep.Costs++
	}
	if add.Len() == 0 {
		return src, nil
	}
	return []byte(strings.TrimRight(string(src), "\n") + "\n" + add.String()), nil
}

// DeclareRegions adds the regions a file names to its providers' files
// under root (AddRegions) and returns how many it added and the files it
// wrote.
func DeclareRegions(root string, regions []RegionDecl) (int, []string, error) {
	byProv := map[string][]RegionDecl{}
	var order []string
	for _, r := range regions {
		if byProv[r.Provider] == nil {
			order = append(order, r.Provider)
		}
		byProv[r.Provider] = append(byProv[r.Provider], r)
	}
	total := 0
	var files []string
	for _, prov := range order {
		rel := "data/providers/" + prov + ".toml"
		src, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			return total, files, err
		}
		out, n, err := AddRegions(src, byProv[prov])
		if err != nil {
			return total, files, fmt.Errorf("%s: %v", rel, err)
		}
		if n > 0 {
			if err := os.WriteFile(filepath.Join(root, rel), out, 0o644); err != nil {
				return total, files, err
			}
			total += n
			files = append(files, rel)
		}
	}
	return total, files, nil
}

// MergeInto merges a result into the catalog under root: regions into
// data/providers/<id>.toml (AddRegions), offers into
// data/offers/<id>.toml (MergeOffers; the file is created when missing)
// and hidden costs into the provider file (MergeCosts).
func MergeInto(root string, res *Result) (*MergeReport, error) {
	rep := &MergeReport{}
	write := func(rel string, b []byte) error {
		if err := os.WriteFile(filepath.Join(root, rel), b, 0o644); err != nil {
			return err
		}
		if !slices.Contains(rep.Files, rel) {
			rep.Files = append(rep.Files, rel)
		}
		return nil
	}
	n, files, err := DeclareRegions(root, res.regions)
	if err != nil {
		return rep, err
	}
	rep.Regions += n
	rep.Files = append(rep.Files, files...)
	for _, f := range res.Files {
		rel := "data/offers/" + f.Provider + ".toml"
		src, err := os.ReadFile(filepath.Join(root, rel))
		if os.IsNotExist(err) {
			src, err = f.Text, nil
			if err := write(rel, src); err != nil {
				return rep, err
			}
			rep.Offers += f.Offers
			for _, of := range f.offers {
				rep.Prices += len(of.prices)
			}
			continue
		}
		if err != nil {
			return rep, err
		}
		out, err := MergeOffers(src, f, rep)
		if err != nil {
			return rep, fmt.Errorf("%s: %v", rel, err)
		}
		if err := write(rel, out); err != nil {
			return rep, err
		}
	}
	for _, f := range res.Costs {
		rel := "data/providers/" + f.Provider + ".toml"
		src, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			return rep, err
		}
		out, err := MergeCosts(src, f.costs, rep)
		if err != nil {
			return rep, fmt.Errorf("%s: %v", rel, err)
		}
		if err := write(rel, out); err != nil {
			return rep, err
		}
	}
	return rep, nil
}
