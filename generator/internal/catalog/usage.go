package catalog

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

// UsageDir holds the usage-priced platforms: hosted APIs of open models,
// priced per million tokens, and serverless GPUs, priced per GPU-second;
// one file per platform.
const UsageDir = "data/usage"

// Platform is one usage-priced platform (data/usage/<id>.toml).
type Platform struct {
	ID   string `toml:"-"`
	File string `toml:"-"`

	Name       string                  `toml:"name" doc:"The platform's name."`
	Homepage   string                  `toml:"homepage" doc:"The platform's home page."`
	I18n       map[string]PlatformText `toml:"i18n" doc:"The platform's name in other languages: [i18n.zh] name = \"...\"."`
	API        []*APIPrice             `toml:"api" doc:"Hosted API prices of open models, one per model."`
	Serverless []*ServerlessPrice      `toml:"serverless" doc:"Serverless GPU prices, one per GPU."`
}

// PlatformText is a platform's name in another language.
type PlatformText struct {
	Name string `toml:"name" doc:"The platform's name in that language."`
}

// LocalName returns the platform's name in the language, else its name.
func (p *Platform) LocalName(lang string) string {
	return localized(p.I18n, lang, func(t PlatformText) string { return t.Name }, p.Name)
}

// UsageEvidence is where and when a usage price was true, as an offer's
// price records it.
type UsageEvidence struct {
	Currency  string    `toml:"currency" doc:"The currency the price is quoted in (ISO 4217; data/fx.toml must have it)."`
	AsOf      time.Time `toml:"as_of" doc:"The date the price was true by its source (a TOML local date)."`
	DateBasis string    `toml:"date_basis" doc:"How as_of was established: page-date, commit-date, accessed, dataset-row-date, api-retrieved or page-captured."`
	Source    string    `toml:"source" doc:"Where the price was read; a repository file pinned to a commit."`
	Evidence  string    `toml:"evidence" doc:"first-party, first-party-docs-repo, third-party or community-dataset."`
	Notes     string    `toml:"notes" doc:"How the figure was read, and what else a reader needs (minimums, cold starts, corroboration)."`
}

// APIPrice is a hosted API's price for an open model.
type APIPrice struct {
	Model      string  `toml:"model" doc:"The model preset id (data/models) the platform serves."`
	ServedAs   string  `toml:"served_as" doc:"The platform's name for the model."`
	Precision  string  `toml:"precision" doc:"The weight format the platform states it serves (fp8, bf16, ...); omit when it does not say."`
	InputPerM  float64 `toml:"input_per_million" doc:"Price per million prompt (input) tokens, in currency."`
	OutputPerM float64 `toml:"output_per_million" doc:"Price per million generated (output) tokens, in currency."`
	UsageEvidence
}

// ServerlessPrice is a serverless GPU's price per GPU-second.
type ServerlessPrice struct {
	GPU         string  `toml:"gpu" doc:"The GPU id (data/gpus)."`
	ServedAs    string  `toml:"served_as" doc:"The platform's name for the GPU."`
	PerSecond   float64 `toml:"per_second" doc:"Price per GPU-second, in currency."`
	ScaleToZero bool    `toml:"scale_to_zero" doc:"True when a worker is billed only while it runs (it scales to zero when idle); false for always-on workers."`
	// IdleSeconds is the platform's documented default idle timeout: how
	// long a worker stays up, and billed, after its last request before it
	// scales to zero. Nil where the platform documents none.
	IdleSeconds *float64 `toml:"idle_seconds" doc:"Seconds a worker stays up, billed, after its last request before it scales to zero: the platform's documented default idle timeout (say where in notes). Leave it out where the platform documents none."`
	UsageEvidence
}

// Idle is the billed idle timeout in seconds, 0 where none is recorded.
func (s *ServerlessPrice) Idle() float64 {
	if s.IdleSeconds == nil {
		return 0
	}
	return *s.IdleSeconds
}

// maxIdleSeconds bounds idle_seconds: an hour is far above any default
// idle timeout, low enough to catch minutes entered as seconds' worth.
const maxIdleSeconds = 3600

// Usage price limits, in USD: wider than any real price of these models
// and GPUs, narrow enough to catch a unit error (a price per token entered
// as per million, per hour as per second).
const (
	maxAPIPerMillionUSD  = 100
	maxServerlessHourUSD = 50
	minServerlessHourUSD = 0.01
	minAPIPerMillionUSD  = 0.001
)

// loadUsage reads UsageDir: each platform's file, checked on its own.
func (l *loader) loadUsage() {
	currencies := l.currencies()
	for _, e := range listTOMLIn(l.root, "", UsageDir, l.d) {
		p := &Platform{ID: e.id, File: e.rel}
		f := decodeFile(e.abs, e.rel, p, l.d)
		if f == nil {
			continue
		}
		ck := l.check(f)
		ck.require("", "name", "homepage")
		ck.url("homepage", p.Homepage)
		if len(p.API)+len(p.Serverless) == 0 {
			ck.errorf("", "a usage file needs at least one [[api]] or [[serverless]] price")
		}
		for i, a := range p.API {
			pre := fmt.Sprintf("api.%d", i)
			ck.require(pre, "model", "served_as", "input_per_million", "output_per_million", "currency", "as_of", "date_basis", "source", "evidence")
			if a.Model != "" && l.c.models[a.Model] == nil {
				var ids []string
				for _, m := range l.c.Models {
					ids = append(ids, m.ID)
				}
				ck.hintf(pre+".model", presetHint(a.Model, ids), "model %q is not a model preset id", a.Model)
			}
			for _, k := range []struct {
				key string
				v   float64
			}{{"input_per_million", a.InputPerM}, {"output_per_million", a.OutputPerM}} {
				ck.positive(pre+"."+k.key, k.v)
				l.usageRange(ck, pre+"."+k.key, k.v, 1, a.Currency, minAPIPerMillionUSD, maxAPIPerMillionUSD, "USD per million tokens",
					"a price per token? multiply it by 1,000,000")
			}
			l.checkUsageEvidence(ck, pre, a.UsageEvidence, currencies)
		}
		for i, s := range p.Serverless {
			pre := fmt.Sprintf("serverless.%d", i)
			ck.require(pre, "gpu", "served_as", "per_second", "currency", "as_of", "date_basis", "source", "evidence")
			if s.GPU != "" && l.c.gpus[s.GPU] == nil {
				ck.hintf(pre+".gpu", diag.DidYouMean(s.GPU, l.c.gpuIDs()), "gpu %q is not a GPU id", s.GPU)
			}
			ck.positive(pre+".per_second", s.PerSecond)
			if v := s.IdleSeconds; v != nil && (*v < 0 || *v > maxIdleSeconds) {
				ck.errorf(pre+".idle_seconds", "idle_seconds must be between 0 and %d, got %v (seconds, not minutes or milliseconds)", maxIdleSeconds, *v)
			}
			l.usageRange(ck, pre+".per_second", s.PerSecond, 3600, s.Currency, minServerlessHourUSD, maxServerlessHourUSD, "USD per GPU-hour",
				"a price per hour? divide it by 3,600")
			l.checkUsageEvidence(ck, pre, s.UsageEvidence, currencies)
		}
		l.c.Platforms = append(l.c.Platforms, p) // an error above fails the load
	}
	sort.SliceStable(l.c.Platforms, func(i, j int) bool { return l.c.Platforms[i].ID < l.c.Platforms[j].ID })
}

// usageRange reports a price v (in cur) whose scale-fold is outside
// [lo, hi] USD in unit, converted at data/fx.toml's current rates; hint
// names the likely unit error.
func (l *loader) usageRange(ck checker, path string, v, scale float64, cur string, lo, hi float64, unit, hint string) {
	if !(v > 0) || !ck.has(path) {
		return
	}
	usd, ok := l.c.FX.Convert(v*scale, cur, "USD")
	if !ok {
		return // an unknown currency is reported by checkUsageEvidence
	}
	if usd < lo || usd > hi {
		ck.errorf(path, "%s %v %s is %.4g %s, outside %g..%g: %s", lastKey(path), v, cur, usd, unit, lo, hi, hint)
	}
}

// checkUsageEvidence checks a usage price's currency and provenance.
func (l *loader) checkUsageEvidence(ck checker, pre string, e UsageEvidence, currencies map[string]bool) {
	if e.Currency != "" && !currencies[e.Currency] {
		ck.errorf(pre+".currency", "currency %q has no rate in data/fx.toml (add one, or quote the price in a currency it has)", e.Currency)
	}
	ck.date(pre+".as_of", e.AsOf)
	ck.oneOf(pre+".date_basis", e.DateBasis, DateBases()...)
	ck.oneOf(pre+".evidence", e.Evidence, EvidenceKinds()...)
	ck.url(pre+".source", e.Source)
	if strings.TrimSpace(e.Notes) == "" {
		ck.errorf(pre, "notes are required: say how the figure was read")
	}
}
