package pages

import (
	"encoding/json"
	"fmt"
	"html/template"
	"strconv"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/chartdata"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/derive"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/export"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/feed"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/search"
)

// APIPage documents the data exports.
type APIPage struct {
	Files    []string
	CSV      string
	Datasets any
	RepoURL  string
	// Schemas are the JSON Schemas of the documents (export.Schemas).
	Schemas []string
	// JSONLD is the exports described as a schema.org Dataset, for search
	// engines' dataset search; empty when base_url names no host (its
	// URLs must be absolute).
	JSONLD template.JS
}

// datasetJSONLD describes the exports of api as a schema.org Dataset
// (https://schema.org/Dataset): the site's name and description, the page,
// the dates the prices cover and the newest one as the modification date,
// each file as a download, and the third-party datasets some prices came
// from with their licences. encoding/json escapes <, > and &, so the text
// cannot close the script element. "" without an origin.
func (s *Edition) datasetJSONLD(api *APIPage) template.JS {
	if s.origin == "" {
		return ""
	}
	root := s.origin + s.base
	var oldest, newest time.Time
	for _, o := range s.cat.Offers {
		for _, p := range o.Prices {
			if oldest.IsZero() || p.AsOf.Before(oldest) {
				oldest = p.AsOf
			}
			if p.AsOf.After(newest) {
				newest = p.AsOf
			}
		}
	}
	type download struct {
		Type   string `json:"@type"`
		Format string `json:"encodingFormat"`
		URL    string `json:"contentUrl"`
	}
	var dist []download
	for _, f := range api.Files {
		dist = append(dist, download{"DataDownload", "application/json", root + f})
	}
	dist = append(dist, download{"DataDownload", "text/csv", root + api.CSV})
	type source struct {
		Type    string `json:"@type"`
		Name    string `json:"name"`
		URL     string `json:"url,omitempty"`
		License string `json:"license,omitempty"`
	}
	var based []source
	for _, d := range s.cat.Site.Datasets {
		based = append(based, source{"Dataset", d.Title, d.URL, d.Licence})
	}
	site := s.site()
	doc := map[string]any{
		"@context": "https://schema.org", "@type": "Dataset",
		"name": site.Title, "description": site.Description,
		"url": s.origin + s.editionURL(s.lang.Code, "api/"), "inLanguage": s.lang.Tag, "isAccessibleForFree": true,
		"creator":      map[string]string{"@type": "Organization", "name": site.Title, "url": root},
		"distribution": dist,
	}
	if !newest.IsZero() {
		doc["dateModified"] = newest.Format(time.DateOnly)
		doc["temporalCoverage"] = oldest.Format(time.DateOnly) + "/" + newest.Format(time.DateOnly)
	}
	if len(based) > 0 {
		doc["isBasedOn"] = based
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return ""
	}
	return template.JS(b)
}

// dataPages writes the JSON/CSV exports and their documentation page, the
// Atom feeds, the charts page and the search index with its fallback page.
func (s *Edition) dataPages() {
	files, err := export.JSON(s.cat, export.Meta{Generated: s.now})
	if err != nil {
		s.d.Errorf("data", 0, 0, "JSON export: %v", err)
		return
	}
	api := &APIPage{CSV: export.CSVPath, Datasets: s.cat.Site.Datasets, RepoURL: s.cat.Site.RepoURL}
	for _, f := range files {
		api.Files = append(api.Files, f.Path)
	}
	schemas, err := export.Schemas()
	if err != nil {
		s.d.Errorf("data", 0, 0, "JSON Schemas: %v", err)
		return
	}
	for _, f := range schemas {
		api.Schemas = append(api.Schemas, f.Path)
	}
	api.JSONLD = s.datasetJSONLD(api)
	// The data exports are language-neutral: one set at the root, which
	// every edition's API page documents.
	if s.prefix == "" {
		for _, f := range append(files, schemas...) {
			s.tree.Add(f.Path, f.Data)
		}
		csv, err := export.CSV(s.cat, s.now)
		if err != nil {
			s.d.Errorf("data", 0, 0, "CSV export: %v", err)
			return
		}
		s.tree.Add(export.CSVPath, csv)
	}
	s.page(&render.Page{Kind: "api", Path: "api/", Title: s.r.T("api.title"), Description: s.r.T("api.description"), Data: api})

	fo := feed.Options{BaseURL: s.origin + s.base + s.prefix, Edition: strings.TrimSuffix(s.prefix, "/"), Title: s.site().Title, Lang: s.lang.Tag, GuidePath: GuidePath, Now: s.now}
	if s.lang.Code != "en" { // the feed package's own texts are English
		t := s.r.T
		fo.Words = feed.Words{GuidesTitle: t("feed.guides.title"), ChangesTitle: t("feed.changes.title"), ChangesSubtitle: t("feed.changes.subtitle"),
			Day: t("feed.day"), DayOne: t("feed.day.one"), Changed: t("feed.changed")}
		fo.Describe = s.describeObservation
	}
	if b, err := feed.Guides(s.guides, fo); err != nil {
		s.d.Errorf("content", 0, 0, "guides feed: %v", err)
	} else {
		s.tree.Add(s.prefix+feed.GuidesPath, b)
	}
	if b, err := feed.Changes(s.cat, fo); err != nil {
		s.d.Errorf("data", 0, 0, "changes feed: %v", err)
	} else {
		s.tree.Add(s.prefix+feed.ChangesPath, b)
	}

	set, err := chartdata.Charts(s.dd, s.r.T, s.lang.Code)
	if err != nil {
		s.d.Errorf("data", 0, 0, "charts: %v", err)
	} else {
		s.page(&render.Page{Kind: "charts", Path: "charts/", Title: s.r.T("charts.title"), Description: s.r.T("charts.description"), Data: set})
	}

	idx, err := search.Index(search.Input{Catalog: s.cat, Pages: s.guides, GuidePath: GuidePath, Lang: s.lang.Code, Glossary: s.cat.Glossary,
		KindKeywords: map[string]string{search.KindGPU: s.r.T("search.kw.gpu"), search.KindProvider: s.r.T("search.kw.provider"),
			search.UnpricedProvider: s.r.T("search.kw.provider.unpriced"), search.KindModel: s.r.T("search.kw.model")}, Now: s.now,
		Phrasing: search.Phrasing{Billing: s.billingLabels(), Price: s.r.T("search.sum.price"), Params: s.r.T("search.sum.params"),
			Active: s.r.T("search.sum.active"), Context: s.r.T("search.sum.context"), Date: s.r.Date},
		Extra: []search.Entry{
			{Title: s.r.T("calc.title"), URL: "calculator/", Kind: "page", Summary: s.r.T("calc.description")},
			{Title: s.r.T("compare.title"), URL: "compare/", Kind: "page", Summary: s.r.T("compare.description")},
			{Title: s.r.T("pricing.title"), URL: "pricing/", Kind: "page", Summary: s.r.T("pricing.description")},
			{Title: s.r.T("tco.title"), URL: "tco/", Kind: "page", Summary: s.r.T("tco.description")},
			{Title: s.r.T("charts.title"), URL: "charts/", Kind: "page", Summary: s.r.T("charts.description")},
			{Title: s.r.T("api.title"), URL: "api/", Kind: "page", Summary: s.r.T("api.description")},
		}})
	if err != nil {
		s.d.Errorf("data", 0, 0, "search index: %v", err)
		return
	}
	s.tree.Add(s.prefix+search.IndexPath, idx)
	s.page(&render.Page{Kind: "search", Path: "search/", Title: s.r.T("search.title"), Description: s.r.T("search.description")})
}

// billingLabels are the billing modes' labels in the edition's language.
func (s *Edition) billingLabels() map[string]string {
	out := map[string]string{}
	for _, m := range catalog.BillingModes() {
		out[m] = s.r.T("billing." + m)
	}
	return out
}

// describeObservation is a changes-feed line in the edition's language:
// the offer, its billing mode, date and price, and the price it changed
// from.
func (s *Edition) describeObservation(ob feed.Observation) string {
	k := ob.Key
	mode := s.tcoLabel(derive.TCOLine{Billing: k.Billing, TermMonths: k.TermMonths, Payment: k.Payment, Commitment: k.Commitment, Unit: k.Unit})
	if k.Region != "" {
		mode += s.r.T("punct.comma") + s.r.RegionName(ob.Offer.Provider, k.Region)
	}
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	unit := k.Unit
	if unit == "" {
		unit = "hour"
	}
	line := s.r.Text("feed.price", ob.Offer.Provider.LocalName(s.r.Lang()), ob.Instance, mode, s.r.Date(ob.AsOf), num(ob.Price), ob.Currency, s.r.T("unit.short."+unit))
	if p := ob.Prev; p != nil {
		line += s.r.Text("feed.was", s.r.Date(p.AsOf), num(p.Price), ob.Currency)
		if p.Price > 0 {
			line += s.r.Text("feed.change", fmt.Sprintf("%+.1f", (ob.Price-p.Price)/p.Price*100))
		}
	}
	return line
}
