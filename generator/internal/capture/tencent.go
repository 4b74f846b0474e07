package capture

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/importer"
	"github.com/tencentcloud/tencentcloud-sdk-go/tencentcloud/common"
	"github.com/tencentcloud/tencentcloud-sdk-go/tencentcloud/common/profile"
	cvm "github.com/tencentcloud/tencentcloud-sdk-go/tencentcloud/cvm/v20170312"
)

// tencentSource is Tencent Cloud CVM's InquiryPriceRunInstances
// (cloud.tencent.com/document/api/213/15726), called through the
// official SDK, tencentcloud-sdk-go (the SDK signs with TC3-HMAC-SHA256;
// its cvm package's InquiryPriceRunInstancesResponse is the documented
// shape: {"Response": {"Price": {"InstancePrice": ItemPrice,
// "BandwidthPrice": ItemPrice}, "RequestId"}}, or {"Response": {"Error":
// {"Code", "Message"}, "RequestId"}}). The list prices are kept:
// ItemPrice.UnitPrice (元 per hour, ChargeUnit HOUR) for
// POSTPAID_BY_HOUR, OriginalPrice (the period's total) for PREPAID, one
// month; the discounted fields are an account's own.
type tencentSource struct{}

const tencentEndpoint = "cvm.tencentcloudapi.com"

const tencentDocs = "https://cloud.tencent.com/document/api/213/15726"

func (tencentSource) Provider() string { return "tencent-cloud" }
func (tencentSource) API() string      { return "tencent-cvm-inquiry-price" }
func (tencentSource) Credentials() []string {
	return []string{"TENCENTCLOUD_SECRET_ID", "TENCENTCLOUD_SECRET_KEY"}
}

func (s tencentSource) Fetch(ctx context.Context, f Fetcher, q Query, env func(string) string) (*Capture, error) {
	if q.ImageID == "" || len(q.Instances) == 0 {
		return nil, fmt.Errorf("tencent-cloud: %s needs image_id and instances", QueriesFile)
	}
	endpoint, scheme := f.endpoint("tencent-cloud", tencentEndpoint), "HTTPS"
	if u, err := url.Parse(endpoint); err == nil && u.Host != "" { // a test server: http://127.0.0.1:port
		endpoint, scheme = u.Host, strings.ToUpper(u.Scheme)
	}
	c := &Capture{Format: Format, Provider: "tencent-cloud", API: s.API(), Endpoint: endpoint, Retrieved: f.now(),
		Note: "Each body is the HTTP answer to one InquiryPriceRunInstances call (CNY on the China site), as received."}
	cred := common.NewCredential(env("TENCENTCLOUD_SECRET_ID"), env("TENCENTCLOUD_SECRET_KEY"))
	rec := newRecorder(f.Client)
	for _, iq := range q.Instances {
		cpf := profile.NewClientProfile()
		cpf.HttpProfile.Endpoint, cpf.HttpProfile.Scheme = endpoint, scheme
		if f.Client != nil && f.Client.Timeout > 0 {
			cpf.HttpProfile.ReqTimeout = int(f.Client.Timeout.Seconds())
		}
		client, err := cvm.NewClient(cred, iq.Region, cpf)
		if err != nil {
			return nil, err
		}
		client.WithHttpTransport(rec)
		for _, billing := range iq.billings() {
			req := cvm.NewInquiryPriceRunInstancesRequest()
			req.Placement = &cvm.Placement{Zone: common.StringPtr(iq.Zone)}
			req.ImageId = common.StringPtr(q.ImageID)
			req.InstanceType = common.StringPtr(iq.Instance)
			params := map[string]any{"Region": iq.Region, "Placement.Zone": iq.Zone, "ImageId": q.ImageID, "InstanceType": iq.Instance}
			if billing == "committed" {
				req.InstanceChargeType = common.StringPtr("PREPAID")
				req.InstanceChargePrepaid = &cvm.InstanceChargePrepaid{Period: common.Int64Ptr(1)}
				params["InstanceChargeType"], params["InstanceChargePrepaid.Period"] = "PREPAID", 1
			} else {
				req.InstanceChargeType = common.StringPtr("POSTPAID_BY_HOUR")
				params["InstanceChargeType"] = "POSTPAID_BY_HOUR"
			}
			params["catalog"] = iq.catalogPart()
			_, err := client.InquiryPriceRunInstancesWithContext(ctx, req)
			status, body := rec.take()
			c.Exchanges = append(c.Exchanges, NewExchange(params, status, body, transportError(err, status)))
		}
	}
	return c, nil
}

// transportError keeps an error only when no answer came back (an error
// answer is in the body, and Parse reads it there).
func transportError(err error, status int) error {
	if status != 0 {
		return nil
	}
	return err
}

// tencentAnswer is InquiryPriceRunInstancesResponse as the SDK types it,
// with the error shape of every API 3.0 answer.
type tencentAnswer struct {
	Response *struct {
		cvm.InquiryPriceRunInstancesResponseParams
		Error *struct{ Code, Message string }
	}
}

func (tencentSource) Parse(c *Capture) ([]importer.Observed, []string) {
	return eachAnswer(c, func(e Exchange) (importer.Observed, string) {
		if msg := httpProblem(e); msg != "" {
			return importer.Observed{}, msg
		}
		var a tencentAnswer
		if err := json.Unmarshal([]byte(e.Body), &a); err != nil || a.Response == nil {
			return importer.Observed{}, "not an InquiryPriceRunInstances answer: nothing read from it"
		}
		if er := a.Response.Error; er != nil {
			return importer.Observed{}, apiError(er.Code, er.Message, strings.HasPrefix(er.Code, "RequestLimitExceeded"))
		}
		instance, _ := e.Request["InstanceType"].(string)
		charge, _ := e.Request["InstanceChargeType"].(string)
		ob, msg := tencentObservation(a, instance, charge)
		if msg != "" {
			return ob, fmt.Sprintf("%s %s: %s", instance, charge, msg)
		}
		ob.Source = tencentDocs
		return ob, ""
	})
}

func tencentObservation(a tencentAnswer, instance, charge string) (importer.Observed, string) {
	ob := importer.Observed{Provider: "tencent-cloud", Instance: instance, Currency: "CNY"}
	if a.Response.Price == nil || a.Response.Price.InstancePrice == nil {
		return ob, "the answer has no Price.InstancePrice"
	}
	p := a.Response.Price.InstancePrice
	switch charge {
	case "POSTPAID_BY_HOUR":
		unit := ""
		if p.ChargeUnit != nil {
			unit = *p.ChargeUnit
		}
		if unit != "HOUR" {
			return ob, fmt.Sprintf("ChargeUnit %q, not HOUR: a unit the catalog does not read", unit)
		}
		if p.UnitPrice == nil || !(*p.UnitPrice > 0) {
			return ob, "no UnitPrice above zero"
		}
		ob.Billing, ob.Value = "on-demand", *p.UnitPrice
	case "PREPAID":
		if p.OriginalPrice == nil || !(*p.OriginalPrice > 0) {
			return ob, "no OriginalPrice above zero"
		}
		ob.Billing, ob.Value, ob.Unit, ob.TermMonths, ob.Commitment, ob.Payment = "committed", *p.OriginalPrice, "month", 1, "subscription", "all-upfront"
	default:
		return ob, "the request's InstanceChargeType is not one this parser reads"
	}
	return ob, ""
}

// fillObserved sets what every observation of a capture shares: its
// date, its basis, the region and the instance the query described.
func fillObserved(ob *importer.Observed, c *Capture, i int, e Exchange) {
	cp := catalogPart(e)
	ob.Region, _ = cp["region"].(string)
	ob.GPU, _ = cp["gpu"].(string)
	if n, ok := number(cp["gpu_count"]); ok {
		ob.GPUCount = int(n)
	}
	ob.AsOf, ob.DateBasis = day(c.Retrieved), "api-retrieved"
	ob.Where = fmt.Sprintf("%s exchange %d", c.Name(), i+1)
}
