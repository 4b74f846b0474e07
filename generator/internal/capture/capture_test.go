package capture

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/fixture"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/importer"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

var retrieved = time.Date(2025, 10, 20, 6, 0, 0, 0, time.UTC)

func body(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// roundTrip encodes and decodes a capture, as a stored one is read.
func roundTrip(t *testing.T, c *Capture) *Capture {
	t.Helper()
	b, err := c.Encode()
	if err != nil {
		t.Fatal(err)
	}
	d, err := Decode("test.json", b)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestParse(t *testing.T) {
	tgc := func(instance, charge string) map[string]any {
		return map[string]any{"Region": "ap-guangzhou", "InstanceType": instance, "InstanceChargeType": charge, "catalog": map[string]any{"region": "ap-guangzhou"}}
	}
	ali := func(unit string) map[string]any {
		return map[string]any{"InstanceType": "ecs.gn7i-c8g1.2xlarge", "PriceUnit": unit, "catalog": map[string]any{"region": "cn-beijing", "gpu": "a10", "gpu_count": 1}}
	}
	bd := map[string]any{"spec": "bcc.lgn1.c12m40.1p40", "catalog": map[string]any{"region": "bj"}}
	hw := map[string]any{"product_infos": []any{map[string]any{"id": "1", "resource_spec": "p2s.2xlarge.8.linux", "region": "cn-north-4", "usage_value": 1, "usage_measure_id": 4, "catalog": map[string]any{"region": "cn-north-4"}}}}
	awsReq := map[string]any{"catalog": map[string]any{"region": "us-east-1"}}
	for _, tc := range []struct {
		name    string
		src     Source
		req     map[string]any
		status  int
		file    string
		want    []string // instance billing value unit currency region
		problem string   // a substring of the one problem expected
	}{
		{"tencent on-demand", tencentSource{}, tgc("GN7.2XLARGE32", "POSTPAID_BY_HOUR"), 200, "tencent-postpaid.json", []string{"GN7.2XLARGE32 on-demand 8.68 - CNY ap-guangzhou"}, ""},
		{"tencent one month", tencentSource{}, tgc("GN7.2XLARGE32", "PREPAID"), 200, "tencent-prepaid.json", []string{"GN7.2XLARGE32 committed 2500 month CNY ap-guangzhou"}, ""},
		{"tencent throttled", tencentSource{}, tgc("GN7.2XLARGE32", "POSTPAID_BY_HOUR"), 200, "tencent-throttled.json", nil, "error RequestLimitExceeded: Your current request times equals to `11` in a second, which exceeds the frequency limit `10` for a second. Please reduce the frequency of calls. (throttled: capture again later)"},
		{"tencent error code", tencentSource{}, tgc("GN7.2XLARGE32", "POSTPAID_BY_HOUR"), 200, "tencent-bad-image.json", nil, "error InvalidImageId.NotFound"},
		{"tencent unknown unit", tencentSource{}, tgc("GN7.2XLARGE32", "POSTPAID_BY_HOUR"), 200, "tencent-day-unit.json", nil, `ChargeUnit "DAY", not HOUR`},
		{"tencent missing price", tencentSource{}, tgc("GN7.2XLARGE32", "POSTPAID_BY_HOUR"), 200, "baidu-prepaid.json", nil, "not an InquiryPriceRunInstances answer"},
		{"tencent HTTP 502", tencentSource{}, tgc("GN7.2XLARGE32", "POSTPAID_BY_HOUR"), 502, "tencent-postpaid.json", nil, "HTTP 502"},
		{"alibaba hour", alibabaSource{}, ali("Hour"), 200, "alibaba-hour.json", []string{"ecs.gn7i-c8g1.2xlarge on-demand 12.6 - CNY cn-beijing"}, ""},
		{"alibaba month", alibabaSource{}, ali("Month"), 200, "alibaba-month.json", []string{"ecs.gn7i-c8g1.2xlarge committed 6048 month CNY cn-beijing"}, ""},
		{"alibaba throttled", alibabaSource{}, ali("Hour"), 400, "alibaba-throttled.json", nil, "error Throttling.User: Request was denied due to user flow control. (throttled: capture again later)"},
		{"alibaba unknown currency", alibabaSource{}, ali("Hour"), 200, "alibaba-eur.json", nil, `currency "EUR", not CNY or USD`},
		{"baidu one month", baiduSource{}, bd, 200, "baidu-prepaid.json", []string{"bcc.lgn1.c12m40.1p40 committed 4400 month CNY bj"}, ""},
		{"baidu error", baiduSource{}, bd, 403, "baidu-error.json", nil, "error Instance.NotSupportInstanceTypeException: not support the instance type."},
		{"baidu spec missing", baiduSource{}, map[string]any{"spec": "bcc.other", "catalog": map[string]any{"region": "bj"}}, 200, "baidu-prepaid.json", nil, "0 prices for the spec in the answer, want 1"},
		{"huawei hour", huaweiSource{}, hw, 200, "huawei-ratings.json", []string{"p2s.2xlarge.8.linux on-demand 24.25 - CNY cn-north-4"}, ""},
		{"huawei error", huaweiSource{}, hw, 403, "huawei-error.json", nil, "error CBC.0150"},
		{"aws offer", awsSource{}, awsReq, 200, "aws-offer.json", []string{"p5.48xlarge on-demand 55.04 - USD us-east-1", "g6.xlarge on-demand 0.8048 - USD us-east-1"}, ""},
		{"aws throttled", awsSource{}, awsReq, 429, "aws-offer.json", nil, "throttled (HTTP 429)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := body(t, tc.file)
			if tc.src.API() == "aws-price-list-bulk" && tc.status == 200 {
				ex, err := filterOffer(bytes.NewReader(b), []string{"p5.48xlarge", "g6.xlarge"})
				if err != nil {
					t.Fatal(err)
				}
				b, _ = json.Marshal(ex)
			}
			c := roundTrip(t, &Capture{Format: Format, Provider: tc.src.Provider(), API: tc.src.API(), Retrieved: retrieved,
				Exchanges: []Exchange{NewExchange(tc.req, tc.status, b, nil)}})
			obs, problems := tc.src.Parse(c)
			var got []string
			for _, o := range obs {
				unit := o.Unit
				if unit == "" {
					unit = "-"
				}
				got = append(got, strings.Join([]string{o.Instance, o.Billing, trimFloat(o.Value), unit, o.Currency, o.Region}, " "))
				if !o.AsOf.Equal(day(retrieved)) || o.DateBasis != "api-retrieved" || !strings.HasPrefix(o.Source, "https://") {
					t.Errorf("observation %+v: want as_of %s, api-retrieved and an https source", o, day(retrieved))
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("observations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			switch {
			case tc.problem == "" && len(problems) > 0:
				t.Errorf("unexpected problems: %q", problems)
			case tc.problem != "" && (len(problems) != 1 || !strings.Contains(problems[0], tc.problem)):
				t.Errorf("problems %q, want one containing %q", problems, tc.problem)
			}
		})
	}
}

func trimFloat(v float64) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestAWSExcerptKeepsOnlyPlainLinuxProducts(t *testing.T) {
	ex, err := filterOffer(bytes.NewReader(body(t, "aws-offer.json")), []string{"p5.48xlarge", "g6.xlarge", "g5.xlarge"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(sortedKeys(ex.Products), " "); got != "AAAALINUXP5 DDDDLINUXG6 FFFFLINUXG5" {
		t.Errorf("products %s, want the Linux shared-tenancy ones of the asked types", got)
	}
	if got := strings.Join(sortedKeys(ex.Terms.OnDemand), " "); got != "AAAALINUXP5 DDDDLINUXG6 FFFFLINUXG5" {
		t.Errorf("on-demand terms %s", got)
	}
	if ex.OfferCode != "AmazonEC2" || ex.PublicationDate != "2025-10-20T00:00:00Z" {
		t.Errorf("header %q %q", ex.OfferCode, ex.PublicationDate)
	}
	b, _ := json.Marshal(ex)
	c := roundTrip(t, &Capture{Format: Format, Provider: "aws", API: "aws-price-list-bulk", Retrieved: retrieved,
		Exchanges: []Exchange{NewExchange(map[string]any{"catalog": map[string]any{"region": "us-east-1"}}, 200, b, nil)}})
	_, problems := awsSource{}.Parse(c)
	if len(problems) != 2 || !strings.Contains(problems[0], `unit "Quantity", not Hrs`) || !strings.Contains(problems[1], "g5.xlarge (FFFFLINUXG5): no on-demand price per hour") {
		t.Errorf("problems %q", problems)
	}
}

func TestDecodeRefusesAnEditedBody(t *testing.T) {
	c := &Capture{Format: Format, Provider: "aws", API: "aws-price-list-bulk", Retrieved: retrieved,
		Exchanges: []Exchange{NewExchange(map[string]any{}, 200, []byte(`{"a":1}`), nil)}}
	b, _ := c.Encode()
	b = bytes.Replace(b, []byte(`{\"a\":1}`), []byte(`{\"a\":2}`), 1)
	if _, err := Decode("x.json", b); err == nil || !strings.Contains(err.Error(), "the capture was edited") {
		t.Fatalf("Decode of an edited body: %v", err)
	}
}

func TestWriteKeepsEveryCapture(t *testing.T) {
	root := t.TempDir()
	c := &Capture{Format: Format, Provider: "aws", API: "aws-price-list-bulk", Retrieved: retrieved,
		Exchanges: []Exchange{NewExchange(map[string]any{}, 200, []byte(`{}`), nil)}}
	n1, s1, err := Write(root, c)
	if err != nil {
		t.Fatal(err)
	}
	n2, s2, _ := Write(root, c)
	c.Exchanges[0] = NewExchange(map[string]any{}, 200, []byte(`{"x":1}`), nil)
	n3, s3, _ := Write(root, c)
	if n1 != "aws/2025-10-20-aws-price-list-bulk.json" || n2 != n1 || s2 != s1 || n3 != "aws/2025-10-20-aws-price-list-bulk-2.json" || s3 == s1 {
		t.Errorf("names %s %s %s", n1, n2, n3)
	}
	got, err := catalog.FileSHA256(filepath.Join(root, catalog.CaptureDir, n1))
	if err != nil || got != s1 {
		t.Errorf("file hash %s, Write said %s (%v)", got, s1, err)
	}
}

const queries = `
[tencent-cloud]
image_id = "img-pmqg1cw7"
[[tencent-cloud.instances]]
region = "ap-guangzhou"
zone = "ap-guangzhou-3"
instance = "GN7.2XLARGE32"
billing = ["on-demand", "committed"]

[alibaba-cloud]
[[alibaba-cloud.instances]]
region = "cn-beijing"
instance = "ecs.gn7i-c8g1.2xlarge"
gpu = "a10"
gpu_count = 1
billing = ["on-demand", "committed"]

[baidu-ai-cloud]
[[baidu-ai-cloud.instances]]
region = "bj"
zone = "cn-bj-a"
spec_id = "lgn1"
instance = "bcc.lgn1.c12m40.1p40"

[huawei-cloud]
`

func queriesRoot(t *testing.T, q string) string {
	t.Helper()
	root := t.TempDir()
	p := filepath.Join(root, filepath.FromSlash(QueriesFile))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(q), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

func TestRunSkipsProvidersWithoutCredentials(t *testing.T) {
	root := queriesRoot(t, queries)
	var log bytes.Buffer
	written, sum, err := Run(context.Background(), Options{Root: root, Env: func(string) string { return "" }, Log: &log,
		Fetcher: Fetcher{Client: &http.Client{Transport: failTransport{t}}}})
	if err != nil {
		t.Fatal(err)
	}
	want := `skip alibaba-cloud: ALIBABA_CLOUD_ACCESS_KEY_ID, ALIBABA_CLOUD_ACCESS_KEY_SECRET not set (add them as repository secrets; see CONTRIBUTING.md)
skip baidu-ai-cloud: BAIDU_BCE_ACCESS_KEY, BAIDU_BCE_SECRET_KEY not set (add them as repository secrets; see CONTRIBUTING.md)
skip huawei-cloud: this build reads recorded answers only (generator capture -record)
skip tencent-cloud: TENCENTCLOUD_SECRET_ID, TENCENTCLOUD_SECRET_KEY not set (add them as repository secrets; see CONTRIBUTING.md)
`
	if log.String() != want {
		t.Errorf("log:\n%s\nwant:\n%s", log.String(), want)
	}
	if len(written) != 0 || sum != (Summary{Skipped: 4}) {
		t.Errorf("wrote %d captures, summary %+v", len(written), sum)
	}
	ents, _ := os.ReadDir(filepath.Join(root, catalog.CaptureDir))
	if len(ents) != 1 {
		t.Errorf("%s holds %d entries, want queries.toml only", catalog.CaptureDir, len(ents))
	}
}

// failTransport fails a test that sends a request.
type failTransport struct{ t *testing.T }

func (f failTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	f.t.Errorf("unexpected request to %s", r.URL)
	return nil, http.ErrHandlerTimeout
}

// TestFetchThroughSDKs runs the SDK sources against a local server that
// answers with recorded bodies: each request is signed, each answer is
// kept as received, and no credential reaches the capture.
func TestFetchThroughSDKs(t *testing.T) {
	const id, secret = "AKIDtestidentifier0001", "testsecretvalue-do-not-store"
	answers := map[string]string{"tencent-cloud": "tencent-postpaid.json", "alibaba-cloud": "alibaba-hour.json", "baidu-ai-cloud": "baidu-prepaid.json"}
	for provider, file := range answers {
		t.Run(provider, func(t *testing.T) {
			var auth []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				a := r.Header.Get("Authorization")
				if a == "" {
					a = r.URL.Query().Get("Signature") // Alibaba's RPC signature may be a query parameter
				}
				auth = append(auth, a)
				w.Header().Set("Content-Type", "application/json")
				if req, _ := io.ReadAll(r.Body); bytes.Contains(req, []byte(`"PREPAID"`)) {
					w.Write(body(t, "tencent-prepaid.json"))
					return
				}
				w.Write(body(t, file))
			}))
			defer srv.Close()
			root := queriesRoot(t, queries)
			env := map[string]string{"TENCENTCLOUD_SECRET_ID": id, "TENCENTCLOUD_SECRET_KEY": secret, "ALIBABA_CLOUD_ACCESS_KEY_ID": id,
				"ALIBABA_CLOUD_ACCESS_KEY_SECRET": secret, "BAIDU_BCE_ACCESS_KEY": id, "BAIDU_BCE_SECRET_KEY": secret}
			var log bytes.Buffer
			written, sum, err := Run(context.Background(), Options{Root: root, Providers: []string{provider}, Env: func(k string) string { return env[k] }, Log: &log,
				Fetcher: Fetcher{Client: &http.Client{Timeout: 10 * time.Second}, Endpoints: map[string]string{provider: srv.URL}, Now: func() time.Time { return retrieved }}})
			if err != nil || sum.Captured != 1 || len(written) != 1 {
				t.Fatalf("Run: %v, %+v, log %s", err, sum, log.String())
			}
			for _, a := range auth {
				if a == "" {
					t.Errorf("a request to the provider was not signed")
				}
			}
			raw, err := os.ReadFile(filepath.Join(root, catalog.CaptureDir, filepath.FromSlash(written[0].Name)))
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(raw, []byte(secret)) || bytes.Contains(raw, []byte(id)) {
				t.Errorf("the capture holds a credential:\n%s", raw)
			}
			c, err := Decode(written[0].Name, raw)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range c.Exchanges {
				if e.Request["InstanceChargeType"] == "PREPAID" {
					continue
				}
				if e.Status != 200 || e.Body != string(body(t, file)) {
					t.Errorf("exchange %d %q, want the answer as received", e.Status, e.Body)
				}
			}
			obs, problems := sourceOf(provider).Parse(c)
			if len(problems) > 0 || len(obs) == 0 {
				t.Errorf("parse: %d observations, problems %q", len(obs), problems)
			}
		})
	}
}

func TestFetchAzureFollowsPages(t *testing.T) {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("page") == "2" {
			w.Write(body(t, "azure-page2.json"))
			return
		}
		if !strings.Contains(r.URL.Query().Get("$filter"), "armSkuName eq 'Standard_ND96isr_H100_v5'") {
			t.Errorf("filter %q", r.URL.Query().Get("$filter"))
		}
		w.Write(bytes.Replace(body(t, "azure-page1.json"), []byte(`"NEXT"`), []byte(`"`+srv.URL+`/?page=2"`), 1))
	}))
	defer srv.Close()
	c, err := azureSource{}.Fetch(context.Background(), Fetcher{Client: srv.Client(), Endpoints: map[string]string{"azure": srv.URL}, Now: func() time.Time { return retrieved }},
		Query{Regions: []string{"eastus"}, SKUs: []string{"Standard_ND96isr_H100_v5"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Exchanges) != 2 {
		t.Fatalf("%d exchanges, want 2 pages", len(c.Exchanges))
	}
	cat, d := catalog.Load(fixture.RepoRoot(), testcat.Today(t))
	if cat == nil {
		t.Fatal(d.Errors())
	}
	res, problems := azureSource{}.ParseResult(roundTrip(t, c), cat, strings.Repeat("a", 64), retrieved)
	if len(problems) > 0 || res == nil {
		t.Fatalf("problems %q", problems)
	}
	text := string(resultText(res))
	for _, want := range []string{"price = 98.32\n", "price = 18.169536\n", `billing = "spot"`, `capture = "azure/2025-10-20-azure-retail-prices.json"`, `date_basis = "api-retrieved"`, `evidence = "first-party"`} {
		if !strings.Contains(text, want) {
			t.Errorf("result lacks %s:\n%s", want, text)
		}
	}
	if strings.Contains(text, "105.2") {
		t.Errorf("the Windows price was imported:\n%s", text)
	}
}

func resultText(res *importer.Result) []byte {
	var b []byte
	for _, f := range res.Files {
		b = append(b, f.Text...)
	}
	return b
}

func TestFetchAWSStreamsTheOfferFile(t *testing.T) {
	offer := body(t, "aws-offer.json")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/offers/v1.0/aws/AmazonEC2/current/us-east-1/index.json" {
			http.NotFound(w, r)
			return
		}
		w.Write(offer)
	}))
	defer srv.Close()
	c, err := awsSource{}.Fetch(context.Background(), Fetcher{Client: srv.Client(), Endpoints: map[string]string{"aws": srv.URL}, Now: func() time.Time { return retrieved }},
		Query{Regions: []string{"us-east-1", "xx-nowhere-1"}, SKUs: []string{"p5.48xlarge"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Exchanges) != 2 || c.Exchanges[0].Status != 200 || c.Exchanges[1].Status != 404 {
		t.Fatalf("exchanges: %+v", c.Exchanges)
	}
	whole, _ := c.Exchanges[0].Request["source_file"].(map[string]any)
	sum := sha256.Sum256(offer)
	if whole == nil || whole["sha256"] != hex.EncodeToString(sum[:]) || whole["bytes"] != int64(len(offer)) {
		t.Errorf("source_file %v, want the whole file's %d bytes and SHA-256", whole, len(offer))
	}
	obs, problems := awsSource{}.Parse(roundTrip(t, c))
	if len(obs) != 1 || obs[0].Instance != "p5.48xlarge" || obs[0].Value != 55.04 || len(problems) != 1 || !strings.Contains(problems[0], "HTTP 404") {
		t.Errorf("observations %+v, problems %q", obs, problems)
	}
}
