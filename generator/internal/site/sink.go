package site

import (
	"bytes"
	"fmt"
	"path"
	"strings"
	"sync"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/assets"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/output"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/parallel"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/precompress"
	"github.com/tdewolff/minify/v2"
)

// sink receives each output file once it is rendered, finishes it
// (minifies it, adds its .br and .gz siblings) and passes it on: streamed
// to the output directory's temporary tree (Options.Stream), kept in
// memory for Result.Tree, or, for check, only counted. It records every
// path, which is all the link check needs. put is safe for concurrent use,
// so pages are finished on the cores that render them.
type sink struct {
	min   *minify.M          // nil: no minification
	cache *precompress.Cache // used when compress
	// compress adds .br and .gz siblings.
	compress bool
	w        *output.Writer // nil: not streamed
	keep     *output.Tree   // nil: not kept
	// check: a check, which writes nothing (and makes no assets).
	check bool

	mu    sync.Mutex
	paths map[string]bool
	bytes int64
	pages int
}

// newSink returns the sink of a build under o: kept in memory unless
// streamed (stream), finished as o says; a check (check) minifies but
// neither compresses nor keeps anything.
func newSink(o Options, stream, check bool) *sink {
	k := &sink{paths: map[string]bool{}, check: check}
	if !o.NoMinify {
		k.min = assets.Minifier()
	}
	if check {
		return k
	}
	if !stream {
		k.keep = output.NewTree()
	}
	if o.Precompress {
		k.compress = true
		if !o.NoCache {
			dir := o.CacheDir
			if dir == "" {
				dir = precompress.DefaultDir()
			}
			k.cache = precompress.OpenCache(dir, 0)
		}
	}
	return k
}

// put minifies one file, finishes it and passes it on, and returns the
// minified bytes. Its error names no position; the caller reports it
// against the file.
func (k *sink) put(p string, b []byte) ([]byte, error) {
	p = path.Clean(strings.TrimPrefix(p, "/"))
	// Captures are evidence, published byte for byte (their SHA-256 is
	// what the catalog cites), never minified.
	if k.min != nil && !strings.HasPrefix(p, catalog.CapturePath) {
		if mt := assets.MediaType(p); mt != "" {
			var out bytes.Buffer
			out.Grow(len(b))
			// The minifier reads a reader with a Bytes method in place;
			// capped at its length, b is only copied once (a reader
			// without it is read in growing steps).
			if err := k.min.Minify(mt, &out, bytes.NewBuffer(b[:len(b):len(b)])); err != nil {
				return nil, fmt.Errorf("minify: %v", err)
			}
			b = out.Bytes()
		}
	}
	return b, k.finish(p, b)
}

// finish passes on a minified file and its .br and .gz siblings.
func (k *sink) finish(p string, b []byte) error {
	// A file the output being replaced holds as it is now, made with the
	// same compressors, keeps its .br and .gz: they are linked from
	// there, neither read nor compressed.
	wanted := k.compress && precompress.Wanted(p, b)
	same := wanted && k.w != nil && k.w.Unchanged(p, b)
	if err := k.pass(p, b); err != nil {
		return err
	}
	if wanted {
		if same && k.reuse(p+".br") && k.reuse(p+".gz") {
			return nil
		}
		br, gz, _ := precompress.File(p, b, k.cache)
		if err := k.pass(p+".br", br); err != nil {
			return err
		}
		return k.pass(p+".gz", gz)
	}
	return nil
}

// pass records a finished file and writes or keeps it.
func (k *sink) pass(p string, b []byte) error {
	k.mu.Lock()
	if !k.paths[p] {
		k.paths[p] = true
		if strings.HasSuffix(p, ".html") {
			k.pages++
		}
	}
	k.bytes += int64(len(b))
	if k.keep != nil {
		k.keep.Add(p, b)
	}
	k.mu.Unlock()
	if k.w != nil {
		return k.w.Add(p, b)
	}
	return nil
}

// reuse links p from the output being replaced (output.Writer.Reuse) and
// records it as pass would; false when it cannot.
func (k *sink) reuse(p string) bool {
	size, ok, err := k.w.Reuse(p)
	if err != nil || !ok {
		return false
	}
	k.mu.Lock()
	k.paths[p] = true
	k.bytes += size
	k.mu.Unlock()
	return true
}

// has reports whether p was put.
func (k *sink) has(p string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.paths[p]
}

// putTree puts every file of t on every core, reporting errors in path
// order through report.
func (k *sink) putTree(t *output.Tree, report func(p string, err error)) {
	paths := t.Paths()
	errs := make([]error, len(paths))
	parallel.For(len(paths), 0, func(i int) {
		b, _ := t.Get(paths[i])
		_, errs[i] = k.put(paths[i], b)
	})
	for i, err := range errs {
		if err != nil {
			report(paths[i], err)
		}
	}
}

// done prunes the compression cache once the build's files are all in it.
func (k *sink) done() {
	if k.compress {
		k.cache.Prune()
	}
}
