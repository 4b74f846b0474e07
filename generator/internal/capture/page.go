package capture

import (
	"context"
	"fmt"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/importer"
)

// pageSource keeps public price pages (the AutoDL-class platforms',
// whose prices have no API) as page captures: the page's bytes as
// served, with their hash. It reads no prices out of them: most such
// pages render their price tables in the browser from private APIs, so
// the served HTML holds no figures to parse reliably; a reviewer reads
// the capture and enters what it shows, citing it (date_basis =
// "page-captured").
type pageSource struct{}

func (pageSource) Provider() string      { return "" } // any provider with pages in the queries
func (pageSource) API() string           { return "page" }
func (pageSource) Credentials() []string { return nil }

func (s pageSource) Fetch(ctx context.Context, f Fetcher, q Query, _ func(string) string) (*Capture, error) {
	return nil, fmt.Errorf("page captures are fetched with fetchPages")
}

// fetchPages captures the pages of one provider.
func fetchPages(ctx context.Context, f Fetcher, provider string, pages []string) *Capture {
	c := &Capture{Format: Format, Provider: provider, API: "page", Endpoint: "", Retrieved: f.now(),
		Note: "Each body is a public page as served (HTML), kept as evidence for prices a reviewer reads from it."}
	for _, u := range pages {
		status, body, err := get(ctx, f.Client, u)
		c.Exchanges = append(c.Exchanges, NewExchange(map[string]any{"url": u}, status, body, err))
	}
	return c
}

func (pageSource) Parse(*Capture) ([]importer.Observed, []string) { return nil, nil }
