package capture

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/importer"
)

// azureSource is the Azure Retail Prices API, a public REST API that
// needs no credentials (learn.microsoft.com/rest/api/cost-management/
// retail-prices/azure-retail-prices): GET .../api/retail/prices with an
// OData $filter, answered by {"BillingCurrency", "CustomerEntityId",
// "CustomerEntityType", "Items": [...], "NextPageLink", "Count"}, up to
// 1,000 items a page. No SDK: it is one unauthenticated GET, and the
// importer already reads its items.
type azureSource struct{}

const azureEndpoint = "https://prices.azure.com/api/retail/prices"

// azureDocs is the API's reference page, the captured prices' source.
const azureDocs = "https://learn.microsoft.com/en-us/rest/api/cost-management/retail-prices/azure-retail-prices"

// azureMaxPages bounds NextPageLink paging for one filter.
const azureMaxPages = 50

func (azureSource) Provider() string      { return "azure" }
func (azureSource) API() string           { return "azure-retail-prices" }
func (azureSource) Credentials() []string { return nil }

func (s azureSource) Fetch(ctx context.Context, f Fetcher, q Query, _ func(string) string) (*Capture, error) {
	if len(q.Regions) == 0 || len(q.SKUs) == 0 {
		return nil, fmt.Errorf("azure: %s names no regions or skus", QueriesFile)
	}
	base := f.endpoint("azure", azureEndpoint)
	c := &Capture{Format: Format, Provider: "azure", API: s.API(), Endpoint: base, Retrieved: f.now(),
		Note: "Each body is one page of the Azure Retail Prices API's answer (USD, retail: no account's discount)."}
	skus := make([]string, len(q.SKUs))
	for i, sku := range q.SKUs {
		skus[i] = "armSkuName eq '" + strings.ReplaceAll(sku, "'", "''") + "'"
	}
	for _, region := range q.Regions {
		filter := fmt.Sprintf("serviceName eq 'Virtual Machines' and armRegionName eq '%s' and (%s)", strings.ReplaceAll(region, "'", "''"), strings.Join(skus, " or "))
		next := base + "?" + url.Values{"api-version": {"2023-01-01-preview"}, "currencyCode": {"'USD'"}, "$filter": {filter}}.Encode()
		for page := 1; next != "" && page <= azureMaxPages; page++ {
			req := map[string]any{"url": next, "catalog": map[string]any{"region": region}}
			status, body, err := get(ctx, f.Client, next)
			c.Exchanges = append(c.Exchanges, NewExchange(req, status, body, err))
			if err != nil || status != http.StatusOK {
				break
			}
			var p struct{ NextPageLink string }
			if json.Unmarshal(body, &p) != nil {
				break
			}
			next = p.NextPageLink
		}
	}
	return c, nil
}

// get fetches a URL and returns its status and body (at most 256 MiB).
func get(ctx context.Context, hc *http.Client, u string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("User-Agent", "gpu-atlas-capture")
	resp, err := hc.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	return resp.StatusCode, body, err
}

// Parse is not how Azure captures are read (see ParseResult): the
// importer's Azure reader maps sizes to GPUs and billing modes.
func (azureSource) Parse(c *Capture) ([]importer.Observed, []string) { return nil, nil }

// ParseResult reads an Azure capture through the importer's Azure Retail
// Prices reader: every page's items, as one response.
func (s azureSource) ParseResult(c *Capture, cat *catalog.Catalog, sha string, now time.Time) (*importer.Result, []string) {
	var problems []string
	var items []json.RawMessage
	for i, e := range c.Exchanges {
		if msg := httpProblem(e); msg != "" {
			problems = append(problems, problem(c, i, "%s", msg))
			continue
		}
		var page struct {
			Items *[]json.RawMessage `json:"Items"`
		}
		if err := json.Unmarshal([]byte(e.Body), &page); err != nil || page.Items == nil {
			problems = append(problems, problem(c, i, "not a Retail Prices answer (no Items): nothing read from it"))
			continue
		}
		items = append(items, *page.Items...)
	}
	if len(items) == 0 {
		return nil, problems
	}
	doc, _ := json.Marshal(map[string]any{"Items": items})
	res, err := importer.Import(strings.NewReader(string(doc)), importer.Options{Format: "azure", File: c.Name(), Catalog: cat, Now: now,
		AsOf: day(c.Retrieved), Evidence: "first-party", DateBasis: "api-retrieved", Source: azureDocs, Currency: "USD",
		Capture: c.Name(), CaptureSHA: sha})
	if err != nil {
		return nil, append(problems, fmt.Sprintf("%s: %v", c.Name(), err))
	}
	return res, problems
}

// httpProblem says what is wrong with an exchange that did not answer
// 200 OK (answerProblem), for a parser's problem list; "" when it did.
func httpProblem(e Exchange) string {
	if why := answerProblem(e); why != "" {
		return why + ": nothing read from it"
	}
	return ""
}

// day is the UTC date of t.
func day(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}
