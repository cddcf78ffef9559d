package bfs_test

import (
	"context"
	"fmt"

	"github.com/gearbox-graph/gearbox/algorithms/bfs"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// A path 0-1-2-3 plus an isolated vertex 4, searched with the adaptive
// policy.
func ExampleRun() {
	el := &graph.EdgeList{NumVertices: 5, Src: []uint32{0, 1, 2}, Dst: []uint32{1, 2, 3}}
	g, err := graph.Build(el, graph.BuildOptions{Undirected: true})
	if err != nil {
		panic(err)
	}
	res, err := bfs.Run(context.Background(), g, 0)
	if err != nil {
		panic(err)
	}
	for v := uint32(0); v < 5; v++ {
		if d, ok := res.Depth(v); ok {
			fmt.Printf("vertex %d: depth %d\n", v, d)
		} else {
			fmt.Printf("vertex %d: unreachable\n", v)
		}
	}
	// Output:
	// vertex 0: depth 0
	// vertex 1: depth 1
	// vertex 2: depth 2
	// vertex 3: depth 3
	// vertex 4: unreachable
}

// Forcing one variant by name.
func ExampleRun_static() {
	el := &graph.EdgeList{NumVertices: 4, Src: []uint32{0, 0, 1}, Dst: []uint32{1, 2, 3}}
	g, _ := graph.Build(el, graph.BuildOptions{}) // directed
	v, err := decider.ParseVariant("U_B_QU")
	if err != nil {
		panic(err)
	}
	res, err := bfs.Run(context.Background(), g, 0, runtime.WithVariant(v))
	if err != nil {
		panic(err)
	}
	d, _ := res.Depth(3)
	fmt.Println("depth of 3:", d, "reached:", res.NumReached(), "iterations:", res.Stats().Iterations)
	_, err = decider.ParseVariant("O_X_QU")
	fmt.Println(err)
	// Output:
	// depth of 3: 2 reached: 4 iterations: 3
	// unknown variant "O_X_QU": valid names are O_T_BM, O_T_QU, O_B_BM, O_B_QU, U_T_BM, U_T_QU, U_B_BM, U_B_QU, pull
}

// Many sources: release each result when done with it, so that the next
// run's result reuses its memory.
func ExampleResult_Release() {
	el := &graph.EdgeList{NumVertices: 5, Src: []uint32{0, 1, 2}, Dst: []uint32{1, 2, 3}}
	g, err := graph.Build(el, graph.BuildOptions{Undirected: true})
	if err != nil {
		panic(err)
	}
	for _, src := range []uint32{0, 3, 4} {
		res, err := bfs.Run(context.Background(), g, src)
		if err != nil {
			panic(err)
		}
		fmt.Printf("from %d: %d reached, max depth %d\n", src, res.NumReached(), res.MaxDepth())
		res.Release() // res must not be used after this
	}
	// Output:
	// from 0: 4 reached, max depth 3
	// from 3: 4 reached, max depth 3
	// from 4: 1 reached, max depth 0
}
