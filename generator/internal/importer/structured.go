package importer

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/schema"
)

// The structured formats (gcp, azure, aws) read one file into a tree of
// positioned values (tree.go: encoding/json and go.yaml.in/yaml/v4); a
// "row" is one price value of the file: Imported, Reported and Skipped
// count values, and their sum is every price value the file holds.

// defaultProvider is the provider a structured format's prices belong to
// unless -provider says otherwise.
func defaultProvider(format string) string {
	return map[string]string{"gcp": "gcp", "azure": "azure", "aws": "aws"}[format]
}

// sourceNote says in an imported file's header what the format is.
func sourceNote(format string) string {
	switch format {
	case "gcp":
		return "GCP pricing.yml of Cyclenerd/google-cloud-pricing-cost-calculator, Apache-2.0, Copyright 2022-2025 Nils Knieling: a compile of Google Cloud Billing SKUs"
	case "azure":
		return "Azure Retail Prices API items"
	case "aws":
		return "tsaol/aws-gpu instance data, generated from instances.vantage.sh"
	case "capture":
		return "captures of the provider's own price API, generator capture"
	}
	return format
}

// cost is one [[extra_costs]] entry to write.
type cost struct {
	provider, kind, name, region, currency, unit, notes string
	price                                               string // "" with tiers
	tiers                                               [][2]string
	asOf                                                time.Time
	dateBasis, source, evidence                         string
}

func importStructured(r io.Reader, o Options) (*Result, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", o.File, err)
	}
	if !strings.HasPrefix(o.Source, "https://") && !strings.HasPrefix(o.Source, "http://") {
		return nil, &UsageError{fmt.Sprintf("-source URL is required for -format %s: where the file was read (a pinned commit)", o.Format)}
	}
	if !slices.Contains(catalog.EvidenceKinds(), o.Evidence) {
		return nil, &UsageError{fmt.Sprintf("-evidence is required for -format %s: one of %s (a third party's compile is third-party; the provider's own API is first-party)", o.Format, strings.Join(catalog.EvidenceKinds(), ", "))}
	}
	if o.DateBasis != "" && !slices.Contains(catalog.DateBases(), o.DateBasis) {
		return nil, &UsageError{fmt.Sprintf("-date-basis %q is not one of: %s", o.DateBasis, strings.Join(catalog.DateBases(), ", "))}
	}
	if o.Provider == "" {
		o.Provider = defaultProvider(o.Format)
	}
	prov := o.Catalog.Provider(o.Provider)
	if prov == nil {
		return nil, &UsageError{fmt.Sprintf("provider %q has no data/providers/%s.toml", o.Provider, o.Provider)}
	}
	im := &importer{o: o, file: o.File, reports: &diag.List{}, reported: map[int]bool{}}
	var offers []*offer
	switch o.Format {
	case "gcp":
		offers, err = im.gcp(string(b), prov)
	case "azure":
		offers, err = im.azure(string(b), prov)
	case "aws":
		offers, err = im.aws(string(b), prov)
	}
	if err != nil {
		return nil, err
	}
	res := im.result(offers)
	res.Reported = im.reportedValues
	res.Imported = im.importedValues
	return res, nil
}

// fault collects the faults of one value (and of what it belongs to) so
// that every fault is reported, each once, before the value is counted.
type fault struct {
	im   *importer
	msgs int
}

// report adds a fault at a node.
func (f *fault) report(n *node, format string, args ...any) {
	line, col := n.pos()
	f.im.reports.Errorf(f.im.file, line, col, "%s", fmt.Sprintf(format, args...))
	f.msgs++
}

func (f *fault) ok() bool { return f.msgs == 0 }

// numText is a value as written for TOML: the shortest decimal that parses
// back to the same float64.
func numText(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// positive reads a positive number value, reporting what it is otherwise.
func positive(f *fault, n *node, what string) (float64, bool) {
	v, ok := n.num()
	switch {
	case n == nil:
		f.report(n, "%s: missing", what)
		return 0, false
	case n.kind == 'o' || n.kind == 'a':
		f.report(n, "%s: %s, not a number", what, map[byte]string{'o': "an object", 'a': "a list"}[n.kind])
		return 0, false
	case !ok:
		f.report(n, "%s: %q is not a number", what, n.text)
		return 0, false
	case math.IsNaN(v) || math.IsInf(v, 0) || !(v > 0):
		f.report(n, "%s: %s must be greater than 0", what, n.text)
		return 0, false
	}
	return v, true
}

// regionCheck reports a region the provider file does not declare.
func regionCheck(f *fault, n *node, region string, prov *catalog.Provider) bool {
	for _, r := range prov.Regions {
		if r.ID == region {
			return true
		}
	}
	f.report(n, "region %q is not declared in data/providers/%s.toml%s", region, prov.ID, declareHint(region))
	return false
}

// priced is one price value of a structured file that passed its checks.
type priced struct {
	mode   price // billing, unit, term, payment, commitment set
	region string
	value  float64
	at     *node
}

// modeKey identifies a billing mode (without region) for collapsing.
func modeKey(p price) string {
	return fmt.Sprintf("%s\x00%s\x00%d\x00%s\x00%s", p.billing, p.unit, p.term, p.payment, p.commitment)
}

// build turns an instance's checked price values into an offer: regions
// in first-seen order, spot and committed prices checked against the
// same region's on-demand price (a value above it is reported and left
// out), one price per mode and region. It returns nil when no value is
// left.
func (im *importer) build(of *offer, vals []priced) *offer {
	od := map[string]float64{}
	for _, v := range vals {
		if v.mode.billing == "on-demand" && v.mode.unit == "hour" {
			od[v.region] = v.value
		}
	}
	var keep []priced
	for _, v := range vals {
		hourly := v.value / catalog.UnitHours(v.mode.unit)
		if o, ok := od[v.region]; ok && v.mode.billing == "spot" && v.value == o {
			line, col := v.at.pos()
			im.reports.Errorf(im.file, line, col, "spot price %s in %s equals the on-demand price there: not a spot price (left out)", numText(v.value), v.region)
			im.reportedValues++
			continue
		}
		if o, ok := od[v.region]; ok && v.mode.billing != "on-demand" && hourly > o+1e-9 {
			line, col := v.at.pos()
			im.reports.Errorf(im.file, line, col, "%s price %s (%s per hour) in %s is above the on-demand price %s there", describeMode(v.mode), numText(v.value), numText(hourly), v.region, numText(o))
			im.reportedValues++
			continue
		}
		keep = append(keep, v)
	}
	if len(keep) == 0 {
		return nil
	}
	var modes []string
	byMode := map[string]map[string]string{}
	modeOf := map[string]price{}
	for _, v := range keep {
		if !slices.Contains(of.regions, v.region) {
			of.regions = append(of.regions, v.region)
		}
		k := modeKey(v.mode)
		if byMode[k] == nil {
			modes = append(modes, k)
			byMode[k] = map[string]string{}
			modeOf[k] = v.mode
		}
		byMode[k][v.region] = numText(v.value)
		im.importedValues++
	}
	// Every price names its region (a source that prices per region is
	// imported per region, so later imports merge as history).
	for _, k := range modes {
		for _, r := range of.regions {
			if v, ok := byMode[k][r]; ok {
				p := modeOf[k]
				p.value, p.region = v, r
				of.prices = append(of.prices, p)
			}
		}
	}
	return of
}

func describeMode(p price) string {
	s := p.billing
	if p.term > 0 {
		s += fmt.Sprintf(" %d-month", p.term)
	}
	return s
}

// costsFromRegions turns one charge's value per region into entries: the
// value most regions share becomes an entry naming no region (it applies
// wherever no regional entry does), every other value a regional entry.
func costsFromRegions(base cost, regions []string, byRegion map[string]string) []cost {
	count := map[string]int{}
	for _, r := range regions {
		count[byRegion[r]]++
	}
	common, best := "", 0
	for _, r := range regions { // the first most common value, in region order
		if v := byRegion[r]; count[v] > best {
			common, best = v, count[v]
		}
	}
	c := base
	c.price = common
	out := []cost{c}
	for _, r := range regions {
		if v := byRegion[r]; v != common {
			c := base
			c.price, c.region = v, r
			out = append(out, c)
		}
	}
	return out
}

// renderCosts writes a provider's imported hidden costs as [[extra_costs]]
// blocks for data/providers/<id>.toml.
func (im *importer) renderCosts(provider string, cs []cost) []byte {
	var b strings.Builder
	directive, _ := schema.Directive("data/providers/" + provider + ".toml")
	b.WriteString(directive + "\n")
	fmt.Fprintf(&b, "%s -format %s\" from %s.\n", generatedMarker, im.o.Format, im.file)
	fmt.Fprintf(&b, "# For review: the [[extra_costs]] of data/providers/%s.toml, from %s\n", provider, im.o.Source)
	for _, c := range cs {
		b.WriteString(c.toml())
	}
	return []byte(b.String())
}

// toml writes the cost as an [[extra_costs]] block.
func (c cost) toml() string {
	var b strings.Builder
	b.WriteString("\n[[extra_costs]]\n")
	kv(&b, "kind", tomlString(c.kind))
	if c.name != "" {
		kv(&b, "name", tomlString(c.name))
	}
	if c.region != "" {
		kv(&b, "region", tomlString(c.region))
	}
	kv(&b, "currency", tomlString(c.currency))
	if c.price != "" {
		kv(&b, "price", c.price)
	}
	kv(&b, "unit", tomlString(c.unit))
	kv(&b, "as_of", c.asOf.Format(time.DateOnly))
	if c.dateBasis != "" {
		kv(&b, "date_basis", tomlString(c.dateBasis))
	}
	kv(&b, "source", tomlString(c.source))
	kv(&b, "evidence", tomlString(c.evidence))
	if c.notes != "" {
		kv(&b, "notes", tomlString(c.notes))
	}
	for _, t := range c.tiers {
		b.WriteString("\n[[extra_costs.tiers]]\n")
		if t[0] != "" {
			kv(&b, "up_to_gb", t[0])
		}
		kv(&b, "price", t[1])
	}
	return b.String()
}

// provenance is what every price of one structured file shares: the date
// and its basis, and the currency.
type provenance struct {
	asOf            time.Time
	basis, currency string
}

// provenanceOf checks the date of a file's prices (not in the future) and
// takes the currency from -currency, USD without it.
func (im *importer) provenanceOf(asOf time.Time, basis string) (provenance, error) {
	if asOf.After(im.o.Now) {
		return provenance{}, &UsageError{fmt.Sprintf("the file's date %s is in the future", asOf.Format(time.DateOnly))}
	}
	currency := im.o.Currency
	if currency == "" {
		currency = "USD"
	}
	return provenance{asOf: asOf, basis: basis, currency: currency}, nil
}

// stamp gives a price mode the file's date, date basis, source and
// evidence.
func (pv provenance) stamp(mode price, o Options) price {
	mode.dateBasis, mode.asOf, mode.source, mode.evidence = pv.basis, pv.asOf, o.Source, o.Evidence
	mode.capture, mode.captureSHA = o.Capture, o.CaptureSHA
	return mode
}
