package build

import (
	"bytes"
	"path"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/output"
	"github.com/tdewolff/minify/v2"
	"github.com/tdewolff/minify/v2/html"
	"github.com/tdewolff/minify/v2/json"
	"github.com/tdewolff/minify/v2/svg"
	"github.com/tdewolff/minify/v2/xml"
)

// mediaTypes maps the extensions minified here to their media types (CSS
// and JS are minified by esbuild in Assets).
func mediaType(p string) string {
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

// minifyTree minifies HTML, SVG, JSON and XML files in place. Quotes are
// kept on attributes so the output stays easy to inspect and grep.
func minifyTree(tree *output.Tree, d *diag.List) {
	m := minify.New()
	m.Add("text/html", &html.Minifier{KeepQuotes: true, KeepDocumentTags: true, KeepEndTags: true, KeepDefaultAttrVals: true})
	m.AddFunc("image/svg+xml", svg.Minify)
	m.AddFunc("application/json", json.Minify)
	m.AddFunc("application/xml", xml.Minify)
	for _, p := range tree.Paths() {
		mt := mediaType(p)
		if mt == "" {
			continue
		}
		b, _ := tree.Get(p)
		var out bytes.Buffer
		if err := m.Minify(mt, &out, bytes.NewReader(b)); err != nil {
			d.Errorf("public/"+p, 0, 0, "minify: %v", err)
			continue
		}
		tree.Add(p, out.Bytes())
	}
}
