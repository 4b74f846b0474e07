package build

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sync"

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
// Files are compressed in parallel. Brotli runs at quality 9, which is
// within a few per cent of quality 11 for HTML at a fraction of the time;
// the WebAssembly module, the largest file and the one with a size budget,
// gets quality 11, cached by content hash in the user cache directory
// because it changes only when the engine does.
func precompress(tree *output.Tree) {
	type job struct {
		path string
		data []byte
	}
	var jobs []job
	for _, p := range tree.Paths() {
		if !compressible(p) {
			continue
		}
		b, _ := tree.Get(p)
		if len(b) >= 256 {
			jobs = append(jobs, job{p, b})
		}
	}
	br := make([][]byte, len(jobs))
	gz := make([][]byte, len(jobs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, j := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if path.Ext(j.path) == ".wasm" {
				br[i] = cachedBrotli(j.data)
			} else {
				br[i] = brotliBytes(j.data, 9)
			}
			var g bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&g, gzip.BestCompression)
			zw.Write(j.data)
			zw.Close()
			gz[i] = g.Bytes()
		}()
	}
	wg.Wait()
	for i, j := range jobs {
		tree.Add(j.path+".br", br[i])
		tree.Add(j.path+".gz", gz[i])
	}
}

func brotliBytes(b []byte, quality int) []byte {
	var out bytes.Buffer
	w := brotli.NewWriterLevel(&out, quality)
	w.Write(b)
	w.Close()
	return out.Bytes()
}

// cachedBrotli compresses at quality 11, reusing an earlier result for
// the same bytes from the user cache directory when there is one.
func cachedBrotli(b []byte) []byte {
	sum := sha256.Sum256(b)
	dir, err := os.UserCacheDir()
	var file string
	if err == nil {
		file = filepath.Join(dir, "gpu-atlas", "br", hex.EncodeToString(sum[:])+".br")
		if c, err := os.ReadFile(file); err == nil {
			return c
		}
	}
	c := brotliBytes(b, brotli.BestCompression)
	if file != "" && os.MkdirAll(filepath.Dir(file), 0o755) == nil {
		os.WriteFile(file, c, 0o644) // a cache: failing to write it is fine
	}
	return c
}
