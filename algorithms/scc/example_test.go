package scc_test

import (
	"context"
	"fmt"

	"github.com/gearbox-graph/gearbox/algorithms/scc"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
)

// A 3-cycle that feeds a 2-cycle, and a vertex on no cycle.
func Example() {
	g := testgraphs.MustBuild(6, false, [][2]uint32{{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 4}, {4, 3}, {5, 0}}, nil)
	r, err := scc.Run(context.Background(), g)
	if err != nil {
		panic(err)
	}
	fmt.Println(r.NumComponents(), "SCCs, largest", r.LargestSize())
	fmt.Println(r.Labels())
	// Output:
	// 3 SCCs, largest 3
	// [0 0 0 3 3 5]
}
