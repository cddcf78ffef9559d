package frontier

import (
	"math/bits"
	"sync/atomic"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/inspector"
	"github.com/gearbox-graph/gearbox/mapping"
	"github.com/gearbox-graph/gearbox/workset"
)

// Set is the working set an advance runs over: a queue's elements or a
// bitmap.
type Set struct {
	Rep    decider.Rep
	Queue  []uint32        // the elements, when Rep is decider.Queue
	Bitmap *workset.Bitmap // when Rep is decider.Bitmap
	// Degree is the set's summed out-degree where known (-1: unknown): a
	// thread-mapped bitmap of at most Grains.SerialEdges out-edges runs
	// on the caller.
	Degree int64
}

// QueueSet returns the set of a queue's elements.
func QueueSet(items []uint32, degree int64) Set {
	return Set{Rep: decider.Queue, Queue: items, Degree: degree}
}

// BitmapSet returns the set of a bitmap's elements.
func BitmapSet(b *workset.Bitmap, degree int64) Set {
	return Set{Rep: decider.Bitmap, Bitmap: b, Degree: degree}
}

// Grains tune how an advance cuts its work.
type Grains struct {
	// Queue is the least number of elements per chunk a worker claims
	// under thread mapping over a queue; a chunk holds at least
	// QueueEdges out-edges at the graph's average degree, so a small
	// working set of low-degree vertices (thousands of tiny levels on a
	// grid) runs on the caller instead of waking the pool.
	Queue      int
	QueueEdges int64
	// Edge is the out-edges per chunk of block mapping.
	Edge int64
	// PiecesPerWorker and PieceEdges cut a bitmap for thread mapping into
	// word-aligned pieces of about equal out-edges (mapping.EdgeCuts),
	// PiecesPerWorker per worker and at least PieceEdges each, so that no
	// piece holds a cluster of hubs with small ids.
	PiecesPerWorker int
	PieceEdges      int64
	// SerialEdges: a thread-mapped bitmap whose Set.Degree is known and at
	// most SerialEdges runs on the caller (0: never).
	SerialEdges int64
}

// DefaultGrains are BFS's grains: a visit is an atomic load and a rare
// compare-and-swap.
var DefaultGrains = Grains{Queue: 64, QueueEdges: 4096, Edge: 4096, PiecesPerWorker: 16, PieceEdges: 4096, SerialEdges: 4096}

// Visitor handles, for worker w, the arcs lo..hi-1 (CSR positions) of
// working-set element u: all of u's out-arcs under thread mapping, a piece
// of them under block mapping (a hub's arcs are shared by several
// workers). Calls for different workers run concurrently.
type Visitor func(w int, u uint32, lo, hi int64)

// Advance is one run's advance over a graph's CSR: it keeps the buffers
// and cuts it reuses between iterations. It is not safe for concurrent
// use.
type Advance struct {
	pool  *mapping.Pool
	off   []int64
	g     Grains
	grain int     // thread mapping's chunk over a queue
	pref  []int64 // a queue's degree prefix (block mapping)
	cuts  []int   // a bitmap's pieces (thread mapping), made on first use
}

// New returns an advance over the CSR offsets off on pool's workers.
func New(pool *mapping.Pool, off []int64, g Grains) *Advance {
	a := &Advance{pool: pool, off: off, g: g, grain: max(g.Queue, 1)}
	if n := len(off) - 1; n > 0 {
		avg := max(off[n]/int64(n), 1)
		a.grain = max(a.grain, int(g.QueueEdges/avg))
	}
	return a
}

// Pool returns the advance's worker pool.
func (a *Advance) Pool() *mapping.Pool { return a.pool }

// ForFrontier calls fn for every element of s under mapping m: thread
// mapping hands each worker whole neighbourhoods, block mapping cuts the
// set's out-edges into chunks of about Grains.Edge (a queue's by a degree
// prefix, a bitmap's by the graph's offsets) so one huge neighbourhood is
// shared.
func (a *Advance) ForFrontier(s Set, m decider.Mapping, fn Visitor) {
	off := a.off
	switch {
	case s.Rep == decider.Queue && m == decider.Thread:
		items := s.Queue
		a.pool.Thread(len(items), a.grain, func(w, lo, hi int) {
			for _, u := range items[lo:hi] {
				fn(w, u, off[u], off[u+1])
			}
		})
	case s.Rep == decider.Queue:
		items := s.Queue
		pref := a.pool.DegreePrefix(items, off, &a.pref)
		a.pool.Block(pref, a.g.Edge, func(w, lo, hi int, eLo, eHi int64) {
			for i := lo; i < hi; i++ {
				u := items[i]
				from, to := mapping.Clip(pref[i], pref[i+1], eLo, eHi)
				if from < to {
					fn(w, u, off[u]+from, off[u]+to)
				}
			}
		})
	case m == decider.Thread:
		words := s.Bitmap.Words()
		visit := func(w, lo, hi int) {
			for i := lo; i < hi; i++ {
				for b := words[i]; b != 0; b &= b - 1 {
					u := uint32(i*64 + bits.TrailingZeros64(b))
					fn(w, u, off[u], off[u+1])
				}
			}
		}
		if a.g.SerialEdges > 0 && s.Degree >= 0 && s.Degree <= a.g.SerialEdges {
			visit(0, 0, len(words))
			break
		}
		if a.cuts == nil {
			a.cuts = mapping.EdgeCuts(off, a.g.PiecesPerWorker*a.pool.Workers(), a.g.PieceEdges)
		}
		a.pool.Pieces(a.cuts, visit)
	default:
		cur := s.Bitmap
		words := cur.Words()
		a.pool.Block(off, a.g.Edge, func(w, lo, hi int, eLo, eHi int64) {
			for u := lo; u < hi; u++ {
				if words[u>>6] == 0 {
					u |= 63 // skip the rest of an empty word
					continue
				}
				if !cur.Get(uint32(u)) {
					continue
				}
				if lo, hi := max(off[u], eLo), min(off[u+1], eHi); lo < hi {
					fn(w, uint32(u), lo, hi)
				}
			}
		})
	}
}

// ArcFilter reports whether the advance follows the arc at CSR position
// arc, from u (a working-set element) to x; nil follows every arc.
type ArcFilter func(arc int64, u, x uint32) bool

// ArcVisitor handles, for worker w, the arc at CSR position arc from u to
// x that the filter accepted; false stops the advance.
type ArcVisitor func(w int, arc int64, u, x uint32) bool

// ForArcs is ForFrontier one arc at a time over the arc heads adj (the
// graph's adjacency, or any arc-indexed array of heads that goes with the
// advance's offsets), for the arcs filter accepts. Once a visit returns
// false no further arc is visited (the workers skip what is left of
// their chunks) and ForArcs returns true. It costs two indirect calls per
// arc; the hot paths of BFS and SSSP use ForFrontier.
func (a *Advance) ForArcs(s Set, m decider.Mapping, adj []uint32, filter ArcFilter, visit ArcVisitor) (stopped bool) {
	var stop atomic.Bool
	a.ForFrontier(s, m, func(w int, u uint32, lo, hi int64) {
		if stop.Load() {
			return
		}
		for e := lo; e < hi; e++ {
			x := adj[e]
			if filter != nil && !filter(e, u, x) {
				continue
			}
			if !visit(w, e, u, x) {
				stop.Store(true)
				return
			}
		}
	})
	return stop.Load()
}

// QueueChunk returns the elements per chunk of thread mapping over a
// queue: at least Grains.Queue, and about Grains.QueueEdges out-edges at
// the graph's average degree.
func (a *Advance) QueueChunk() int { return a.grain }

// Convert turns a working set held as rep from into rep to: the queue q from
// the bitmap b, or b from q (nothing when they are equal).
func Convert(pool *mapping.Pool, from, to decider.Rep, q *workset.Queue, b *workset.Bitmap) {
	switch {
	case from == to:
	case to == decider.Queue:
		q.FromBitmap(pool, b)
	default:
		b.FromQueue(pool, q)
	}
}

// Count returns the size of a working set held as rep in q or b and, with
// degree, its summed out-degree over the offsets off (the inspector's
// counts; -1 without degree).
func Count(pool *mapping.Pool, rep decider.Rep, q *workset.Queue, b *workset.Bitmap, off []int64, degree bool) (int64, int64) {
	if rep == decider.Queue {
		return inspector.CountQueue(pool, q.Items(), off, degree)
	}
	return inspector.CountBitmap(pool, b.Words(), off, degree)
}
