package pages

import (
	"fmt"
	"net/mail"
	"strconv"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
)

// siteShortcode expands {{< site "field" >}}: a site setting, so that a
// team's guide (how to request quota) names the contact its overlay's
// site.toml sets instead of typing it again, and the methodology gives the
// price-age thresholds as numbers of days rather than config keys. An e-mail address becomes a
// mailto link.
func siteShortcode(c *catalog.Catalog, args []string) (string, error) {
	fields := []string{"quota_contact", "title", "fresh_days", "stale_days"}
	if len(args) != 1 {
		return "", fmt.Errorf(`want {{< site "field" >}} (%s)`, strings.Join(fields, ", "))
	}
	switch args[0] {
	case "title":
		return mdText(c.Site.Title), nil
	case "fresh_days":
		return strconv.Itoa(c.Site.Staleness.FreshDays), nil
	case "stale_days":
		return strconv.Itoa(c.Site.Staleness.StaleDays), nil
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
	return "", diag.WithHint(diag.DidYouMean(args[0], fields), "unknown site field %q", args[0])
}

// overlayLabel names in the page's language where an overlay figure
// comes from, as the badge on the tables does: "contract price, valid
// until 2027-03-31", "20% discount", "internal cost". t looks up a UI
// string and date formats a date for the edition.
func overlayLabel(m *catalog.Overlay, t func(string) string, date func(time.Time) string) string {
	var s string
	if m.Kind == catalog.OverlayDiscount {
		s = render.Format(t("overlay.discount"), m.DiscountPct)
	} else {
		s = t("overlay." + m.Kind)
	}
	if !m.ValidUntil.IsZero() {
		s += t("overlay.until.sep") + render.Format(t("overlay.until"), date(m.ValidUntil))
	}
	return s
}

// overlayNote describes an overlay figure for running text (a guide's
// shortcode, a TCO line's label): its label and, when public > 0, the
// public price it replaces ("contract price, valid until 2027-03-31;
// public price 5.00 USD", public in cur); "" for m nil.
func overlayNote(m *catalog.Overlay, public float64, cur string, t func(string) string, date func(time.Time) string) string {
	if m == nil {
		return ""
	}
	s := overlayLabel(m, t, date)
	if public > 0 {
		s += t("overlay.public.sep") + t("overlay.public") + " " + render.Money(public, cur)
	}
	return s
}

// overlayMark is an overlay figure's badge for a page script: its kind,
// its label and the public price it replaces ("public price 5.00 USD", or
// "" without one), or nil for a public figure. The scripts render it as
// the overlaymark template does.
func (s *Edition) overlayMark(m *catalog.Overlay, public float64, cur string) []string {
	if m == nil {
		return nil
	}
	pub := ""
	if public > 0 {
		pub = s.r.T("overlay.public") + " " + render.Money(public, cur)
	}
	return []string{m.Kind, overlayLabel(m, s.r.T, s.r.Date), pub}
}

// publicHourly is the public price an overlay price replaces, per
// instance-hour in cur, or 0 (a public price, or an overlay price with no
// public one behind it).
func publicHourly(c *catalog.Catalog, o *catalog.Offer, p catalog.Price, cur string) float64 {
	if p.Overlay == nil || p.Overlay.Public == nil {
		return 0
	}
	v, _ := c.FX.Convert(p.Overlay.Public.Hourly(), o.Currency, cur)
	return v
}

// overlaySuffix is " (label; public price ...)" (the edition's
// "overlay.note") for a row whose price
// comes from an overlay, "" otherwise: for figures a script shows as plain
// text (the compare tool's minimum).
func (s *Edition) overlaySuffix(r *derive.Row) string {
	if r == nil || r.Overlay == nil {
		return ""
	}
	return render.Format(s.r.T("overlay.note"), overlayNote(r.Overlay, r.PublicPerGPUDC, s.dd.Currency, s.r.T, s.r.Date))
}

// tcoLineLabel is a TCO line's label with, for a team's price, its mark
// and the public price it replaces (per unit, in the offer's currency):
// "On-demand (contract price, valid until 2027-03-31; public price 40.00
// USD)". The page and its script show it as written.
func (s *Edition) tcoLineLabel(l derive.TCOLine, o *catalog.Offer) string {
	label := s.tcoLabel(l)
	if m := l.Overlay; m != nil {
		pub := 0.0
		if m.Public != nil {
			pub = m.Public.Price
		}
		label += render.Format(s.r.T("overlay.note"), overlayNote(m, pub, o.Currency, s.r.T, s.r.Date))
	}
	return label
}

// calcMark records under key the badge of a team's price p of o for the
// calculator's script, with the public price per instance-hour.
func (s *Edition) calcMark(data *calcData, key string, o *catalog.Offer, p catalog.Price) {
	m := s.overlayMark(p.Overlay, publicHourly(s.cat, o, p, s.dd.Currency), s.dd.Currency)
	if m == nil {
		return
	}
	if data.Marks == nil {
		data.Marks = map[string][]string{}
	}
	data.Marks[key] = m
}
