// Package par provides the small parallel-loop helpers shared by gearbox's
// packages: a fixed number of workers (GOMAXPROCS) splitting an index range
// into contiguous chunks, never a goroutine per element.
//
// It imports only the standard library.
package par

import (
	"runtime"
	"sync"
)

// Workers is the number of workers parallel loops use: GOMAXPROCS.
func Workers() int { return runtime.GOMAXPROCS(0) }

// For calls fn(lo, hi) over disjoint chunks covering [0, n). Chunks are at
// least grain long; with one worker, or when n is small, it runs inline.
func For(n, grain int, fn func(lo, hi int)) {
	if n <= 0 {
		return
	}
	if grain < 1 {
		grain = 1
	}
	w := Workers()
	chunks := (n + grain - 1) / grain
	if chunks > 4*w {
		chunks = 4 * w
	}
	if w == 1 || chunks <= 1 {
		fn(0, n)
		return
	}
	size := (n + chunks - 1) / chunks
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += size {
		hi := min(lo+size, n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(lo, hi)
		}()
	}
	wg.Wait()
}

// ForWorkers runs fn(worker, lo, hi) once per worker over an even split of
// [0, n), for loops that keep per-worker state.
func ForWorkers(n int, fn func(worker, lo, hi int)) {
	w := Workers()
	if n < 2*w || w == 1 {
		fn(0, 0, n)
		for i := 1; i < w; i++ {
			fn(i, n, n)
		}
		return
	}
	var wg sync.WaitGroup
	for i := 0; i < w; i++ {
		lo, hi := n*i/w, n*(i+1)/w
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(i, lo, hi)
		}()
	}
	wg.Wait()
}

// PrefixSum replaces a[i] with the sum of a[0..i) and returns the total
// (an exclusive scan), in parallel for large inputs.
func PrefixSum(a []int64) int64 {
	return Scan(a, Workers(), 1<<16, func(part func(k, lo, hi int)) { ForWorkers(len(a), part) })
}

// Scan is an exclusive prefix sum of a in w parts, serial below serialBelow
// elements or for one part: run calls part(k, lo, hi) for every part k of
// an even split of a (k in [0, w)), concurrently, and returns when all are
// done. Go's goroutines (PrefixSum) and a mapping.Pool both drive it.
func Scan(a []int64, w, serialBelow int, run func(part func(k, lo, hi int))) int64 {
	if len(a) < serialBelow || w == 1 {
		var s int64
		for i, x := range a {
			a[i] = s
			s += x
		}
		return s
	}
	sums := make([]int64, w+1)
	run(func(k, lo, hi int) {
		var s int64
		for _, x := range a[lo:hi] {
			s += x
		}
		sums[k+1] = s
	})
	for k := 1; k <= w; k++ {
		sums[k] += sums[k-1]
	}
	run(func(k, lo, hi int) {
		s := sums[k]
		for i := lo; i < hi; i++ {
			x := a[i]
			a[i] = s
			s += x
		}
	})
	return sums[w]
}
