package catdiff

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunOverlay: what the update from testdata/base to testdata/head
// changes for a team's overlay. The update lowers acme a1.8x's on-demand
// price from 20.00 to 18.50 USD, removes provider gone (offer g1) and GPU
// old-12gb, and adds provider newco and GPU gamma-141gb; today is
// 2025-06-01.
func TestRunOverlay(t *testing.T) {
	const term = "source = \"https://wiki.team.example/c\"\nas_of = 2025-01-15\n"
	tests := []struct {
		name     string
		files    map[string]string // overlay files
		want     []string          // lines of the overlay section
		not      []string          // substrings it must not have
		loadErrs bool              // the overlay does not load on head
	}{
		{
			name:  "a contract price now above the public price",
			files: map[string]string{"data/overrides.toml": "[[contract]]\noffer = \"acme/a1-8x\"\nprice = 19.0\n" + term},
			want:  []string{"- your contract price for `acme` a1.8x (19.00 USD, team/data/overrides.toml:1) is now above the public on-demand price (18.50 USD as of 2025-05-01)"},
		},
		{
			name:  "a contract price in another currency, converted at head's rate",
			files: map[string]string{"data/overrides.toml": "[[contract]]\noffer = \"acme/a1-8x\"\nprice = 18.0\ncurrency = \"EUR\"\n" + term},
			want:  []string{"- your contract price for `acme` a1.8x (20.00 USD, team/data/overrides.toml:1) is now above the public on-demand price (18.50 USD as of 2025-05-01)"},
		},
		{
			name: "a contract above while another names a removed offer",
			files: map[string]string{"data/overrides.toml": "[[contract]]\noffer = \"acme/a1-8x\"\nprice = 19.0\n" + term +
				"\n[[contract]]\noffer = \"gone/g1\"\nprice = 5.0\n" + term},
			want: []string{"- your contract price for `acme` a1.8x (19.00 USD, team/data/overrides.toml:1) is now above the public on-demand price (18.50 USD as of 2025-05-01)",
				"- your contract price names `gone` g1, which the update removes: change or delete the entry (team/data/overrides.toml:7); until then the overlay does not build",
				`  - team/data/overrides.toml:8:9: unknown offer "gone/g1"`},
			loadErrs: true,
		},
		{
			name:  "a contract that ended replaces nothing",
			files: map[string]string{"data/overrides.toml": "[[contract]]\noffer = \"acme/a1-8x\"\nprice = 25.0\n" + term + "valid_until = 2025-05-01\n"},
			not:   []string{"above"},
		},
		{
			name:  "a contract price still above",
			files: map[string]string{"data/overrides.toml": "[[contract]]\noffer = \"acme/a1-8x\"\nprice = 25.0\n" + term},
			want:  []string{"- your contract price for `acme` a1.8x (25.00 USD, team/data/overrides.toml:1) is still above the public on-demand price (18.50 USD as of 2025-05-01)"},
		},
		{
			name:  "a contract price below: nothing to say",
			files: map[string]string{"data/overrides.toml": "[[contract]]\noffer = \"acme/a1-8x\"\nprice = 10.0\n" + term},
			not:   []string{"contract price for"},
		},
		{
			name:     "a contract on an offer the update removes",
			files:    map[string]string{"data/overrides.toml": "# the gone cloud\n[[contract]]\noffer = \"gone/g1\"\nprice = 5.0\n" + term},
			want:     []string{"- your contract price names `gone` g1, which the update removes: change or delete the entry (team/data/overrides.toml:2); until then the overlay does not build"},
			loadErrs: true,
		},
		{
			name:     "discounts on a provider and a GPU the update removes",
			files:    map[string]string{"data/overrides.toml": "[[discount]]\nprovider = \"gone\"\npct = 10\n" + term + "\n[[discount]]\ngpu = \"old-12gb\"\npct = 5\n" + term},
			want:     []string{"- your discount names provider `gone`, which the update removes: change or delete the entry (team/data/overrides.toml:1); until then the overlay does not build", "- your discount names GPU `old-12gb`, which the update removes: change or delete the entry (team/data/overrides.toml:7); until then the overlay does not build"},
			loadErrs: true,
		},
		{
			name:     "hiding a provider the update removes",
			files:    map[string]string{"data/hide.toml": "providers = [\"gone\"]\n"},
			want:     []string{"- data/hide.toml hides provider `gone`, which the update removes: delete the entry (team/data/hide.toml:1); until then the overlay does not build"},
			loadErrs: true,
		},
		{
			name:  "a contract ending within 30 days",
			files: map[string]string{"data/overrides.toml": "[[contract]]\noffer = \"acme/a1-8x\"\nprice = 10.0\n" + term + "valid_until = 2025-06-20\n"},
			want:  []string{"- your contract price for `acme` a1.8x ends on 2025-06-20, in 19 day(s): then the public price is shown (team/data/overrides.toml:1)"},
		},
		{
			name:  "a contract ending later: nothing to say",
			files: map[string]string{"data/overrides.toml": "[[contract]]\noffer = \"acme/a1-8x\"\nprice = 10.0\n" + term + "valid_until = 2025-07-02\n"},
			not:   []string{"ends on"},
		},
		{
			name:  "a contract that ended",
			files: map[string]string{"data/overrides.toml": "[[contract]]\noffer = \"acme/a1-8x\"\nprice = 10.0\n" + term + "valid_until = 2025-05-31\n"},
			want:  []string{"- your contract price for `acme` a1.8x ended on 2025-05-31: the public price is shown instead (team/data/overrides.toml:1)"},
		},
		{
			name:  "a discount ending in 30 days",
			files: map[string]string{"data/overrides.toml": "[[discount]]\nprovider = \"acme\"\nbilling = \"spot\"\npct = 15\n" + term + "valid_until = 2025-07-01\n"},
			want:  []string{"- your 15% discount on `acme` ends on 2025-07-01, in 30 day(s): then the public price is shown (team/data/overrides.toml:1)"},
		},
		{
			name:  "what the update adds shows unless hidden",
			files: map[string]string{"site.toml": "title = \"Team\"\n"},
			want:  []string{"- the update adds provider `newco` NewCo (regional-cloud): it shows on your site unless data/hide.toml hides it", "- the update adds GPU `gamma-141gb` Gamma 141GB: it shows on your site unless data/hide.toml hides it"},
		},
		{
			name:  "a hidden addition is not listed",
			files: map[string]string{"data/hide.toml": "providers = [\"newco\"]\n"},
			want:  []string{"- the update adds GPU `gamma-141gb` Gamma 141GB: it shows on your site unless data/hide.toml hides it"},
			not:   []string{"provider `newco`"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, src := range tt.files {
				p := filepath.Join(dir, filepath.FromSlash(name))
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := RunOverlay(side("base"), side("head"), Overlay{Dir: dir, Label: "team/"}, testNow)
			if err != nil {
				t.Fatal(err)
			}
			public, _ := Run(side("base"), side("head"), testNow)
			if !strings.HasPrefix(got, public+"\n### Your overlay (team)\n\n") {
				t.Fatalf("the report does not start with the catalog changes and the overlay heading:\n%s", got)
			}
			section := strings.TrimPrefix(got, public+"\n### Your overlay (team)\n\n")
			lines := strings.Split(strings.TrimSuffix(section, "\n"), "\n")
			for _, w := range tt.want {
				found := false
				for _, l := range lines {
					found = found || l == w
				}
				if !found {
					t.Errorf("no line\n%s\nin\n%s", w, section)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(section, n) {
					t.Errorf("the section mentions %q:\n%s", n, section)
				}
			}
			if has := strings.Contains(section, "- the overlay does not load on the updated catalog:\n  - team/"); has != tt.loadErrs {
				t.Errorf("load errors listed: %v, want %v:\n%s", has, tt.loadErrs, section)
			}
		})
	}
}

// TestRunOverlayNothing: an overlay that hides what the update adds has
// nothing to be told.
func TestRunOverlayNothing(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "data"), 0o755)
	os.WriteFile(filepath.Join(dir, "data", "hide.toml"), []byte("providers = [\"acme\"]\n"), 0o644)
	got, err := RunOverlay(side("head"), side("head"), Overlay{Dir: dir, Label: "team/"}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	if want := NoChanges + "\n### Your overlay (team)\n\nNo changes for your overlay.\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestRunOverlayBroken: an overlay file that does not decode is a
// positioned error in the overlay's file.
func TestRunOverlayBroken(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "data"), 0o755)
	os.WriteFile(filepath.Join(dir, "data", "overrides.toml"), []byte("[[contract]]\nofer = \"acme/a1-8x\"\n"), 0o644)
	_, err := RunOverlay(side("base"), side("head"), Overlay{Dir: dir, Label: "team/"}, testNow)
	var le *LoadError
	if !errors.As(err, &le) || le.Side != "overlay" || len(le.Diags) != 1 || le.Diags[0].String() != `team/data/overrides.toml:2:1: unknown key "ofer" (did you mean "offer"?)` {
		t.Errorf("got %v", err)
	}
	if _, err := RunOverlay(side("base"), side("head"), Overlay{Dir: filepath.Join(dir, "nope")}, testNow); !errors.As(err, &le) || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing overlay: got %v", err)
	}
}
