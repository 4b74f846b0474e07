package sizecmd

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// payData is the test catalog with a committed and a spot H100 price, a
// hosted API of Llama 3 8B and a serverless H100.
func payData() Data {
	offers := append([]Offer(nil), testOffers...)
	offers = append(offers,
		Offer{ID: "cloud-a/h100x8", GPU: "h100-sxm5-80gb", GPUs: 8, PerHour: 11, AsOf: "2026-10-01", Mode: 1},
		Offer{ID: "cloud-b/h100x1", GPU: "h100-sxm5-80gb", GPUs: 1, PerHour: 1.1, AsOf: "2026-10-02", Mode: 2})
	usage := []UsageOffer{
		{Platform: "Hoster", ServedAs: "llama-3-8b-instruct", AsOf: "2026-07-24", Model: "llama-3-8b", InputPerM: 0.05, OutputPerM: 0.08},
		{Platform: "Hoster", ServedAs: "other-model", AsOf: "2026-07-24", Model: "llama-2-70b", InputPerM: 0.5, OutputPerM: 0.8},
		{Platform: "Workers", ServedAs: "H100", AsOf: "2026-06-08", GPU: "h100-sxm5-80gb", PerSecond: 0.0011, IdleSeconds: 5},
	}
	return Data{Presets: testPresets, GPUs: testGPUs, Offers: offers, Usage: usage}
}

func runData(d Data, args ...string) (int, string, string) {
	var o, e bytes.Buffer
	code := Run(args, d, &o, &e)
	return code, o.String(), e.String()
}

func TestPay(t *testing.T) {
	args := []string{"-pay", "-model", "llama-3-8b", "-rate", "0.5", "-prompt", "1000", "-output", "200"}
	code, out, errOut := runData(payData(), args...)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, w := range []string{
		"Serving 0.5 requests/s of 1,000-token prompts and 200-token answers (1,314,000 requests a month of 730 hours).",
		"hosted API", "Hoster llama-3-8b-instruct (2026-07-24)", "serverless GPU", "Workers H100 (2026-06-08)",
		"dedicated, on demand", "dedicated, committed", "1 × cloud-a/h100x8 (2026-10-01)", "dedicated, spot", "cloud-b/h100x1 (2026-10-02)",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, "other-model") {
		t.Errorf("another model's API priced:\n%s", out)
	}
	checkGolden(t, "pay-llama-3-8b.txt", out)

	_, js, _ := runData(payData(), append(args, "-json")...)
	var p jsonPay
	if err := json.Unmarshal([]byte(js), &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Ways) != 5 || p.Model.ID != "llama-3-8b" {
		t.Fatalf("json: model %q, %d ways:\n%s", p.Model.ID, len(p.Ways), js)
	}
	for i, w := range p.Ways {
		if i > 0 && w.USDPerMonth < p.Ways[i-1].USDPerMonth || w.AsOf == "" {
			t.Errorf("way %d %+v: not cheapest first, or undated", i, w)
		}
		if w.Way == "api" && w.USDPerRequest != 0.000066 { // (1,000 × 0.05 + 200 × 0.08) per million
			t.Errorf("api per request %v, want 0.000066 ((1,000 × 0.05 + 200 × 0.08) / 1e6)", w.USDPerRequest)
		}
	}

	// The serverless way states its idle timeout and the idle GPU-seconds
	// a request pays for, and costs more a request than without them.
	d := payData()
	d.Usage[2].IdleSeconds = 0
	_, js0, _ := runData(d, append(args, "-json")...)
	var p0 jsonPay
	if err := json.Unmarshal([]byte(js0), &p0); err != nil {
		t.Fatal(err)
	}
	sv := func(p jsonPay) jsonWay {
		for _, w := range p.Ways {
			if w.Way == "serverless" {
				return w
			}
		}
		t.Fatalf("no serverless way in %+v", p.Ways)
		return jsonWay{}
	}
	with, without := sv(p), sv(p0)
	if with.IdleTimeout == nil || *with.IdleTimeout != 5 || with.IdleSecondsPerRequest == nil || !(*with.IdleSecondsPerRequest > 0) ||
		!(with.USDPerRequest > without.USDPerRequest) || without.IdleTimeout != nil || without.IdleSecondsPerRequest != nil {
		t.Errorf("serverless with a 5 s idle timeout %+v, without %+v: want the timeout, idle seconds and a dearer request", with, without)
	}
}

// TestPayNoPrices: with no current price the answer says so, and -pay
// refuses what -plan refuses, naming -pay.
func TestPayNoPrices(t *testing.T) {
	code, out, _ := runData(Data{Presets: testPresets, GPUs: testGPUs}, "-pay", "-model", "llama-3-8b", "-rate", "1", "-prompt", "10", "-output", "10")
	if code != 0 || !strings.Contains(out, "No current price of any kind holds this load") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	code, _, errOut := runData(payData(), "-pay", "-model", "llama-3-8b", "-prompt", "10", "-output", "10")
	if want := "size: -pay needs -rate (requests/s), -prompt and -output (tokens per request); -rate is missing\n"; code != ExitUsage || errOut != want {
		t.Errorf("exit %d, stderr %q; want %q", code, errOut, want)
	}
}
