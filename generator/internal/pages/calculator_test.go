package pages

import (
	"os"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/message"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/sizing"
)

// TestCalculatorStrings checks that every UI string the calculator's
// script fills (calcKeys) is in both catalogs with the same placeholders,
// so message.Fill and the script's fill() place the same arguments
// in either edition.
func TestCalculatorStrings(t *testing.T) {
	cat := func(lang string) map[string]string {
		b, err := os.ReadFile("../../../templates/i18n/" + lang + ".toml")
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		if err := toml.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	en, zh := cat("en"), cat("zh")
	holes := message.Placeholders
	for _, k := range calcKeys {
		e, ok := en[k]
		if !ok {
			t.Errorf("en.toml lacks %s", k)
			continue
		}
		if z, ok := zh[k]; !ok || holes(z) != holes(e) {
			t.Errorf("%s: zh.toml has %q (present %v); want the placeholders of %q", k, z, ok, e)
		}
	}
	// A message filled with the Chinese strings keeps every argument.
	tr := translator{t: func(k string) string { return zh[k] }}
	got := tr.fill("calc.headline.fits", "H100 SXM5 80GB", tr.gib(40<<30), "4")
	for _, want := range []string{"H100 SXM5 80GB", "40.00 GiB", "4"} {
		if !strings.Contains(got, want) {
			t.Errorf("zh headline %q lacks %q", got, want)
		}
	}
	if got := tr.q(sizing.RateQuantity(41.25)); got != "41.2 token/秒" {
		t.Errorf("zh rate = %q", got)
	}
}
