package sssp

import (
	"fmt"
	"time"

	"github.com/gearbox-graph/gearbox/algorithms/internal/frontier"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// deviceParents records the tree of a run on a backend other than the CPU:
// the one its operator built (frontier.DeviceParents; the GPU's, on
// positive weights, by the CPU's scan rule), inside the run's time; else,
// where zero weights could make the scan's tight arcs cycle, the CPU's BFS
// over tight arcs, from the distances the run returned.
func (r *Result) deviceParents(g *graph.Graph, op operator) error {
	dp, ok := op.(frontier.DeviceParents)
	if !ok {
		return fmt.Errorf("sssp: parents (WithParents) on this backend: %w", runtime.ErrUnsupported)
	}
	if tree, d := dp.Parents(); tree != nil {
		r.parent = tree
		addParentPass(&r.stats, d)
		r.stats.Wall -= d
		return nil
	}
	t0 := time.Now()
	dist := make([]uint64, r.dist.Len())
	for v := range dist {
		dist[v] = ^uint64(0)
	}
	for v, d := range r.dist.All() {
		dist[v] = d
	}
	var err error
	if r.parent, err = tightTree(runtime.NewCPU(0), g, r.Sources(), dist); err != nil {
		return err
	}
	addParentPass(&r.stats, time.Since(t0))
	return nil
}
