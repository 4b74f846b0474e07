package capture

import (
	"bytes"
	"io"
	"net/http"
	"sync"
)

// recorder is an http.RoundTripper that keeps the last response's status
// and body as received, for the SDK sources: the SDK reads the answer,
// the capture keeps its bytes. It records nothing of the request (whose
// headers carry the signature).
type recorder struct {
	next   http.RoundTripper
	mu     sync.Mutex
	status int
	body   []byte
}

func newRecorder(hc *http.Client) *recorder {
	next := http.DefaultTransport
	if hc != nil && hc.Transport != nil {
		next = hc.Transport
	}
	return &recorder{next: next}
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.status, r.body = resp.StatusCode, body
	r.mu.Unlock()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

// take returns and clears the last response.
func (r *recorder) take() (int, []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, b := r.status, r.body
	r.status, r.body = 0, nil
	return s, b
}
