//go:build cuda

package cc

// GPU tests: every variant and working set, labels and spanning forests,
// compared element by element with the CPU backend. They skip when no CUDA
// driver or GPU is present. Real graphs come from $GEARBOX_DATASETS or
// ../shared/datasets beside the repository (skipped when absent).

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// gpuConfigs are the variants and working-set choices run on the GPU.
func gpuConfigs(cuda *gpu.CUDA) []config2 {
	rt := func(opts ...runtime.Option) runtime.Option {
		return withAll(append([]runtime.Option{runtime.WithBackend(cuda)}, opts...)...)
	}
	return []config2{
		{"auto", []runtime.Option{rt()}},
		{"sv", []runtime.Option{WithVariant(SV), rt()}},
		{"sv-bitmap-edge", []runtime.Option{WithVariant(SV), rt(), WithWorkset(decider.Bitmap)}},
		{"sv-bitmap-thread", []runtime.Option{WithVariant(SV), rt(runtime.WithVariant(decider.Variant{Rep: decider.Bitmap}))}},
		{"sv-queue", []runtime.Option{WithVariant(SV), rt(), WithWorkset(decider.Queue)}},
		{"sv-cycle", []runtime.Option{WithVariant(SV), rt(runtime.WithPolicy(cycle{}))}},
		{"afforest", []runtime.Option{WithVariant(Afforest), rt()}},
		{"afforest-r0", []runtime.Option{WithVariant(Afforest), WithNeighborRounds(0), rt()}},
		{"afforest-r1", []runtime.Option{WithVariant(Afforest), WithNeighborRounds(1), rt()}},
		{"afforest-r5", []runtime.Option{WithVariant(Afforest), WithNeighborRounds(5), rt()}},
		{"unionfind", []runtime.Option{WithVariant(UnionFind), rt()}},
	}
}

// compareGPU runs Run and Forest with every GPU configuration and checks
// the labels equal the CPU backend's element by element, and the forest.
func compareGPU(t *testing.T, name string, g *graph.Graph, cfgs []config2) int {
	t.Helper()
	ctx := context.Background()
	want, err := Run(ctx, g, withAll(runtime.WithWorkers(2)))
	if err != nil {
		t.Fatalf("%s: cpu: %v", name, err)
	}
	runs := 0
	for _, c := range cfgs {
		label := name + "/" + c.name
		res, err := Run(ctx, g, c.opts...)
		if err != nil {
			t.Errorf("%s: gpu Run: %v", label, err)
			continue
		}
		checkSame(t, label, want.Labels(), res.Labels())
		if res.NumComponents() != want.NumComponents() || res.LargestSize() != want.LargestSize() {
			t.Errorf("%s: %d components (largest %d), cpu %d (%d)", label, res.NumComponents(), res.LargestSize(), want.NumComponents(), want.LargestSize())
		}
		f, err := Forest(ctx, g, c.opts...)
		if err != nil {
			t.Errorf("%s: gpu Forest: %v", label, err)
			continue
		}
		checkSame(t, label+"/forest", want.Labels(), f.Labels())
		if err := VerifyForest(g, f.Labels(), f.Edges()); err != nil {
			t.Errorf("%s: %v", label, err)
		}
		if g.NumEdges() > 0 && f.Stats().Iterations == 0 {
			t.Errorf("%s: no iterations recorded", label)
		}
		runs += 2
	}
	return runs
}

func checkSame(t *testing.T, label string, want, got []uint32) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d labels on the GPU, %d on the CPU", label, len(got), len(want))
		return
	}
	bad := 0
	for v := range want {
		if got[v] != want[v] {
			if bad < 3 {
				t.Errorf("%s: vertex %d: gpu label %d, cpu %d", label, v, got[v], want[v])
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d labels differ", label, bad, len(want))
	}
}

// TestCUDAVariants: the CPU tests' table (shared graphs, empty graph, no
// edges, self-loops, duplicates, directed graphs, high ids, paths, grids).
func TestCUDAVariants(t *testing.T) {
	cuda := testgraphs.OpenCUDA(t)
	cfgs := gpuConfigs(cuda)
	runs := 0
	for _, tg := range testGraphs(t) {
		runs += compareGPU(t, tg.name, tg.g, cfgs)
	}
	t.Logf("%d GPU runs matched the CPU", runs)
}

// TestCUDAVariantPolicy: on a GPU the choice comes from the thresholds:
// the device's section of thresholds.toml (the H100's) or, without one,
// DeviceThresholds give the GPU floors, and kron:12 runs union-find where
// the CPU's thresholds choose Afforest.
func TestCUDAVariantPolicy(t *testing.T) {
	cuda := testgraphs.OpenCUDA(t)
	want := VariantPolicy{MinAfforestDegree: 2, MinAfforestArcs: 1 << 22, MinAfforestSkew: 64}
	if got, err := VariantPolicyFrom(runtime.NewConfigFor("cc", runtime.WithBackend(cuda)).Knobs()); err != nil || got != want {
		t.Errorf("%s: policy %+v, %v; want %+v", cuda.Device(), got, err, want)
	}
	if got := DeviceVariantPolicy(); got != want {
		t.Errorf("DeviceVariantPolicy: %+v, want %+v", got, want)
	}
	g, err := graph.Generate("kron:12", graph.GenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(t.Context(), g, withAll(runtime.WithBackend(cuda)))
	if err != nil {
		t.Fatal(err)
	}
	if r.Variant() != UnionFind || !strings.Contains(r.Reason(), "arcs below 4194304") {
		t.Errorf("kron:12 on %s: %v (%s), want unionfind", cuda.Device(), r.Variant(), r.Reason())
	}
	r, err = Run(t.Context(), g, withAll(runtime.WithBackend(cuda), runtime.WithKnobs(decider.KnobsOf(DefaultVariantPolicy()))))
	if err != nil {
		t.Fatal(err)
	}
	if r.Variant() != Afforest {
		t.Errorf("kron:12 on %s with the CPU's thresholds: %v (%s), want afforest", cuda.Device(), r.Variant(), r.Reason())
	}
}

// TestCUDAGenerated: the generators' graphs at sizes that fill the GPU a
// little, and the shared generated table.
func TestCUDAGenerated(t *testing.T) {
	cuda := testgraphs.OpenCUDA(t)
	cfgs := gpuConfigs(cuda)
	runs := 0
	for _, c := range testgraphs.Generated() {
		runs += compareGPU(t, c.Name, c.G, cfgs)
	}
	specs := []string{"kron:16:16", "urand:16:8", "grid:300:300", "kron:14:8"}
	for _, spec := range specs {
		g, err := graph.Generate(spec, graph.GenOptions{Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		runs += compareGPU(t, spec, g, cfgs)
	}
	dg := testgraphs.RMATDirected(14, 8, 2)
	runs += compareGPU(t, "rmat14-directed", dg, cfgs)
	runs += compareGPU(t, "random-directed-50k", testgraphs.Random(50000, 40000, false, 4), cfgs)
	t.Logf("%d GPU runs matched the CPU", runs)
}

// TestCUDADatasets: the real graphs ($GEARBOX_DATASETS or
// ../shared/datasets).
func TestCUDADatasets(t *testing.T) {
	cuda := testgraphs.OpenCUDA(t)
	cases, err := testgraphs.Datasets()
	if err != nil {
		t.Skipf("real datasets skipped: %v", err)
	}
	cfgs := gpuConfigs(cuda)
	runs := 0
	for _, c := range cases {
		runs += compareGPU(t, c.Name, c.G, cfgs)
	}
	t.Logf("%d GPU runs on %d real graphs matched the CPU", runs, len(cases))
}

// TestCUDANoLeak: after runs of every variant, evicting the graph and
// trimming the reuse pool leaves no device memory held.
func TestCUDANoLeak(t *testing.T) {
	cuda := testgraphs.OpenCUDA(t)
	g := testgraphs.RMAT(12, 8, 5)
	for _, c := range gpuConfigs(cuda) {
		if _, err := Forest(context.Background(), g, c.opts...); err != nil {
			t.Fatal(err)
		}
	}
	testgraphs.CheckNoDeviceMemory(t, cuda, g)
}

// TestCUDACancel cancels every variant between iterations: the error wraps
// context.Canceled, nothing stays held, and the backend still works.
func TestCUDACancel(t *testing.T) {
	cuda := testgraphs.OpenCUDA(t)
	g := pathGraph(t, 3000, 5)
	for _, v := range Variants() {
		ctx, cancel := context.WithCancel(context.Background())
		_, err := Forest(ctx, g, WithVariant(v), withAll(runtime.WithBackend(cuda), runtime.WithPolicy(cancelAfter{cancel})))
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%v: err %v, want context.Canceled after the first iteration", v, err)
		}
	}
	testgraphs.CheckNoDeviceMemory(t, cuda, g)
	compareGPU(t, "after-cancel", g, gpuConfigs(cuda)[:1])
}

// TestCUDAInsufficientMemory: a run that cannot fit fails before
// allocating, with ErrInsufficientMemory.
func TestCUDAInsufficientMemory(t *testing.T) {
	probe := testgraphs.OpenCUDA(t)
	cuda := testgraphs.OpenCUDA(t, gpu.WithMemoryHeadroom(probe.TotalMemory()))
	for _, v := range Variants() {
		_, err := Run(context.Background(), testgraphs.Grid(10, 10), WithVariant(v), withAll(runtime.WithBackend(cuda)))
		if !errors.Is(err, gpu.ErrInsufficientMemory) {
			t.Fatalf("%v: got %v, want ErrInsufficientMemory", v, err)
		}
	}
	if live, _ := cuda.LiveBytes(); live != 0 {
		t.Fatalf("%d device bytes held after refused runs", live)
	}
}

// BenchmarkCUDACC times whole runs on the GPU with the graph already on
// the device (one warm-up run first) and reports the median of the timed
// runs: median_ms for cc.Run as a user calls it (labels copied back to the
// host), device_ms for the same work with the results left on the device.
func BenchmarkCUDACC(b *testing.B) {
	specs := []struct{ name, spec string }{
		{"kron22", "kron:22"}, {"urand22", "urand:22"}, {"grid2048", "grid:2048:2048"}, {"kron20", "kron:20"},
	}
	real := map[string]*graph.Graph{} // the datasets as testgraphs loads them
	if cases, err := testgraphs.Datasets(); err == nil {
		for _, c := range cases {
			real["real:"+c.Name] = c.G
			specs = append(specs, struct{ name, spec string }{c.Name, "real:" + c.Name})
		}
	}
	variants := []struct {
		name   string
		forest bool
		opts   []runtime.Option
	}{
		{"auto", false, nil},
		{"afforest", false, []runtime.Option{WithVariant(Afforest)}},
		{"unionfind", false, []runtime.Option{WithVariant(UnionFind)}},
		{"sv", false, []runtime.Option{WithVariant(SV)}},
		{"sv_BM_edge", false, []runtime.Option{WithVariant(SV), WithWorkset(decider.Bitmap)}},
		{"sv_QU", false, []runtime.Option{WithVariant(SV), WithWorkset(decider.Queue)}},
		{"forest_afforest", true, []runtime.Option{WithVariant(Afforest)}},
		{"forest_sv", true, []runtime.Option{WithVariant(SV)}},
	}
	cuda := testgraphs.OpenCUDA(b) // one backend: each graph is uploaded once
	for _, sp := range specs {
		for _, v := range variants {
			b.Run("graph="+sp.name+"/variant="+v.name, func(b *testing.B) {
				g, ok := real[sp.spec]
				if !ok {
					g = testgraphs.BenchSpec(b, sp.spec)
				}
				opts := append(slices.Clone(v.opts), withAll(runtime.WithBackend(cuda)))
				run := func() (*Result, error) {
					if v.forest {
						f, err := Forest(context.Background(), g, opts...)
						if err != nil {
							return nil, err
						}
						return &f.Result, nil
					}
					return Run(context.Background(), g, opts...)
				}
				res, err := run() // warm-up: uploads the graph
				if err != nil {
					b.Fatal(err)
				}
				if v.name == "auto" || v.name == "sv" { // serial reference check, once per algorithm family
					if err := Verify(g, res.Labels()); err != nil {
						b.Fatal(err)
					}
				}
				iters := res.Stats().Iterations
				median := func(skip bool) time.Duration {
					gpuSkipResults = skip
					defer func() { gpuSkipResults = false }()
					var ts []time.Duration
					for i := 0; i < b.N; i++ {
						t0 := time.Now()
						if _, err := run(); err != nil {
							b.Fatal(err)
						}
						ts = append(ts, time.Since(t0))
					}
					slices.Sort(ts)
					return ts[len(ts)/2]
				}
				b.ResetTimer()
				full := median(false)
				dev := median(true)
				b.StopTimer()
				b.ReportMetric(float64(full.Microseconds())/1000, "median_ms")
				b.ReportMetric(float64(dev.Microseconds())/1000, "device_ms")
				b.ReportMetric(float64(iters), "iterations")
				b.ReportMetric(float64(g.NumEdges())/dev.Seconds()/1e9, "Garcs/s")
				gpuSkipResults = true
				traced, err := Run(context.Background(), g, append(slices.Clone(opts), runtime.WithTrace(true))...)
				gpuSkipResults = false
				if err != nil {
					b.Fatal(err)
				}
				var its []string
				for _, r := range traced.Stats().Trace {
					its = append(its, fmt.Sprintf("%v:%dus", r.Variant, r.Time.Microseconds()))
				}
				b.Logf("%s %s: %v, n=%d arcs=%d comps=%d, one run's iterations %v (wall %v)", sp.name, v.name, res.Variant(),
					g.NumVertices(), g.NumEdges(), res.NumComponents(), its, traced.Stats().Wall)
			})
		}
	}
}

// TestCUDARelease: GPU runs into the memory of released results (reused
// without clearing) are still correct.
func TestCUDARelease(t *testing.T) {
	checkRelease(t, runtime.WithBackend(testgraphs.OpenCUDA(t)))
}
