//go:build cuda

package bfs_test

import (
	"testing"

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
// (kit.CheckTree), and the pass is counted.
func TestCUDAParents(t *testing.T) {
	cfgs := gpuConfigs(testgraphs.OpenCUDA(t, gpu.WithFusedLevels(0)), testgraphs.OpenCUDA(t, gpu.WithFusedLevels(1024)))
	same := func(c testgraphs.Case) *graph.Graph { return c.G }
	testgraphs.CompareWithCPU(t, testgraphs.Everything(t), same, cfgs, []runtime.Option{bfs.WithParents()}, bfs.Run,
		func(label string, g *graph.Graph, want, got *bfs.Result) {
			testgraphs.CompareValues(t, label, "depth", want.NumVertices(), want.Depth, got.Depth)
			testgraphs.CompareValues(t, label, "parent", want.NumVertices(), want.Parent, got.Parent)
			if err := kit.CheckTree(g, got); err != nil {
				t.Fatalf("%s: %v", label, err)
			}
			if _, ok := got.Stats().Counters["parent_pass_ns"]; !ok {
				t.Fatalf("%s: no parent_pass_ns counter", label)
			}
		})
}

// BenchmarkCUDAParents: the parent pass's cost on the GPU, BFS with
// parents off and on (testgraphs.BenchParents; the target is at most 10%
// on kron:22 and the 2048x2048 grid).
func BenchmarkCUDAParents(b *testing.B) {
	testgraphs.BenchParents(b, testgraphs.OpenCUDA(b), false, bfs.WithParents(), bfs.Run)
}
