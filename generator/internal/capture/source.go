package capture

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/importer"
)

// Source is one provider's price source: how to ask it (Fetch, which
// needs the network and, for most, credentials) and how to read what it
// answered (Parse, which needs neither).
type Source interface {
	// Provider is the catalog's provider id.
	Provider() string
	// API names the source in capture file names.
	API() string
	// Credentials are the environment variables Fetch needs, all of
	// them; none for a public source.
	Credentials() []string
	// Fetch asks the source what q lists and returns the record. env
	// gives the credentials; they must not reach the record.
	Fetch(ctx context.Context, f Fetcher, q Query, env func(string) string) (*Capture, error)
	// Parse reads the observations out of a capture. Each problem (an
	// error response, throttling, a missing field, an unknown currency or
	// unit) is one message; an exchange with a problem yields nothing.
	Parse(c *Capture) ([]importer.Observed, []string)
}

// Fetcher is what sources fetch with: the HTTP client (with its
// timeout), and the endpoints, which tests point at a local server.
type Fetcher struct {
	Client *http.Client
	// Endpoints replaces a source's default endpoint, by provider id.
	Endpoints map[string]string
	Now       func() time.Time
}

func (f Fetcher) endpoint(provider, def string) string {
	if e := f.Endpoints[provider]; e != "" {
		return e
	}
	return def
}

func (f Fetcher) now() time.Time {
	if f.Now != nil {
		return f.Now().UTC()
	}
	return time.Now().UTC()
}

// Sources returns every source this build has, sorted by provider.
func Sources() []Source {
	s := []Source{azureSource{}, awsSource{}, tencentSource{}, alibabaSource{}, baiduSource{}, huaweiSource{}}
	sort.Slice(s, func(i, j int) bool { return s[i].Provider() < s[j].Provider() })
	return s
}

// SourceFor returns the source that reads a capture of the provider and
// API, or nil (page captures have none: a reviewer reads them).
func SourceFor(provider, api string) Source {
	for _, s := range Sources() {
		if s.API() == api && s.Provider() == provider {
			return s
		}
	}
	return nil
}

// Missing returns the credentials of s that env lacks.
func Missing(s Source, env func(string) string) []string {
	var out []string
	for _, k := range s.Credentials() {
		if strings.TrimSpace(env(k)) == "" {
			out = append(out, k)
		}
	}
	return out
}

// errorf formats a parse problem of one exchange.
func problem(c *Capture, i int, format string, args ...any) string {
	return fmt.Sprintf("%s exchange %d: %s", c.Name(), i+1, fmt.Sprintf(format, args...))
}
