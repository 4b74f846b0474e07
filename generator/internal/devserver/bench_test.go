package devserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/site"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/testcat"
)

// BenchmarkEditToReload serves a copy of the repository's site and times,
// from the file write to the reload event, a price edit (one offer's price
// in data/offers/lambda.toml: incremental, the unchanged pages come from
// the previous build's memo) against, in the same run, an edit of
// data/site.toml's title (which shapes every page through the renderer:
// every page is rendered again). Both include the watcher's debounce
// (DefaultDebounce).
//
// Two pages the price edit changes are open, /providers/lambda/ and its
// Chinese edition: their reloads come as soon as each is rendered (the
// open pages go first, see prioritise), which is what a reader waits for;
// a stream naming no page gets its reload when the whole site is rebuilt
// and written.
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
	s, err := New(Config{Build: site.Options{Root: root, Out: out, Now: testcat.Today(b)}, Addr: "127.0.0.1:0"})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Run(ctx)
	base := "http://" + s.Addr().String() + eventsPath
	events := stream(b, ctx, base)
	hello := <-events
	if hello.name != "hello" {
		b.Fatalf("first event %q", hello.name)
	}
	pages := []<-chan sseEvent{stream(b, ctx, base+"?page=/providers/lambda/"), stream(b, ctx, base+"?page=/zh/providers/lambda/")}
	for _, p := range pages {
		if ev := <-p; ev.name != "hello" {
			b.Fatalf("first event %q", ev.name)
		}
	}
	var open [2]time.Duration
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
		for k, p := range pages {
			await(b, p, "reload", 10*time.Minute, nil)
			if file == "data/offers/lambda.toml" {
				open[k] += time.Since(start)
			}
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
	b.ReportMetric(float64(open[0].Milliseconds())/float64(b.N), "ms-price-edit-to-reload")
	b.ReportMetric(float64(open[1].Milliseconds())/float64(b.N), "ms-price-edit-to-reload-zh")
	b.ReportMetric(float64(inc.Milliseconds())/float64(b.N), "ms-price-edit-to-site-rebuilt")
	b.ReportMetric(float64(full.Milliseconds())/float64(b.N), "ms-full-rebuild-to-reload")
	b.ReportMetric(inc.Seconds()/full.Seconds(), "x-incremental/full")
}
