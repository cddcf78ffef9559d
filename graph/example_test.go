package graph_test

import (
	"fmt"

	"github.com/gearbox-graph/gearbox/graph"
)

// Generators take the CLI's --gen specs.
func ExampleGenerate() {
	g, err := graph.Generate("grid:4:3", graph.GenOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(g.NumVertices(), "vertices,", g.NumUndirectedEdges(), "edges")
	// Output:
	// 12 vertices, 17 edges
}
