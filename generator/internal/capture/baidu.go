package capture

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/baidubce/bce-sdk-go/bce"
	"github.com/baidubce/bce-sdk-go/services/bcc"
	bccapi "github.com/baidubce/bce-sdk-go/services/bcc/api"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/importer"
)

// baiduSource is Baidu AI Cloud BCC's 查询实例套餐价格, POST
// /v2/instance/price (cloud.baidu.com/doc/BCC/s/uk5dt23r8), called through
// the official SDK, bce-sdk-go (it signs with bce-auth-v1; its bcc/api
// GetPriceBySpecResult is the documented shape: {"price": [{"specId",
// "specPrices": [{"spec", "status", "specPrice"}]}]}; an error answer is
// {"requestId", "code", "message"}). Only the prepaid price is read
// (paymentTiming Prepaid, purchaseLength 1: one month, the total for one
// instance): the page states the unit of the postpaid answer nowhere, so
// it is not asked.
type baiduSource struct{}

const baiduDocs = "https://cloud.baidu.com/doc/BCC/s/uk5dt23r8"

func (baiduSource) Provider() string { return "baidu-ai-cloud" }
func (baiduSource) API() string      { return "baidu-bcc-instance-price" }
func (baiduSource) Credentials() []string {
	return []string{"BAIDU_BCE_ACCESS_KEY", "BAIDU_BCE_SECRET_KEY"}
}

func (s baiduSource) Fetch(ctx context.Context, f Fetcher, q Query, env func(string) string) (*Capture, error) {
	if len(q.Instances) == 0 {
		return nil, fmt.Errorf("baidu-ai-cloud: %s lists no instances", QueriesFile)
	}
	override := f.Endpoints["baidu-ai-cloud"]
	c := &Capture{Format: Format, Provider: "baidu-ai-cloud", API: s.API(), Endpoint: "bcc.<region>.baidubce.com", Retrieved: f.now(),
		Note: "Each body is the HTTP answer to one POST /v2/instance/price (prepaid, one month, one instance), as received."}
	if override != "" {
		c.Endpoint = override
	}
	rec := newRecorder(f.Client)
	for _, iq := range q.Instances {
		endpoint := "bcc." + iq.Region + ".baidubce.com"
		if override != "" {
			endpoint = override
		}
		client, err := bcc.NewClient(env("BAIDU_BCE_ACCESS_KEY"), env("BAIDU_BCE_SECRET_KEY"), endpoint)
		if err != nil {
			return nil, err
		}
		client.Config.Retry = bce.NewNoRetryPolicy()
		client.HTTPClient = &http.Client{Transport: rec}
		if f.Client != nil {
			client.HTTPClient.Timeout = f.Client.Timeout
		}
		args := &bccapi.GetPriceBySpecArgs{SpecId: iq.SpecID, Spec: iq.Instance, PaymentTiming: "Prepaid", ZoneName: iq.Zone, PurchaseCount: 1, PurchaseLength: 1}
		params := map[string]any{"specId": iq.SpecID, "spec": iq.Instance, "paymentTiming": "Prepaid", "zoneName": iq.Zone, "purchaseCount": 1, "purchaseLength": 1, "catalog": iq.catalogPart()}
		_, err = client.GetPriceBySpec(args)
		status, body := rec.take()
		c.Exchanges = append(c.Exchanges, NewExchange(params, status, body, transportError(err, status)))
	}
	return c, nil
}

type baiduAnswer struct {
	Code    string                 `json:"code"`
	Message string                 `json:"message"`
	Price   *[]bccapi.SpecIdPrices `json:"price"`
}

func (baiduSource) Parse(c *Capture) ([]importer.Observed, []string) {
	return eachAnswer(c, func(e Exchange) (importer.Observed, string) {
		var a baiduAnswer
		jsonErr := json.Unmarshal([]byte(e.Body), &a)
		if jsonErr == nil && a.Code != "" {
			l := strings.ToLower(a.Code)
			return importer.Observed{}, apiError(a.Code, a.Message, strings.Contains(l, "throttl") || strings.Contains(l, "ratelimit"))
		}
		if msg := httpProblem(e); msg != "" {
			return importer.Observed{}, msg
		}
		spec, _ := e.Request["spec"].(string)
		if jsonErr != nil || a.Price == nil {
			return importer.Observed{}, spec + ": not a price answer (no price list): nothing read from it"
		}
		var found []string
		for _, sp := range *a.Price {
			for _, p := range sp.SpecPrices {
				if p.Spec == spec {
					found = append(found, p.SpecPrice)
				}
			}
		}
		if len(found) != 1 {
			return importer.Observed{}, fmt.Sprintf("%s: %d prices for the spec in the answer, want 1", spec, len(found))
		}
		v, err := strconv.ParseFloat(found[0], 64)
		if err != nil || !(v > 0) {
			return importer.Observed{}, fmt.Sprintf("%s: specPrice %q is not a price above zero", spec, found[0])
		}
		return importer.Observed{Provider: "baidu-ai-cloud", Instance: spec, Currency: "CNY", Value: v, Source: baiduDocs,
			Billing: "committed", Unit: "month", TermMonths: 1, Commitment: "subscription", Payment: "all-upfront"}, ""
	})
}
