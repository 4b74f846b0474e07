package catdiff

import (
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite testdata/diff.golden")

var testNow = time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)

func side(name string) Side { return Side{Root: filepath.Join("testdata", name), Label: name} }

func TestReportGolden(t *testing.T) {
	got, err := Run(side("base"), side("head"), testNow)
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "diff.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("report differs from %s (go test -run TestReportGolden -update to rewrite):\n%s", golden, got)
	}
	again, _ := Run(side("base"), side("head"), testNow)
	if again != got {
		t.Error("two runs differ")
	}
}

func TestReportParts(t *testing.T) {
	got, err := Run(side("base"), side("head"), testNow)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, want string }{
		{"gpu added", "- `gamma-141gb` Gamma 141GB (NVIDIA, 141 GB)"},
		{"gpu removed", "- `old-12gb` Old 12GB (NVIDIA, 12 GB)"},
		{"gpu spec change", "  - memory_bandwidth_gbs: 3000 -> 3350"},
		{"gpu spec added", "  - fp8_tflops: (none) -> 1978.9"},
		{"gpu source added", `  - source added: https://example.com/alpha-errata ("Alpha errata", accessed 2025-03-01)`},
		{"provider added", "- `newco` NewCo (regional-cloud)"},
		{"provider removed", "- `gone` Gone Cloud (marketplace)"},
		{"provider field", `  - billing.increment: "per-hour" -> "per-second"`},
		{"offer added", "- `acme` a4 (1x gamma-141gb)"},
		{"offer removed", "- `gone` g1 (4x beta-24gb)"},
		{"offer field", "  - vcpu: 96 -> 112"},
		{"price drop, the old observation kept as history, an earlier one added", "- `acme` a1.8x, on-demand in r1: 20.00 USD (as of 2025-01-01) -> 18.50 USD (as of 2025-05-01) (-7.5%); earlier observation added: 21.00 USD (as of 2024-06-01)"},
		{"price added (legacy reserved-1y is committed for 12 months)", "- `acme` a1.8x, committed 12 months in r1: added 15.00 USD (as of 2025-05-01)"},
		{"price removed", "- `acme` a1.8x, spot in r1: removed; was 8.00 USD (as of 2025-01-01)"},
		{"re-dated", "- `acme` a2 small, on-demand in r1: 1.10 USD (as of 2025-01-01) -> 1.10 USD (as of 2025-05-01) (+0.0%)"},
		{"source only", "- `acme` a2 small, committed 12 months in r1: source https://example.com/pricing -> https://example.com/reserved"},
		{"currency change", "- `acme` a5, on-demand in r1: 2.00 USD (as of 2025-01-01) -> 1.80 EUR (as of 2025-05-01) (currency changed)"},
		{"model changed", "  - max_context: 4096 -> 8192"},
		{"model added", "- `fresh-3b` Fresh 3B"},
		{"model removed", "- `retired-1b` Retired 1B"},
	}
	for _, tt := range tests {
		if !strings.Contains(got, tt.want+"\n") {
			t.Errorf("%s: report lacks %q", tt.name, tt.want)
		}
	}
	if strings.Contains(got, "`acme` a4, on-demand") {
		t.Error("prices of a new offer are listed as price changes")
	}
}

func TestMoney(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{{20, "20.00"}, {1.1, "1.10"}, {0.92361, "0.92361"}, {98.32, "98.32"}, {0.5, "0.50"}}
	for _, tt := range tests {
		if got := money(tt.in); got != tt.want {
			t.Errorf("money(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNoChanges(t *testing.T) {
	for _, s := range []string{"base", "head"} {
		got, err := Run(side(s), side(s), testNow)
		if err != nil {
			t.Fatal(err)
		}
		if got != NoChanges {
			t.Errorf("%s against itself: %q, want %q", s, got, NoChanges)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	broken := t.TempDir()
	if err := os.CopyFS(broken, os.DirFS(filepath.Join("testdata", "head"))); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(broken, "data", "gpus", "alpha-80gb.toml")
	src, _ := os.ReadFile(p)
	if err := os.WriteFile(p, []byte(strings.Replace(string(src), "memory_gb = 80", "memory_gb = -80", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		base, head Side
		side       string
	}{
		{"broken head", side("base"), Side{broken, "broken"}, "head"},
		{"broken base", Side{broken, "broken"}, side("head"), "base"},
		{"missing base", Side{filepath.Join(broken, "nope"), "nope"}, side("head"), "base"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Run(tt.base, tt.head, testNow)
			var le *LoadError
			if !errors.As(err, &le) {
				t.Fatalf("got %v, want a *LoadError", err)
			}
			if le.Side != tt.side || len(le.Diags) == 0 || !strings.Contains(err.Error(), "the "+tt.side+" catalog") {
				t.Errorf("error names side %q with %d diagnostics, want %q: %v", le.Side, len(le.Diags), tt.side, err)
			}
		})
	}
}

// TestExtractRev commits the base fixture to a scratch git repository,
// puts the head fixture in the work tree, and diffs the commit against it.
func TestExtractRev(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	if err := os.CopyFS(repo, os.DirFS(filepath.Join("testdata", "base"))); err != nil {
		t.Fatal(err)
	}
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	if err := os.RemoveAll(filepath.Join(repo, "data")); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(repo, os.DirFS(filepath.Join("testdata", "head"))); err != nil {
		t.Fatal(err)
	}

	dst := t.TempDir()
	if err := ExtractRev(repo, "HEAD", dst); err != nil {
		t.Fatal(err)
	}
	got, err := Run(Side{dst, "HEAD"}, Side{repo, repo}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(filepath.Join("testdata", "diff.golden"))
	if got != string(want) {
		t.Errorf("diff against the committed base differs from the golden report:\n%s", got)
	}
	if err := ExtractRev(repo, "no-such-rev", t.TempDir()); err == nil || !strings.Contains(err.Error(), "no-such-rev") {
		t.Errorf("unknown revision: got %v", err)
	}
	if err := ExtractRev(repo, "--output=/tmp/x", t.TempDir()); err == nil {
		t.Error("a revision starting with '-' was passed to git")
	}
}
