package mapping_test

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gearbox-graph/gearbox/mapping"
)

// checkCoversOnce runs a thread-mapped loop over [0, n) on w workers and
// fails unless every element is visited exactly once, by a valid worker.
func checkCoversOnce(t *testing.T, label string, w, n int, loop func(fn func(worker, lo, hi int))) {
	t.Helper()
	hits := make([]int32, n)
	loop(func(worker, lo, hi int) {
		if worker < 0 || worker >= w {
			t.Errorf("%s: worker %d of %d", label, worker, w)
		}
		for i := lo; i < hi; i++ {
			atomic.AddInt32(&hits[i], 1)
		}
	})
	for i, h := range hits {
		if h != 1 {
			t.Fatalf("%s: element %d visited %d times", label, i, h)
		}
	}
}

func TestThreadCoversOnce(t *testing.T) {
	for _, w := range []int{1, 2, 5} {
		p := mapping.NewPool(w)
		for _, n := range []int{0, 1, 10, 1000, 100001} {
			checkCoversOnce(t, fmt.Sprintf("workers=%d n=%d", w, n), w, n, func(fn func(worker, lo, hi int)) { p.Thread(n, 7, fn) })
		}
		p.Close()
	}
}

func TestBlockCoversEveryEdgeOnce(t *testing.T) {
	// Degrees with one huge element, zeros and ones.
	deg := []int64{0, 3, 100000, 0, 1, 5, 0, 7000, 2}
	pref := make([]int64, len(deg)+1)
	for i, d := range deg {
		pref[i+1] = pref[i] + d
	}
	for _, w := range []int{1, 2, 4} {
		p := mapping.NewPool(w)
		hits := make([]int32, pref[len(deg)])
		var pieces [1]atomic.Int64 // pieces of element 2 (huge)
		p.Block(pref, 1000, func(_, lo, hi int, eLo, eHi int64) {
			for i := lo; i < hi; i++ {
				from, to := mapping.Clip(pref[i], pref[i+1], eLo, eHi)
				if i == 2 && from < to {
					pieces[0].Add(1)
				}
				for e := pref[i] + from; e < pref[i]+to; e++ {
					atomic.AddInt32(&hits[e], 1)
				}
			}
		})
		for e, h := range hits {
			if h != 1 {
				t.Fatalf("workers=%d: edge %d covered %d times", w, e, h)
			}
		}
		if w > 1 && pieces[0].Load() < 2 {
			t.Errorf("workers=%d: huge element not split (%d pieces)", w, pieces[0].Load())
		}
		p.Close()
	}
}

func TestPrefixSum(t *testing.T) {
	p := mapping.NewPool(3)
	defer p.Close()
	for _, n := range []int{0, 5, 1 << 16} {
		a := make([]int64, n)
		for i := range a {
			a[i] = int64(i%5 + 1)
		}
		want := make([]int64, n)
		var s int64
		for i := range a {
			want[i] = s
			s += a[i]
		}
		if got := p.PrefixSum(a); got != s {
			t.Fatalf("total %d, want %d", got, s)
		}
		for i := range a {
			if a[i] != want[i] {
				t.Fatalf("n=%d: a[%d]=%d, want %d", n, i, a[i], want[i])
			}
		}
	}
}

// TestRunEveryWorkerOnce: Run calls every worker exactly once per loop,
// back to back (workers spinning), after the workers have parked, with
// more workers than GOMAXPROCS, and inline after Close.
func TestRunEveryWorkerOnce(t *testing.T) {
	for _, w := range []int{2, 3, 4 * runtime.GOMAXPROCS(0)} {
		p := mapping.NewPool(w)
		check := func(what string) {
			t.Helper()
			calls := make([]atomic.Int32, w)
			p.Run(func(worker int) { calls[worker].Add(1) })
			for i := range calls {
				if c := calls[i].Load(); c != 1 {
					t.Fatalf("workers=%d, %s: worker %d called %d times", w, what, i, c)
				}
			}
		}
		for range 100 {
			check("back to back")
		}
		time.Sleep(5 * time.Millisecond) // longer than the spin: workers park
		check("after parking")
		check("after waking")
		p.Close()
		p.Close() // twice is harmless
		check("after Close")
	}
}

// TestAcquireReusesReleased: a released pool serves the next Acquire of
// the same worker count, and its loops still cover every worker once.
func TestAcquireReusesReleased(t *testing.T) {
	p := mapping.Acquire(3)
	p.Release()
	if q := mapping.Acquire(5); q == p {
		t.Fatal("a pool of 3 workers served a request for 5")
	} else {
		q.Release()
	}
	q := mapping.Acquire(3)
	if q != p {
		t.Error("the released pool was not reused")
	}
	calls := make([]atomic.Int32, 3)
	q.Run(func(w int) { calls[w].Add(1) })
	for w := range calls {
		if c := calls[w].Load(); c != 1 {
			t.Errorf("reused pool: worker %d called %d times", w, c)
		}
	}
	q.Release()
}

func TestPiecesCoversOnce(t *testing.T) {
	for _, w := range []int{1, 2, 5} {
		p := mapping.NewPool(w)
		for _, cuts := range [][]int{{0}, {0, 7}, {0, 1, 2, 50, 51, 1000}} {
			checkCoversOnce(t, fmt.Sprintf("workers=%d cuts=%v", w, cuts), w, cuts[len(cuts)-1], func(fn func(worker, lo, hi int)) { p.Pieces(cuts, fn) })
		}
		p.Close()
	}
}

// TestEdgeCuts: hubs at small ids (as in email-Enron) get pieces of their
// own words, the sparse rest pieces of many words, each piece about its
// share of the edges.
func TestEdgeCuts(t *testing.T) {
	const n = 64 * 100
	deg := make([]int64, n)
	for v := range deg {
		deg[v] = 1
		if v < 128 {
			deg[v] = 200 // two words of hubs: 25600 edges each
		}
	}
	off := make([]int64, n+1)
	for v, d := range deg {
		off[v+1] = off[v] + d
	}
	wordEdges := func(lo, hi int) int64 { return off[min(hi*64, n)] - off[lo*64] }
	total := off[n]
	for _, tc := range []struct {
		k        int
		minEdges int64
	}{{1, 0}, {8, 0}, {64, 0}, {64, 20000}, {1000, 0}} {
		cuts := mapping.EdgeCuts(off, tc.k, tc.minEdges)
		if cuts[0] != 0 || cuts[len(cuts)-1] != 100 {
			t.Fatalf("k=%d: cuts %v do not span the 100 words", tc.k, cuts)
		}
		target := max(total/int64(tc.k), tc.minEdges, 1)
		for i := 1; i < len(cuts); i++ {
			lo, hi := cuts[i-1], cuts[i]
			if hi <= lo {
				t.Fatalf("k=%d: empty piece %d..%d in %v", tc.k, lo, hi, cuts)
			}
			e := wordEdges(lo, hi)
			if i < len(cuts)-1 && e < target {
				t.Errorf("k=%d: piece %d..%d has %d edges, below the target %d", tc.k, lo, hi, e, target)
			}
			// A piece stops at the word that reaches the target.
			if hi-lo > 1 && wordEdges(lo, hi-1) >= target {
				t.Errorf("k=%d: piece %d..%d goes on past its target %d", tc.k, lo, hi, target)
			}
		}
		if tc.k == 64 && tc.minEdges == 0 && (cuts[1] != 1 || cuts[2] != 2) {
			t.Errorf("k=64: the hub words do not have pieces of their own: %v", cuts[:4])
		}
	}
	if got := mapping.EdgeCuts([]int64{0}, 4, 0); len(got) != 1 {
		t.Errorf("no vertices: cuts %v, want [0]", got)
	}
}
