package site

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

// scaleSite copies the repository's site into dir with every GPU copied k
// times over (ids "<id>-k2" ...), each copy with every offer of the
// original, so pages grow with k and compare pages with k squared. The
// copy is valid for check; data/ is never written.
func scaleSite(t testing.TB, dir string, k int) {
	t.Helper()
	scaleSiteFrom(t, filepath.Join("..", "..", ".."), dir, k)
}

// scaleSiteFrom is scaleSite from the repository checkout at repo.
func scaleSiteFrom(t testing.TB, repo, dir string, k int) {
	t.Helper()
	for _, d := range []string{"content", "templates", "static", "data"} {
		if err := os.CopyFS(filepath.Join(dir, d), os.DirFS(filepath.Join(repo, d))); err != nil {
			t.Fatal(err)
		}
	}
	// The WebAssembly is compiled from the generator's sources.
	if err := os.CopyFS(filepath.Join(dir, "generator"), os.DirFS(filepath.Join(repo, "generator"))); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(repo, f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	if k <= 1 {
		return
	}
	gpus, _ := filepath.Glob(filepath.Join(dir, "data", "gpus", "*.toml"))
	nameRE := regexp.MustCompile(`(?m)^name = "([^"]*)"`)
	for _, g := range gpus {
		b, _ := os.ReadFile(g)
		id := strings.TrimSuffix(filepath.Base(g), ".toml")
		for c := 2; c <= k; c++ {
			copy := nameRE.ReplaceAllString(string(b), fmt.Sprintf(`name = "$1 (copy %d)"`, c))
			os.WriteFile(filepath.Join(dir, "data", "gpus", fmt.Sprintf("%s-k%d.toml", id, c)), []byte(copy), 0o644)
		}
	}
	offers, _ := filepath.Glob(filepath.Join(dir, "data", "offers", "*.toml"))
	gpuRE := regexp.MustCompile(`(?m)^gpu = "([^"]*)"`)
	instRE := regexp.MustCompile(`(?m)^instance = "([^"]*)"`)
	for _, f := range offers {
		b, _ := os.ReadFile(f)
		src := string(b)
		blocks := strings.Split(src, "\n[[offers]]\n")
		var out strings.Builder
		out.WriteString(src)
		for _, blk := range blocks[1:] {
			for c := 2; c <= k; c++ {
				cp := gpuRE.ReplaceAllString(blk, fmt.Sprintf(`gpu = "$1-k%d"`, c))
				cp = instRE.ReplaceAllString(cp, fmt.Sprintf(`instance = "$1-k%d"`, c))
				out.WriteString("\n[[offers]]\n" + strings.TrimRight(cp, "\n") + "\n")
			}
		}
		os.WriteFile(f, []byte(out.String()), 0o644)
	}
}

// generatorBinary builds the generator once for the benchmarks.
func generatorBinary(b *testing.B) string {
	b.Helper()
	return generatorBinaryFrom(b, filepath.Join("..", "..", ".."))
}

// generatorBinaryFrom builds the generator of the checkout at repo.
func generatorBinaryFrom(b *testing.B, repo string) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "generator")
	cmd := exec.Command("go", "build", "-o", bin, "./generator")
	cmd.Dir = repo
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// run runs a command and returns its wall time, CPU time (user + system)
// and peak resident memory.
func measure(b *testing.B, dir string, name string, args ...string) (wall, cpu time.Duration, peakMiB float64) {
	b.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	start := time.Now()
	out, err := cmd.CombinedOutput()
	wall = time.Since(start)
	if err != nil {
		b.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return wall, cpu, float64(ru.Maxrss) / 1024 // Linux reports KiB
}

func treeBytes(dir string) (files int, n int64) {
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				files++
				n += info.Size()
			}
		}
		return nil
	})
	return
}

// BenchmarkScale builds the site scaled K = 1 and 4 times with the
// generator binary, without precompression, with it (warm cache) and with
// it after one price changed, and reports per build: pages, wall and CPU
// time, ms per page, peak memory and bytes written; and, measured in the
// same run, the baselines: copying the output tree (cp -r, the floor for
// writing it) and loading the catalog. Ratios against the baselines are
// reported as x-cp and x-load.
func BenchmarkScale(b *testing.B) {
	if _, err := exec.LookPath("cp"); err != nil {
		b.Skip("needs cp")
	}
	bin := generatorBinary(b)
	for _, k := range []int{1, 4} {
		b.Run(fmt.Sprintf("K=%d", k), func(b *testing.B) {
			root := filepath.Join(b.TempDir(), "site")
			scaleSite(b, root, k)
			loadStart := time.Now()
			if _, d := catalog.Load(root, testcat.Today(b)); d.HasErrors() {
				b.Fatalf("scaled catalog: %v", d.Errors())
			}
			load := time.Since(loadStart)
			cache := filepath.Join(b.TempDir(), "cache")
			out := filepath.Join(b.TempDir(), "public")
			plain := filepath.Join(b.TempDir(), "plain")
			// Warm the Go build cache for the WebAssembly and the
			// precompression cache, outside the measurements.
			measure(b, root, bin, "build", "-root", root, "-out", out, "-cache-dir", cache)
			for i := 0; i < b.N; i++ {
				w0, c0, m0 := measure(b, root, bin, "build", "-root", root, "-out", plain, "-no-precompress")
				files, bytes0 := treeBytes(plain)
				pages := countPages(plain)
				w1, c1, m1 := measure(b, root, bin, "build", "-root", root, "-out", out, "-cache-dir", cache)
				// One price changes: the rebuild with precompression
				// against the same rebuild without.
				editPrice(b, root, i)
				w2, _, _ := measure(b, root, bin, "build", "-root", root, "-out", out, "-cache-dir", cache)
				w3, _, _ := measure(b, root, bin, "build", "-root", root, "-out", plain, "-no-precompress")
				cp := filepath.Join(b.TempDir(), "copy")
				wc, _, _ := measure(b, root, "cp", "-r", plain, cp)
				b.ReportMetric(float64(pages), "pages")
				b.ReportMetric(float64(files), "files")
				b.ReportMetric(float64(bytes0)/(1<<20), "MiB-written")
				b.ReportMetric(w0.Seconds(), "s-wall-noprecompress")
				b.ReportMetric(c0.Seconds(), "s-cpu-noprecompress")
				b.ReportMetric(float64(w0.Milliseconds())/float64(pages), "ms/page")
				b.ReportMetric(m0, "MiB-peak-noprecompress")
				b.ReportMetric(w1.Seconds(), "s-wall-precompress")
				b.ReportMetric(c1.Seconds(), "s-cpu-precompress")
				b.ReportMetric(m1, "MiB-peak-precompress")
				b.ReportMetric(w2.Seconds()/w3.Seconds(), "x-rebuild-precompress/plain")
				b.ReportMetric(wc.Seconds(), "s-cp")
				b.ReportMetric(w0.Seconds()/wc.Seconds(), "x-cp")
				b.ReportMetric(load.Seconds(), "s-load")
				b.ReportMetric(w0.Seconds()/load.Seconds(), "x-load")
			}
		})
	}
}

func countPages(dir string) int {
	n := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".html") {
			n++
		}
		return nil
	})
	return n
}

// editPrice changes the first on-demand price of data/offers/lambda.toml
// by a cent, as a contributor's price update would.
func editPrice(b *testing.B, root string, i int) {
	b.Helper()
	f := filepath.Join(root, "data", "offers", "lambda.toml")
	src, err := os.ReadFile(f)
	if err != nil {
		b.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^price = ([0-9.]+)$`)
	m := re.FindSubmatchIndex(src)
	if m == nil {
		b.Fatal("no price in lambda.toml")
	}
	var v float64
	fmt.Sscan(string(src[m[2]:m[3]]), &v)
	out := append([]byte{}, src[:m[2]]...)
	out = append(out, fmt.Sprintf("%.2f", v+0.01*float64(i%2*2-1))...)
	out = append(out, src[m[3]:]...)
	os.WriteFile(f, out, 0o644)
}

// median is the middle of vs (the upper middle of an even count).
func median[T cmp.Ordered](vs []T) T {
	s := slices.Clone(vs)
	slices.Sort(s)
	return s[len(s)/2]
}

// scaleFromEnv is the scale of the site the paired benchmarks build: 4,
// or $GPU_ATLAS_K.
func scaleFromEnv(b *testing.B) int {
	b.Helper()
	s := os.Getenv("GPU_ATLAS_K")
	if s == "" {
		return 4
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		b.Fatalf("GPU_ATLAS_K=%q: want a scale of 1 or more", s)
	}
	return n
}

// BenchmarkAgainstBase is the speed guard: it builds the site scaled 4
// times ($GPU_ATLAS_K to change it) with this checkout's generator and with the one of the checkout
// at $GPU_ATLAS_BASE (make bench-guard makes one of BASE, HEAD~1 by
// default), each from its own data and templates, alternating the two in
// every round (plain builds, then default builds with brotli and gzip from
// a warm cache), and reports the median wall times and their ratios
// (x-base-plain, x-base-default: this checkout over the base). With
// $GPU_ATLAS_GUARD set (1.10: ten per cent slower) a ratio above it fails
// the benchmark, so a slower change is seen before it lands. It is skipped
// without $GPU_ATLAS_BASE.
func BenchmarkAgainstBase(b *testing.B) {
	base := os.Getenv("GPU_ATLAS_BASE")
	if base == "" {
		b.Skip("set GPU_ATLAS_BASE to a checkout of the base revision (make bench-guard)")
	}
	const rounds = 3
	k := scaleFromEnv(b)
	type side struct {
		name, bin, root, plain, out, cache string
		plainTimes, defaultTimes           []time.Duration
	}
	sides := []*side{{name: "base", bin: generatorBinaryFrom(b, base)}, {name: "this", bin: generatorBinary(b)}}
	repos := map[string]string{"base": base, "this": filepath.Join("..", "..", "..")}
	for _, sd := range sides {
		sd.root = filepath.Join(b.TempDir(), "site")
		scaleSiteFrom(b, repos[sd.name], sd.root, k)
		sd.plain, sd.out, sd.cache = filepath.Join(b.TempDir(), "plain"), filepath.Join(b.TempDir(), "public"), filepath.Join(b.TempDir(), "cache")
		// Warm the Go build cache (the WebAssembly) and the
		// precompression cache, outside the measurements.
		measure(b, sd.root, sd.bin, "build", "-root", sd.root, "-out", sd.out, "-cache-dir", sd.cache)
	}
	for i := 0; i < b.N; i++ {
		for r := 0; r < rounds; r++ {
			for _, sd := range sides {
				w, _, _ := measure(b, sd.root, sd.bin, "build", "-root", sd.root, "-out", sd.plain, "-no-precompress")
				sd.plainTimes = append(sd.plainTimes, w)
			}
			for _, sd := range sides {
				w, _, _ := measure(b, sd.root, sd.bin, "build", "-root", sd.root, "-out", sd.out, "-cache-dir", sd.cache)
				sd.defaultTimes = append(sd.defaultTimes, w)
			}
		}
	}
	bp, tp := median(sides[0].plainTimes).Seconds(), median(sides[1].plainTimes).Seconds()
	bd, td := median(sides[0].defaultTimes).Seconds(), median(sides[1].defaultTimes).Seconds()
	b.ReportMetric(bp, "s-base-plain")
	b.ReportMetric(tp, "s-plain")
	b.ReportMetric(tp/bp, "x-base-plain")
	b.ReportMetric(bd, "s-base-default")
	b.ReportMetric(td, "s-default")
	b.ReportMetric(td/bd, "x-base-default")
	if g := os.Getenv("GPU_ATLAS_GUARD"); g != "" {
		limit, err := strconv.ParseFloat(g, 64)
		if err != nil {
			b.Fatalf("GPU_ATLAS_GUARD=%q: %v", g, err)
		}
		for _, r := range []struct {
			what  string
			ratio float64
		}{{"plain", tp / bp}, {"default", td / bd}} {
			if r.ratio > limit {
				b.Errorf("the %s build of the %dx site takes %.2fx the base's time (limit %.2fx): find what got slower (build -cpuprofile)", r.what, k, r.ratio, limit)
			}
		}
	}
}
