package build

import (
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
)

// siteShortcode expands {{< site "field" >}}: a site setting, so that a
// team's guide (how to request quota) names the contact its overlay's
// site.toml sets instead of typing it again. An e-mail address becomes a
// mailto link.
func siteShortcode(c *catalog.Catalog, args []string) (string, error) {
	fields := []string{"quota_contact", "title"}
	if len(args) != 1 {
		return "", fmt.Errorf(`want {{< site "field" >}} (%s)`, strings.Join(fields, ", "))
	}
	switch args[0] {
	case "title":
		return mdText(c.Site.Title), nil
	case "quota_contact":
		q := c.Site.QuotaContact
		if q == "" {
			return "", fmt.Errorf("no quota_contact is set: it is a setting of a team's overlay (quota_contact in the overlay's site.toml)")
		}
		if a, err := mail.ParseAddress(q); err == nil && a.Name == "" && a.Address == q && !strings.ContainsAny(q, "()<>[] ") {
			return fmt.Sprintf("[%s](mailto:%s)", mdText(q), q), nil
		}
		return mdText(q), nil
	}
	return "", fmt.Errorf("unknown site field %q%s", args[0], didYouMean(args[0], fields))
}

// overlayNote describes in the page's language where an overlay price
// comes from, for a guide's text ("contract price, valid until
// 2027-03-31; public price 5.00 USD"), as the badge on the tables does;
// "" for a public price. t looks up a UI string, date formats a date for
// the edition and cur is its display currency.
func overlayNote(r *derive.Row, t func(string) string, date func(time.Time) string, cur string) string {
	m := r.Overlay
	if m == nil {
		return ""
	}
	var s string
	if m.Kind == catalog.OverlayDiscount {
		s = fmt.Sprintf(t("overlay.discount"), m.DiscountPct)
	} else {
		s = t("overlay." + m.Kind)
	}
	if !m.ValidUntil.IsZero() {
		s += t("overlay.until.sep") + fmt.Sprintf(t("overlay.until"), date(m.ValidUntil))
	}
	if r.PublicPerGPUDC > 0 {
		s += t("overlay.public.sep") + t("overlay.public") + " " + render.Money(r.PublicPerGPUDC, cur)
	}
	return s
}
