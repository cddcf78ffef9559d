package sssp

import (
	"fmt"
	"sync/atomic"

	"github.com/gearbox-graph/gearbox/algorithms/internal/frontier"
	"github.com/gearbox-graph/gearbox/algorithms/internal/search"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/mapping"
	"github.com/gearbox-graph/gearbox/runtime"
)

// WithParents makes a run record a parent per reached vertex (a
// shortest-path tree: Result.Parent, a vertex u with an arc u->v of
// Distance(u) + w(u,v) == Distance(v); Path, whose weights sum to
// Distance(t); PathIDs). Runs without it pay nothing. On the CPU backend the tree is built after the run, whatever
// variants ran: each reached vertex takes an in-neighbour over a tight arc
// (dist[u] + w(u,v) == dist[v]), or, where zero-weight arcs could make
// tight cycles, a BFS from the sources over tight arcs picks them; the GPU
// backend refuses it for now (runtime.ErrUnsupported).
func WithParents() runtime.Option { return search.WithParents() }

// parentsOf builds the shortest-path tree of a finished CPU run.
func parentsOf(cpu *runtime.CPU, g *graph.Graph, srcs []uint32, op operator) ([]uint32, error) {
	switch o := op.(type) {
	case *cpuOp[uint32]:
		return tightTree(cpu, g, srcs, o.dist)
	case *cpuOp[uint64]:
		return tightTree(cpu, g, srcs, o.dist)
	}
	return nil, fmt.Errorf("sssp: parents of a %T: %w", op, runtime.ErrUnsupported)
}

func tightTree[D distance](cpu *runtime.CPU, g *graph.Graph, srcs []uint32, dist []D) ([]uint32, error) {
	pool := cpu.NewPool()
	defer pool.Release()
	n := g.NumVertices()
	parent := make([]uint32, n)
	if positiveWeights(pool, g) {
		// Distances fall strictly along tight arcs: any tight in-arc of
		// each vertex makes a tree, found by a scan without atomics.
		in := g.Transpose()
		ioff, iadj, iwt := in.Offsets(), in.Adj(), in.Weights()
		pool.Thread(n, 1<<12, func(_, lo, hi int) {
			for v := lo; v < hi; v++ {
				p := uint32(frontier.NoParent)
				if dv := uint64(dist[v]); dist[v] != ^D(0) && dv > 0 {
					for e := ioff[v]; e < ioff[v+1]; e++ {
						u := iadj[e]
						if dist[u] != ^D(0) && uint64(dist[u])+uint64(iwt[e]) == dv {
							p = u
							break
						}
					}
				}
				parent[v] = p
			}
		})
		return parent, nil
	}
	// Zero-weight arcs can make tight cycles: a BFS over tight arcs from
	// the sources gives a tree whatever they are.
	wt := g.Weights()
	levels := make([]uint32, n)
	tight := func(arc int64, u, x uint32) bool { return uint64(dist[u])+uint64(wt[arc]) == uint64(dist[x]) }
	if err := frontier.ParentsByTightArcs(pool, g, srcs, tight, parent, levels); err != nil {
		return nil, fmt.Errorf("sssp: parents: %w", err)
	}
	return parent, nil
}

// positiveWeights reports whether every arc weight of g is above 0.
func positiveWeights(pool *mapping.Pool, g *graph.Graph) bool {
	wt := g.Weights()
	var zero atomic.Bool
	pool.Thread(len(wt), 1<<16, func(_, lo, hi int) {
		if zero.Load() {
			return
		}
		for _, w := range wt[lo:hi] {
			if w == 0 {
				zero.Store(true)
				return
			}
		}
	})
	return !zero.Load()
}
