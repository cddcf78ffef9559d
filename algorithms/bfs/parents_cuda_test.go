//go:build cuda

package bfs_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gearbox-graph/gearbox/algorithms/bfs"
	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// TestCUDAParents: WithParents on the GPU in every configuration (push and
// pull, persistent launches on and off), on the shared table, the
// generated graphs and the real datasets, directed and undirected: the
// tree equals the CPU's vertex for vertex (both take each vertex's first
// tight in-arc), every parent edge is tight and every path checks
// (checkTree), and the pass is counted.
func TestCUDAParents(t *testing.T) {
	ctx := context.Background()
	cfgs := gpuConfigs(testgraphs.OpenCUDA(t, gpu.WithFusedLevels(0)), testgraphs.OpenCUDA(t, gpu.WithFusedLevels(1024)))
	runs := 0
	for _, c := range testgraphs.Everything(t) {
		for _, src := range c.Sources {
			want, err := bfs.Run(ctx, c.G, src, runtime.WithWorkers(2), bfs.WithParents())
			if err != nil {
				t.Fatalf("%s: cpu: %v", c.Name, err)
			}
			for name, opts := range cfgs {
				label := fmt.Sprintf("%s/%s/src=%d", c.Name, name, src)
				got, err := bfs.Run(ctx, c.G, src, append(slices.Clone(opts), bfs.WithParents())...)
				if err != nil {
					t.Fatalf("%s: gpu: %v", label, err)
				}
				testgraphs.CompareValues(t, label, "depth", want.NumVertices(), want.Depth, got.Depth)
				testgraphs.CompareValues(t, label, "parent", want.NumVertices(), want.Parent, got.Parent)
				if err := checkTree(c.G, got); err != nil {
					t.Fatalf("%s: %v", label, err)
				}
				if _, ok := got.Stats().Counters["parent_pass_ns"]; !ok {
					t.Fatalf("%s: no parent_pass_ns counter", label)
				}
				runs++
			}
		}
	}
	t.Logf("%d GPU parent trees matched the CPU's", runs)
}

// BenchmarkCUDAParents: the parent pass's cost on the GPU, BFS with
// parents off and on (testgraphs.BenchParents; the target is at most 10%
// on kron:22 and the 2048x2048 grid).
func BenchmarkCUDAParents(b *testing.B) {
	cuda := testgraphs.OpenCUDA(b)
	testgraphs.BenchParents(b, []string{"kron:22", "grid:2048:2048"}, false, func(g *graph.Graph, src uint32, parents bool) (time.Duration, time.Duration, error) {
		opts := []runtime.Option{runtime.WithBackend(cuda)}
		if parents {
			opts = append(opts, bfs.WithParents())
		}
		r, err := bfs.Run(context.Background(), g, src, opts...)
		if err != nil {
			return 0, 0, err
		}
		defer r.Release()
		return r.Stats().Wall, time.Duration(r.Stats().Counters["parent_pass_ns"]), nil
	})
}
