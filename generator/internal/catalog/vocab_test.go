package catalog

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/tomlpos"
)

func TestValidID(t *testing.T) {
	tests := []struct {
		id   string
		want bool
	}{
		{"h100-sxm5-80gb", true},
		{"aws", true},
		{"a1", true},
		{"", false},
		{"H100", false},
		{"a--b", false},
		{"-a", false},
		{"a-", false},
		{"a_b", false},
		{"a.toml", false},
	}
	for _, tt := range tests {
		if got := ValidID(tt.id); got != tt.want {
			t.Errorf("ValidID(%q) = %v, want %v", tt.id, got, tt.want)
		}
	}
}

// TestRequiredKeysAreFields checks every required key names a toml field
// of its type.
func TestRequiredKeysAreFields(t *testing.T) {
	for _, v := range []any{Site{}, Staleness{}, Dataset{}, FX{}, GPU{}, Interconnect{}, Source{}, Provider{}, Region{}, Billing{}, Reserved{}, HiddenCosts{}, ExtraCost{}, Tier{}, FXRates{}, Offer{}, Price{}, Model{}} {
		typ := reflect.TypeOf(v)
		keys := RequiredKeys(typ)
		if len(keys) == 0 {
			t.Errorf("%s: no required keys", typ.Name())
		}
		fields := strings.Join(tomlpos.Keys(typ), ",")
		for _, k := range keys {
			if !strings.Contains(","+fields+",", ","+k+",") {
				t.Errorf("%s: required key %q is not a field (%s)", typ.Name(), k, fields)
			}
		}
	}
	if RequiredKeys(reflect.TypeFor[Network]()) != nil {
		t.Error("Network has no required keys")
	}
}

func TestRequireReportsEmptyStrings(t *testing.T) {
	tests := []struct {
		src  string
		want string
	}{
		{`name = "x"`, ""},
		{`name = ""`, `t.toml:1:8: required key "name" is empty`},
		{`name = ''`, `t.toml:1:8: required key "name" is empty`},
		{`name = "  "   # comment`, `t.toml:1:8: required key "name" is empty`},
		{`name = "\""`, ""},
		{`name = "é"`, ""},
		{`x = "é"` + "\n" + `name = ""`, `t.toml:2:8: required key "name" is empty`},
		{"name = \"\"\"\nmulti\"\"\"", ""},
		{`name = 3`, ""},
		{`other = 1`, `t.toml:1:1: missing required key "name" in file`},
	}
	for _, tt := range tests {
		p := filepath.Join(t.TempDir(), "t.toml")
		if err := os.WriteFile(p, []byte(tt.src+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		d := &diag.List{}
		var v struct {
			Name  any `toml:"name"`
			Other any `toml:"other"`
			X     any `toml:"x"`
		}
		f := decodeFile(p, "t.toml", &v, d)
		if f == nil {
			t.Fatalf("%q does not decode: %v", tt.src, d.Sorted())
		}
		f.require("", "name")
		var got []string
		for _, e := range d.Errors() {
			got = append(got, e.String())
		}
		if strings.Join(got, "\n") != tt.want {
			t.Errorf("%q: got %q, want %q", tt.src, got, tt.want)
		}
	}
}
