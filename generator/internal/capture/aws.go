package capture

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/importer"
)

// awsSource is the AWS Price List bulk API: the public offer file of
// Amazon EC2 per region (docs.aws.amazon.com/awsaccountbilling/latest/
// aboutv2/using-the-aws-price-list-bulk-api-fetching-price-list-files-manually.html),
// .../offers/v1.0/aws/AmazonEC2/current/<region>/index.json, whose shape
// is documented in "Reading the price list files": formatVersion,
// offerCode, version, publicationDate, products (by SKU: sku,
// productFamily, attributes) and terms (OnDemand and Reserved, by SKU
// and offer term: priceDimensions with unit and pricePerUnit). No SDK
// and no credentials: the files are public. A region's file is hundreds
// of megabytes, so Fetch streams it and keeps an excerpt in the same
// shape: the Linux, shared-tenancy, no-preinstalled-software products of
// the queried instance types and their on-demand terms. The exchange
// records the whole file's size and SHA-256 beside the excerpt.
type awsSource struct{}

const awsEndpoint = "https://pricing.us-east-1.amazonaws.com"

const awsDocs = "https://docs.aws.amazon.com/awsaccountbilling/latest/aboutv2/price-changes.html"

func (awsSource) Provider() string      { return "aws" }
func (awsSource) API() string           { return "aws-price-list-bulk" }
func (awsSource) Credentials() []string { return nil }

// awsProduct is a product of the offer file.
type awsProduct struct {
	SKU           string            `json:"sku"`
	ProductFamily string            `json:"productFamily"`
	Attributes    map[string]string `json:"attributes"`
}

// wanted reports whether the product is a plain Linux on-demand instance
// of one of the instance types.
func (p awsProduct) wanted(types []string) bool {
	a := p.Attributes
	return slices.Contains(types, a["instanceType"]) && a["operatingSystem"] == "Linux" && a["tenancy"] == "Shared" &&
		a["preInstalledSw"] == "NA" && a["capacitystatus"] == "Used" && a["licenseModel"] == "No License required"
}

func (s awsSource) Fetch(ctx context.Context, f Fetcher, q Query, _ func(string) string) (*Capture, error) {
	if len(q.Regions) == 0 || len(q.SKUs) == 0 {
		return nil, fmt.Errorf("aws: %s names no regions or skus", QueriesFile)
	}
	base := f.endpoint("aws", awsEndpoint)
	c := &Capture{Format: Format, Provider: "aws", API: s.API(), Endpoint: base, Retrieved: f.now(),
		Note: "Each body is an excerpt of one region's Amazon EC2 offer file, in the file's own shape: the queried instance types' Linux, shared-tenancy products and their OnDemand terms; request.source_file gives the whole file's size and SHA-256."}
	for _, region := range q.Regions {
		u := base + "/offers/v1.0/aws/AmazonEC2/current/" + region + "/index.json"
		req := map[string]any{"url": u, "instance_types": q.SKUs, "catalog": map[string]any{"region": region}}
		status, body, whole, err := awsExcerpt(ctx, f.Client, u, q.SKUs)
		if whole.bytes > 0 {
			req["source_file"] = map[string]any{"bytes": whole.bytes, "sha256": whole.sha256}
		}
		c.Exchanges = append(c.Exchanges, NewExchange(req, status, body, err))
	}
	return c, nil
}

type wholeFile struct {
	bytes  int64
	sha256 string
}

// awsExcerpt streams an offer file and returns the excerpt's bytes.
func awsExcerpt(ctx context.Context, hc *http.Client, u string, types []string) (int, []byte, wholeFile, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, nil, wholeFile{}, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, nil, wholeFile{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		return resp.StatusCode, body, wholeFile{}, nil
	}
	h := sha256.New()
	cr := &countReader{r: io.TeeReader(resp.Body, h)}
	ex, err := filterOffer(cr, types)
	if err != nil {
		return resp.StatusCode, nil, wholeFile{}, err
	}
	io.Copy(io.Discard, cr) // the rest, for the whole file's hash
	body, err := json.Marshal(ex)
	return resp.StatusCode, body, wholeFile{bytes: cr.n, sha256: hex.EncodeToString(h.Sum(nil))}, err
}

type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// awsOffer is an offer file (or its excerpt) as far as Parse reads it.
type awsOffer struct {
	FormatVersion   string                `json:"formatVersion"`
	OfferCode       string                `json:"offerCode"`
	Version         string                `json:"version"`
	PublicationDate string                `json:"publicationDate"`
	Products        map[string]awsProduct `json:"products"`
	Terms           struct {
		OnDemand map[string]map[string]awsTerm `json:"OnDemand"`
	} `json:"terms"`
}

type awsTerm struct {
	OfferTermCode   string `json:"offerTermCode"`
	SKU             string `json:"sku"`
	EffectiveDate   string `json:"effectiveDate"`
	PriceDimensions map[string]struct {
		Unit         string            `json:"unit"`
		Description  string            `json:"description"`
		PricePerUnit map[string]string `json:"pricePerUnit"`
	} `json:"priceDimensions"`
}

// filterOffer reads an offer file token by token, keeping the wanted
// products and their on-demand terms (the file lists products before
// terms).
func filterOffer(r io.Reader, types []string) (*awsOffer, error) {
	dec := json.NewDecoder(r)
	ex := &awsOffer{Products: map[string]awsProduct{}}
	ex.Terms.OnDemand = map[string]map[string]awsTerm{}
	if err := delim(dec, '{'); err != nil {
		return nil, err
	}
	for dec.More() {
		key, err := str(dec)
		if err != nil {
			return nil, err
		}
		switch key {
		case "formatVersion", "offerCode", "version", "publicationDate":
			var v string
			if err := dec.Decode(&v); err != nil {
				return nil, err
			}
			switch key {
			case "formatVersion":
				ex.FormatVersion = v
			case "offerCode":
				ex.OfferCode = v
			case "version":
				ex.Version = v
			case "publicationDate":
				ex.PublicationDate = v
			}
		case "products":
			err = eachKey(dec, func(sku string) error {
				var p awsProduct
				if err := dec.Decode(&p); err != nil {
					return err
				}
				if p.wanted(types) {
					ex.Products[sku] = p
				}
				return nil
			})
		case "terms":
			err = eachKey(dec, func(kind string) error {
				if kind != "OnDemand" {
					return skip(dec)
				}
				return eachKey(dec, func(sku string) error {
					if _, ok := ex.Products[sku]; !ok {
						return skip(dec)
					}
					var t map[string]awsTerm
					if err := dec.Decode(&t); err != nil {
						return err
					}
					ex.Terms.OnDemand[sku] = t
					return nil
				})
			})
		default:
			err = skip(dec)
		}
		if err != nil {
			return nil, fmt.Errorf("offer file, at %q: %v", key, err)
		}
	}
	return ex, nil
}

func delim(dec *json.Decoder, want json.Delim) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); !ok || d != want {
		return fmt.Errorf("want %q, got %v", want, t)
	}
	return nil
}

func str(dec *json.Decoder) (string, error) {
	t, err := dec.Token()
	if err != nil {
		return "", err
	}
	s, ok := t.(string)
	if !ok {
		return "", fmt.Errorf("want a key, got %v", t)
	}
	return s, nil
}

// eachKey calls fn for each key of the object that comes next; fn reads
// the key's value.
func eachKey(dec *json.Decoder, fn func(string) error) error {
	if err := delim(dec, '{'); err != nil {
		return err
	}
	for dec.More() {
		k, err := str(dec)
		if err != nil {
			return err
		}
		if err := fn(k); err != nil {
			return err
		}
	}
	return delim(dec, '}')
}

func skip(dec *json.Decoder) error {
	var v json.RawMessage
	return dec.Decode(&v)
}

// Parse reads the on-demand price per hour of each product in each
// region's excerpt.
func (awsSource) Parse(c *Capture) ([]importer.Observed, []string) {
	var out []importer.Observed
	var problems []string
	for i, e := range c.Exchanges {
		if msg := httpProblem(e); msg != "" {
			problems = append(problems, problem(c, i, "%s", msg))
			continue
		}
		var of awsOffer
		if err := json.Unmarshal([]byte(e.Body), &of); err != nil {
			problems = append(problems, problem(c, i, "not an EC2 offer file: %v", err))
			continue
		}
		if of.OfferCode != "AmazonEC2" {
			problems = append(problems, problem(c, i, "offerCode %q, not AmazonEC2: nothing read from it", of.OfferCode))
			continue
		}
		region, _ := catalogPart(e)["region"].(string)
		seen := map[string]bool{}
		for _, sku := range sortedKeys(of.Products) {
			p := of.Products[sku]
			it := p.Attributes["instanceType"]
			if rc := p.Attributes["regionCode"]; rc != "" && rc != region {
				problems = append(problems, problem(c, i, "product %s is in %s, not the queried %s: left out", sku, rc, region))
				continue
			}
			var prices []float64
			for _, tc := range sortedKeys(of.Terms.OnDemand[sku]) {
				t := of.Terms.OnDemand[sku][tc]
				for _, dk := range sortedKeys(t.PriceDimensions) {
					d := t.PriceDimensions[dk]
					usd, ok := d.PricePerUnit["USD"]
					switch {
					case d.Unit != "Hrs":
						problems = append(problems, problem(c, i, "%s (%s): unit %q, not Hrs: left out", it, sku, d.Unit))
					case !ok:
						problems = append(problems, problem(c, i, "%s (%s): no USD price (currencies %v): left out", it, sku, sortedKeys(d.PricePerUnit)))
					default:
						v, err := strconv.ParseFloat(usd, 64)
						if err != nil || !(v > 0) {
							problems = append(problems, problem(c, i, "%s (%s): price %q is not a positive number: left out", it, sku, usd))
							continue
						}
						prices = append(prices, v)
					}
				}
			}
			switch {
			case len(prices) == 0:
				problems = append(problems, problem(c, i, "%s (%s): no on-demand price per hour in the file", it, sku))
			case len(prices) > 1 || seen[it]:
				problems = append(problems, problem(c, i, "%s: more than one on-demand price for one instance type in %s: left out for a reviewer", it, region))
			default:
				seen[it] = true
				out = append(out, importer.Observed{Provider: "aws", Instance: it, Region: region, Billing: "on-demand", Value: prices[0],
					Currency: "USD", AsOf: day(c.Retrieved), DateBasis: "api-retrieved", Source: awsDocs, Where: fmt.Sprintf("%s exchange %d", c.Name(), i+1)})
			}
		}
	}
	return out, problems
}
