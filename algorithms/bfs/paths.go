package bfs

import (
	"github.com/gearbox-graph/gearbox/algorithms/internal/frontier"
	"github.com/gearbox-graph/gearbox/algorithms/internal/search"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// WithParents makes a run record a parent per reached vertex (a BFS tree:
// Result.Parent, a vertex one level closer to the sources with an arc to
// the vertex; Path, of Depth(t) arcs; PathIDs). Runs without it pay
// nothing. On the CPU backend the tree is built after the traversal,
// whatever variants ran (pull included), by a pass in which every reached
// vertex takes an in-neighbour one level closer; the GPU backend refuses
// it for now (runtime.ErrUnsupported).
func WithParents() runtime.Option { return search.WithParents() }

// parentsOf builds the parent tree of exact BFS depths on the CPU.
func parentsOf(cpu *runtime.CPU, g *graph.Graph, depth []uint32) []uint32 {
	pool := cpu.NewPool()
	defer pool.Release()
	parent := make([]uint32, len(depth))
	frontier.ParentsByLevel(pool, g.Transpose(), depth, parent)
	return parent
}
