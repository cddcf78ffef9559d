package apsp_test

import (
	"context"
	"fmt"

	"github.com/gearbox-graph/gearbox/algorithms/apsp"
	"github.com/gearbox-graph/gearbox/graph"
)

// Rows are streamed to a callback, so n^2 distances never need to be in
// memory at once; the slice is reused after the callback returns.
func ExampleRun() {
	g, err := graph.FromEdges([]uint64{0, 1, 2}, []uint64{1, 2, 3}, []float64{4, 1, 2}, graph.BuilderOptions{})
	if err != nil {
		panic(err)
	}
	_, err = apsp.Run(context.Background(), g, func(src uint32, dist []uint32) error {
		fmt.Print(src, ":")
		for _, d := range dist {
			if d == apsp.Unreachable {
				fmt.Print(" -")
			} else {
				fmt.Print(" ", d)
			}
		}
		fmt.Println()
		return nil
	})
	if err != nil {
		panic(err)
	}
	// Output:
	// 0: 0 4 5 7
	// 1: - 0 1 3
	// 2: - - 0 2
	// 3: - - - 0
}
