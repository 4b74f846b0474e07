package catalog

import (
	"slices"
	"strings"
	"testing"
)

// usageOK is a valid usage file of the fixture site: lines 1-2 the
// platform, 4-14 an API price, 16-25 a serverless price.
const usageOK = `name = "Hoster"
homepage = "https://hoster.example/"

[[api]]
model = "tiny-7b"
served_as = "tiny/Tiny-7B"
input_per_million = 0.2
output_per_million = 0.4
currency = "USD"
as_of = 2025-10-01
date_basis = "page-date"
source = "https://hoster.example/pricing"
evidence = "first-party"
notes = "Read on the pricing page."

[[serverless]]
gpu = "alpha-80gb"
served_as = "Alpha 80"
per_second = 0.001
currency = "USD"
as_of = 2025-10-01
date_basis = "page-date"
source = "https://hoster.example/serverless"
evidence = "first-party"
notes = "Billed per second."
`

// TestUsageChecks: a usage file loads, and each kind of bad entry is
// reported at its position with what to change, the rest of the catalog
// loading as before.
func TestUsageChecks(t *testing.T) {
	for _, c := range []struct {
		name, old, new string
		want           []string
	}{
		{"valid", "", "", nil},
		{"unknown model", `model = "tiny-7b"`, `model = "tiny-8b"`,
			[]string{`data/usage/hoster.toml:5:9: model "tiny-8b" is not a model preset id (did you mean "tiny-7b"?)`}},
		{"a model nothing is close to", `model = "tiny-7b"`, `model = "qwen-zzz-480b"`,
			[]string{`data/usage/hoster.toml:5:9: model "qwen-zzz-480b" is not a model preset id (add a preset under data/models first)`}},
		{"unknown GPU", `gpu = "alpha-80gb"`, `gpu = "alpha-40gb"`,
			[]string{`data/usage/hoster.toml:17:7: gpu "alpha-40gb" is not a GPU id (did you mean "alpha-80gb"?)`}},
		{"a price per token entered as per million", "input_per_million = 0.2", "input_per_million = 200",
			[]string{`data/usage/hoster.toml:7:21: input_per_million 200 USD is 200 USD per million tokens, outside 0.001..100: a price per token? multiply it by 1,000,000`}},
		{"a price per hour entered per second", "per_second = 0.001", "per_second = 2.5",
			[]string{`data/usage/hoster.toml:19:14: per_second 2.5 USD is 9000 USD per GPU-hour, outside 0.01..50: a price per hour? divide it by 3,600`}},
		{"unknown currency", `currency = "USD"
as_of = 2025-10-01
date_basis = "page-date"
source = "https://hoster.example/pricing"`, `currency = "XYZ"
as_of = 2025-10-01
date_basis = "page-date"
source = "https://hoster.example/pricing"`,
			[]string{`data/usage/hoster.toml:9:12: currency "XYZ" has no rate in data/fx.toml (add one, or quote the price in a currency it has)`}},
		{"a future date", "as_of = 2025-10-01\ndate_basis = \"page-date\"\nsource = \"https://hoster.example/serverless\"",
			"as_of = 2026-10-01\ndate_basis = \"page-date\"\nsource = \"https://hoster.example/serverless\"",
			[]string{`data/usage/hoster.toml:21:9: as_of 2026-10-01 is in the future (today is 2025-11-01)`}},
		{"an idle timeout", "per_second = 0.001\n", "per_second = 0.001\nidle_seconds = 5\n", nil},
		{"an idle timeout in milliseconds", "per_second = 0.001\n", "per_second = 0.001\nidle_seconds = 5000\n",
			[]string{`data/usage/hoster.toml:20:16: idle_seconds must be between 0 and 3600, got 5000 (seconds, not minutes or milliseconds)`}},
		{"a negative idle timeout", "per_second = 0.001\n", "per_second = 0.001\nidle_seconds = -1\n",
			[]string{`data/usage/hoster.toml:20:16: idle_seconds must be between 0 and 3600, got -1 (seconds, not minutes or milliseconds)`}},
		{"no notes", "notes = \"Billed per second.\"\n", "",
			[]string{`data/usage/hoster.toml:16:1: notes are required: say how the figure was read`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := usageOK
			if c.old != "" || c.new != "" {
				text = replaceOnce(t, text, c.old, c.new)
			}
			cat, errs := loadWithFile(t, "usage", "hoster.toml", text)
			if !slices.Equal(errs, c.want) {
				t.Errorf("diagnostics\n%q\nwant\n%q", errs, c.want)
			}
			if c.want == nil {
				if cat == nil || len(cat.Platforms) != 1 || len(cat.Platforms[0].API) != 1 || len(cat.Platforms[0].Serverless) != 1 {
					t.Fatalf("platforms not loaded: %+v", cat)
				}
				if a := cat.Platforms[0].API[0]; a.Model != "tiny-7b" || a.InputPerM != 0.2 || a.Evidence != "first-party" {
					t.Errorf("api price %+v", a)
				}
			}
		})
	}
}

func replaceOnce(t *testing.T, s, old, new string) string {
	t.Helper()
	if !strings.Contains(s, old) {
		t.Fatalf("fixture lacks %q", old)
	}
	return strings.Replace(s, old, new, 1)
}
