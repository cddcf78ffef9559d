//go:build cuda

package msf

// GPU tests: every variant under every working-set choice on the GPU,
// forest compared edge for edge with the serial Kruskal (which the CPU
// variants equal). They skip when no CUDA driver or GPU is present. Real
// graphs come from $GEARBOX_DATASETS or ../shared/datasets (skipped when
// absent).

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// gpuConfigs are the working-set settings on the GPU: the policy, each
// representation and mapping, and a switch every round (both conversions,
// in the light phase too).
func gpuConfigs(c *gpu.CUDA) map[string][]runtime.Option {
	b := runtime.WithBackend(c)
	return map[string][]runtime.Option{
		"gpu/auto":      {b},
		"gpu/BM-thread": {b, runtime.WithVariant(decider.Variant{Mapping: decider.Thread, Rep: decider.Bitmap})},
		"gpu/BM-block":  {b, runtime.WithVariant(decider.Variant{Mapping: decider.Block, Rep: decider.Bitmap})},
		"gpu/QU":        {b, runtime.WithVariant(decider.Variant{Mapping: decider.Block, Rep: decider.Queue})},
		"gpu/cycle": {b, runtime.WithPolicy(testgraphs.Cycle(
			decider.Variant{Mapping: decider.Block, Rep: decider.Queue},
			decider.Variant{Mapping: decider.Thread, Rep: decider.Bitmap},
			decider.Variant{Mapping: decider.Block, Rep: decider.Bitmap}))},
	}
}

// TestCUDAVariantsMatchKruskal: the shared graph table and the hand-made
// cases (ties, parallel edges, self-loops, float weights, no edges,
// directed inputs), every variant and configuration.
func TestCUDAVariantsMatchKruskal(t *testing.T) {
	cfgs := gpuConfigs(testgraphs.OpenCUDA(t))
	for _, c := range allCases(t) {
		check(t, c.Name, c.G, cfgs)
	}
}

// TestCUDALightPhase: graphs dense enough for ECL's filter (average degree
// well above 4), undirected and directed, so the light phase and the
// switch to every edge run on the device.
func TestCUDALightPhase(t *testing.T) {
	cfgs := gpuConfigs(testgraphs.OpenCUDA(t))
	g := testgraphs.RMAT(14, 16, 3)
	if lightThreshold(&input{g: g.WithDerivedWeights(DefaultSeed), edges: countEdges(g, false)}) == noKey {
		t.Fatal("rmat:14:16 has no light threshold: the test would not run the filter")
	}
	check(t, "rmat:14:16", g, cfgs)
	check(t, "rmat-directed:12:16", testgraphs.RMATDirected(12, 16, 5), cfgs)
}

// TestCUDADatasets: the real graphs under the policy, the queue and the
// switching policy.
func TestCUDADatasets(t *testing.T) {
	cases, err := testgraphs.Datasets()
	if err != nil {
		t.Skip(err)
	}
	all := gpuConfigs(testgraphs.OpenCUDA(t))
	cfgs := map[string][]runtime.Option{}
	for _, k := range []string{"gpu/auto", "gpu/QU", "gpu/cycle"} {
		cfgs[k] = all[k]
	}
	for _, c := range cases {
		check(t, c.Name, c.G, cfgs)
	}
}

// TestCUDANoEdges: a graph without edges gives an empty forest on the GPU,
// every vertex its own component.
func TestCUDANoEdges(t *testing.T) {
	c := testgraphs.OpenCUDA(t)
	g := build(t, 5, true, nil, nil, graph.Unweighted)
	for _, v := range []Variant{EA, AL, ECL} {
		r, err := Run(context.Background(), g, WithVariant(v), runtime.WithBackend(c))
		if err != nil {
			t.Fatalf("%v: %v", v, err)
		}
		if len(r.Edges()) != 0 || r.NumComponents() != 5 || r.TotalWeight() != 0 {
			t.Errorf("%v: %v, %d components, weight %d", v, r.Edges(), r.NumComponents(), r.TotalWeight())
		}
	}
}

// TestCUDACancel: a cancelled context stops the run with its error, and
// the device state is released (OpenCUDA's Close reports leaks).
func TestCUDACancel(t *testing.T) {
	c := testgraphs.OpenCUDA(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, testgraphs.RMAT(12, 8, 1), WithVariant(EA), runtime.WithBackend(c))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	// The backend still works afterwards.
	g := testgraphs.RMAT(10, 8, 1)
	want, err := Run(context.Background(), g, WithVariant(Kruskal))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), g, runtime.WithBackend(c))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Edges(), want.Edges()) {
		t.Errorf("after a cancelled run: forest of %d edges, Kruskal %d", len(r.Edges()), len(want.Edges()))
	}
}

// TestCUDARelease: runs into the host memory of released results (the
// CLI's repeats: reused, registered with the driver from the second run)
// give Kruskal's forest and weight every time, for integer and real
// weights, and leave no device memory behind but the cached graphs.
func TestCUDARelease(t *testing.T) {
	c := testgraphs.OpenCUDA(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(4, 5))
	var arcs [][2]uint32
	var ws []float32
	for range 2000 {
		arcs = append(arcs, [2]uint32{rng.Uint32N(500), rng.Uint32N(500)})
		ws = append(ws, rng.Float32()*100)
	}
	graphs := []*graph.Graph{testgraphs.RMAT(12, 8, 1), build(t, 500, true, arcs, f32(ws...), graph.RealWeights)}
	for _, g := range graphs {
		want, err := Run(ctx, g, WithVariant(Kruskal))
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			r, err := Run(ctx, g, runtime.WithBackend(c))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(r.Edges(), want.Edges()) || r.TotalWeight() != want.TotalWeight() || r.TotalWeightFloat() != want.TotalWeightFloat() {
				t.Fatalf("run %d: %d edges weighing %v, Kruskal %d weighing %v", i, len(r.Edges()), r.TotalWeightFloat(), len(want.Edges()), want.TotalWeightFloat())
			}
			r.Release()
			if r.Edges() != nil || r.NumComponents() != want.NumComponents() {
				t.Fatalf("run %d: after Release %d edges, %d components", i, len(r.Edges()), r.NumComponents())
			}
		}
	}
	// The RMAT graph ran with derived weights: that graph is the one on the
	// device (derive returns the same one while it lives).
	testgraphs.CheckNoDeviceMemory(t, c, append(graphs, derive(graphs[0], DefaultSeed))...)
}

// TestCUDADeviceTimes: a GPU run reports its device split and launches.
func TestCUDADeviceTimes(t *testing.T) {
	c := testgraphs.OpenCUDA(t)
	r, err := Run(context.Background(), testgraphs.RMAT(12, 8, 1), runtime.WithBackend(c))
	if err != nil {
		t.Fatal(err)
	}
	st := r.Stats()
	if st.GPU == nil || st.GPU.Launches == 0 || st.Iterations == 0 {
		t.Fatalf("stats %+v: want a GPU split with launches and iterations", st)
	}
}
