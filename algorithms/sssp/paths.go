package sssp

import (
	"fmt"

	"github.com/gearbox-graph/gearbox/algorithms/internal/frontier"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// WithParents makes a run record a parent per reached vertex (a
// shortest-path tree: Result.Parent, Path, PathIDs). Runs without it pay
// nothing. On the CPU backend the tree is built after the run, whatever
// variants ran, by a BFS from the sources over tight arcs (dist[u] +
// w(u,v) == dist[v]), which stays a tree where zero-weight arcs make tight
// cycles; the GPU backend refuses it for now (runtime.ErrUnsupported).
func WithParents() runtime.Option { return runtime.WithValue(parentsKey{}, true) }

type parentsKey struct{}

func parentsSet(cfg *runtime.Config) bool {
	v, _ := cfg.Value(parentsKey{})
	b, _ := v.(bool)
	return b
}

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
	wt := g.Weights()
	parent := make([]uint32, n)
	levels := make([]uint32, n)
	tight := func(arc int64, u, x uint32) bool { return uint64(dist[u])+uint64(wt[arc]) == uint64(dist[x]) }
	if err := frontier.ParentsByTightArcs(pool, g, srcs, tight, parent, levels); err != nil {
		return nil, fmt.Errorf("sssp: parents: %w", err)
	}
	return parent, nil
}

// HasParents reports whether the run recorded parents (WithParents).
func (r *Result) HasParents() bool {
	r.live()
	return r.parent != nil
}

// Parent returns v's parent in the shortest-path tree: a vertex u with an
// arc u->v of Distance(u) + w(u,v) == Distance(v). false for a source,
// an unreached vertex, a vertex outside the graph, and a run without
// WithParents.
func (r *Result) Parent(v uint32) (uint32, bool) {
	r.live()
	if int64(v) >= int64(len(r.parent)) || r.parent[v] == frontier.NoParent {
		return 0, false
	}
	return r.parent[v], true
}

// Path returns a shortest path from a source to t as internal vertex ids,
// the source first and t last (its weights sum to Distance(t)), and false
// when t was not reached or the run did not record parents (WithParents).
func (r *Result) Path(t uint32) ([]uint32, bool) {
	r.live()
	if r.parent == nil || !r.Reached(t) {
		return nil, false
	}
	return frontier.Path(r.parent, t)
}

// PathIDs is Path in the graph file's vertex ids.
func (r *Result) PathIDs(t uint32) ([]uint64, bool) {
	p, ok := r.Path(t)
	if !ok {
		return nil, false
	}
	out := make([]uint64, len(p))
	for i, v := range p {
		out[i] = r.ids.External(v)
	}
	return out, true
}
