package stcon_test

import (
	"context"
	"fmt"

	"github.com/gearbox-graph/gearbox/algorithms/stcon"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
)

// One query on a 4x4 grid: corner to corner.
func Example() {
	g := testgraphs.Grid(4, 4)
	r, err := stcon.Run(context.Background(), g, 0, 15)
	if err != nil {
		panic(err)
	}
	h, ok := r.Hops()
	p, _ := r.Path()
	fmt.Println(ok, h, len(p), p[0], p[len(p)-1])
	// Output: true 6 7 0 15
}
