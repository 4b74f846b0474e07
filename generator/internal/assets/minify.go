package assets

import (
	"path"

	"github.com/tdewolff/minify/v2"
	"github.com/tdewolff/minify/v2/html"
	"github.com/tdewolff/minify/v2/json"
	"github.com/tdewolff/minify/v2/svg"
	"github.com/tdewolff/minify/v2/xml"
)

// MediaType maps the extensions minified here to their media types (CSS
// and JS are minified by esbuild in Assets).
func MediaType(p string) string {
	switch path.Ext(p) {
	case ".html":
		return "text/html"
	case ".svg":
		return "image/svg+xml"
	case ".json":
		return "application/json"
	case ".xml", ".atom":
		return "application/xml"
	}
	return ""
}

// Minifier minifies HTML, SVG, JSON and XML (a build minifies every page and data file it writes). Quotes are
// kept on attributes so the output stays easy to inspect and grep. It is
// safe for concurrent use.
func Minifier() *minify.M {
	m := minify.New()
	m.Add("text/html", &html.Minifier{KeepQuotes: true, KeepDocumentTags: true, KeepEndTags: true, KeepDefaultAttrVals: true})
	m.AddFunc("image/svg+xml", svg.Minify)
	m.AddFunc("application/json", json.Minify)
	m.AddFunc("application/xml", xml.Minify)
	return m
}
