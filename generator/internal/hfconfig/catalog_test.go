package hfconfig

import (
	"os"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/message"
)

// TestMessagesMatchEnglishCatalog checks that the parser's English texts
// are the site's English UI strings for the same keys, and that the
// Chinese catalog has every key with the same placeholders.
func TestMessagesMatchEnglishCatalog(t *testing.T) {
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
	keys := MessageKeys()
	if len(keys) < 18 {
		t.Fatalf("only %d message keys", len(keys))
	}
	for _, kv := range keys {
		if got, ok := en[kv[0]]; !ok || got != kv[1] {
			t.Errorf("%s: en.toml has %q (present %v), the parser %q", kv[0], got, ok, kv[1])
		}
		if z, ok := zh[kv[0]]; !ok || holes(z) != holes(kv[1]) {
			t.Errorf("%s: zh.toml has %q (present %v); want the placeholders of %q", kv[0], z, ok, kv[1])
		}
	}
}
