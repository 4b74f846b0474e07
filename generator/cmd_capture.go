package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/capture"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/importer"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/site"
)

// cmdCapture asks the providers' own price APIs (and keeps their price
// pages), stores what they answered as captures, and merges the prices
// read from them into the offers files as new history.
func cmdCapture(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("capture", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", ".", "site root: data/captures/queries.toml is read, captures are written under data/captures/ and prices merged into data/offers/")
	providers := fs.String("providers", "", "comma-separated provider ids to capture (default: every provider queries.toml names)")
	noMerge := fs.Bool("no-merge", false, "write the captures only; merge nothing into data/offers/")
	timeout := fs.Duration("timeout", 2*time.Minute, "limit for each HTTP request")
	read := fs.Bool("read", false, "read the captures named as arguments (paths under data/captures/) instead of asking the providers, and merge their prices")
	record := fs.Bool("record", false, "record an answer obtained elsewhere (-provider, -api, -request, -response) as a capture, then merge its prices")
	provider := fs.String("provider", "", "-record: the provider id")
	api := fs.String("api", "", "-record: the source's api name (generator capture -h lists them)")
	reqFile := fs.String("request", "", "-record: a JSON file of the request's parameters (never a credential)")
	respFile := fs.String("response", "", "-record: the file holding the answer's body as received")
	retrieved := fs.String("retrieved", "", "-record: when the answer was received (RFC 3339; default now)")
	fs.Usage = func() { captureUsage(fs) }
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	now, err := site.Today()
	if err != nil {
		fmt.Fprintln(stderr, "capture:", err)
		return 2
	}
	var written []capture.Written
	code, ok := 0, true
	switch {
	case *record:
		if *provider == "" || *api == "" || *reqFile == "" || *respFile == "" || len(pos) > 0 {
			fs.Usage()
			return 2
		}
		written, code, ok = captureRecord(*root, *provider, *api, *reqFile, *respFile, *retrieved, stdout, stderr)
	case *read:
		if len(pos) == 0 {
			fs.Usage()
			return 2
		}
		if written, err = capture.ReadWritten(*root, pos); err != nil {
			fmt.Fprintln(stderr, "capture:", err)
			return 1
		}
	default:
		if len(pos) > 0 {
			fs.Usage()
			return 2
		}
		written, code, ok = captureAsk(*root, *providers, *timeout, stdout, stderr)
	}
	if !ok || *noMerge || len(written) == 0 {
		return code
	}
	if c := captureMerge(*root, written, now, stdout, stderr); c != 0 {
		return c
	}
	return code
}

// captureUsage prints the command's usage, with the sources and the
// environment variables they need, to fs's output.
func captureUsage(fs *flag.FlagSet) {
	w := fs.Output()
	fmt.Fprintln(w, "usage: generator capture [-root DIR] [-providers ID,ID] [-no-merge] [-timeout D]")
	fmt.Fprintln(w, "       generator capture -read [-root DIR] [-no-merge] CAPTURE...")
	fmt.Fprintln(w, "       generator capture -record -provider ID -api API -request REQ.json -response BODY [-retrieved TIME] [-root DIR] [-no-merge]")
	fmt.Fprintln(w, "\nAsks each provider's own price source what data/captures/queries.toml lists, stores every answer (request")
	fmt.Fprintln(w, "parameters, body, SHA-256, retrieval time; never a credential) as data/captures/<provider>/<date>-<api>.json,")
	fmt.Fprintln(w, "and merges the prices read from them into data/offers/ as new observations (history; nothing is overwritten),")
	fmt.Fprintln(w, "each citing its capture and the capture's SHA-256 (check verifies both). A provider whose credentials are")
	fmt.Fprintln(w, "not in the environment is skipped with one line. A request that is not answered HTTP 200 with a body that")
	fmt.Fprintln(w, "parses (JSON; HTML for a page) is a failure: one line says why and nothing is written for it.")
	fmt.Fprintln(w, "Exit 0 when every request asked was answered and read; 1 when any failed or an answer held a problem.")
	fmt.Fprintln(w, "\nSources and the environment variables they need:")
	for _, s := range capture.Sources() {
		env := strings.Join(s.Credentials(), ", ")
		if ro, ok := s.(interface{ RecordOnly() bool }); ok && ro.RecordOnly() {
			env = "recorded answers only (-record): see CONTRIBUTING.md"
		} else if env == "" {
			env = "none (public)"
		}
		fmt.Fprintf(w, "  %-15s %-30s %s\n", s.Provider(), s.API(), env)
	}
	fmt.Fprintln(w, "  (any provider)  page                           none: pages = [...] keeps public price pages as evidence")
	fmt.Fprintln(w)
	fs.PrintDefaults()
}

// captureRecord stores an answer obtained elsewhere (-record): the
// request's parameters from the JSON file reqFile, the body from
// respFile, received at retrieved (RFC 3339; "" for now). It returns the
// capture written, 0 and true; or, after printing why to stderr, the exit
// code (2 for a bad argument, 1 when the capture is refused or cannot be
// written) and false.
func captureRecord(root, provider, api, reqFile, respFile, retrieved string, stdout, stderr io.Writer) ([]capture.Written, int, bool) {
	var req map[string]any
	b, err := os.ReadFile(reqFile)
	if err == nil {
		err = json.Unmarshal(b, &req)
	}
	if err != nil {
		fmt.Fprintf(stderr, "capture: -request %s: %v\n", reqFile, err)
		return nil, 2, false
	}
	body, err := os.ReadFile(respFile)
	if err != nil {
		fmt.Fprintln(stderr, "capture:", err)
		return nil, 2, false
	}
	at := time.Now().UTC()
	if retrieved != "" {
		if at, err = time.Parse(time.RFC3339, retrieved); err != nil || at.After(time.Now()) {
			fmt.Fprintf(stderr, "capture: -retrieved %q is not an RFC 3339 time up to now\n", retrieved)
			return nil, 2, false
		}
	}
	w, err := capture.Record(root, provider, api, at, req, body)
	if err != nil {
		fmt.Fprintln(stderr, "capture:", err)
		return nil, 1, false
	}
	fmt.Fprintf(stdout, "recorded %s/%s (sha256 %s)\n", catalog.CaptureDir, w.Name, w.SHA256)
	return []capture.Written{w}, 0, true
}

// captureAsk asks the providers' sources (providers: comma-separated
// ids, "" for all), each HTTP request limited to timeout, logging to
// stdout. It returns the captures written, the exit code so far (1 when
// a provider failed) and true; or, after printing the run's error to
// stderr, 1 and false.
func captureAsk(root, providers string, timeout time.Duration, stdout, stderr io.Writer) ([]capture.Written, int, bool) {
	var ids []string
	if providers != "" {
		ids = strings.Split(providers, ",")
	}
	written, sum, err := capture.Run(context.Background(), capture.Options{Root: root, Providers: ids, Env: os.Getenv,
		Fetcher: capture.Fetcher{Client: &http.Client{Timeout: timeout}}, Log: stdout})
	if err != nil {
		fmt.Fprintln(stderr, "capture:", err)
		return nil, 1, false
	}
	fmt.Fprintf(stdout, "%d provider(s) captured, %d skipped, %d failed\n", sum.Captured, sum.Skipped, sum.Failed)
	if sum.Failed > 0 {
		return written, 1, true
	}
	return written, 0, true
}

// captureMerge reads the prices in the captures written and merges them
// into root's data/offers/, printing reports, problems and conflicts to
// stderr and a summary to stdout. It returns 1 when the catalog does not
// load, a merge fails or an answer held a problem, else 0.
func captureMerge(root string, written []capture.Written, now time.Time, stdout, stderr io.Writer) int {
	cat, d := catalog.Load(root, now)
	if cat == nil {
		d.Print(stderr)
		fmt.Fprintf(stderr, "capture: the catalog under %s does not load; the captures are kept, nothing merged\n", root)
		return 1
	}
	results, problems := capture.Observe(cat, written, now)
	for _, p := range problems {
		fmt.Fprintln(stderr, "capture:", p)
	}
	var prices, offers, kept, conflicts int
	for _, res := range results {
		res.Reports.Print(stderr)
		rep, err := importer.MergeInto(root, res)
		if err != nil {
			fmt.Fprintln(stderr, "capture:", err)
			return 1
		}
		for _, c := range rep.Conflicts {
			fmt.Fprintln(stderr, "merge:", c)
		}
		prices, offers, kept, conflicts = prices+rep.Prices, offers+rep.Offers, kept+rep.Kept, conflicts+len(rep.Conflicts)
	}
	fmt.Fprintf(stdout, "merged: %d new observation(s), %d new offer(s), %d kept as they were, %d conflict(s), %d problem(s) in the answers\n",
		prices, offers, kept, conflicts, len(problems))
	if len(problems) > 0 {
		return 1
	}
	return 0
}
