package capture

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

// An exchange is evidence only when its request was answered HTTP 200
// with a body that is not empty and parses as its source's format: JSON
// for every API source, an HTML document for a page capture. Anything
// else (no answer, an error status, an empty or truncated body) is a
// failure: a run writes nothing for it and exits non-zero, -record
// refuses it, and check rejects a capture file holding one.

// Failure says why an exchange of a capture of api is not evidence, in a
// few words; "" when it is.
func Failure(api string, e Exchange) string {
	if why := answerProblem(e); why != "" {
		return why
	}
	switch {
	case e.Error != "":
		return "HTTP 200, but the body could not be read whole (" + e.Error + ")"
	case strings.TrimSpace(e.Body) == "":
		return "HTTP 200 with an empty body"
	}
	if api == PageAPI {
		if !looksHTML(e.Body) {
			return "HTTP 200, but the body is not an HTML page (no <html> or <!doctype html>)"
		}
		return ""
	}
	var v any
	if err := json.Unmarshal([]byte(e.Body), &v); err != nil {
		return "HTTP 200, but the body is not JSON (" + err.Error() + ")"
	}
	if v == nil {
		return "HTTP 200, but the body is JSON null"
	}
	return ""
}

// answerProblem says why an exchange got no 200 answer: no answer at
// all, throttling, or another status with the start of its body; "" for
// a 200. The one wording of a failed request, for Failure and the
// parsers (httpProblem).
func answerProblem(e Exchange) string {
	switch {
	case e.Status == 0 && e.Error != "":
		return "no answer (" + e.Error + ")"
	case e.Status == 0:
		return "no answer"
	case e.Status == http.StatusTooManyRequests:
		return "throttled (HTTP 429), capture again later"
	case e.Status != http.StatusOK:
		msg := fmt.Sprintf("HTTP %d", e.Status)
		if b := strings.Join(strings.Fields(e.Body), " "); b != "" {
			msg += fmt.Sprintf(": %.120s", b)
		}
		return msg
	}
	return ""
}

// looksHTML reports whether a body is an HTML document: it opens (after
// whitespace, a byte-order mark and comments) with a doctype or an html
// element. A page that answers 200 with an error text or a JSON body is
// not the price page it was asked for.
func looksHTML(body string) bool {
	head := strings.ToLower(body[:min(len(body), 4096)])
	return strings.Contains(head, "<!doctype html") || strings.Contains(head, "<html")
}

// describe names an exchange's request in a log line: its URL, else its
// parameters without the catalog part, shortened.
func describe(e Exchange) string {
	if u, ok := e.Request["url"].(string); ok {
		return fmt.Sprintf("%.160s", u)
	}
	m := map[string]any{}
	for k, v := range e.Request {
		if k != "catalog" {
			m[k] = v
		}
	}
	b, _ := json.Marshal(m)
	return fmt.Sprintf("%.160s", b)
}

// answered splits c's exchanges into those that are evidence and one
// line per failure ("request N (what was asked): why").
func answered(c *Capture) (good []Exchange, failures []string) {
	for i, e := range c.Exchanges {
		if why := Failure(c.API, e); why != "" {
			failures = append(failures, fmt.Sprintf("request %d (%s): %s", i+1, describe(e), why))
			continue
		}
		good = append(good, e)
	}
	return good, failures
}

// Verify checks a capture read from a file (Decode has checked its
// format and hashes): it must hold at least one exchange, and every
// exchange must be evidence (Failure). It returns one message per
// problem, each with the 1-based exchange it is about (0: the capture).
func Verify(c *Capture) []Problem {
	if len(c.Exchanges) == 0 {
		return []Problem{{Msg: "the capture holds no exchanges: it is not evidence of anything (delete it and capture again)"}}
	}
	var out []Problem
	for i, e := range c.Exchanges {
		if why := Failure(c.API, e); why != "" {
			out = append(out, Problem{Exchange: i + 1, Msg: fmt.Sprintf("exchange %d is not evidence: %s (delete the capture and capture again)", i+1, why)})
		}
	}
	return out
}

// Problem is one thing wrong with a capture file.
type Problem struct {
	Exchange int // 1-based; 0: the capture as a whole
	Msg      string
}

// CheckFiles checks every capture under root's catalog.CaptureDir, cited
// or not: each must decode (format, provider, api, time, body hashes)
// and pass Verify. Problems are errors at the file, and at the line of
// the exchange they are about.
func CheckFiles(root string) *diag.List {
	d := &diag.List{}
	dir := filepath.Join(root, catalog.CaptureDir)
	var files []string
	err := filepath.WalkDir(dir, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !de.IsDir() && strings.HasSuffix(p, ".json") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		d.Errorf(catalog.CaptureDir, 0, 0, "%v", err)
		return d
	}
	sort.Strings(files)
	for _, p := range files {
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(p)
		if err != nil {
			d.Errorf(rel, 0, 0, "%v", err)
			continue
		}
		c, err := Decode(rel, data)
		if err != nil {
			d.Errorf(rel, 1, 1, "%s", strings.TrimPrefix(err.Error(), rel+": "))
			continue
		}
		at := exchangePositions(data)
		for _, pr := range Verify(c) {
			pos := [2]int{1, 1}
			if pr.Exchange > 0 && pr.Exchange <= len(at) {
				pos = at[pr.Exchange-1]
			}
			d.Errorf(rel, pos[0], pos[1], "%s", pr.Msg)
		}
	}
	return d
}

// exchangePositions returns the 1-based line and column (in runes) each
// element of the top-level "exchanges" array starts at, from the
// decoder's offsets.
func exchangePositions(data []byte) [][2]int {
	dec := json.NewDecoder(bytes.NewReader(data))
	lineAt := func(off int64) [2]int {
		start := bytes.LastIndexByte(data[:off], '\n') + 1
		return [2]int{1 + bytes.Count(data[:off], []byte("\n")), 1 + utf8.RuneCount(data[start:off])}
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil
		}
		if k != "exchanges" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			return nil
		}
		var out [][2]int
		for dec.More() {
			// InputOffset is the end of the previous token; the element
			// starts at the next '{' after it.
			off := dec.InputOffset()
			if i := bytes.IndexByte(data[off:], '{'); i >= 0 {
				off += int64(i)
			}
			out = append(out, lineAt(off))
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return out
			}
		}
		return out
	}
	return nil
}
