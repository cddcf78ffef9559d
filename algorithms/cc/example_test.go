package cc_test

import (
	"context"
	"fmt"

	"github.com/gearbox-graph/gearbox/algorithms/cc"
	"github.com/gearbox-graph/gearbox/graph"
)

// Two triangles joined by nothing, plus an isolated vertex.
func exampleGraph() *graph.Graph {
	el := &graph.EdgeList{
		NumVertices: 7,
		Src:         []uint32{0, 1, 2, 3, 4, 5},
		Dst:         []uint32{1, 2, 0, 4, 5, 3},
	}
	g, err := graph.Build(el, graph.BuildOptions{Undirected: true})
	if err != nil {
		panic(err)
	}
	return g
}

func ExampleRun() {
	g := exampleGraph()
	res, err := cc.Run(context.Background(), g)
	if err != nil {
		panic(err)
	}
	fmt.Println("components:", res.NumComponents(), "largest:", res.LargestSize())
	for v := uint32(0); v < uint32(g.NumVertices()); v++ {
		fmt.Print(res.Label(v), " ")
	}
	fmt.Println()
	// Output:
	// components: 3 largest: 3
	// 0 0 0 3 3 3 6
}

func ExampleRun_variant() {
	g := exampleGraph()
	for _, v := range cc.Variants() {
		res, err := cc.Run(context.Background(), g, cc.WithVariant(v))
		if err != nil {
			panic(err)
		}
		fmt.Println(res.Variant(), res.Labels())
	}
	// Output:
	// sv [0 0 0 3 3 3 6]
	// afforest [0 0 0 3 3 3 6]
	// unionfind [0 0 0 3 3 3 6]
}

func ExampleForest() {
	g := exampleGraph()
	f, err := cc.Forest(context.Background(), g, cc.WithVariant(cc.SV))
	if err != nil {
		panic(err)
	}
	fmt.Println("forest edges:", len(f.Edges()), "= n - c =", g.NumVertices()-f.NumComponents())
	fmt.Println("valid:", cc.VerifyForest(g, f.Labels(), f.Edges()) == nil)
	// Output:
	// forest edges: 4 = n - c = 4
	// valid: true
}
