// Package capture records what the providers' own price APIs and price
// pages answered, as evidence the catalog cites, and reads price
// observations back out of those records ("generator capture").
//
// A run asks each provider's source (an API through its official SDK, or
// a public endpoint) what data/captures/queries.toml lists, and writes
// one Capture per provider: every request's parameters (never a
// credential), the response body as received, its SHA-256 and the
// retrieval time, as data/captures/<provider>/<date>-<api>.json. The
// source's parser turns a capture into observations (instance, region,
// billing, price, currency) without touching the network; bad answers
// (an error code, throttling, a missing field, a currency or unit the
// catalog does not know) are reported and yield nothing. The observations
// merge into the offers files as new history through the importer, each
// price citing its capture and the capture's SHA-256, which check
// verifies.
package capture

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
)

// Format is the version of the capture file format this package writes.
const Format = 1

// Capture is one run's record of one provider's price source.
type Capture struct {
	Format   int    `json:"format"`
	Provider string `json:"provider"` // the catalog's provider id
	// API names the source: "tencent-cvm-inquiry-price", "azure-retail-prices", ...
	API string `json:"api"`
	// Endpoint is the address the requests went to.
	Endpoint string `json:"endpoint"`
	// Retrieved is when the run started (UTC); the observations' as_of is
	// its date.
	Retrieved time.Time `json:"retrieved_at"`
	// Note says what the body is, where that needs saying (an excerpt of
	// a bulk file, an SDK's response type marshalled back to JSON).
	Note      string     `json:"note,omitempty"`
	Exchanges []Exchange `json:"exchanges"`
}

// Exchange is one request and what came back.
type Exchange struct {
	// Request holds the parameters sent (and, under "catalog", what the
	// query says the instance is), never a credential.
	Request map[string]any `json:"request"`
	// Status is the HTTP status, or 0 when the request failed before one
	// came back (Error then says why).
	Status int    `json:"status"`
	Error  string `json:"error,omitempty"`
	// Body is the response body as received (for SDK sources, the SDK's
	// response value as JSON).
	Body string `json:"body"`
	// SHA256 is the hex SHA-256 of Body.
	SHA256 string `json:"sha256"`
}

// NewExchange records a response body with its hash.
func NewExchange(req map[string]any, status int, body []byte, err error) Exchange {
	sum := sha256.Sum256(body)
	e := Exchange{Request: req, Status: status, Body: string(body), SHA256: hex.EncodeToString(sum[:])}
	if err != nil {
		e.Error = err.Error()
	}
	return e
}

// Name is the capture's path under catalog.CaptureDir:
// provider/YYYY-MM-DD-api.json.
func (c *Capture) Name() string {
	return c.Provider + "/" + c.Retrieved.UTC().Format(time.DateOnly) + "-" + c.API + ".json"
}

// Encode returns the capture's file bytes (indented JSON, a final
// newline; HTML characters are not escaped, so a body reads as sent).
func (c *Capture) Encode() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(c); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Write writes the capture under root's catalog.CaptureDir, atomically (a
// temporary file renamed into place), and returns its path under
// CaptureDir and the file's SHA-256. It refuses to replace a capture that
// exists with other bytes: captures are evidence, and a second run on the
// same day gets its own name (-2, -3, ...).
func Write(root string, c *Capture) (name, sum string, err error) {
	data, err := c.Encode()
	if err != nil {
		return "", "", err
	}
	h := sha256.Sum256(data)
	sum = hex.EncodeToString(h[:])
	base := strings.TrimSuffix(c.Name(), ".json")
	for n := 1; ; n++ {
		name = base + ".json"
		if n > 1 {
			name = fmt.Sprintf("%s-%d.json", base, n)
		}
		p := filepath.Join(root, catalog.CaptureDir, filepath.FromSlash(name))
		old, err := os.ReadFile(p)
		if err == nil {
			if bytes.Equal(old, data) {
				return name, sum, nil
			}
			continue
		}
		if !os.IsNotExist(err) {
			return "", "", err
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", "", err
		}
		tmp, err := os.CreateTemp(filepath.Dir(p), ".capture-*")
		if err != nil {
			return "", "", err
		}
		if _, err := tmp.Write(data); err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			return "", "", err
		}
		if err := tmp.Close(); err != nil {
			os.Remove(tmp.Name())
			return "", "", err
		}
		if err := os.Chmod(tmp.Name(), 0o644); err != nil {
			os.Remove(tmp.Name())
			return "", "", err
		}
		if err := os.Rename(tmp.Name(), p); err != nil {
			os.Remove(tmp.Name())
			return "", "", err
		}
		return name, sum, nil
	}
}

// Read reads a capture file and checks it: the format, the provider and
// every exchange's body against its recorded SHA-256.
func Read(path string) (*Capture, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Decode(path, data)
}

// Decode is Read on bytes already read; path names the file in errors.
func Decode(path string, data []byte) (*Capture, error) {
	var c Capture
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("%s: not a capture file: %v", path, err)
	}
	switch {
	case c.Format != Format:
		return nil, fmt.Errorf("%s: capture format %d, this generator reads format %d", path, c.Format, Format)
	case c.Provider == "" || c.API == "" || c.Retrieved.IsZero():
		return nil, fmt.Errorf("%s: a capture names its provider, api and retrieved_at", path)
	}
	for i, e := range c.Exchanges {
		sum := sha256.Sum256([]byte(e.Body))
		if got := hex.EncodeToString(sum[:]); got != e.SHA256 {
			return nil, fmt.Errorf("%s: exchange %d: the body's SHA-256 is %s, not the recorded %s: the capture was edited", path, i+1, got, e.SHA256)
		}
	}
	return &c, nil
}
