package export

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

var generated = time.Date(2025, 11, 1, 0, 0, 0, 0, time.UTC)

func catalogs(t *testing.T) []struct {
	name string
	cat  *catalog.Catalog
} {
	return []struct {
		name string
		cat  *catalog.Catalog
	}{
		{"fixture", testcat.Fixture(t)},
		{"repo", testcat.Repo(t)},
	}
}

func files(t *testing.T, c *catalog.Catalog) map[string][]byte {
	t.Helper()
	fs, err := JSON(c, Meta{Generated: generated})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range fs {
		out[f.Path] = f.Data
	}
	for _, p := range []string{GPUsPath, ProvidersPath, OffersPath, ModelsPath} {
		if out[p] == nil {
			t.Fatalf("no %s", p)
		}
	}
	return out
}

func decode[T any](t *testing.T, b []byte) Document[T] {
	t.Helper()
	var d Document[T]
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		t.Fatal(err)
	}
	return d
}

// eqStr compares an optional JSON text with a catalog string ("" = null).
func eqStr(a *string, b string) bool {
	if a == nil {
		return b == ""
	}
	return *a == b
}

func eqPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

func TestJSONEnvelope(t *testing.T) {
	for _, tc := range catalogs(t) {
		t.Run(tc.name, func(t *testing.T) {
			for path, b := range files(t, tc.cat) {
				var env map[string]json.RawMessage
				if err := json.Unmarshal(b, &env); err != nil {
					t.Fatalf("%s: %v", path, err)
				}
				for _, k := range []string{"schema_version", "generated", "licence", "attribution", "source", "data"} {
					if _, ok := env[k]; !ok {
						t.Errorf("%s: no %q", path, k)
					}
				}
				d := decode[json.RawMessage](t, b)
				if d.SchemaVersion != 1 || d.Generated != "2025-11-01" || d.Source != tc.cat.Site.RepoURL || d.Licence == "" {
					t.Errorf("%s: envelope %+v", path, d)
				}
				if len(d.Attribution) != len(tc.cat.Site.Datasets) {
					t.Fatalf("%s: %d attributions, want %d", path, len(d.Attribution), len(tc.cat.Site.Datasets))
				}
				for i, a := range d.Attribution {
					ds := tc.cat.Site.Datasets[i]
					if a.ID != ds.ID || a.Licence != ds.Licence || a.Attribution != ds.Attribution || a.URL != ds.URL || a.Title != ds.Title {
						t.Errorf("%s: attribution %+v, want %+v", path, a, ds)
					}
				}
			}
		})
	}
}

var snake = regexp.MustCompile(`^[a-z0-9]+(_[a-z0-9]+)*$`)

// keys checks that every object key in v is snake_case.
func keys(t *testing.T, path string, v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if !snake.MatchString(k) {
				t.Errorf("%s: key %q is not snake_case", path, k)
			}
			keys(t, path, e)
		}
	case []any:
		for _, e := range x {
			keys(t, path, e)
		}
	}
}

func TestJSONKeysAndDeterminism(t *testing.T) {
	for _, tc := range catalogs(t) {
		t.Run(tc.name, func(t *testing.T) {
			a, b := files(t, tc.cat), files(t, tc.cat)
			for p := range a {
				if !bytes.Equal(a[p], b[p]) {
					t.Errorf("%s differs between two runs", p)
				}
				var v any
				if err := json.Unmarshal(a[p], &v); err != nil {
					t.Fatal(err)
				}
				keys(t, p, v)
				if bytes.Contains(a[p], []byte("\n")) {
					t.Errorf("%s: not compact", p)
				}
			}
		})
	}
}

func TestJSONGPUs(t *testing.T) {
	for _, tc := range catalogs(t) {
		t.Run(tc.name, func(t *testing.T) {
			d := decode[GPU](t, files(t, tc.cat)[GPUsPath])
			if len(d.Data) != len(tc.cat.GPUs) {
				t.Fatalf("%d GPUs, want %d", len(d.Data), len(tc.cat.GPUs))
			}
			for i, got := range d.Data {
				g := tc.cat.GPUs[i]
				if got.ID != g.ID || got.Name != g.Name || got.Vendor != g.Vendor || got.ReleaseYear != g.ReleaseYear ||
					got.MemoryGB != g.MemoryGB || got.MemoryBandwidthGBs != g.MemoryBWGBs || got.FP16Only != g.FP16Only ||
					got.FormFactor != g.FormFactor || got.Segment != g.Segment || got.MemoryType != g.MemoryType || got.Architecture != g.Architecture {
					t.Errorf("GPU %s: %+v", g.ID, got)
				}
				for name, p := range map[string][2]*float64{
					"fp32": {got.FP32TFLOPS, g.FP32TFLOPS}, "tf32": {got.TF32TFLOPS, g.TF32TFLOPS}, "bf16": {got.BF16TFLOPS, g.BF16TFLOPS},
					"fp8": {got.FP8TFLOPS, g.FP8TFLOPS}, "int8": {got.INT8TOPS, g.INT8TOPS}, "tdp": {got.TDPW, g.TDPW},
					"interconnect": {got.Interconnect.BandwidthGBs, g.Interconnect.BandwidthGBs},
				} {
					if !eqPtr(p[0], p[1]) {
						t.Errorf("GPU %s %s: got %v, want %v", g.ID, name, p[0], p[1])
					}
				}
				if (got.ExportVariantOf == nil) != (g.ExportVariantOf == "") || len(got.Sources) != len(g.Sources) || len(got.Offers) != len(g.Offers) {
					t.Errorf("GPU %s: variant/sources/offers differ", g.ID)
				}
				for j, s := range got.Sources {
					if s.URL != g.Sources[j].URL || s.Accessed != g.Sources[j].Accessed.Format(time.DateOnly) {
						t.Errorf("GPU %s source %d: %+v", g.ID, j, s)
					}
				}
			}
		})
	}
}

func TestJSONProvidersAndModels(t *testing.T) {
	for _, tc := range catalogs(t) {
		t.Run(tc.name, func(t *testing.T) {
			fs := files(t, tc.cat)
			pd := decode[Provider](t, fs[ProvidersPath])
			if len(pd.Data) != len(tc.cat.Providers) {
				t.Fatalf("%d providers, want %d", len(pd.Data), len(tc.cat.Providers))
			}
			for i, got := range pd.Data {
				p := tc.cat.Providers[i]
				if got.ID != p.ID || got.Name != p.Name || len(got.Regions) != len(p.Regions) || len(got.Offers) != len(p.Offers) ||
					got.Billing.OnDemand != p.Billing.OnDemand || !eqPtr(got.Billing.MinimumSeconds, p.Billing.MinimumSeconds) ||
					len(got.Billing.Reserved) != len(p.Billing.Reserved) || (got.HiddenCosts == nil) != (p.HiddenCosts == nil) ||
					(got.Network == nil) != (p.Network == nil) || (got.Support == nil) != (p.Support == nil) || len(got.Sources) != len(p.Sources) {
					t.Errorf("provider %s: %+v", p.ID, got)
					continue
				}
				for j, r := range got.Billing.Reserved {
					if r.TermMonths != p.Billing.Reserved[j].TermMonths || !eqPtr(r.MaxDiscountPct, p.Billing.Reserved[j].MaxDiscountPct) {
						t.Errorf("provider %s reserved %d: %+v", p.ID, j, r)
					}
				}
				if h := p.HiddenCosts; h != nil {
					g := got.HiddenCosts
					if g.Currency != h.Currency || !eqPtr(g.EgressPerGB, h.EgressPerGB) || !eqPtr(g.PublicIPPerHour, h.PublicIPPerHour) || !eqPtr(g.StoragePerGBMonth, h.StoragePerGBMonth) {
						t.Errorf("provider %s hidden costs: %+v", p.ID, g)
					}
				}
				if n := p.Network; n != nil && !eqPtr(got.Network.MaxBandwidthGbps, n.MaxBandwidthGbps) {
					t.Errorf("provider %s network: %+v", p.ID, got.Network)
				}
				if s := p.Support; s != nil && !eqPtr(got.Support.SLAPct, s.SLAPct) {
					t.Errorf("provider %s support: %+v", p.ID, got.Support)
				}
			}
			md := decode[Model](t, fs[ModelsPath])
			if len(md.Data) != len(tc.cat.Models) {
				t.Fatalf("%d models, want %d", len(md.Data), len(tc.cat.Models))
			}
			for i, got := range md.Data {
				m := tc.cat.Models[i]
				active := int64(0)
				if got.ActiveParams != nil {
					active = *got.ActiveParams
				}
				if got.ID != m.ID || got.Params != m.Params || active != m.ActiveParams || got.Layers != m.Layers || got.HiddenSize != m.Hidden ||
					got.Heads != m.Heads || got.KVHeads != m.KVHeads || got.FFNSize != m.FFN || got.VocabSize != m.Vocab || got.MaxContext != m.MaxContext {
					t.Errorf("model %s: %+v", m.ID, got)
				}
			}
		})
	}
}

func TestJSONOffers(t *testing.T) {
	for _, tc := range catalogs(t) {
		t.Run(tc.name, func(t *testing.T) {
			d := decode[Offer](t, files(t, tc.cat)[OffersPath])
			if len(d.Data) != len(tc.cat.Offers) {
				t.Fatalf("%d offers, want %d", len(d.Data), len(tc.cat.Offers))
			}
			for i, got := range d.Data {
				o := tc.cat.Offers[i]
				if got.ID != o.ID || got.Provider != o.Provider.ID || got.Instance != o.Instance || got.GPU != o.GPU.ID ||
					got.GPUCount != o.GPUCount || got.VRAMPerGPUGB != o.VRAMPerGPUGB || got.VRAMTotalGB != o.VRAMTotalGB ||
					!eqPtr(got.VCPU, o.VCPU) || !eqPtr(got.RAMGB, o.RAMGB) || !eqPtr(got.LocalDiskGB, o.LocalDiskGB) ||
					!eqPtr(got.NetworkGbps, o.NetworkGbps) || got.Currency != o.Currency ||
					strings.Join(got.Regions, " ") != strings.Join(o.Regions, " ") || len(got.Prices) != len(o.Prices) {
					t.Errorf("offer %s: %+v", o.ID, got)
					continue
				}
				for j, p := range got.Prices {
					w := o.Prices[j]
					if p.Billing != w.Billing || p.Price != w.Price || p.PricePerGPU != w.Price/float64(o.GPUCount) ||
						p.AsOf != w.AsOf.Format(time.DateOnly) || p.Source != w.Source || (p.Dataset == nil) != (w.Dataset == "") ||
						(p.Dataset != nil && *p.Dataset != w.Dataset) || p.Unit != w.Unit || p.HourlyEquivalent != w.Hourly() ||
						!eqStr(p.Evidence, w.Evidence) || !eqStr(p.Region, w.Region) || !eqStr(p.Payment, w.Payment) ||
						(p.TermMonths == nil) != (w.TermMonths == 0) || (p.TermMonths != nil && *p.TermMonths != w.TermMonths) {
						t.Errorf("offer %s price %d: %+v, want %+v", o.ID, j, p, w)
					}
				}
			}
		})
	}
}

func TestCSV(t *testing.T) {
	for _, tc := range catalogs(t) {
		t.Run(tc.name, func(t *testing.T) {
			b, err := CSV(tc.cat, generated)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := CSV(tc.cat, generated)
			if !bytes.Equal(b, again) {
				t.Error("CSV differs between two runs")
			}
			recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(recs[0], ",") != strings.Join(CSVHeader(), ",") {
				t.Fatalf("header %v", recs[0])
			}
			col := map[string]int{}
			for i, h := range recs[0] {
				col[h] = i
			}
			licence := map[string]string{}
			for _, ds := range tc.cat.Site.Datasets {
				licence[ds.ID] = ds.Licence
			}
			f := func(rec []string, name string) float64 {
				v, err := strconv.ParseFloat(rec[col[name]], 64)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				return v
			}
			rows := recs[1:]
			n := 0
			for _, o := range tc.cat.Offers {
				for _, p := range o.Prices {
					if n >= len(rows) {
						t.Fatalf("only %d rows", len(rows))
					}
					r := rows[n]
					n++
					if r[col["provider"]] != o.Provider.ID || r[col["provider_name"]] != o.Provider.Name || r[col["instance"]] != o.Instance ||
						r[col["gpu"]] != o.GPU.ID || r[col["gpu_name"]] != o.GPU.Name || r[col["currency"]] != o.Currency ||
						r[col["billing"]] != p.Billing || r[col["as_of"]] != p.AsOf.Format(time.DateOnly) || r[col["source"]] != p.Source ||
						r[col["dataset"]] != p.Dataset || r[col["dataset_licence"]] != licence[p.Dataset] ||
						r[col["regions"]] != strings.Join(o.Regions, " ") {
						t.Errorf("row %d: %v", n, r)
					}
					if f(r, "gpu_count") != float64(o.GPUCount) || f(r, "vram_per_gpu_gb") != o.VRAMPerGPUGB || f(r, "vram_total_gb") != o.VRAMTotalGB ||
						f(r, "price_per_hour") != p.Price || f(r, "price_per_gpu_hour") != p.Price/float64(o.GPUCount) {
						t.Errorf("row %d: numbers differ: %v", n, r)
					}
					if (o.VCPU == nil) != (r[col["vcpu"]] == "") || (o.VCPU != nil && f(r, "vcpu") != float64(*o.VCPU)) {
						t.Errorf("row %d: vcpu %q", n, r[col["vcpu"]])
					}
					if (o.RAMGB == nil) != (r[col["ram_gb"]] == "") || (o.RAMGB != nil && f(r, "ram_gb") != *o.RAMGB) {
						t.Errorf("row %d: ram_gb %q", n, r[col["ram_gb"]])
					}
				}
			}
			if n != len(rows) {
				t.Errorf("%d rows, want %d", len(rows), n)
			}
		})
	}
}

// TestCSVFixture pins a few rows of the fixture exactly.
func TestCSVFixture(t *testing.T) {
	b, err := CSV(testcat.Fixture(t), generated)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		// current is the site's rule (at most stale_days = 365 old on the
		// generated date), latest the newest of its key, then age_days.
		"acme,Acme Cloud,alpha.8x,alpha-80gb,Alpha 80GB,8,80,640,192,2048,us-east eu-west,USD,spot,16,2,2024-01-10,https://acme.example/spot,demo-set,MIT,hour,,,,,community-dataset,,16,2,false,true,661\n",
		"acme,Acme Cloud,beta.1x,beta-24gb,Beta 24GB,1,24,24,,,us-east,USD,on-demand,0.75,0.75,2023-03-01,https://acme.example/pricing,,,hour,,,,,,,0.75,0.75,false,true,976\n",
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("no row %q in\n%s", want, b)
		}
	}
}

// TestHistoryAndCommitted exports a fixture copy whose offer has an older
// on-demand observation and a monthly committed price.
func TestHistoryAndCommitted(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(testcat.FixtureRoot())); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, "data", "offers", "drachen.toml")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, []byte(`
[[offers.prices]]
billing = "on-demand"
price = 30.0
as_of = 2024-09-01
source = "https://drachen.example/price-2024"
evidence = "first-party"

[[offers.prices]]
billing = "committed"
price = 14600
unit = "month"
term_months = 1
commitment = "subscription"
region = "cn-north-1"
as_of = 2025-09-01
date_basis = "page-date"
source = "https://drachen.example/price"
evidence = "first-party"
`)...)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	c, d := catalog.Load(root, testcat.FixtureNow)
	if c == nil {
		t.Fatalf("does not load: %v", d.Errors())
	}
	od := decode[Offer](t, files(t, c)[OffersPath])
	var got Offer
	for _, o := range od.Data {
		if o.ID == "drachen/gpu-a1" {
			got = o
		}
	}
	if len(got.Prices) != 3 {
		t.Fatalf("prices %+v, want every observation (3)", got.Prices)
	}
	cur, old, month := got.Prices[0], got.Prices[1], got.Prices[2]
	if !cur.Current || len(cur.History) != 1 || cur.History[0].AsOf != "2024-09-01" || cur.History[0].Price != 30 ||
		*cur.History[0].Evidence != "first-party" {
		t.Errorf("current on-demand %+v, want current with the 2024 observation as history", cur)
	}
	if old.Current || old.History != nil {
		t.Errorf("the 2024 observation %+v is not current and carries no history", old)
	}
	if month.Billing != "committed" || *month.TermMonths != 1 || month.Unit != "month" || *month.Region != "cn-north-1" ||
		month.HourlyEquivalent != 20 || month.HourlyEquivalentPerGPU != 20 || *month.Commitment != "subscription" ||
		*month.DateBasis != "page-date" || !month.Current || len(month.History) != 0 || month.History == nil {
		t.Errorf("monthly committed price %+v", month)
	}
	csvb, err := CSV(c, generated)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		",CNY,on-demand,30,30,2024-09-01,https://drachen.example/price-2024,,,hour,,,,,first-party,,30,30,false,false,426\n",
		",CNY,committed,14600,14600,2025-09-01,https://drachen.example/price,,,month,1,,subscription,cn-north-1,first-party,page-date,20,20,true,true,61\n",
	} {
		if !strings.Contains(string(csvb), want) {
			t.Errorf("no row ending %q in\n%s", want, csvb)
		}
	}
}

func TestExactNumbers(t *testing.T) {
	for _, v := range []float64{0.1, 1.0 / 3, 2.49, 98.32 / 8, 1e-7, 123456789.123} {
		if got, _ := strconv.ParseFloat(num(v), 64); got != v {
			t.Errorf("num(%v) = %s does not round-trip", v, num(v))
		}
	}
}

// TestCurrentFollowsTheClock: the same price is current on the generated
// date and not two years later; latest does not change with the clock.
func TestCurrentFollowsTheClock(t *testing.T) {
	c := testcat.Fixture(t)
	for _, tc := range []struct {
		now                  time.Time
		current, latest, age string
	}{
		{generated, "true", "true", "153"},
		{generated.AddDate(2, 0, 0), "false", "true", "883"},
	} {
		b, err := CSV(c, tc.now)
		if err != nil {
			t.Fatal(err)
		}
		want := ",2025-06-01,https://acme.example/pricing,"
		var row string
		for _, l := range strings.Split(string(b), "\n") {
			if strings.Contains(l, want) && strings.Contains(l, ",on-demand,") {
				row = l
			}
		}
		if !strings.HasSuffix(row, ","+tc.current+","+tc.latest+","+tc.age) {
			t.Errorf("on %s: row %q, want current %s, latest %s, age_days %s", tc.now.Format(time.DateOnly), row, tc.current, tc.latest, tc.age)
		}
		files, err := JSON(c, Meta{Generated: tc.now})
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Data []Offer `json:"data"`
		}
		if err := json.Unmarshal(files[2].Data, &doc); err != nil {
			t.Fatal(err)
		}
		var got *Price
		for _, o := range doc.Data {
			for i, p := range o.Prices {
				if o.ID == "acme/alpha-8x" && p.Billing == "on-demand" {
					got = &o.Prices[i]
				}
			}
		}
		if got == nil || strconv.FormatBool(got.Current) != tc.current || strconv.FormatBool(got.Latest) != tc.latest || strconv.Itoa(got.AgeDays) != tc.age {
			t.Errorf("on %s: offers.json lacks current %s, age_days %s for the 2025-06-01 price", tc.now.Format(time.DateOnly), tc.current, tc.age)
		}
	}
}
