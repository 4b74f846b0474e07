// Package precompress adds .br and .gz siblings to the text files of a
// built site, for hosts that serve precompressed files (nginx
// gzip_static/brotli_static, CDNs). Compression is the most expensive step
// of a build and nearly every file is unchanged between two builds, so
// results go through a content-addressed cache: a rebuild compresses only
// what changed. The output does not depend on the cache: a warm, cold,
// corrupted or absent cache gives the same bytes.
package precompress

import (
	"bytes"
	"compress/gzip"
	"path"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/output"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/parallel"
)

// MinSize is the smallest file worth compressing.
const MinSize = 256

// Settings of the compressors. Brotli runs at quality 9 (within a few per
// cent of 11 for HTML at a fraction of the time) except for the
// WebAssembly engine, the largest file and the one with a size budget,
// which gets 11. gzip runs at its best compression; its header carries no
// name or time, so output is byte-identical between builds.
const (
	brotliQuality     = 9
	brotliWASMQuality = brotli.BestCompression
	gzipLevel         = gzip.BestCompression
)

// Compressible reports whether a file is text worth precompressing.
func Compressible(p string) bool {
	switch path.Ext(p) {
	case ".html", ".css", ".js", ".svg", ".json", ".xml", ".txt", ".csv", ".atom", ".wasm", ".map":
		return true
	}
	return false
}

// Stats count what a run did.
type Stats struct {
	Files      int // files given siblings
	Compressed int // compressions run (two per file at most)
	Cached     int // compressions answered by the cache
}

// Tree adds p.br and p.gz beside every compressible file p of at least
// MinSize bytes, compressing on all cores and reusing c's results (c may
// be nil: no cache), then prunes c.
func Tree(tree *output.Tree, c *Cache) Stats {
	type job struct {
		path string
		data []byte
	}
	var jobs []job
	for _, p := range tree.Paths() {
		if b, _ := tree.Get(p); Wanted(p, b) {
			jobs = append(jobs, job{p, b})
		}
	}
	br := make([][]byte, len(jobs))
	gz := make([][]byte, len(jobs))
	var st Stats
	var mu sync.Mutex
	parallel.For(len(jobs), 0, func(i int) {
		var one Stats
		br[i], gz[i], one = File(jobs[i].path, jobs[i].data, c)
		mu.Lock()
		st.Add(one)
		mu.Unlock()
	})
	for i, j := range jobs {
		tree.Add(j.path+".br", br[i])
		tree.Add(j.path+".gz", gz[i])
	}
	c.Prune()
	return st
}

// Wanted reports whether a file gets .br and .gz siblings: a compressible
// file of at least MinSize bytes.
func Wanted(p string, data []byte) bool { return Compressible(p) && len(data) >= MinSize }

// File returns the brotli and gzip compressions of the file p (see
// Wanted), through c (nil: no cache); it is safe to call from several
// goroutines at once. The caller prunes c when its build is done.
func File(p string, data []byte, c *Cache) (br, gz []byte, st Stats) {
	do := func(method string, f func([]byte) []byte) []byte {
		if out, ok := c.Get(method, data); ok {
			st.Cached++
			return out
		}
		out := f(data)
		st.Compressed++
		c.Put(method, data, out)
		return out
	}
	q := brotliQuality
	if path.Ext(p) == ".wasm" {
		q = brotliWASMQuality
	}
	br = do(brotliMethod(q), func(b []byte) []byte { return Brotli(b, q) })
	gz = do(gzipMethod(), Gzip)
	st.Files = 1
	return br, gz, st
}

// Add adds the counts of o to s.
func (s *Stats) Add(o Stats) {
	s.Files += o.Files
	s.Compressed += o.Compressed
	s.Cached += o.Cached
}

// Brotli compresses b at quality q.
func Brotli(b []byte, q int) []byte {
	var out bytes.Buffer
	w := brotli.NewWriterLevel(&out, q)
	w.Write(b)
	w.Close()
	return out.Bytes()
}

// Gzip compresses b at the best compression, with no name or time in the
// header.
func Gzip(b []byte) []byte {
	var out bytes.Buffer
	w, _ := gzip.NewWriterLevel(&out, gzipLevel)
	w.Write(b)
	w.Close()
	return out.Bytes()
}

// The method names key the cache: a change of compressor, its version or
// its settings must change them. Brotli is github.com/andybalholm/brotli,
// its version read from the binary's build info (go.mod pins it); gzip is
// the standard library's, whose output may change with the Go release.
// Settings names the compressors and their settings, as the cache keys
// do: two builds with the same Settings make the same .br and .gz of the
// same file.
func Settings() string {
	return brotliMethod(brotliQuality) + "," + brotliMethod(brotliWASMQuality) + "," + gzipMethod()
}

func brotliMethod(q int) string { return "brotli-" + brotliVersion() + "-q" + strconv.Itoa(q) }
func gzipMethod() string        { return "gzip-" + runtime.Version() + "-l" + strconv.Itoa(gzipLevel) }

// brotliVersion is the version of the brotli module the binary was built
// with ("unknown" when the build info does not say, as in a binary built
// without module support).
var brotliVersion = sync.OnceValue(func() string {
	bi, _ := debug.ReadBuildInfo()
	return moduleVersion(bi, "github.com/andybalholm/brotli")
})

// moduleVersion is the version of module path in bi (its replacement's,
// where replaced), or "unknown" (test binaries carry no dependencies).
func moduleVersion(bi *debug.BuildInfo, path string) string {
	if bi != nil {
		for _, m := range bi.Deps {
			if m.Path == path {
				if m.Replace != nil {
					m = m.Replace
				}
				return m.Version
			}
		}
	}
	return "unknown"
}
