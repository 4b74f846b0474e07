package pages

import (
	"html/template"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
)

// rowAttrNames is the data- attributes of an offer row, in the order the
// offerrows template writes them (rowAttrs): what the page scripts filter,
// sort and compare on (static/js/tables.js, pricing.js), and what the
// price list's index is cut from (cutRows).
var rowAttrNames = [...]string{"gpu", "vendor", "form", "vram", "count", "provider", "countries", "regions", "cities",
	"billing", "ic", "pergpu", "inst", "tpd", "age", "band", "evidence", "cur", "price", "id", "key"}

// rowAttrs is an offer row's data- attributes (rowAttrNames), escaped as
// html/template escapes a quoted attribute's value; date is the price's
// date as the edition writes it (the row key's last part). Written in Go,
// not in the template: a large catalog's price list has tens of thousands
// of rows, and these 21 actions were half of each row's rendering.
func rowAttrs(r *derive.Row, date string) template.HTMLAttr {
	o := r.Offer
	vals := [len(rowAttrNames)]string{o.GPU.ID, o.GPU.Vendor, o.GPU.FormFactor, vnum(o.VRAMPerGPUGB), strconv.Itoa(o.GPUCount),
		o.Provider.ID, strings.Join(r.Countries, " "), strings.Join(r.Regions, " "), strings.Join(r.Cities, "|"),
		r.Price.Billing, o.GPU.Interconnect.Kind, vnum(r.PerGPUDC), vnum(r.InstDC), vnum(r.TFLOPSPerDC),
		strconv.Itoa(r.AgeDays), r.Band, r.Evidence, o.Currency, vnum(r.HourlyEquivalent), o.ID,
		o.ID + " " + r.Price.Key().String() + " " + date}
	n := 0
	for i, v := range vals {
		n += len(rowAttrNames[i]) + len(v) + len(` data-=""`)
	}
	var b strings.Builder
	b.Grow(n)
	for i, v := range vals {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("data-")
		b.WriteString(rowAttrNames[i])
		b.WriteString(`="`)
		attrEscaper.WriteString(&b, v)
		b.WriteByte('"')
	}
	return template.HTMLAttr(b.String()) // #nosec G203 -- every value escaped above
}

// vnum is a number as a template prints it ({{.}}: fmt's %v).
func vnum(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// attrEscaper escapes an attribute's value as html/template does
// (its htmlEscaper: NUL, quotes, &, +, < and >).
var attrEscaper = strings.NewReplacer("\x00", "\uFFFD", `"`, "&#34;", "&", "&amp;", "'", "&#39;", "+", "&#43;", "<", "&lt;", ">", "&gt;")

// reportURL is the link that opens a price report for a row's price in
// the repository at repo (its issue form, .github/ISSUE_TEMPLATE/
// price-report.yml), with the offer and the price as listed filled in.
func reportURL(repo string, r *derive.Row) template.URL {
	o, p := r.Offer, r.Price
	unit := p.Unit
	if unit == "" {
		unit = "hour"
	}
	listed := p.Billing + ": " + vnum(p.Price) + " " + o.Currency + " per instance-" + unit + ", as of " +
		p.AsOf.Format(time.DateOnly) + " (" + o.File + ":" + strconv.Itoa(o.Line) + ")"
	return template.URL(repo + "/issues/new?template=price-report.yml&offer=" + url.QueryEscape(o.ID) + "&listed=" + url.QueryEscape(listed)) // #nosec G203 -- repo is the site's own setting; the query is escaped
}
