package apsp_test

import (
	"context"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/apsp"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
)

// BenchmarkSourcesUnweighted compares the sources method's batched BFS
// (64 sources per traversal) with one BFS per source, on an unweighted
// grid and on email-Eu-core (directed).
func BenchmarkSourcesUnweighted(b *testing.B) {
	graphs := []struct {
		name string
		g    *graph.Graph
	}{{"grid64x64", testgraphs.Grid(64, 64)}}
	if g := testgraphs.LoadDatasetMinimal(b, "email-Eu-core.txt", true); g != nil {
		graphs = append(graphs, struct {
			name string
			g    *graph.Graph
		}{"email-Eu-core", g})
	}
	for _, gc := range graphs {
		for _, mode := range []string{"auto", "batched", "one-by-one"} {
			opts := []apsp.Option{apsp.WithMethod(apsp.Sources)}
			switch mode {
			case "one-by-one":
				opts = append(opts, apsp.WithOneByOne())
			case "batched":
				opts = append(opts, apsp.WithBatched())
			}
			b.Run(gc.name+"/"+mode, func(b *testing.B) {
				var sum uint64
				for b.Loop() {
					if _, err := apsp.Run(context.Background(), gc.g, func(_ uint32, d []uint32) error {
						sum += uint64(d[0])
						return nil
					}, opts...); err != nil {
						b.Fatal(err)
					}
				}
				_ = sum
			})
		}
	}
}
