package capture

import "context"

// PageAPI is the api name of a page capture: a public price page (the
// AutoDL-class platforms', whose prices have no API) kept as served, with
// its hash. No prices are read out of it: most such pages render their
// price tables in the browser from private APIs, so the served HTML holds
// no figures to parse reliably; a reviewer reads the capture and enters
// what it shows, citing it (date_basis = "page-captured").
const PageAPI = "page"

// fetchPages captures the pages of one provider.
func fetchPages(ctx context.Context, f Fetcher, provider string, pages []string) *Capture {
	c := &Capture{Format: Format, Provider: provider, API: PageAPI, Retrieved: f.now(),
		Note: "Each body is a public page as served (HTML), kept as evidence for prices a reviewer reads from it."}
	for _, u := range pages {
		status, body, err := get(ctx, f.Client, u)
		c.Exchanges = append(c.Exchanges, NewExchange(map[string]any{"url": u}, status, body, err))
	}
	return c
}
