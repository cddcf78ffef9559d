package bfs

import (
	"fmt"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
)

// Spec describes BFS to gearbox's drivers (see algorithms.Spec and
// SearchSpec, which adds what BFS shares with SSSP).
var Spec = algorithms.SearchSpec(&algorithms.Spec{
	Name:     "bfs",
	Doc:      "breadth-first search: hop depths from a source",
	InArcs:   true,
	Variants: decider.ValidNames(),
	// Every decider key: BFS is the one traversal with a pull direction.
	Reads: []string{"T1", "T2", "T3", "sample_every", "alpha", "beta", "pull_min_edges", "bitmap_min_vertices", "jump_factor", "threads_per_block"},
	Reference: func(g *graph.Graph, src uint32) error {
		_, err := Reference(g, src)
		return err
	},
}, WithParents, Run, summary, Verify)

func init() { algorithms.Register(Spec) }

// summary is the registry's line about a run from src.
func summary(g *graph.Graph, src uint32, r *Result) string {
	return fmt.Sprintf("source %d: reached %d vertices, max depth %d", g.IDs().External(src), r.NumReached(), r.MaxDepth())
}
