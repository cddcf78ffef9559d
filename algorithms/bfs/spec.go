package bfs

import (
	"context"
	"fmt"
	"io"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// Spec describes BFS to gearbox's drivers (see algorithms.Spec).
var Spec = &algorithms.Spec{
	Name:     "bfs",
	Doc:      "breadth-first search: hop depths from a source",
	Sourced:  true,
	Parents:  WithParents,
	InArcs:   true,
	Variants: decider.ValidNames(),
	// Every decider key: BFS is the one traversal with a pull direction.
	Reads:   []string{"T1", "T2", "T3", "sample_every", "alpha", "beta", "pull_min_edges", "bitmap_min_vertices", "jump_factor", "threads_per_block"},
	Benched: true,
	Options: func(variant string, _ map[string]uint64) ([]runtime.Option, error) {
		return algorithms.VariantOptions(variant)
	},
	Run: func(ctx context.Context, g *graph.Graph, src uint32, opts ...runtime.Option) (*algorithms.Outcome, error) {
		r, err := Run(ctx, g, src, opts...)
		if err != nil {
			return nil, err
		}
		value := func(v uint32) (uint64, bool) {
			d, ok := r.Depth(v)
			return uint64(d), ok
		}
		return &algorithms.Outcome{Stats: r.Stats(), Result: r,
			Edges: func() int64 { return algorithms.ReachedArcs(g, value) },
			Summary: func() string {
				return fmt.Sprintf("source %d: reached %d vertices, max depth %d", g.IDs().External(src), r.NumReached(), r.MaxDepth())
			},
			Verify: func() error { return Verify(g, r) },
			Write: func(w io.Writer) error {
				if r.HasParents() {
					return algorithms.WriteValuesParents(w, g, value, r.Parent)
				}
				return algorithms.WriteValues(w, g, value)
			},
			Release: r.Release,
			Path:    r.Path,
		}, nil
	},
	Reference: func(g *graph.Graph, src uint32) error {
		_, err := Reference(g, src)
		return err
	},
}

func init() { algorithms.Register(Spec) }
