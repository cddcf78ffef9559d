package bfs

import (
	"time"

	"github.com/gearbox-graph/gearbox/algorithms/internal/frontier"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// WithParents makes a run record a parent per reached vertex (a BFS tree:
// Result.Parent, Path, PathIDs). Runs without it pay nothing. On the CPU
// backend the tree is built after the traversal, whatever variants ran
// (pull included), by a pass in which every reached vertex takes an
// in-neighbour one level closer; the GPU backend runs the same pass as a
// kernel (the first such in-arc of each vertex on both, so both give the
// same tree) and copies the tree back with the depths.
func WithParents() runtime.Option { return runtime.WithValue(parentsKey{}, true) }

type parentsKey struct{}

// addParentPass counts the parent pass in the run's time (Stats.Wall) and
// alone as the counter parent_pass_ns.
func addParentPass(st *runtime.Stats, d time.Duration) {
	st.Wall += d
	if st.Counters == nil {
		st.Counters = map[string]int64{}
	}
	st.Counters["parent_pass_ns"] += d.Nanoseconds()
}

func parentsSet(cfg *runtime.Config) bool {
	v, _ := cfg.Value(parentsKey{})
	b, _ := v.(bool)
	return b
}

// parentsOf builds the parent tree of exact BFS depths on the CPU.
func parentsOf(cpu *runtime.CPU, g *graph.Graph, depth []uint32) []uint32 {
	pool := cpu.NewPool()
	defer pool.Release()
	parent := make([]uint32, len(depth))
	frontier.ParentsByLevel(pool, g.Transpose(), depth, parent)
	return parent
}

// HasParents reports whether the run recorded parents (WithParents).
func (r *Result) HasParents() bool {
	r.live()
	return r.parent != nil
}

// Parent returns v's parent in the BFS tree: a vertex one level closer to
// the sources with an arc to v. false for a source, an unreached vertex, a
// vertex outside the graph, and a run without WithParents.
func (r *Result) Parent(v uint32) (uint32, bool) {
	r.live()
	return frontier.ParentOf(r.parent, v)
}

// Path returns a shortest path from a source to t as internal vertex ids,
// the source first and t last (Depth(t) arcs), and false when t was not
// reached or the run did not record parents (WithParents).
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
	return frontier.PathIDs(p, r.ids), true
}
