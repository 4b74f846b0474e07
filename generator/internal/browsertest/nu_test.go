package browsertest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

// TestNuHTMLChecker runs the W3C Nu HTML checker (vnu.jar, pinned by
// package.json, on the system's Java) over every page of the built site,
// both editions, and fails on any error it reports.
func TestNuHTMLChecker(t *testing.T) {
	if testing.Short() {
		t.Skip("checks the whole built site (make test runs it)")
	}
	jar := filepath.Join(testcat.RepoRoot(), "node_modules", "vnu-jar", "build", "dist", "vnu.jar")
	if _, err := os.Stat(jar); err != nil {
		t.Fatalf("%s is missing: run npm ci --ignore-scripts in %s (vnu-jar is pinned in package.json)", jar, testcat.RepoRoot())
	}
	java, err := exec.LookPath("java")
	if err != nil {
		t.Fatal("the Nu checker needs Java: apt-get install -y default-jre-headless")
	}
	dir := SiteDir(Site(t))
	cmd := exec.Command(java, "-jar", jar, "--errors-only", "--format", "json", "--skip-non-html", dir)
	out, err := cmd.CombinedOutput() // exit status 1 when it finds errors: the report says which
	var report struct {
		Messages []struct {
			Type, URL, Message, Extract string
			LastLine                    int `json:"lastLine"`
		} `json:"messages"`
	}
	if jerr := json.Unmarshal(out, &report); jerr != nil {
		t.Fatalf("vnu: %v (%v)\n%s", err, jerr, out)
	}
	for i, m := range report.Messages {
		if i == 20 {
			t.Errorf("and %d more", len(report.Messages)-i)
			break
		}
		t.Errorf("%s:%d: %s: %s\n  %s", m.URL, m.LastLine, m.Type, m.Message, m.Extract)
	}
	if err != nil && len(report.Messages) == 0 {
		t.Errorf("vnu: %v\n%s", err, out)
	}
}
