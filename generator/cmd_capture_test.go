package main

import (
	"bytes"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/fixture"
)

// TestCaptureCommand: without credentials every provider is skipped with
// one line and nothing is written; a recorded Huawei answer becomes a
// capture and a new offer citing it, which check accepts; -read of that
// capture again adds nothing.
func TestCaptureCommand(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", fixture.Epoch)
	for _, k := range []string{"TENCENTCLOUD_SECRET_ID", "TENCENTCLOUD_SECRET_KEY", "ALIBABA_CLOUD_ACCESS_KEY_ID", "ALIBABA_CLOUD_ACCESS_KEY_SECRET", "BAIDU_BCE_ACCESS_KEY", "BAIDU_BCE_SECRET_KEY"} {
		t.Setenv(k, "")
	}
	root := fixture.Site(t)
	write := func(rel, text string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("data/captures/queries.toml", "[tencent-cloud]\nimage_id = \"img-x\"\n[[tencent-cloud.instances]]\nregion = \"ap-guangzhou\"\ninstance = \"GN7.2XLARGE32\"\n\n[alibaba-cloud]\n[[alibaba-cloud.instances]]\nregion = \"cn-beijing\"\ninstance = \"ecs.gn7i-c8g1.2xlarge\"\n\n[huawei-cloud]\n")
	exec := func(args ...string) (int, string) {
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		return code, stdout.String() + stderr.String()
	}
	code, out := exec("capture", "-root", root)
	want := "skip alibaba-cloud: ALIBABA_CLOUD_ACCESS_KEY_ID, ALIBABA_CLOUD_ACCESS_KEY_SECRET not set (add them as repository secrets; see CONTRIBUTING.md)\n" +
		"skip huawei-cloud: this build reads recorded answers only (generator capture -record)\n" +
		"skip tencent-cloud: TENCENTCLOUD_SECRET_ID, TENCENTCLOUD_SECRET_KEY not set (add them as repository secrets; see CONTRIBUTING.md)\n" +
		"0 provider(s) captured, 3 skipped, 0 failed\n"
	if code != 0 || out != want {
		t.Fatalf("capture without credentials: exit %d\n%s\nwant exit 0\n%s", code, out, want)
	}
	if ents, _ := os.ReadDir(filepath.Join(root, "data", "captures")); len(ents) != 1 {
		t.Errorf("data/captures holds %d entries after a run without credentials, want queries.toml only", len(ents))
	}

	write("data/providers/huawei-cloud.toml", "name = \"Huawei Cloud\"\nhomepage = \"https://www.huaweicloud.com/\"\ncountry = \"CN\"\nkind = \"hyperscaler\"\n\n[[regions]]\nid = \"cn-north-4\"\ncity = \"Beijing\"\ncountry = \"CN\"\ni18n = { zh = { name = \"华北-北京四\" } }\n\n[billing]\non_demand = true\n\n[[sources]]\nurl = \"https://www.huaweicloud.com/pricing.html\"\ntitle = \"Price calculator\"\naccessed = 2025-06-01\n\n[i18n.zh]\nname = \"华为云\"\n")
	write("req.json", `{"project_id": "0123456789abcdef", "product_infos": [{"id": "1", "cloud_service_type": "hws.service.type.ec2", "resource_type": "hws.resource.type.vm", "resource_spec": "p2s.2xlarge.8.linux", "region": "cn-north-4", "usage_factor": "Duration", "usage_value": 1, "usage_measure_id": 4, "subscription_num": 1, "catalog": {"region": "cn-north-4", "gpu": "beta-24gb", "gpu_count": 1}}]}`)
	code, out = exec("capture", "-root", root, "-record", "-provider", "huawei-cloud", "-api", "huawei-bss-on-demand-ratings",
		"-request", filepath.Join(root, "req.json"), "-response", filepath.Join("internal", "capture", "testdata", "huawei-ratings.json"), "-retrieved", "2025-10-20T06:00:00Z")
	if code != 0 || !strings.Contains(out, "recorded data/captures/huawei-cloud/2025-10-20-huawei-bss-on-demand-ratings.json") || !strings.Contains(out, "merged: 1 new observation(s), 1 new offer(s)") {
		t.Fatalf("capture -record: exit %d\n%s", code, out)
	}
	offers, err := os.ReadFile(filepath.Join(root, "data", "offers", "huawei-cloud.toml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`instance = "p2s.2xlarge.8.linux"`, "price = 24.25", `capture = "huawei-cloud/2025-10-20-huawei-bss-on-demand-ratings.json"`, `evidence = "first-party"`, `date_basis = "api-retrieved"`} {
		if !strings.Contains(string(offers), w) {
			t.Errorf("data/offers/huawei-cloud.toml lacks %s:\n%s", w, offers)
		}
	}
	if code, out := exec("check", "-root", root); code != 0 {
		t.Errorf("check after the merge: exit %d\n%s", code, out)
	}
	code, out = exec("capture", "-root", root, "-read", "huawei-cloud/2025-10-20-huawei-bss-on-demand-ratings.json")
	if code != 0 || !strings.Contains(out, "merged: 0 new observation(s), 0 new offer(s), 1 kept as they were") {
		t.Errorf("capture -read of the same capture: exit %d\n%s", code, out)
	}
	write("secret.json", `{"product_infos": [], "access_key": "x"}`)
	if code, out := exec("capture", "-root", root, "-record", "-provider", "huawei-cloud", "-api", "huawei-bss-on-demand-ratings", "-request", filepath.Join(root, "secret.json"), "-response", filepath.Join(root, "secret.json")); code != 1 || !strings.Contains(out, `holds "access_key", which looks like a credential`) {
		t.Errorf("capture -record with a credential in the request: exit %d\n%s", code, out)
	}
}

// TestCaptureCommandFailsHonestly: a capture whose request gets no answer
// exits non-zero and writes nothing; check rejects a capture file that is
// not evidence, cited or not.
func TestCaptureCommandFailsHonestly(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", fixture.Epoch)
	root := fixture.Site(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String() + "/prices"
	l.Close()
	p := filepath.Join(root, "data", "captures", "queries.toml")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("[acme]\npages = [\""+dead+"\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"capture", "-root", root, "-timeout", "5s"}, &stdout, &stderr)
	out := stdout.String() + stderr.String()
	if code != 1 || !strings.Contains(out, "failed acme: request 1 ("+dead+"): no answer (") ||
		!strings.Contains(out, "0 provider(s) captured, 0 skipped, 1 failed") {
		t.Errorf("capture without an answer: exit %d\n%s\nwant exit 1, a failed line and 1 failed", code, out)
	}
	if ents, _ := os.ReadDir(filepath.Dir(p)); len(ents) != 1 {
		t.Errorf("data/captures holds %d entries after a failed capture, want queries.toml only", len(ents))
	}

	bad := `{"format": 1, "provider": "acme", "api": "page", "endpoint": "", "retrieved_at": "2025-10-20T06:00:00Z", "exchanges": [
  {"request": {"url": "https://acme.example/prices"}, "status": 502, "body": "", "sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}
]}
`
	if err := os.MkdirAll(filepath.Join(filepath.Dir(p), "acme"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(p), "acme", "2025-10-20-page.json"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	stderr.Reset()
	code = run([]string{"check", "-root", root}, &stdout, &stderr)
	if want := "data/captures/acme/2025-10-20-page.json:2:3: exchange 1 is not evidence: HTTP 502"; code != 1 || !strings.Contains(stderr.String(), want) {
		t.Errorf("check of an uncited failed capture: exit %d\n%s\nwant exit 1 and %q", code, stderr.String(), want)
	}

	// The same problem as check -format json gives it: one object on
	// stdout, exit 1.
	stdout.Reset()
	stderr.Reset()
	code = run([]string{"check", "-root", root, "-format", "json"}, &stdout, &stderr)
	var report struct {
		Errors      int
		Diagnostics []diag.Record
	}
	if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
		t.Fatalf("check -format json: stdout is not one JSON object: %v\n%s", err, stdout.String())
	}
	found := false
	for _, r := range report.Diagnostics {
		found = found || (r.Path == "data/captures/acme/2025-10-20-page.json" && r.Line == 2 && r.Col == 3 && r.Severity == "error" &&
			strings.HasPrefix(r.Message, "exchange 1 is not evidence: HTTP 502"))
	}
	if code != 1 || report.Errors == 0 || !found {
		t.Errorf("check -format json: exit %d, %d errors, the capture's error found %v\n%s", code, report.Errors, found, stdout.String())
	}
}
