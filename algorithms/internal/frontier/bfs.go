package frontier

import (
	"errors"
	"fmt"
	"math"
	"sync/atomic"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/mapping"
	"github.com/gearbox-graph/gearbox/workset"
)

// Unreached is the level of a vertex a BFS did not reach.
const Unreached = math.MaxUint32

// ErrBadInput is wrapped by the errors of BFS for arguments that do not
// fit the graph.
var ErrBadInput = errors.New("frontier: bad input")

// Direction is the arcs a BFS follows from a vertex.
type Direction uint8

const (
	// Out follows out-arcs: u reaches x over the arc u->x.
	Out Direction = iota
	// In follows in-arcs, backwards: u reaches x over the arc x->u (max-flow's
	// global relabel: the distances to the sink).
	In
)

// Traversal is what one BFS follows and when it stops.
type Traversal struct {
	// Dir is the arcs followed (Out by default).
	Dir Direction
	// Filter reports whether the BFS follows the arc at CSR position arc
	// of the graph (the same positions for Out and In: an arc-indexed
	// array of the graph, such as residual capacities, is valid for
	// both), from u, a vertex of the current level, to x; nil follows
	// every arc. Under In the arc is x->u.
	Filter ArcFilter
	// Until, where set, is asked about each vertex as it is reached, with
	// its level; once it returns true the BFS finishes that level and
	// stops (so every level it returns is exact, whatever the worker
	// count).
	Until func(v, level uint32) bool
	// Filter and Until are called concurrently from the pool's workers.
	//
	// Mapping is the advance's mapping (decider.Thread by default; Block
	// shares hubs' arcs among workers).
	Mapping decider.Mapping
}

// BFSResult is what a BFS ran.
type BFSResult struct {
	// Levels is the number of levels with vertices (0: no source).
	Levels int
	// Reached is the number of vertices with a level.
	Reached int64
	// Stopped reports that Until ended the BFS.
	Stopped bool
}

// BFS is a level-synchronous BFS over the kit, for operators that need one
// as a sub-step; it keeps its buffers (and the graph's in-arc index, built
// on first use of In) between traversals. It is not safe for concurrent
// use.
type BFS struct {
	pool      *mapping.Pool
	n         int
	off       []int64
	adj       []uint32
	out, in   *Advance
	inSrc     []uint32 // In: the tail of each in-arc
	inArc     []int64  // In: each in-arc's position in the graph's CSR
	cur, next *workset.Queue
	bufs      []workset.Buffer
}

// NewBFS returns a BFS over g on pool's workers.
func NewBFS(pool *mapping.Pool, g *graph.Graph) *BFS {
	return NewCSRBFS(pool, g.Offsets(), g.Adj())
}

// NewCSRBFS returns a BFS over the CSR arrays off (n+1 offsets) and heads
// (each arc's head), on pool's workers: for arc arrays that are not a
// graph.Graph, such as a residual graph's (graph.Residual: Off, Head),
// whose arc lists need not be sorted.
func NewCSRBFS(pool *mapping.Pool, off []int64, heads []uint32) *BFS {
	n := len(off) - 1
	return &BFS{pool: pool, n: n, off: off, adj: heads, out: New(pool, off, DefaultGrains),
		cur: workset.NewQueue(n), next: workset.NewQueue(n), bufs: make([]workset.Buffer, pool.Workers())}
}

// BFSLevels runs one BFS over g from sources (see BFS.Run), following
// out-arcs or, with in set, in-arcs, and only the arcs filter accepts.
func BFSLevels(pool *mapping.Pool, g *graph.Graph, sources []uint32, filter ArcFilter, in bool, levels []uint32) (BFSResult, error) {
	t := Traversal{Filter: filter}
	if in {
		t.Dir = In
	}
	return NewBFS(pool, g).Run(sources, t, levels)
}

// Run sets levels[v] to the number of arcs on a shortest path from a
// source to v along t's arcs (Unreached where there is none) and returns
// what it ran. levels must hold one value per vertex.
func (b *BFS) Run(sources []uint32, t Traversal, levels []uint32) (BFSResult, error) {
	n := b.n
	if len(levels) != n {
		return BFSResult{}, fmt.Errorf("%w: %d levels for a graph of %d vertices", ErrBadInput, len(levels), n)
	}
	for _, s := range sources {
		if int64(s) >= int64(n) {
			return BFSResult{}, fmt.Errorf("%w: source %d of a graph of %d vertices", ErrBadInput, s, n)
		}
	}
	b.pool.Thread(n, 1<<14, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			levels[i] = Unreached
		}
	})
	adv, heads, arcs := b.out, b.adj, []int64(nil)
	if t.Dir == In {
		b.buildIn()
		adv, heads, arcs = b.in, b.inSrc, b.inArc
	}
	var res BFSResult
	var stop atomic.Bool
	b.cur.Reset()
	for _, s := range sources {
		if levels[s] == Unreached {
			levels[s] = 0
			b.cur.Push(s)
			if t.Until != nil && t.Until(s, 0) {
				stop.Store(true)
			}
		}
	}
	filter, until := t.Filter, t.Until
	for level := uint32(0); b.cur.Len() > 0; level++ {
		res.Levels++
		res.Reached += int64(b.cur.Len())
		if stop.Load() {
			res.Stopped = true
			break
		}
		nl := level + 1
		adv.ForFrontier(QueueSet(b.cur.Items(), -1), t.Mapping, func(w int, u uint32, lo, hi int64) {
			for p := lo; p < hi; p++ {
				x, arc := heads[p], p
				if arcs != nil {
					arc = arcs[p]
				}
				if atomic.LoadUint32(&levels[x]) != Unreached || filter != nil && !filter(arc, u, x) {
					continue
				}
				if atomic.CompareAndSwapUint32(&levels[x], Unreached, nl) {
					b.bufs[w].Add(b.next, x)
					if until != nil && until(x, nl) {
						stop.Store(true)
					}
				}
			}
		})
		for i := range b.bufs {
			b.bufs[i].Flush(b.next)
		}
		b.cur.Swap(b.next)
		b.next.Reset()
	}
	return res, nil
}

// buildIn builds the in-arc index on first use: for each vertex its
// in-arcs' tails and positions in the graph's CSR, in CSR order (a
// counting sort by head; sequential, once per BFS).
func (b *BFS) buildIn() {
	if b.in != nil {
		return
	}
	off, adj := b.off, b.adj
	n := b.n
	inOff := make([]int64, n+1)
	for _, x := range adj {
		inOff[x+1]++
	}
	for v := range n {
		inOff[v+1] += inOff[v]
	}
	fill := make([]int64, n)
	copy(fill, inOff[:n])
	b.inSrc = make([]uint32, len(adj))
	b.inArc = make([]int64, len(adj))
	for u := range n {
		for p := off[u]; p < off[u+1]; p++ {
			x := adj[p]
			q := fill[x]
			fill[x]++
			b.inSrc[q], b.inArc[q] = uint32(u), p
		}
	}
	b.in = New(b.pool, inOff, DefaultGrains)
}
