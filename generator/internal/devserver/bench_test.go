package devserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/build"
)

// BenchmarkEditToReload serves a copy of the repository's site and times,
// from the file write to the reload event, a price edit (one offer's price
// in data/offers/lambda.toml: incremental, the unchanged pages come from
// the previous build's memo) against, in the same run, an edit of
// data/site.toml's title (which shapes every page through the renderer:
// every page is rendered again). Both include the watcher's debounce
// (DefaultDebounce).
func BenchmarkEditToReload(b *testing.B) {
	root := b.TempDir()
	repo := filepath.Join("..", "..", "..")
	for _, d := range []string{"content", "data", "templates", "static", "generator"} {
		if err := os.CopyFS(filepath.Join(root, d), os.DirFS(filepath.Join(repo, d))); err != nil {
			b.Fatal(err)
		}
	}
	for _, f := range []string{"go.mod", "go.sum"} {
		src, _ := os.ReadFile(filepath.Join(repo, f))
		os.WriteFile(filepath.Join(root, f), src, 0o644)
	}
	out := filepath.Join(b.TempDir(), "public")
	s, err := New(Config{Build: build.Options{Root: root, Out: out, Now: time.Now().UTC()}, Addr: "127.0.0.1:0"})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Run(ctx)
	events := stream(b, ctx, "http://"+s.Addr().String()+eventsPath)
	if hello := <-events; hello.name != "hello" {
		b.Fatalf("first event %q", hello.name)
	}
	priceRE := regexp.MustCompile(`(?m)^price = ([0-9.]+)$`)
	editAndWait := func(file string, change func([]byte, int) []byte, i int) time.Duration {
		p := filepath.Join(root, file)
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if err := os.WriteFile(p, change(src, i), 0o644); err != nil {
			b.Fatal(err)
		}
		await(b, events, "reload", 10*time.Minute, nil)
		return time.Since(start)
	}
	price := func(src []byte, i int) []byte {
		m := priceRE.FindSubmatchIndex(src)
		var v float64
		fmt.Sscan(string(src[m[2]:m[3]]), &v)
		return append(append(append([]byte{}, src[:m[2]]...), fmt.Sprintf("%.2f", v+0.01*float64(i%2*2-1))...), src[m[3]:]...)
	}
	titleRE := regexp.MustCompile(`(?m)^title = "([^"]*)"`)
	title := func(src []byte, i int) []byte {
		return titleRE.ReplaceAll(src, []byte(fmt.Sprintf(`title = "GPU Atlas %d"`, i)))
	}
	var inc, full time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		inc += editAndWait("data/offers/lambda.toml", price, i)
		full += editAndWait("data/site.toml", title, i)
	}
	b.ReportMetric(float64(inc.Milliseconds())/float64(b.N), "ms-price-edit-to-reload")
	b.ReportMetric(float64(full.Milliseconds())/float64(b.N), "ms-full-rebuild-to-reload")
	b.ReportMetric(inc.Seconds()/full.Seconds(), "x-incremental/full")
}
