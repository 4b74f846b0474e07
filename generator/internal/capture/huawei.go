package capture

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/importer"
)

// huaweiSource reads answers of Huawei Cloud BSS's
// ListOnDemandResourceRatings, POST /v2/bills/ratings/on-demand-resources
// (support.huaweicloud.com/api-oce/bcloud_01001.html): a request of
// product_infos (id, cloud_service_type hws.service.type.ec2,
// resource_type hws.resource.type.vm, resource_spec such as
// p2s.2xlarge.8.linux, region, usage_factor Duration, usage_value 1,
// usage_measure_id 4: one hour), answered by {"currency", "amount",
// "official_website_amount", "discount_amount", "measure_id",
// "product_rating_results": [{"id", "product_id", "amount",
// "official_website_amount", "discount_amount", "measure_id"}]} with
// measure_id 1 for 元; an error is {"error_code", "error_msg"}.
// official_website_amount, the list price, is kept.
//
// This build does not call the API itself: Huawei's official Go SDK,
// huaweicloud-sdk-go-v3, is one module of every service (hundreds of
// megabytes), and a hand-written signer could not be tested here against
// anything of Huawei's. A maintainer records an answer (from the
// official CLI, hcloud BSS ListOnDemandResourceRatings, or API Explorer)
// with generator capture -record; Parse reads it like a fetched one.
type huaweiSource struct{}

const huaweiDocs = "https://support.huaweicloud.com/api-oce/bcloud_01001.html"

func (huaweiSource) Provider() string      { return "huawei-cloud" }
func (huaweiSource) API() string           { return "huawei-bss-on-demand-ratings" }
func (huaweiSource) Credentials() []string { return nil }

// ErrRecordOnly is Fetch's answer for a source this build reads only
// from recorded answers.
var ErrRecordOnly = fmt.Errorf("this build reads recorded answers only (generator capture -record)")

// RecordOnly marks a source that Run skips: its answers are recorded.
func (huaweiSource) RecordOnly() bool { return true }

func (huaweiSource) Fetch(context.Context, Fetcher, Query, func(string) string) (*Capture, error) {
	return nil, ErrRecordOnly
}

type huaweiAnswer struct {
	ErrorCode string `json:"error_code"`
	ErrorMsg  string `json:"error_msg"`
	Currency  string `json:"currency"`
	MeasureID *int   `json:"measure_id"`
	Results   *[]struct {
		ID                    string   `json:"id"`
		OfficialWebsiteAmount *float64 `json:"official_website_amount"`
		MeasureID             *int     `json:"measure_id"`
	} `json:"product_rating_results"`
}

// Parse reads one observation per product of each answer; the request
// holds the product_infos it answers, each with a "catalog" part naming
// the catalog's region (and the GPU of a new instance).
func (huaweiSource) Parse(c *Capture) ([]importer.Observed, []string) {
	var out []importer.Observed
	var problems []string
	for i, e := range c.Exchanges {
		var a huaweiAnswer
		jsonErr := json.Unmarshal([]byte(e.Body), &a)
		if jsonErr == nil && a.ErrorCode != "" {
			problems = append(problems, problem(c, i, "%s", apiError(a.ErrorCode, a.ErrorMsg, a.ErrorCode == "APIGW.0308")))
			continue
		}
		if msg := httpProblem(e); msg != "" {
			problems = append(problems, problem(c, i, "%s", msg))
			continue
		}
		if jsonErr != nil || a.Results == nil {
			problems = append(problems, problem(c, i, "not a ListOnDemandResourceRatings answer (no product_rating_results): nothing read from it"))
			continue
		}
		if a.Currency != "CNY" && a.Currency != "USD" {
			problems = append(problems, problem(c, i, "currency %q, not CNY or USD: nothing read from it", a.Currency))
			continue
		}
		infos := map[string]map[string]any{}
		if list, ok := e.Request["product_infos"].([]any); ok {
			for _, v := range list {
				if m, ok := v.(map[string]any); ok {
					if id, ok := m["id"].(string); ok {
						infos[id] = m
					}
				}
			}
		}
		for _, r := range *a.Results {
			info := infos[r.ID]
			switch {
			case info == nil:
				problems = append(problems, problem(c, i, "product %q is not in the request's product_infos", r.ID))
				continue
			case r.OfficialWebsiteAmount == nil || !(*r.OfficialWebsiteAmount > 0):
				problems = append(problems, problem(c, i, "product %q: no official_website_amount above zero", r.ID))
				continue
			case r.MeasureID != nil && *r.MeasureID != 1:
				problems = append(problems, problem(c, i, "product %q: measure_id %d, not 1 (元/dollars): a unit this parser does not convert", r.ID, *r.MeasureID))
				continue
			}
			if um, _ := number(info["usage_measure_id"]); um != 4 {
				problems = append(problems, problem(c, i, "product %q: usage_measure_id %v, not 4 (one hour)", r.ID, info["usage_measure_id"]))
				continue
			}
			if uv, _ := number(info["usage_value"]); uv != 1 {
				problems = append(problems, problem(c, i, "product %q: usage_value %v, not 1", r.ID, info["usage_value"]))
				continue
			}
			spec, _ := info["resource_spec"].(string)
			ob := importer.Observed{Provider: "huawei-cloud", Instance: spec, Currency: a.Currency, Value: *r.OfficialWebsiteAmount, Billing: "on-demand", Source: huaweiDocs}
			fillObserved(&ob, c, i, Exchange{Request: map[string]any{"catalog": info["catalog"]}})
			out = append(out, ob)
		}
	}
	return out, problems
}
