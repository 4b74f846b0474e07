package importer

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

// Observed is one price read from a capture of a provider's own price
// API (generator capture), for Observations.
type Observed struct {
	Provider string
	Instance string // as the provider names it, and as the offers file does
	// GPU and GPUCount describe an instance the catalog has no offer for
	// yet (from the capture's query); empty for a known offer.
	GPU      string
	GPUCount int
	Region   string // a region id of the provider
	Billing  string // on-demand, spot or committed
	Unit     string // hour (or ""), day, week or month
	// TermMonths, Payment and Commitment are set for committed prices.
	TermMonths          int
	Payment, Commitment string
	Value               float64
	Currency            string
	AsOf                time.Time
	DateBasis, Source   string
	Capture, CaptureSHA string
	// Where names the capture exchange in reports ("data/captures/x.json
	// exchange 3").
	Where string
}

// Observations turns captured observations into a Result, as Import does
// for a table, for MergeInto or WriteDir. An observation must name an
// offer of the provider in the catalog (its GPU and count come from
// there) or carry the GPU and count of a new one, a region of the
// provider, and, for a known offer, the offer's currency; one that does
// not is reported and left out. Every price is first-party evidence.
func Observations(cat *catalog.Catalog, obs []Observed) *Result {
	im := &importer{o: Options{Format: "capture", Catalog: cat}, reports: &diag.List{}, reported: map[int]bool{}}
	if len(obs) > 0 {
		im.o.Source, im.o.File = obs[0].Source, "data/captures/"+obs[0].Capture
	}
	byKey := map[string]*offer{}
	var offers []*offer
	reported := 0
	for _, ob := range obs {
		of, msg := im.observedOffer(ob, byKey)
		if msg != "" {
			im.reports.Errorf(ob.Where, 0, 0, "%s %s: %s", ob.Provider, ob.Instance, msg)
			reported++
			continue
		}
		if of.provider == "" {
			of.provider = ob.Provider
			offers = append(offers, of)
			byKey[ob.Provider+"\x00"+ob.Instance] = of
		}
		if !slices.Contains(of.regions, ob.Region) {
			of.regions = append(of.regions, ob.Region)
		}
		of.prices = append(of.prices, price{billing: ob.Billing, value: strconv.FormatFloat(ob.Value, 'f', -1, 64), unit: ob.Unit,
			term: ob.TermMonths, payment: ob.Payment, commitment: ob.Commitment, region: ob.Region, asOf: ob.AsOf,
			dateBasis: ob.DateBasis, source: ob.Source, evidence: "first-party", capture: ob.Capture, captureSHA: ob.CaptureSHA})
		of.rows = append(of.rows, 0)
	}
	for _, of := range offers {
		sort.SliceStable(of.prices, func(i, j int) bool { return of.prices[i].region < of.prices[j].region })
	}
	res := im.result(offers)
	res.Reported = reported
	return res
}

// observedOffer finds (or starts) the offer an observation belongs to;
// the message says why it cannot be imported.
func (im *importer) observedOffer(ob Observed, byKey map[string]*offer) (*offer, string) {
	cat := im.o.Catalog
	p := cat.Provider(ob.Provider)
	if p == nil {
		return nil, fmt.Sprintf("unknown provider %q", ob.Provider)
	}
	if !slices.ContainsFunc(p.Regions, func(r catalog.Region) bool { return r.ID == ob.Region }) {
		return nil, fmt.Sprintf("region %q is not a region of data/providers/%s.toml: add it there first", ob.Region, ob.Provider)
	}
	if !(ob.Value > 0) {
		return nil, fmt.Sprintf("price %v is not above zero", ob.Value)
	}
	if catalog.UnitHours(ob.Unit) == 0 {
		return nil, fmt.Sprintf("unit %q is not one the catalog knows (%v)", ob.Unit, catalog.PriceUnits())
	}
	if of := byKey[ob.Provider+"\x00"+ob.Instance]; of != nil {
		if of.currency != ob.Currency {
			return nil, fmt.Sprintf("currency %s, but the offer's prices are in %s", ob.Currency, of.currency)
		}
		return of, ""
	}
	of := &offer{instance: ob.Instance}
	for _, o := range p.Offers {
		if o.Instance != ob.Instance {
			continue
		}
		if o.Currency != ob.Currency {
			return nil, fmt.Sprintf("currency %s, but data/offers/%s.toml quotes this offer in %s", ob.Currency, ob.Provider, o.Currency)
		}
		of.gpu, of.count, of.currency, of.regions = o.GPU, o.GPUCount, o.Currency, append([]string(nil), o.Regions...)
		return of, ""
	}
	g := cat.GPU(ob.GPU)
	switch {
	case ob.GPU == "":
		return nil, fmt.Sprintf("no offer %q in data/offers/%s.toml and the query names no gpu: add the offer, or gpu and gpu_count to the query", ob.Instance, ob.Provider)
	case g == nil:
		return nil, fmt.Sprintf("unknown gpu %q in the query", ob.GPU)
	case ob.GPUCount < 1:
		return nil, "the query's gpu_count must be 1 or more"
	}
	if !slices.Contains(cat.FX.Currencies(), ob.Currency) {
		return nil, fmt.Sprintf("currency %q is not one data/fx.toml converts", ob.Currency)
	}
	of.gpu, of.count, of.currency = g, ob.GPUCount, ob.Currency
	of.note = fmt.Sprintf("Captured from the provider's own price API by generator capture (%s); vCPU and memory as the provider's instance-type page states them are to be added by a reviewer.", ob.Capture)
	return of, ""
}
