package sizing

import (
	"os"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/message"
)

// TestMessagesMatchEnglishCatalog checks that the engine's English texts
// (used by the size command and in errors) are the ones the site's English
// UI strings give for the same keys, and that the Chinese catalog has every
// key with the same placeholders, so the calculator can show any message
// in either edition.
func TestMessagesMatchEnglishCatalog(t *testing.T) {
	en, zh := readCatalog(t, "en"), readCatalog(t, "zh")
	for _, kv := range MessageKeys() {
		got, ok := en[kv[0]]
		if !ok {
			t.Errorf("templates/i18n/en.toml lacks %s (%q)", kv[0], kv[1])
			continue
		}
		if got != kv[1] {
			t.Errorf("%s: en.toml has %q, the engine %q", kv[0], got, kv[1])
		}
		z, ok := zh[kv[0]]
		if !ok {
			t.Errorf("templates/i18n/zh.toml lacks %s", kv[0])
			continue
		}
		if p, q := message.Placeholders(kv[1]), message.Placeholders(z); p != q {
			t.Errorf("%s: zh.toml's placeholders %q differ from the English %q", kv[0], q, p)
		}
	}
}

// readCatalog reads templates/i18n/<lang>.toml of the repository.
func readCatalog(t *testing.T, lang string) map[string]string {
	t.Helper()
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
