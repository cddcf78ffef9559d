package mapping

import (
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gearbox-graph/gearbox/internal/par"
)

// Pool is a fixed set of worker goroutines reused across parallel loops,
// so a traversal with thousands of iterations does not spawn goroutines per
// iteration. The calling goroutine acts as worker 0. A Pool runs one loop
// at a time; it is not safe for concurrent loops.
//
// Between loops a worker spins for up to spinFor before it parks: a
// traversal's iterations follow each other within microseconds, and waking
// a parked goroutine (a futex wake of its thread) cost about 50 µs on a
// two-core virtual machine, more than a small iteration's work. A pull
// step over p2p-Gnutella31's 62K vertices took 118 µs on two workers and
// 73 on one; with spinning workers, 51.
//
// A loop does not wait for a worker that has not started it: once the
// caller has run its own share, it claims and runs every share no worker
// has claimed yet. Otherwise one spinning worker that the OS descheduled
// (16 spinning workers on 16 cores share them with every other thread)
// holds up the loop for a time slice: rome99's SSSP, hundreds of tiny
// loops, went from 0.9 to 2.8 ms on 16 cores before this.
type Pool struct {
	workers int
	fn      func(worker int) // the current loop, published before gen moves
	gen     atomic.Uint64    // loop generation, from 1
	claim   []atomic.Uint64  // claim[w]: the last generation whose share w was taken (by w or the caller)
	running atomic.Int64     // workers inside a loop's share
	closed  atomic.Bool
	// yield: more workers than GOMAXPROCS, so spinners must let others
	// run. Otherwise they spin without runtime.Gosched, which goes through
	// the scheduler and wakes idle threads (futex calls) on every yield.
	yield bool

	mu     sync.Mutex // parking: parked workers wait on cond for gen to move
	cond   *sync.Cond
	parked atomic.Int32
}

// spinFor is how long an idle worker polls for the next loop before it
// parks: longer than the host work between two iterations, short enough
// that an idle pool does not hold the cores.
const spinFor = 200 * time.Microsecond

// NewPool starts a pool of workers goroutines (GOMAXPROCS when workers <=
// 0); workers-1 goroutines are started, the caller being the last worker.
func NewPool(workers int) *Pool {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	p := &Pool{workers: workers, claim: make([]atomic.Uint64, workers), yield: workers > runtime.GOMAXPROCS(0)}
	p.cond = sync.NewCond(&p.mu)
	for w := 1; w < workers; w++ {
		go p.work(w)
	}
	return p
}

// take claims worker w's share of loop g; exactly one of w and the caller
// succeeds.
func (p *Pool) take(w int, g uint64) bool {
	c := p.claim[w].Load()
	return c < g && p.claim[w].CompareAndSwap(c, g)
}

// work is worker w's loop: wait for a new generation, run its share unless
// the caller took it.
func (p *Pool) work(w int) {
	var seen uint64
	for {
		g := p.await(seen)
		if p.closed.Load() {
			return
		}
		seen = g
		// Counted as running before claiming: a caller that fails to claim
		// this share then sees it running and waits for it.
		p.running.Add(1)
		if p.take(w, g) {
			p.fn(w)
		}
		p.running.Add(-1)
	}
}

// await returns the generation once it differs from seen (or the pool is
// closed): spinning first, then parked on the condition variable.
func (p *Pool) await(seen uint64) uint64 {
	start := time.Now()
	for i := 0; ; i++ {
		if g := p.gen.Load(); g != seen {
			return g
		}
		if i&255 == 255 {
			if time.Since(start) > spinFor {
				break
			}
			if p.yield {
				runtime.Gosched()
			}
		}
	}
	p.mu.Lock()
	// Run moves gen before it reads parked; a worker counts itself parked
	// before it reads gen: one of the two sees the other (sequentially
	// consistent atomics), so no wake-up is lost.
	p.parked.Add(1)
	for p.gen.Load() == seen {
		p.cond.Wait()
	}
	p.parked.Add(-1)
	p.mu.Unlock()
	return p.gen.Load()
}

// idle holds released pools for reuse, so that a run does not start its
// workers afresh: a new goroutine needs an idle thread woken, as a parked
// worker does. At most maxIdle are kept (their workers parked).
var idle struct {
	sync.Mutex
	pools []*Pool
}

const maxIdle = 4

// Acquire returns an idle pool of workers workers (GOMAXPROCS when <= 0)
// released earlier, or starts one. Release it when done.
func Acquire(workers int) *Pool {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	idle.Lock()
	for i := len(idle.pools) - 1; i >= 0; i-- {
		if p := idle.pools[i]; p.workers == workers && p.yield == (workers > runtime.GOMAXPROCS(0)) {
			idle.pools = append(idle.pools[:i], idle.pools[i+1:]...)
			idle.Unlock()
			return p
		}
	}
	idle.Unlock()
	return NewPool(workers)
}

// Release hands the pool back for a later Acquire, or closes it when
// enough pools are idle. The caller must not use it afterwards.
func (p *Pool) Release() {
	if p.closed.Load() {
		return
	}
	idle.Lock()
	if len(idle.pools) < maxIdle {
		idle.pools = append(idle.pools, p)
		idle.Unlock()
		return
	}
	idle.Unlock()
	p.Close()
}

// Workers returns the number of workers.
func (p *Pool) Workers() int { return p.workers }

// Close stops the worker goroutines. Loops run after Close execute inline
// on the caller.
func (p *Pool) Close() {
	if p.workers == 1 || p.closed.Swap(true) {
		return
	}
	p.mu.Lock()
	p.gen.Add(1)
	p.cond.Broadcast()
	p.mu.Unlock()
}

// Run calls fn(worker) once for every worker and waits: concurrently on
// the workers that join in time, on the caller for the others (see Pool).
func (p *Pool) Run(fn func(worker int)) {
	if p.workers == 1 {
		fn(0)
		return
	}
	if p.closed.Load() {
		// After Close the workers are gone: run their shares inline
		// rather than fail.
		for w := 0; w < p.workers; w++ {
			fn(w)
		}
		return
	}
	p.fn = fn
	g := p.gen.Add(1)
	if p.parked.Load() > 0 {
		p.mu.Lock()
		p.cond.Broadcast()
		p.mu.Unlock()
	}
	fn(0)
	for w := 1; w < p.workers; w++ {
		if p.take(w, g) {
			fn(w)
		}
	}
	for i := 1; p.running.Load() != 0; i++ {
		if p.yield && i&63 == 0 {
			runtime.Gosched()
		}
	}
	p.fn = nil
}

// RunIf is Run when parallel is true; otherwise it calls fn for every
// worker in turn on the caller, which for small amounts of per-worker work
// costs less than waking the workers (thousands of tiny iterations on
// high-diameter graphs).
func (p *Pool) RunIf(parallel bool, fn func(worker int)) {
	if !parallel {
		for w := 0; w < p.workers; w++ {
			fn(w)
		}
		return
	}
	p.Run(fn)
}

// Thread is thread mapping: [0, n) is cut into chunks of grain elements
// that workers claim dynamically; fn(worker, lo, hi) handles whole elements.
// Small loops (one chunk) run inline on the caller.
func (p *Pool) Thread(n, grain int, fn func(worker, lo, hi int)) {
	if n <= 0 {
		return
	}
	grain = max(grain, 1)
	if p.workers == 1 || n <= grain {
		fn(0, 0, n)
		return
	}
	// Work above the grain is parallel: cut it into at least 4 chunks per
	// worker for balance, and at most ~32 per worker.
	grain = min(grain, max(1, n/(4*p.workers)))
	if c := n / (32 * p.workers); c > grain {
		grain = c
	}
	var next atomic.Int64
	p.Run(func(w int) {
		for {
			lo := int(next.Add(int64(grain))) - grain
			if lo >= n {
				return
			}
			fn(w, lo, min(lo+grain, n))
		}
	})
}

// Pieces is thread mapping over precomputed pieces: workers claim the
// pieces [cuts[i], cuts[i+1]) dynamically and fn(worker, lo, hi) handles
// whole elements. One piece runs inline on the caller.
func (p *Pool) Pieces(cuts []int, fn func(worker, lo, hi int)) {
	k := len(cuts) - 1
	if k <= 0 {
		return
	}
	if p.workers == 1 || k == 1 {
		fn(0, cuts[0], cuts[k])
		return
	}
	var next atomic.Int64
	p.Run(func(w int) {
		for {
			i := int(next.Add(1)) - 1
			if i >= k {
				return
			}
			fn(w, cuts[i], cuts[i+1])
		}
	})
}

// EdgeCuts cuts the words of a bitmap over the vertices of CSR offsets off
// into about k pieces of equal out-edges (of all their vertices, set or
// not), for Pieces: thread mapping over a bitmap whose neighbourhoods stay
// whole, yet no piece holds much more than its share of the graph's edges
// however the hubs are numbered. Equal word counts gave one piece of 512
// vertices 15% of email-Enron's arcs (its hubs have small ids), which
// made every bitmap iteration wait for it on 16 workers. A piece holds at
// least one word and at least minEdges edges (where the graph has them);
// it returns the boundaries, from 0 to the word count.
func EdgeCuts(off []int64, k int, minEdges int64) []int {
	n := len(off) - 1
	words := (n + 63) / 64
	cuts := []int{0}
	if words == 0 {
		return cuts
	}
	total := off[n]
	target := max(total/int64(max(k, 1)), minEdges, 1)
	var acc int64
	for i := range words {
		acc += off[min((i+1)*64, n)] - off[i*64]
		if acc >= target && i+1 < words {
			cuts = append(cuts, i+1)
			acc = 0
		}
	}
	return append(cuts, words)
}

// DegreePrefix returns the exclusive prefix sum of the out-degrees of
// items (offsets are CSR offsets), with the total as its last entry: the
// input Block needs to split a queue's neighbourhoods by edge count. It
// reuses *buf when it is large enough, so steady iterations allocate
// nothing.
func (p *Pool) DegreePrefix(items []uint32, off []int64, buf *[]int64) []int64 {
	k := len(items)
	if cap(*buf) < k+1 {
		*buf = make([]int64, k+1, max(k+1, 1024))
	}
	pref := (*buf)[:k+1]
	p.Thread(k, 4096, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			u := items[i]
			pref[i] = off[u+1] - off[u]
		}
	})
	pref[k] = 0
	p.PrefixSum(pref)
	return pref
}

// Block is block mapping: pref is a non-decreasing prefix array of k+1
// entries (pref[0] = 0) giving element i the edge positions [pref[i],
// pref[i+1]); the edge space is cut into chunks of about grain edges that
// workers claim dynamically, so one huge element is shared by several
// workers. fn(worker, lo, hi, eLo, eHi) must handle, for each element i in
// [lo, hi), only its edge positions inside [eLo, eHi) (see Clip). Elements
// without edges may be skipped.
func (p *Pool) Block(pref []int64, grain int64, fn func(worker, lo, hi int, eLo, eHi int64)) {
	k := len(pref) - 1
	if k <= 0 {
		return
	}
	total := pref[k]
	if total <= 0 {
		return
	}
	grain = max(grain, 1)
	if p.workers == 1 || total <= grain {
		fn(0, 0, k, 0, total)
		return
	}
	grain = min(grain, max(1, total/int64(4*p.workers)))
	if c := total / int64(32*p.workers); c > grain {
		grain = c
	}
	var next atomic.Int64
	p.Run(func(w int) {
		for {
			a := next.Add(grain) - grain
			if a >= total {
				return
			}
			b := min(a+grain, total)
			// First element whose range ends after a; first whose starts at
			// or after b.
			lo := sort.Search(k, func(i int) bool { return pref[i+1] > a })
			hi := lo + sort.Search(k-lo, func(j int) bool { return pref[lo+j] >= b })
			fn(w, lo, hi, a, b)
		}
	})
}

// Clip returns the part of element i's edge range [s, e) inside the chunk
// [eLo, eHi), as offsets from s: the element's edges s+from .. s+to-1 belong
// to this chunk.
func Clip(s, e, eLo, eHi int64) (from, to int64) {
	from = max(s, eLo) - s
	to = min(e, eHi) - s
	if to < from {
		to = from
	}
	return from, to
}

// DefaultWorkers returns the worker count NewPool(0) uses (GOMAXPROCS).
func DefaultWorkers() int { return runtime.GOMAXPROCS(0) }

// PrefixSum replaces a[i] with a[0]+...+a[i-1] (exclusive scan) and returns
// the total, in parallel for long arrays.
func (p *Pool) PrefixSum(a []int64) int64 {
	n, w := len(a), p.workers
	return par.Scan(a, w, 1<<15, func(part func(k, lo, hi int)) {
		p.Run(func(k int) { part(k, n*k/w, n*(k+1)/w) })
	})
}
