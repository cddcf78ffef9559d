package sssp

import (
	"fmt"
	"sync/atomic"

	"github.com/gearbox-graph/gearbox/algorithms/internal/frontier"
	"github.com/gearbox-graph/gearbox/algorithms/internal/search"
	"github.com/gearbox-graph/gearbox/graph"
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
	// Each reached vertex takes its first tight in-arc of positive weight:
	// distances fall strictly along such arcs, so the parents form a tree,
	// found by a scan without atomics and without a pass over the weights
	// first. A vertex at distance 0 other than a source, or one whose tight
	// in-arcs all weigh 0, sends the tree to the BFS below.
	in := g.Transpose()
	ioff, iadj, iwt := in.Offsets(), in.Adj(), in.Weights()
	var zeroDist atomic.Int64
	var stuck atomic.Bool
	pool.Thread(n, 1<<12, func(_, lo, hi int) {
		var z int64
		for v := lo; v < hi; v++ {
			p := uint32(frontier.NoParent)
			if dv := uint64(dist[v]); dist[v] != ^D(0) {
				if dv == 0 {
					z++
				} else {
					for e := ioff[v]; e < ioff[v+1]; e++ {
						u := iadj[e]
						if dist[u] != ^D(0) && iwt[e] > 0 && uint64(dist[u])+uint64(iwt[e]) == dv {
							p = u
							break
						}
					}
					if p == frontier.NoParent {
						stuck.Store(true)
					}
				}
			}
			parent[v] = p
		}
		zeroDist.Add(z)
	})
	if !stuck.Load() && zeroDist.Load() == int64(distinct(srcs)) {
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

// distinct returns the number of distinct vertices of s.
func distinct(s []uint32) int {
	seen := make(map[uint32]struct{}, len(s))
	for _, v := range s {
		seen[v] = struct{}{}
	}
	return len(seen)
}
