//go:build cuda

package sssp_test

import (
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/sssp"
	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// TestCUDAParents: WithParents on the GPU in every configuration
// (persistent launches on and off, 32- and 64-bit distances as the
// weights give), on the shared table, the generated graphs, the real
// datasets (directed and undirected) and zero-weight cycles: on positive
// weights the tree equals the CPU's vertex for vertex (both take each
// vertex's first tight in-arc); with zero weights it is built on the host.
// Every parent edge is tight and every path checks (checkTree).
func TestCUDAParents(t *testing.T) {
	cfgs := gpuConfigs(testgraphs.OpenCUDA(t), testgraphs.OpenCUDA(t, gpu.WithFusedLevels(0)))
	zero := testgraphs.MustBuild(5, false, [][2]uint32{{0, 1}, {1, 2}, {2, 1}, {2, 3}, {3, 1}, {3, 4}}, []uint32{5, 0, 0, 0, 0, 2})
	cases := append(testgraphs.Everything(t), testgraphs.Case{Name: "zero-weight-cycles", G: zero, Sources: []uint32{0, 4}})
	testgraphs.CompareWithCPU(t, cases, testgraphs.Case.Weighted, cfgs, []runtime.Option{sssp.WithParents()}, sssp.Run,
		func(label string, g *graph.Graph, want, got *sssp.Result) {
			testgraphs.CompareValues(t, label, "distance", want.NumVertices(), want.Distance, got.Distance)
			if g.MinWeight() > 0 {
				testgraphs.CompareValues(t, label, "parent", want.NumVertices(), want.Parent, got.Parent)
			}
			if err := kit.CheckTree(g, got); err != nil {
				t.Fatalf("%s: %v", label, err)
			}
		})
}

// BenchmarkCUDAParents: the parent pass's cost on the GPU, SSSP with
// parents off and on, derived weights (testgraphs.BenchParents; the
// target is at most 10% on kron:22 and the 2048x2048 grid).
func BenchmarkCUDAParents(b *testing.B) {
	testgraphs.BenchParents(b, testgraphs.OpenCUDA(b), true, sssp.WithParents(), sssp.Run)
}
