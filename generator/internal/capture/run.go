package capture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/importer"
)

// Options says what a capture run asks and where it writes.
type Options struct {
	Root string // the site root: QueriesFile is read and captures written under it
	// Providers limits the run to these providers; empty: every provider
	// QueriesFile names.
	Providers []string
	// Env looks up credentials (os.Getenv); they never reach a capture.
	Env     func(string) string
	Fetcher Fetcher
	// Log gets one line per provider: what was captured, skipped or
	// failed, and why.
	Log io.Writer
}

// Written is a capture a run wrote (or found already written, byte for
// byte).
type Written struct {
	Name    string // its path under catalog.CaptureDir
	SHA256  string // of the file
	Capture *Capture
}

// Summary counts a run's providers.
type Summary struct {
	Captured, Skipped, Failed int
}

// Run asks each provider's source what QueriesFile lists and writes a
// capture per provider of the answers that are evidence (Failure). A
// provider whose credentials are not all in Env is skipped with one line;
// each request that fails is reported with one line, nothing is written
// for it, the provider counts as failed and the run goes on.
func Run(ctx context.Context, o Options) ([]Written, Summary, error) {
	q, err := LoadQueries(o.Root)
	if err != nil {
		return nil, Summary{}, err
	}
	ids := q.Providers()
	if len(o.Providers) > 0 {
		for _, id := range o.Providers {
			if _, ok := q[id]; !ok {
				return nil, Summary{}, fmt.Errorf("%s has no [%s] table (it names: %s)", QueriesFile, id, strings.Join(ids, ", "))
			}
		}
		ids = o.Providers
	}
	r := &run{o: o}
	for _, id := range ids {
		if err := r.provider(ctx, id, q[id]); err != nil {
			return r.out, r.sum, err
		}
	}
	return r.out, r.sum, nil
}

// run is a capture run under way: its options, the captures written so
// far and its counts.
type run struct {
	o   Options
	out []Written
	sum Summary
}

// logf writes one line to the run's log, if it has one.
func (r *run) logf(format string, args ...any) {
	if r.o.Log != nil {
		fmt.Fprintf(r.o.Log, format+"\n", args...)
	}
}

// provider captures one provider's pages and asks its API source, and
// counts the provider as captured, skipped or failed. Its error is one
// writing a capture, which ends the run.
func (r *run) provider(ctx context.Context, id string, pq Query) error {
	pagesFailed := false
	if len(pq.Pages) > 0 {
		ok, err := r.keep(id, fetchPages(ctx, r.o.Fetcher, id, pq.Pages), "page(s)")
		if err != nil {
			return err
		}
		pagesFailed = !ok
	}
	src := sourceOf(id)
	if src == nil {
		switch {
		case len(pq.Pages) == 0:
			r.logf("skip %s: no price API source for this provider in this build (pages = [...] keeps its price pages)", id)
			r.sum.Skipped++
		case pagesFailed:
			r.sum.Failed++
		default:
			r.sum.Captured++
		}
		return nil
	}
	if ro, ok := src.(interface{ RecordOnly() bool }); ok && ro.RecordOnly() {
		r.logf("skip %s: %v", id, ErrRecordOnly)
		r.sum.Skipped++
		return nil
	}
	if len(pq.Instances) == 0 && len(pq.SKUs) == 0 {
		r.logf("skip %s: %s lists nothing to ask", id, QueriesFile)
		r.sum.Skipped++
		return nil
	}
	if missing := Missing(src, r.o.Env); len(missing) > 0 {
		r.logf("skip %s: %s not set (add them as repository secrets; see CONTRIBUTING.md)", id, strings.Join(missing, ", "))
		r.sum.Skipped++
		return nil
	}
	return r.ask(ctx, id, pq, src, pagesFailed)
}

// ask asks the provider's API source what pq lists and keeps the
// answers; the provider counts as captured when every request was
// answered and its pages did not fail, as skipped when the source only
// takes recorded answers, and as failed otherwise.
func (r *run) ask(ctx context.Context, id string, pq Query, src Source, pagesFailed bool) error {
	c, err := src.Fetch(ctx, r.o.Fetcher, pq, r.o.Env)
	switch {
	case errors.Is(err, ErrRecordOnly):
		r.logf("skip %s: %v", id, err)
		r.sum.Skipped++
		return nil
	case err != nil:
		r.logf("failed %s: %v", id, err)
		r.sum.Failed++
		return nil
	}
	ok, err := r.keep(id, c, "request(s)")
	if err != nil {
		return err
	}
	if ok && !pagesFailed {
		r.sum.Captured++
	} else {
		r.sum.Failed++
	}
	return nil
}

// keep writes the exchanges of c that are evidence (Failure) and logs
// one line per failed request; ok is false when any failed. Nothing is
// written when none is evidence. what names the exchanges in the log
// ("page(s)").
func (r *run) keep(id string, c *Capture, what string) (ok bool, err error) {
	asked := len(c.Exchanges)
	good, failures := answered(c)
	for _, f := range failures {
		r.logf("failed %s: %s", id, f)
	}
	if len(good) == 0 {
		if asked == 0 {
			r.logf("failed %s: the source was asked nothing (check %s)", id, QueriesFile)
		}
		r.logf("failed %s: nothing written (0 of %d %s answered)", id, asked, what)
		return false, nil
	}
	c.Exchanges = good
	name, sha, err := Write(r.o.Root, c)
	if err != nil {
		return false, err
	}
	r.out = append(r.out, Written{Name: name, SHA256: sha, Capture: c})
	r.logf("captured %s: %d of %d %s answered -> %s/%s", id, len(good), asked, what, catalog.CaptureDir, name)
	return len(failures) == 0, nil
}

// sourceOf returns the API source of a provider, or nil.
func sourceOf(provider string) Source {
	for _, s := range Sources() {
		if s.Provider() == provider {
			return s
		}
	}
	return nil
}

// resultParser is a source whose captures the importer reads whole.
type resultParser interface {
	ParseResult(c *Capture, cat *catalog.Catalog, sha string, now time.Time) (*importer.Result, []string)
}

// Observe reads the prices out of captures, without the network: each
// capture through its source's parser. It returns one importer result
// per capture that yielded prices (for importer.MergeInto) and every
// problem found. Page captures yield none: a reviewer reads them.
func Observe(cat *catalog.Catalog, caps []Written, now time.Time) ([]*importer.Result, []string) {
	var results []*importer.Result
	var problems []string
	for _, w := range caps {
		c := w.Capture
		if c.API == PageAPI {
			continue
		}
		src := SourceFor(c.Provider, c.API)
		if src == nil {
			problems = append(problems, fmt.Sprintf("%s: no parser for provider %s, api %s", w.Name, c.Provider, c.API))
			continue
		}
		if rp, ok := src.(resultParser); ok {
			res, ps := rp.ParseResult(c, cat, w.SHA256, now)
			problems = append(problems, ps...)
			if res != nil {
				results = append(results, res)
			}
			continue
		}
		obs, ps := src.Parse(c)
		problems = append(problems, ps...)
		for i := range obs {
			obs[i].Capture, obs[i].CaptureSHA = w.Name, w.SHA256
		}
		if len(obs) > 0 {
			results = append(results, importer.Observations(cat, obs))
		}
	}
	return results, problems
}

// ReadWritten reads captures already on disk (paths under root's
// catalog.CaptureDir, or file paths) as Written, for Observe.
func ReadWritten(root string, names []string) ([]Written, error) {
	var out []Written
	dir := filepath.Join(root, catalog.CaptureDir)
	for _, n := range names {
		p := n
		if !filepath.IsAbs(p) && !strings.HasPrefix(filepath.ToSlash(p), catalog.CaptureDir+"/") {
			p = filepath.Join(dir, filepath.FromSlash(n))
		} else if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil || strings.HasPrefix(rel, "..") {
			return nil, fmt.Errorf("%s is not under %s", n, catalog.CaptureDir)
		}
		c, err := Read(p)
		if err != nil {
			return nil, err
		}
		if ps := Verify(c); len(ps) > 0 {
			return nil, fmt.Errorf("%s: %s", n, ps[0].Msg)
		}
		sha, err := catalog.FileSHA256(p)
		if err != nil {
			return nil, err
		}
		name := filepath.ToSlash(rel)
		if !strings.HasPrefix(name, strings.TrimSuffix(c.Name(), ".json")) { // provider/date-api.json, or -2.json, -3.json ...
			return nil, fmt.Errorf("%s: its name does not match its provider, date and api (%s)", n, c.Name())
		}
		out = append(out, Written{Name: name, SHA256: sha, Capture: c})
	}
	return out, nil
}

// Record makes a capture of an answer obtained elsewhere (the provider's
// official CLI, its API Explorer) for a source this build does not call
// itself: one exchange with the request's parameters and the body as
// given. A request that holds what looks like a credential is refused.
func Record(root, provider, api string, retrieved time.Time, req map[string]any, body []byte) (Written, error) {
	src := SourceFor(provider, api)
	if src == nil {
		return Written{}, fmt.Errorf("no parser for provider %s, api %s (known: %s)", provider, api, knownAPIs())
	}
	if k := credentialKey(req); k != "" {
		return Written{}, fmt.Errorf("the request holds %q, which looks like a credential: remove it (a capture is published)", k)
	}
	c := &Capture{Format: Format, Provider: provider, API: api, Endpoint: "recorded", Retrieved: retrieved.UTC(),
		Note: "Recorded with generator capture -record: an answer obtained with the provider's own tools, as given."}
	c.Exchanges = []Exchange{NewExchange(req, 200, body, nil)}
	if why := Failure(api, c.Exchanges[0]); why != "" {
		return Written{}, fmt.Errorf("the answer is not evidence: %s", why)
	}
	name, sha, err := Write(root, c)
	return Written{Name: name, SHA256: sha, Capture: c}, err
}

func knownAPIs() string {
	var out []string
	for _, s := range Sources() {
		if s.Provider() != "" {
			out = append(out, s.Provider()+" "+s.API())
		}
	}
	return strings.Join(out, ", ")
}

// credentialKey returns the first key, at any depth, whose name looks
// like a credential's; "" if none does.
func credentialKey(v any) string {
	switch m := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(m) {
			l := strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(k))
			if l == "ak" || l == "sk" || strings.Contains(l, "secret") || strings.Contains(l, "password") || strings.Contains(l, "token") || strings.Contains(l, "accesskey") || l == "authorization" {
				return k
			}
			if s := credentialKey(m[k]); s != "" {
				return s
			}
		}
	case []any:
		for _, x := range m {
			if s := credentialKey(x); s != "" {
				return s
			}
		}
	}
	return ""
}
