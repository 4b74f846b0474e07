package build

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
)

// renderJob is one page waiting to be rendered.
type renderJob struct {
	page *render.Page
	r    *render.Renderer
	file string
	out  []byte
	err  error
}

// renderQueued renders the queued pages on every core (html/template is
// safe for concurrent use, and a page's data is complete when it is
// queued), then adds them to the tree and reports errors in queue order,
// so the output and the diagnostics do not depend on the number of cores.
func (s *siteBuild) renderQueued() {
	jobs := s.queue
	s.queue = nil
	workers := s.o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(jobs) {
					return
				}
				j := &jobs[i]
				j.out, j.err = j.r.Render(j.page)
			}
		}()
	}
	wg.Wait()
	for _, j := range jobs {
		if j.err != nil {
			file, line, col, msg := templateError(j.err, "templates/"+j.page.Kind+".html")
			s.d.Errorf(file, line, col, "rendering /%s: %s", j.page.Path, msg)
			continue
		}
		s.tree.Add(j.file, j.out)
	}
}
