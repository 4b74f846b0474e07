package site

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/accuracy"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

// TestCalculatorShowsSpread: beside each estimate of the calculator, in
// both editions, the spread the accuracy page reports for its kind of
// measurement (accuracy.Evaluate on the same catalog), and a link to that
// page.
func TestCalculatorShowsSpread(t *testing.T) {
	files, _ := repoSite(t)
	rep, err := accuracy.Evaluate(testcat.Repo(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range []struct{ path, format, link string }{
		{"calculator/index.html", "(±%d%% on measured runs like this)", `href="/accuracy/"`},
		{"zh/calculator/index.html", "（同类实测偏差 ±%d%%）", `href="/zh/accuracy/"`},
	} {
		body := files[page.path]
		for _, kind := range []string{"infer_memory", "train_memory", "decode", "ttft", "throughput", "train_throughput"} {
			s, ok := rep.Summary(kind, "all")
			if !ok {
				t.Fatalf("no %s measurements in the calibration set", kind)
			}
			want := fmt.Sprintf(page.format, int(math.Round(100*s.Spread)))
			if !strings.Contains(body, want) {
				t.Errorf("%s: no %q for %s", page.path, want, kind)
			}
		}
		if !strings.Contains(body, page.link) {
			t.Errorf("%s: no link to the accuracy page (%s)", page.path, page.link)
		}
	}
}
