package algorithms_test

import (
	"context"
	"fmt"

	"github.com/gearbox-graph/gearbox/algorithms"
	_ "github.com/gearbox-graph/gearbox/algorithms/all"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// A driver runs every registered algorithm the same way: its Options,
// Run and the Outcome's Summary and Verify (WithTarget gives a Targeted
// one, stcon, its target; the others ignore it).
func Example() {
	g := testgraphs.Grid(4, 4)
	for _, s := range algorithms.All() {
		in := g
		if s.Weighted {
			in = g.WithDerivedWeights(1)
		}
		opts, err := s.Options("auto", nil)
		if err != nil {
			panic(err)
		}
		out, err := s.Run(context.Background(), in, 0, append(opts, runtime.WithWorkers(1), algorithms.WithTarget(15))...)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: verified %v\n", s.Name, out.Verify() == nil)
		out.Release()
	}
	// Output:
	// apsp: verified true
	// bfs: verified true
	// cc: verified true
	// forest: verified true
	// maxflow: verified true
	// mst: verified true
	// scc: verified true
	// sssp: verified true
	// stcon: verified true
}
