package edgeset

import (
	"sync/atomic"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/mapping"
)

// Set is an active-edge working set in one of two representations: a
// bitmap of hidden slots (Rep == decider.Bitmap) or a queue of elements of
// type T (Rep == decider.Queue). Active is the number of active edges the
// last pass found (an upper bound for a bitmap: edges found active may have
// become inactive since and are hidden when next read).
type Set[T any] struct {
	Rep    decider.Rep
	Hidden Bitmap
	Queue  []T
	Active int64
}

// Inspect returns the working set's size as the engine's Inspect does: the
// queue's length, or the active count the last bitmap pass produced; the
// degree sum is unknown (-1).
func (s *Set[T]) Inspect() (size, degree int64) {
	if s.Rep == decider.Queue {
		return int64(len(s.Queue)), -1
	}
	return s.Active, -1
}

// Convert switches the set to representation r (nothing when it is r
// already): to a queue, gather(Hidden) builds it from the bitmap and Active
// becomes its length; to a bitmap of slots slots, every slot starts hidden
// and each queued element's slot(x) is shown.
func (s *Set[T]) Convert(p *mapping.Pool, r decider.Rep, slots int64, gather func(Bitmap) []T, slot func(T) int64) {
	if r == s.Rep {
		return
	}
	if r == decider.Queue {
		s.Queue = gather(s.Hidden)
		s.Hidden = nil
		s.Active = int64(len(s.Queue))
	} else {
		h := AllHidden(p, slots)
		for _, x := range s.Queue {
			h.Show(slot(x))
		}
		s.Hidden, s.Queue = h, nil
	}
	s.Rep = r
}

// Bitmap is a bitmap over edge slots: bit e set means slot e is hidden
// (inactive). Passes set bits concurrently, so writes go through atomic OR
// (Marker batches them a word at a time).
type Bitmap []uint64

// NewBitmap returns a bitmap of slots slots, none hidden.
func NewBitmap(slots int64) Bitmap { return make(Bitmap, (slots+63)/64) }

// AllHidden returns a bitmap of slots slots, every one hidden (the start of
// a conversion from a queue, which then shows its elements' slots).
func AllHidden(p *mapping.Pool, slots int64) Bitmap {
	b := NewBitmap(slots)
	p.Thread(len(b), 1<<14, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			b[i] = ^uint64(0)
		}
	})
	return b
}

// Hidden reports whether slot e is hidden (an atomic read: other workers
// may be hiding slots of the same word).
func (b Bitmap) IsHidden(e int64) bool {
	return atomic.LoadUint64(&b[e>>6])&(uint64(1)<<(e&63)) != 0
}

// Show clears slot e (not atomic: for single-threaded conversion or slots
// owned by one worker's words).
func (b Bitmap) Show(e int64) { b[e>>6] &^= 1 << (e & 63) }

// Marker batches the hiding of slots visited in increasing order by one
// worker: neighbouring chunks of a pass may share a word, so bits are set
// a word at a time with one atomic OR each. The zero value is not ready;
// use Marker{word: -1} through NewMarker.
type Marker struct {
	word int64
	bits uint64
}

// NewMarker returns an empty marker.
func NewMarker() Marker { return Marker{word: -1} }

// Hide marks slot e hidden (written at the next word change or Flush).
func (m *Marker) Hide(b Bitmap, e int64) {
	i := e >> 6
	if i != m.word {
		if m.bits != 0 {
			atomic.OrUint64(&b[m.word], m.bits)
		}
		m.word, m.bits = i, 0
	}
	m.bits |= uint64(1) << (e & 63)
}

// Flush writes the pending bits.
func (m *Marker) Flush(b Bitmap) {
	if m.bits != 0 {
		atomic.OrUint64(&b[m.word], m.bits)
	}
	m.bits = 0
}

// Canonical reports whether arc u->v stands for its edge in an edge
// working set: for undirected graphs the copy with u < v; for directed
// graphs read as undirected (weak connectivity, spanning forests) every
// arc but self-loops.
func Canonical(u, v uint32, directed bool) bool {
	if directed {
		return u != v
	}
	return u < v
}

// Grains of the CSR passes: vertices per chunk under thread mapping, arcs
// per chunk under block mapping.
const (
	ThreadGrain = 1 << 10
	BlockGrain  = 1 << 12
)

// PassCSR runs fn over the vertices 0..n-1 of CSR offsets off: under block
// mapping in chunks of about BlockGrain arcs, long adjacency lists split
// between workers, else (thread mapping) in chunks of whole vertices.
// fn(worker, lo, hi, eLo, eHi) must handle, for each vertex u in [lo, hi),
// only its arcs in [max(off[u], eLo), min(off[u+1], eHi)).
func PassCSR(p *mapping.Pool, off []int64, m decider.Mapping, fn func(w, lo, hi int, eLo, eHi int64)) {
	n := len(off) - 1
	if m == decider.Block {
		p.Block(off, BlockGrain, fn)
		return
	}
	arcs := off[n]
	p.Thread(n, ThreadGrain, func(w, lo, hi int) { fn(w, lo, hi, 0, arcs) })
}

// Filter compacts q in place in parallel: the queue is cut into one fixed
// slice per worker, part(worker, s) moves the elements it keeps to the
// front of its slice s and returns how many, then the kept pieces are moved
// together in slice order (so the queue's order is kept). It returns the
// compacted queue.
func Filter[T any](p *mapping.Pool, q []T, part func(worker int, s []T) int) []T {
	w := p.Workers()
	if w == 1 || len(q) < 1<<12 {
		return q[:part(0, q)]
	}
	kept := make([]int, w)
	bound := func(i int) int { return int(int64(len(q)) * int64(i) / int64(w)) }
	p.Run(func(t int) {
		kept[t] = part(t, q[bound(t):bound(t+1)])
	})
	n := 0
	for t := 0; t < w; t++ {
		n += copy(q[n:], q[bound(t):bound(t)+kept[t]])
	}
	return q[:n]
}

// Collect builds a queue in vertex order from a scan over the vertices of
// CSR offsets off: scan(lo, hi, emit) calls emit for every element of the
// vertices [lo, hi), in order, and must emit the same elements when called
// twice. It counts per edge-balanced vertex range first and then fills, so
// the queue is written once.
func Collect[T any](p *mapping.Pool, off []int64, scan func(lo, hi int, emit func(T))) []T {
	parts := Parts(off, 32*p.Workers())
	k := len(parts) - 1
	count := make([]int64, k+1)
	p.Thread(k, 1, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			var c int64
			scan(parts[i], parts[i+1], func(T) { c++ })
			count[i] = c
		}
	})
	total := p.PrefixSum(count)
	q := make([]T, total)
	p.Thread(k, 1, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			j := count[i]
			scan(parts[i], parts[i+1], func(x T) { q[j] = x; j++ })
		}
	})
	return q
}

// Parts splits 0..n into at most k vertex ranges of about equal arc (plus
// vertex) counts.
func Parts(off []int64, k int) []int {
	n := len(off) - 1
	bounds := []int{0}
	if n <= 0 {
		return append(bounds, 0)
	}
	total := off[n] + int64(n)
	for i := 1; i < k; i++ {
		target := total * int64(i) / int64(k)
		lo, hi := bounds[len(bounds)-1], n
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			if off[mid]+int64(mid) < target {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		if lo > bounds[len(bounds)-1] && lo < n {
			bounds = append(bounds, lo)
		}
	}
	return append(bounds, n)
}
