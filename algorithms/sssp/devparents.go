package sssp

import (
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// hostTree builds, on the host, the parent tree of a run on a backend whose
// operator built none (the GPU's, where a zero weight could make its scan's
// tight arcs cycle): the CPU's BFS over tight arcs from the distances the
// run returned.
func (r *Result) hostTree(g *graph.Graph) ([]uint32, error) {
	dist := make([]uint64, r.NumVertices())
	for v := range dist {
		dist[v] = ^uint64(0)
	}
	for v, d := range r.Values() {
		dist[v] = d
	}
	return tightTree(runtime.NewCPU(0), g, r.Sources(), dist)
}
