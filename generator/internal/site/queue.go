package site

import (
	"strings"
	"sync/atomic"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/linkcheck"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/parallel"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/render"
)

// renderJob is one page waiting to be rendered.
type renderJob struct {
	page  *render.Page
	r     *render.Renderer
	file  string
	links []string
	err   error // rendering
	// putErr is finishing or writing the page (see sink.put).
	putErr error
	// done: rendered ahead of the queue (renderFirst).
	done bool
	// data, when set, makes page.Data (see pages.Queue).
	data func() any
}

// Page queues one page of edition e for rendering (pages.Queue); a page
// of Options.Dev.Priority is rendered at once.
func (e *editionRun) Page(file string, p *render.Page, r *render.Renderer, data func() any) {
	s := e.s
	e.queue = append(e.queue, renderJob{page: p, r: r, file: file, data: data})
	s.qmu.Lock()
	s.queued[file] = true
	s.qmu.Unlock()
	if p.Kind != "404" {
		s.html = append(s.html, strings.TrimSuffix(file, "index.html"))
	}
	if s.o.priority()[file] {
		s.renderFirst(e)
	}
}

// renderQueued renders the queued pages on every core (html/template is
// safe for concurrent use, and a page's data is complete when it is
// queued), and puts each in the build's sink as it is rendered; errors are
// reported in queue order, so the output and the diagnostics do not depend
// on the number of cores. With a memo (Options.Dev.Memo), a page whose data has
// the fingerprint it had in the previous build is taken from that build's
// memo instead of being rendered.
func (s *siteBuild) renderQueued(e *editionRun) {
	s.renderingQueued(e)()
}

// renderingQueued starts renderQueued in the background and returns the
// function that waits for it and reports its errors. Until then the
// caller may make the next edition's pages (its queue, its files), but
// must not report diagnostics of its own: the workers write none, and the
// wait reports theirs in queue order.
func (s *siteBuild) renderingQueued(e *editionRun) (wait func()) {
	jobs := e.queue
	e.queue = nil
	var reused atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		parallel.Workers(len(jobs), s.o.Workers, func() func(int) {
			fpr := s.fingerprinter() // one per goroutine
			return func(i int) {
				if j := &jobs[i]; !j.done {
					if r, _ := s.run(j, fpr); r {
						reused.Add(1)
					}
				}
			}
		})
	}()
	return func() {
		<-done
		s.reused += int(reused.Load())
		for _, j := range jobs {
			if j.err != nil {
				file, line, col, msg := templateError(j.err, "templates/"+j.page.Kind+".html")
				s.d.Errorf(file, line, col, "rendering /%s: %s", j.page.Path, msg)
				continue
			}
			if j.putErr != nil {
				s.d.Errorf("public/"+j.file, 0, 0, "%v", j.putErr)
				continue
			}
			s.links.Collect(j.file, e.sourceOf(j.file), j.links, s.d)
		}
	}
}

// fingerprinter returns a fingerprinter for one goroutine when the build
// has a memo, else nil.
func (s *siteBuild) fingerprinter() *fingerprinter {
	if s.memo == nil {
		return nil
	}
	return newFingerprinter(s.memo.seed)
}

// run renders one queued page and puts it in the sink, returning the
// finished page, or, when its data has the fingerprint it had in the
// previous build, takes it from that build's memo (and reports true).
// Errors are left in j for renderQueued to report in queue order.
func (s *siteBuild) run(j *renderJob, fpr *fingerprinter) (reused bool, fin []byte) {
	if j.data != nil {
		j.page.Data = j.data()
		j.data = nil
		// Dropped once the page is finished: only the job's place in
		// the queue is kept until the queue's errors are reported.
		defer func() { j.page.Data = nil }()
	}
	var fp uint64
	remember := false
	if fpr != nil {
		fp, remember = fpr.sum(j.page)
	}
	if remember && s.prevMemo != nil {
		if e, ok := s.prevMemo.get(j.file, fp); ok {
			s.links.AddIDs(j.file, e.ids)
			j.links = s.links.Unsettled(e.links)
			j.putErr = s.out.finish(j.file, e.out)
			s.memo.put(j.file, e)
			return true, nil
		}
	}
	out, err := j.r.Render(j.page)
	if err != nil {
		j.err = err
		return false, nil
	}
	links, ids := linkcheck.Links(out), linkcheck.IDs(out)
	s.links.AddIDs(j.file, ids)
	j.links = s.links.Unsettled(links)
	fin, err = s.out.put(j.file, out)
	j.putErr = err
	if remember && err == nil {
		s.memo.put(j.file, memoPage{fp: fp, out: fin, links: links, ids: ids})
	}
	return false, fin
}

// renderFirst renders the page just queued at once, before the rest of
// the queue, for a caller waiting on it (Options.Dev.Priority), and hands it
// to Options.Dev.OnPriority when it changed since the previous build.
func (s *siteBuild) renderFirst(e *editionRun) {
	j := &e.queue[len(e.queue)-1]
	j.done = true
	reused, fin := s.run(j, s.fingerprinter())
	if reused {
		s.reused++
		return
	}
	if j.err == nil && j.putErr == nil && s.o.Dev.OnPriority != nil {
		s.o.Dev.OnPriority(j.file, fin)
	}
}
