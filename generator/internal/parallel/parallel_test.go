package parallel

import (
	"sync/atomic"
	"testing"
)

// TestFor: every index is called exactly once, whatever the number of
// workers, including more workers than indexes and none at all.
func TestFor(t *testing.T) {
	for _, c := range []struct{ n, workers int }{{0, 4}, {1, 4}, {7, 1}, {100, 3}, {5, 0}, {3, 16}} {
		calls := make([]atomic.Int32, c.n)
		For(c.n, c.workers, func(i int) { calls[i].Add(1) })
		for i := range calls {
			if got := calls[i].Load(); got != 1 {
				t.Errorf("n=%d workers=%d: index %d called %d times", c.n, c.workers, i, got)
			}
		}
	}
}

// TestWorkers: each goroutine makes its worker once, and no more
// goroutines start than asked for or than there are indexes.
func TestWorkers(t *testing.T) {
	for _, c := range []struct{ n, workers, maxMade int }{{10, 2, 2}, {1, 8, 1}, {0, 3, 0}} {
		var made, sum atomic.Int64
		Workers(c.n, c.workers, func() func(int) {
			made.Add(1)
			return func(i int) { sum.Add(int64(i)) }
		})
		if m := made.Load(); m < min(1, int64(c.n)) || m > int64(c.maxMade) {
			t.Errorf("n=%d workers=%d: %d workers made, want 1..%d", c.n, c.workers, m, c.maxMade)
		}
		if want := int64(c.n * (c.n - 1) / 2); sum.Load() != want {
			t.Errorf("n=%d workers=%d: indexes sum to %d, want %d", c.n, c.workers, sum.Load(), want)
		}
	}
}
