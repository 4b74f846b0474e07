package capture

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	openapiutil "github.com/alibabacloud-go/darabonba-openapi/v2/utils"
	ecs "github.com/alibabacloud-go/ecs-20140526/v7/client"
	"github.com/alibabacloud-go/tea/dara"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/importer"
)

// alibabaSource is Alibaba Cloud ECS DescribePrice (help.aliyun.com/
// document_detail/107829.html), called through the official SDK,
// alibabacloud-go/ecs-20140526 (the SDK signs the RPC request; its
// DescribePriceResponseBody is the documented shape: {"RequestId",
// "PriceInfo": {"Price": {"OriginalPrice", "DiscountPrice",
// "TradePrice", "Currency", "DetailInfos"}, "Rules"}}; an error answer
// is {"RequestId", "Code", "Message"}). OriginalPrice, the list price,
// is kept: per hour for PriceUnit=Hour (pay-as-you-go), per month for
// PriceUnit=Month, Period=1 (a one-month subscription). The currency is
// the answer's: CNY on aliyun.com, USD on alibabacloud.com.
type alibabaSource struct{}

const alibabaDocs = "https://help.aliyun.com/document_detail/107829.html"

func (alibabaSource) Provider() string { return "alibaba-cloud" }
func (alibabaSource) API() string      { return "alibaba-ecs-describe-price" }
func (alibabaSource) Credentials() []string {
	return []string{"ALIBABA_CLOUD_ACCESS_KEY_ID", "ALIBABA_CLOUD_ACCESS_KEY_SECRET"}
}

// daraRecorder is the SDK's HttpClient hook, recording the answer's
// bytes as received.
type daraRecorder struct{ rec *recorder }

func (d daraRecorder) Call(req *http.Request, _ *http.Transport) (*http.Response, error) {
	return d.rec.RoundTrip(req)
}

func (s alibabaSource) Fetch(ctx context.Context, f Fetcher, q Query, env func(string) string) (*Capture, error) {
	if len(q.Instances) == 0 {
		return nil, fmt.Errorf("alibaba-cloud: %s lists no instances", QueriesFile)
	}
	override := f.Endpoints["alibaba-cloud"]
	c := &Capture{Format: Format, Provider: "alibaba-cloud", API: s.API(), Endpoint: "ecs.<region>.aliyuncs.com", Retrieved: f.now(),
		Note: "Each body is the HTTP answer to one DescribePrice call, as received."}
	if override != "" {
		c.Endpoint = override
	}
	rec := newRecorder(f.Client)
	for _, iq := range q.Instances {
		cfg := &openapiutil.Config{AccessKeyId: dara.String(env("ALIBABA_CLOUD_ACCESS_KEY_ID")), AccessKeySecret: dara.String(env("ALIBABA_CLOUD_ACCESS_KEY_SECRET")),
			RegionId: dara.String(iq.Region), Endpoint: dara.String("ecs." + iq.Region + ".aliyuncs.com")}
		if override != "" {
			u, err := url.Parse(override)
			if err != nil {
				return nil, err
			}
			cfg.Endpoint, cfg.Protocol = dara.String(u.Host), dara.String(u.Scheme)
		}
		cfg.HttpClient = daraRecorder{rec}
		client, err := ecs.NewClient(cfg)
		if err != nil {
			return nil, err
		}
		for _, billing := range iq.billings() {
			req := &ecs.DescribePriceRequest{RegionId: dara.String(iq.Region), ResourceType: dara.String("instance"), InstanceType: dara.String(iq.Instance)}
			params := map[string]any{"Action": "DescribePrice", "RegionId": iq.Region, "ResourceType": "instance", "InstanceType": iq.Instance}
			if billing == "committed" {
				req.PriceUnit, req.Period = dara.String("Month"), dara.Int32(1)
				params["PriceUnit"], params["Period"] = "Month", 1
			} else {
				req.PriceUnit = dara.String("Hour")
				params["PriceUnit"] = "Hour"
			}
			params["catalog"] = iq.catalogPart()
			_, err := client.DescribePriceWithContext(ctx, req, &dara.RuntimeOptions{})
			status, body := rec.take()
			c.Exchanges = append(c.Exchanges, NewExchange(params, status, body, transportError(err, status)))
		}
	}
	return c, nil
}

// alibabaAnswer is DescribePriceResponseBody, with the error fields of
// an RPC error answer; prices are read as float64 from the body (the
// SDK's model types them float32).
type alibabaAnswer struct {
	RequestID string `json:"RequestId"`
	Code      string `json:"Code"`
	Message   string `json:"Message"`
	PriceInfo *struct {
		Price *struct {
			OriginalPrice *float64 `json:"OriginalPrice"`
			TradePrice    *float64 `json:"TradePrice"`
			Currency      string   `json:"Currency"`
		} `json:"Price"`
	} `json:"PriceInfo"`
}

func (alibabaSource) Parse(c *Capture) ([]importer.Observed, []string) {
	return eachAnswer(c, func(e Exchange) (importer.Observed, string) {
		var a alibabaAnswer
		jsonErr := json.Unmarshal([]byte(e.Body), &a)
		if a.Code != "" && jsonErr == nil {
			return importer.Observed{}, apiError(a.Code, a.Message, strings.HasPrefix(a.Code, "Throttling"))
		}
		if msg := httpProblem(e); msg != "" {
			return importer.Observed{}, msg
		}
		instance, _ := e.Request["InstanceType"].(string)
		unit, _ := e.Request["PriceUnit"].(string)
		switch {
		case jsonErr != nil || a.PriceInfo == nil || a.PriceInfo.Price == nil:
			return importer.Observed{}, instance + ": not a DescribePrice answer (no PriceInfo.Price): nothing read from it"
		case a.PriceInfo.Price.OriginalPrice == nil || !(*a.PriceInfo.Price.OriginalPrice > 0):
			return importer.Observed{}, instance + ": no OriginalPrice above zero"
		case a.PriceInfo.Price.Currency != "CNY" && a.PriceInfo.Price.Currency != "USD":
			return importer.Observed{}, fmt.Sprintf("%s: currency %q, not CNY or USD", instance, a.PriceInfo.Price.Currency)
		}
		ob := importer.Observed{Provider: "alibaba-cloud", Instance: instance, Currency: a.PriceInfo.Price.Currency, Value: *a.PriceInfo.Price.OriginalPrice, Source: alibabaDocs}
		switch unit {
		case "Hour":
			ob.Billing = "on-demand"
		case "Month":
			ob.Billing, ob.Unit, ob.TermMonths, ob.Commitment, ob.Payment = "committed", "month", 1, "subscription", "all-upfront"
		default:
			return importer.Observed{}, fmt.Sprintf("%s: PriceUnit %q is not one this parser reads", instance, unit)
		}
		return ob, ""
	})
}
