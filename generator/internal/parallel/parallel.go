// Package parallel runs a number of independent calls on every core.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// For calls f(i) once for every i in [0, n), on at most workers goroutines
// at once (GOMAXPROCS when workers <= 0), and returns when every call has
// returned. The calls take the indexes in increasing order as goroutines
// come free, so early indexes finish first; f must be safe for concurrent
// use, and the caller keeps each result at its index to get an order that
// does not depend on the number of cores.
func For(n, workers int, f func(i int)) {
	Workers(n, workers, func() func(int) { return f })
}

// Workers is For with state per goroutine: each goroutine calls newWorker
// once, before its first index, and uses the function it returns for the
// indexes it takes.
func Workers(n, workers int, newWorker func() func(i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f := newWorker()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
}
