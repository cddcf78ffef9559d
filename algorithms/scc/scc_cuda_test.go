//go:build cuda

package scc_test

// GPU tests: every variant on the GPU labels the shared graph table, the
// directed generated graphs and the real datasets exactly as the CPU
// backend does (which equals Tarjan's). They skip when no CUDA driver or
// GPU is present.

import (
	"context"
	"errors"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/scc"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

func TestCUDAMatchesCPU(t *testing.T) {
	gpu := runtime.WithBackend(testgraphs.OpenCUDA(t))
	extra := []testgraphs.Case{
		{Name: "rmat18-directed", G: testgraphs.RMATDirected(18, 8, 5)},
		{Name: "random-directed-200k", G: testgraphs.Random(200000, 260000, false, 6)},
	}
	for _, c := range append(cases(t), extra...) {
		for _, v := range append(scc.Variants(), scc.Auto) {
			want, err := scc.Run(context.Background(), c.G, scc.WithVariant(v), runtime.WithWorkers(2))
			if err != nil {
				t.Fatalf("%s cpu %v: %v", c.Name, v, err)
			}
			got, err := scc.Run(context.Background(), c.G, scc.WithVariant(v), gpu)
			if err != nil {
				t.Fatalf("%s gpu %v: %v", c.Name, v, err)
			}
			testgraphs.CompareValues(t, c.Name+" "+v.String(), "label", c.G.NumVertices(),
				func(x uint32) (uint32, bool) { return want.Label(x), true },
				func(x uint32) (uint32, bool) { return got.Label(x), true })
			if got.Stats().GPU == nil || got.Stats().Backend == "cpu" {
				t.Fatalf("%s %v: no GPU times in %+v", c.Name, v, got.Stats())
			}
		}
		if err := scc.Verify(c.G, mustRun(t, c, gpu).Labels()); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
	}
}

func mustRun(t *testing.T, c testgraphs.Case, opts ...runtime.Option) *scc.Result {
	t.Helper()
	r, err := scc.Run(context.Background(), c.G, opts...)
	if err != nil {
		t.Fatalf("%s: %v", c.Name, err)
	}
	return r
}

// TestCUDACancel: a cancelled run on the GPU stops between phases and
// frees its device state (OpenCUDA's Close fails on a leak).
func TestCUDACancel(t *testing.T) {
	gpu := runtime.WithBackend(testgraphs.OpenCUDA(t))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := scc.Run(ctx, testgraphs.RMATDirected(12, 8, 3), gpu); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}
