package capture

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
)

// failingAnswers are the ways a source can answer that are not evidence,
// each with what the log must say.
var failingAnswers = []struct {
	name    string
	handler http.HandlerFunc // nil: no server listens
	want    string
}{
	{"no network", nil, "no answer ("},
	{"non-200", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "internal error", http.StatusInternalServerError)
	}, "HTTP 500: internal error"},
	{"throttled", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTooManyRequests)
	}, "throttled (HTTP 429), capture again later"},
	{"empty body", func(w http.ResponseWriter, r *http.Request) {}, "HTTP 200 with an empty body"},
	{"unparseable body", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"Items": [{"retailPrice": 98.3`))
	}, "HTTP 200, but the body is not JSON (unexpected end of JSON input)"},
}

// deadURL returns the address of a port nothing listens on.
func deadURL(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := "http://" + l.Addr().String()
	l.Close()
	return u
}

// TestRunFailsHonestly: a request that is not answered 200 with a body
// that parses is a failure: the provider counts as failed, the log says
// why in one line, and nothing is written for it.
func TestRunFailsHonestly(t *testing.T) {
	for _, tc := range failingAnswers {
		t.Run(tc.name, func(t *testing.T) {
			url := deadURL(t)
			if tc.handler != nil {
				srv := httptest.NewServer(tc.handler)
				defer srv.Close()
				url = srv.URL
			}
			root := queriesRoot(t, "[azure]\nregions = [\"eastus\"]\nskus = [\"Standard_ND96isr_H100_v5\"]\n")
			var log bytes.Buffer
			written, sum, err := Run(context.Background(), Options{Root: root, Env: func(string) string { return "" }, Log: &log,
				Fetcher: Fetcher{Client: &http.Client{Timeout: 5 * time.Second}, Endpoints: map[string]string{"azure": url}, Now: func() time.Time { return retrieved }}})
			if err != nil {
				t.Fatal(err)
			}
			if len(written) != 0 || sum != (Summary{Failed: 1}) {
				t.Errorf("wrote %d captures, summary %+v; want none written, 1 failed", len(written), sum)
			}
			lines := strings.Split(strings.TrimSpace(log.String()), "\n")
			if len(lines) != 2 || !strings.HasPrefix(lines[0], "failed azure: request 1 (") || !strings.Contains(lines[0], tc.want) ||
				lines[1] != "failed azure: nothing written (0 of 1 request(s) answered)" {
				t.Errorf("log:\n%s\nwant a failed line with %q, then nothing written", log.String(), tc.want)
			}
			if ents, _ := os.ReadDir(filepath.Join(root, catalog.CaptureDir)); len(ents) != 1 {
				t.Errorf("%s holds %d entries, want queries.toml only", catalog.CaptureDir, len(ents))
			}
		})
	}
}

// TestRunFailsHonestlyOnPages: a price page that does not answer with an
// HTML document is a failure, and one that does is kept.
func TestRunFailsHonestlyOnPages(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok":
			w.Write([]byte("<!DOCTYPE html><html><body>4090 1.98/h</body></html>"))
		case "/text":
			w.Write([]byte("service unavailable, try later"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	root := queriesRoot(t, "[autodl]\npages = [\""+srv.URL+"/ok\", \""+srv.URL+"/text\", \""+srv.URL+"/gone\"]\n")
	var log bytes.Buffer
	written, sum, err := Run(context.Background(), Options{Root: root, Env: func(string) string { return "" }, Log: &log,
		Fetcher: Fetcher{Client: srv.Client(), Now: func() time.Time { return retrieved }}})
	if err != nil {
		t.Fatal(err)
	}
	if sum != (Summary{Failed: 1}) || len(written) != 1 || len(written[0].Capture.Exchanges) != 1 {
		t.Fatalf("summary %+v, %d written; want the one page that answered kept and the provider counted as failed", sum, len(written))
	}
	for _, want := range []string{
		"failed autodl: request 2 (" + srv.URL + "/text): HTTP 200, but the body is not an HTML page",
		"failed autodl: request 3 (" + srv.URL + "/gone): HTTP 404: 404 page not found",
		"captured autodl: 1 of 3 page(s) answered -> data/captures/autodl/2025-10-20-page.json",
	} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
	if d := CheckFiles(root); d.HasErrors() {
		t.Errorf("check rejects the capture of the page that answered: %v", d.Errors())
	}
}

// TestRecordRefusesAFailedAnswer: -record keeps only evidence.
func TestRecordRefusesAFailedAnswer(t *testing.T) {
	root := t.TempDir()
	for body, want := range map[string]string{"": "empty body", "<html>": "not JSON"} {
		_, err := Record(root, "huawei-cloud", "huawei-bss-on-demand-ratings", retrieved, map[string]any{"region": "cn-north-4"}, []byte(body))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Record(%q): %v, want an error saying %q", body, err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, catalog.CaptureDir)); !os.IsNotExist(err) {
		t.Errorf("Record wrote under %s for a failed answer", catalog.CaptureDir)
	}
}

// TestCheckFilesRejectsBadCaptures: check rejects every capture file that
// is not evidence, cited or not, at the line of the exchange.
func TestCheckFilesRejectsBadCaptures(t *testing.T) {
	good := NewExchange(map[string]any{"region": "eastus"}, 200, []byte(`{"Items": []}`), nil)
	cases := []struct {
		name      string
		exchanges []Exchange
		want      string // "" : accepted
	}{
		{"good", []Exchange{good}, ""},
		{"empty", nil, "2025-10-20-azure-retail-prices.json:1:1: the capture holds no exchanges"},
		{"non-200", []Exchange{good, NewExchange(map[string]any{"region": "westeurope"}, 503, []byte("busy"), nil)}, ":16:5: exchange 2 is not evidence: HTTP 503: busy"},
		{"no answer", []Exchange{NewExchange(map[string]any{}, 0, nil, os.ErrDeadlineExceeded)}, ":8:5: exchange 1 is not evidence: no answer (i/o timeout)"},
		{"empty body", []Exchange{NewExchange(map[string]any{}, 200, nil, nil)}, ":8:5: exchange 1 is not evidence: HTTP 200 with an empty body"},
		{"unparseable", []Exchange{NewExchange(map[string]any{}, 200, []byte("<html>"), nil)}, ":8:5: exchange 1 is not evidence: HTTP 200, but the body is not JSON"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			c := &Capture{Format: Format, Provider: "azure", API: "azure-retail-prices", Endpoint: "https://prices.azure.com", Retrieved: retrieved, Exchanges: tc.exchanges}
			if tc.exchanges == nil {
				c.Exchanges = []Exchange{}
			}
			if _, _, err := Write(root, c); err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			CheckFiles(root).Print(&out)
			switch {
			case tc.want == "" && out.Len() > 0:
				t.Errorf("a good capture is rejected:\n%s", out.String())
			case tc.want != "" && !strings.Contains(out.String(), tc.want):
				t.Errorf("check says:\n%s\nwant %q", out.String(), tc.want)
			case tc.want != "" && !CheckFiles(root).HasErrors():
				t.Errorf("check accepts %s", tc.name)
			}
		})
	}
	// An edited body fails its hash, whoever cites it.
	root := t.TempDir()
	c := &Capture{Format: Format, Provider: "azure", API: "azure-retail-prices", Retrieved: retrieved, Exchanges: []Exchange{good}}
	name, _, err := Write(root, c)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, catalog.CaptureDir, name)
	b, _ := os.ReadFile(p)
	os.WriteFile(p, bytes.Replace(b, []byte(`[]`), []byte(`[1]`), 1), 0o644)
	if d := CheckFiles(root); !d.HasErrors() || !strings.Contains(d.Errors()[0].String(), "the capture was edited") {
		t.Errorf("an edited capture: %v", d.Errors())
	}
}
