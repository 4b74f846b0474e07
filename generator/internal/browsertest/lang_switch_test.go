package browsertest

import (
	"strings"
	"testing"
)

// TestLanguageSwitchKeepsState: following the language switch from a
// filtered price list or a calculator answer opens the other edition with
// the same query (and fragment), so the reader's answer survives the
// switch; the page there reads it (the filter is applied).
func TestLanguageSwitchKeepsState(t *testing.T) {
	t.Parallel()
	base := Site(t)
	b := New(t, base)

	b.Navigate("pricing/")
	b.WaitReady("#prices tbody tr")
	b.Eval(`document.getElementById("filter-box").open = true`, nil)
	b.SetValue("#f-provider", "alibaba-cloud")
	b.Poll(`location.search.includes("provider=alibaba-cloud")`, `location.search`)
	var before string
	b.Eval(`location.search`, &before)
	b.Follow(0, func() { b.Click(`.lang-switch a[hreflang="zh-CN"]`) })
	b.Poll(`location.pathname.endsWith("/zh/pricing/")`, `location.href`)
	var after string
	b.Eval(`location.search`, &after)
	if after != before {
		t.Errorf("zh price list opened with %q, want the English page's %q", after, before)
	}
	b.WaitReady("#prices tbody tr")
	b.Poll(`[...document.querySelectorAll("#prices tbody tr:not([hidden])")].every((r) => r.dataset.provider === "alibaba-cloud")`, `document.getElementById("shown").textContent`)

	b.Navigate("zh/calculator/?model=qwen3-8b&gpu=rtx-4090#result")
	b.WaitReady("#result")
	b.Follow(0, func() { b.Click(`.lang-switch a[hreflang="en"]`) })
	b.Poll(`!location.pathname.includes("/zh/")`, `location.href`)
	var href string
	b.Eval(`location.href`, &href)
	if !strings.Contains(href, "model=qwen3-8b") || !strings.Contains(href, "gpu=rtx-4090") || !strings.HasSuffix(href, "#result") {
		t.Errorf("English calculator opened at %s, want the zh page's query and fragment", href)
	}
}
