package msf_test

import (
	"context"
	"fmt"

	"github.com/gearbox-graph/gearbox/algorithms/msf"
	"github.com/gearbox-graph/gearbox/graph"
)

// A square 0-1-2-3 with a diagonal 0-2, and an isolated vertex 4: the
// forest spans the square with its three lightest edges and leaves 4 alone.
func Example() {
	el := &graph.EdgeList{
		NumVertices: 5,
		Src:         []uint32{0, 1, 2, 3, 0},
		Dst:         []uint32{1, 2, 3, 0, 2},
		Weights:     []uint32{4, 1, 2, 3, 1},
		WeightKind:  graph.IntWeights,
	}
	g, err := graph.Build(el, graph.BuildOptions{Undirected: true})
	if err != nil {
		panic(err)
	}
	r, err := msf.Run(context.Background(), g)
	if err != nil {
		panic(err)
	}
	for _, e := range r.Edges() {
		fmt.Println(e.U, e.V, e.Weight)
	}
	fmt.Printf("forest weight %d, %d edges, %d components\n", r.TotalWeight(), len(r.Edges()), r.NumComponents())
	// Output:
	// 0 2 1
	// 1 2 1
	// 2 3 2
	// forest weight 4, 3 edges, 2 components
}
