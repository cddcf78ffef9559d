package sssp_test

import (
	"context"
	"fmt"

	"github.com/gearbox-graph/gearbox/algorithms/sssp"
	"github.com/gearbox-graph/gearbox/graph"
)

// A weighted triangle 0-1 (4), 1-2 (1), 0-2 (1) and an isolated vertex 3:
// the shortest way to 1 goes through 2.
func ExampleRun() {
	el := &graph.EdgeList{
		NumVertices: 4,
		Src:         []uint32{0, 1, 0},
		Dst:         []uint32{1, 2, 2},
		Weights:     []uint32{4, 1, 1},
		WeightKind:  graph.IntWeights,
	}
	g, err := graph.Build(el, graph.BuildOptions{Undirected: true})
	if err != nil {
		panic(err)
	}
	res, err := sssp.Run(context.Background(), g, 0, sssp.WithDelta(1))
	if err != nil {
		panic(err)
	}
	for v := uint32(0); v < 4; v++ {
		if d, ok := res.Distance(v); ok {
			fmt.Printf("vertex %d: distance %d\n", v, d)
		} else {
			fmt.Printf("vertex %d: unreachable\n", v)
		}
	}
	// Output:
	// vertex 0: distance 0
	// vertex 1: distance 2
	// vertex 2: distance 1
	// vertex 3: unreachable
}

// Unweighted graphs are refused with a hint.
func ExampleRun_unweighted() {
	el := &graph.EdgeList{NumVertices: 2, Src: []uint32{0}, Dst: []uint32{1}}
	g, _ := graph.Build(el, graph.BuildOptions{Undirected: true})
	_, err := sssp.Run(context.Background(), g, 0)
	fmt.Println(err)
	res, _ := sssp.Run(context.Background(), g.WithDerivedWeights(1), 0)
	fmt.Println(res.Reached(1))
	// Output:
	// sssp: graph is unweighted: give it integer weights, e.g. g.WithDerivedWeights(seed) (weights 1..255 hashed from the endpoints)
	// true
}
