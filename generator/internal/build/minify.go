package build

import (
	"bytes"
	"compress/gzip"
	"path"
	"strings"

	"github.com/andybalholm/brotli"
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

// compressible reports whether a file is text worth precompressing.
func compressible(p string) bool {
	switch path.Ext(p) {
	case ".html", ".css", ".js", ".svg", ".json", ".xml", ".txt", ".csv", ".atom", ".wasm", ".map":
		return true
	}
	return false
}

// precompress adds .br and .gz siblings for text files of at least 256
// bytes, for nginx gzip_static/brotli_static or a CDN. The gzip header
// carries no name or time, so output stays byte-identical between builds.
func precompress(tree *output.Tree) {
	for _, p := range tree.Paths() {
		if !compressible(p) || strings.HasSuffix(p, ".br") || strings.HasSuffix(p, ".gz") {
			continue
		}
		b, _ := tree.Get(p)
		if len(b) < 256 {
			continue
		}
		var br bytes.Buffer
		w := brotli.NewWriterLevel(&br, brotli.BestCompression)
		w.Write(b)
		w.Close()
		tree.Add(p+".br", br.Bytes())
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		zw.Write(b)
		zw.Close()
		tree.Add(p+".gz", gz.Bytes())
	}
}
