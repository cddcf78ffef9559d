//go:build cuda

package sssp_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gearbox-graph/gearbox/algorithms/sssp"
	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// TestCUDAParents: WithParents on the GPU in every configuration
// (persistent launches on and off, 32- and 64-bit distances as the
// weights give), on the shared table, the generated graphs and the real
// datasets, directed and undirected: on positive weights the tree equals
// the CPU's vertex for vertex (both take each vertex's first tight
// in-arc); with zero weights it is a shortest-path tree built on the host.
// Every parent edge is tight and every path checks (checkTree).
func TestCUDAParents(t *testing.T) {
	ctx := context.Background()
	cfgs := gpuConfigs(testgraphs.OpenCUDA(t), testgraphs.OpenCUDA(t, gpu.WithFusedLevels(0)))
	zero := testgraphs.MustBuild(5, false, [][2]uint32{{0, 1}, {1, 2}, {2, 1}, {2, 3}, {3, 1}, {3, 4}}, []uint32{5, 0, 0, 0, 0, 2})
	cases := append(testgraphs.Everything(t), testgraphs.Case{Name: "zero-weight-cycles", G: zero, Sources: []uint32{0, 4}})
	runs := 0
	for _, c := range cases {
		g := c.Weighted()
		for _, src := range c.Sources {
			want, err := sssp.Run(ctx, g, src, runtime.WithWorkers(2), sssp.WithParents())
			if err != nil {
				t.Fatalf("%s: cpu: %v", c.Name, err)
			}
			for name, opts := range cfgs {
				label := fmt.Sprintf("%s/%s/src=%d", c.Name, name, src)
				got, err := sssp.Run(ctx, g, src, append(slices.Clone(opts), sssp.WithParents())...)
				if err != nil {
					t.Fatalf("%s: gpu: %v", label, err)
				}
				testgraphs.CompareValues(t, label, "distance", want.NumVertices(), want.Distance, got.Distance)
				if g.MinWeight() > 0 {
					testgraphs.CompareValues(t, label, "parent", want.NumVertices(), want.Parent, got.Parent)
				}
				if err := checkTree(g, got); err != nil {
					t.Fatalf("%s: %v", label, err)
				}
				runs++
			}
		}
	}
	t.Logf("%d GPU shortest-path trees checked", runs)
}

// BenchmarkCUDAParents: the parent pass's cost on the GPU, SSSP with
// parents off and on, derived weights (testgraphs.BenchParents; the
// target is at most 10% on kron:22 and the 2048x2048 grid).
func BenchmarkCUDAParents(b *testing.B) {
	cuda := testgraphs.OpenCUDA(b)
	testgraphs.BenchParents(b, []string{"kron:22", "grid:2048:2048"}, true, func(g *graph.Graph, src uint32, parents bool) (time.Duration, time.Duration, error) {
		opts := []runtime.Option{runtime.WithBackend(cuda)}
		if parents {
			opts = append(opts, sssp.WithParents())
		}
		r, err := sssp.Run(context.Background(), g, src, opts...)
		if err != nil {
			return 0, 0, err
		}
		defer r.Release()
		return r.Stats().Wall, time.Duration(r.Stats().Counters["parent_pass_ns"]), nil
	})
}
