//go:build cuda

package sssp_test

// GPU tests: every variant and delta, the adaptive policy and mixed
// policies on the GPU, compared element by element with the CPU backend.
// They skip when no CUDA driver or GPU is present.

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/internal/frontier"
	"github.com/gearbox-graph/gearbox/algorithms/internal/search/searchtest"
	"github.com/gearbox-graph/gearbox/algorithms/sssp"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// gpuConfigs are the CPU tests' configurations on gpu (persistent
// launches at their default), and on plain (persistent launches off) when
// given, named "nofused/...".
func gpuConfigs(cuda *gpu.CUDA, plain ...*gpu.CUDA) map[string][]runtime.Option {
	m := map[string][]runtime.Option{}
	for name, opts := range configs() {
		m[name] = append(slices.Clone(opts), runtime.WithBackend(cuda))
		for _, p := range plain {
			m["nofused/"+name] = append(slices.Clone(opts), runtime.WithBackend(p))
		}
	}
	return m
}

func TestCUDASharedTable(t *testing.T) {
	cuda := testgraphs.OpenCUDA(t)
	runs := kit.CompareCases(t, testgraphs.Cases(), gpuConfigs(cuda, testgraphs.OpenCUDA(t, gpu.WithFusedLevels(0))))
	t.Logf("%d GPU runs matched the CPU", runs)
}

// largeConfigs leaves out the small deltas on graphs with long weighted
// paths (one iteration per distinct distance).
func largeConfigs(cuda *gpu.CUDA) map[string][]runtime.Option {
	m := gpuConfigs(cuda)
	for name := range m {
		if strings.Contains(name, "delta=1") && !strings.Contains(name, "delta=1000") && !strings.Contains(name, "delta=1099511627776") ||
			strings.Contains(name, "delta=2") || strings.Contains(name, "delta=7") || name == "cycle-delta1" {
			delete(m, name)
		}
	}
	return m
}

func TestCUDAGenerated(t *testing.T) {
	cuda := testgraphs.OpenCUDA(t)
	kit.CompareCases(t, []testgraphs.Case{
		{Name: "rmat15", G: testgraphs.RMAT(15, 16, 1).WithDerivedWeights(3)},
		{Name: "rmat13-directed", G: testgraphs.RMATDirected(13, 8, 2).WithDerivedWeights(4)},
		{Name: "grid150x150", G: testgraphs.Grid(150, 150).WithDerivedWeights(5)},
	}, largeConfigs(cuda))
}

func TestCUDADatasets(t *testing.T) {
	cuda := testgraphs.OpenCUDA(t)
	// Unweighted ones get derived weights (testgraphs.Case.Weighted).
	cases := searchtest.MinimalDatasets(t, []string{"rome99.gr", "p2p-Gnutella31.txt", "email-Enron.txt"}, "email-Enron.txt")
	kit.CompareCases(t, cases, largeConfigs(cuda))
}

// BenchmarkCUDASSSP times whole SSSP runs on the GPU (graph cached, one
// warm-up run) and reports the median run time. Weights are derived
// (1..255); the ordered variants use delta 256 (the default delta 2 costs
// one iteration per two units of distance: ~10^5 iterations on the grid).
func BenchmarkCUDASSSP(b *testing.B) {
	for _, gname := range []string{"kron20", "grid2048"} {
		var g *graph.Graph
		if gname == "grid2048" {
			g = testgraphs.Grid(2048, 2048).WithDerivedWeights(1)
		} else {
			g = testgraphs.Bench(gname).WithDerivedWeights(1)
		}
		src := testgraphs.Sources(g, 1)[0]
		for _, cfg := range []struct {
			name string
			opts []runtime.Option
		}{
			{"auto-delta256", []runtime.Option{sssp.WithDelta(256)}},
			{"O_T_QU-delta256", []runtime.Option{runtime.WithVariant(decider.Variant{Rep: decider.Queue}), sssp.WithDelta(256)}},
			{"O_T_BM-delta256", []runtime.Option{runtime.WithVariant(decider.Variant{}), sssp.WithDelta(256)}},
			{"U_T_QU", []runtime.Option{runtime.WithVariant(decider.Variant{Order: decider.Unordered, Rep: decider.Queue})}},
			{"U_T_QU-nofused", []runtime.Option{runtime.WithVariant(decider.Variant{Order: decider.Unordered, Rep: decider.Queue})}},
			{"U_T_BM", []runtime.Option{runtime.WithVariant(decider.Variant{Order: decider.Unordered})}},
		} {
			b.Run(fmt.Sprintf("graph=%s/variant=%s", gname, cfg.name), func(b *testing.B) {
				var cuda *gpu.CUDA
				if strings.HasSuffix(cfg.name, "-nofused") {
					cuda = testgraphs.OpenCUDA(b, gpu.WithFusedLevels(0))
				} else {
					cuda = testgraphs.OpenCUDA(b)
				}
				opts := append(slices.Clone(cfg.opts), runtime.WithBackend(cuda))
				res, med := kit.TimeRuns(b, g, src, opts)
				b.ReportMetric(float64(res.Stats().Iterations), "iterations")
				b.ReportMetric(float64(med.Nanoseconds())/1000/float64(max(res.Stats().Iterations, 1)), "us/iter")
				if gt := res.Stats().GPU; gt != nil {
					b.ReportMetric(float64(gt.Levels), "device_levels")
					b.ReportMetric(float64(gt.Kernels.Microseconds())/1000, "kernels_ms")
				}
			})
		}
	}
}

// TestCUDASharedGeneratedAndReal runs the shared table's generated graphs
// and every real dataset testgraphs knows (skipped when ../shared/datasets
// is absent; unweighted ones get derived weights) and checks the GPU's
// distances on gstest's p2p-31 against its published answers.
func TestCUDASharedGeneratedAndReal(t *testing.T) {
	cuda := testgraphs.OpenCUDA(t)
	cases := testgraphs.Generated()
	real, err := testgraphs.Datasets()
	if err != nil {
		t.Logf("real datasets skipped: %v", err)
	}
	kit.CompareCases(t, append(cases, real...), largeConfigs(cuda))
	kit.P2P31(t, false, [][]runtime.Option{{runtime.WithBackend(cuda)}}, func(_, dist []int64) []int64 { return dist }, true)
}

// BenchmarkCUDATargets times SSSP on the graphs of the speed targets
// (docs/kernels-notes.md) with weights derived from seed 1 (1..255):
// GEARBOX_BENCH_SPECS lists graph.Generate specs (default
// kron:20:16,grid:1024:1024). For each variant: one warm-up run, then one
// run from each of 8 sources; the median Stats.Wall is reported and logged.
func BenchmarkCUDATargets(b *testing.B) {
	delta := func(d uint64) []runtime.Option { return []runtime.Option{sssp.WithDelta(d)} }
	kit.CUDATargets(b, "sssp", func(spec string) []searchtest.GPUConfig {
		cfgs := []searchtest.GPUConfig{
			{Name: "auto-delta256", Opts: delta(256)},
			{Name: "U_T_QU", Variant: searchtest.V(decider.Unordered, decider.Thread, decider.Queue)},
			{Name: "U_T_QU-nofused", Plain: true, Variant: searchtest.V(decider.Unordered, decider.Thread, decider.Queue)},
			{Name: "U_B_QU", Variant: searchtest.V(decider.Unordered, decider.Block, decider.Queue)},
			{Name: "O_T_QU-delta256", Plain: true, Variant: searchtest.V(decider.Ordered, decider.Thread, decider.Queue), Opts: delta(256)},
		}
		if !strings.HasPrefix(spec, "grid") { // small deltas: thousands of buckets on the grid
			cfgs = append(cfgs, searchtest.GPUConfig{Name: "auto-delta32", Opts: delta(32)},
				searchtest.GPUConfig{Name: "O_B_QU-delta32", Plain: true, Variant: searchtest.V(decider.Ordered, decider.Block, decider.Queue), Opts: delta(32)},
				searchtest.GPUConfig{Name: "U_B_BM", Plain: true, Variant: searchtest.V(decider.Unordered, decider.Block, decider.Bitmap)})
		}
		return cfgs
	}, false)
}

// TestCUDARelease: GPU runs into the memory of released results (reused
// without clearing) are still correct.
func TestCUDARelease(t *testing.T) { searchtest.CUDARelease(t, checkRelease) }

// TestCUDAFusedHubs: unordered SSSP runs in persistent launches from the
// first level, through frontiers of hubs (their blocks expand hubs of up
// to kernels.PersistMaxDeg out-edges, the whole grid larger ones); a level
// of more out-edges than a launch takes runs on the ordinary kernels
// (testgraphs.HubCases). Distances must match the CPU either way.
func TestCUDAFusedHubs(t *testing.T) {
	uq := runtime.WithVariant(decider.Variant{Order: decider.Unordered, Mapping: decider.Thread, Rep: decider.Queue})
	backend := testgraphs.HubBackends(t)
	for _, c := range testgraphs.HubCases() {
		got := kit.CompareGPU(t, c.Name, c.G, 0, kit.CPURun(t, c.G, 0), []runtime.Option{runtime.WithBackend(backend(c)), uq})
		// A vertex may improve over several levels, so unordered SSSP runs
		// at least the BFS's levels.
		levels, iters := got.Stats().GPU.Levels, got.Stats().Iterations
		if c.All && (levels < int64(c.Levels) || iters > 2) {
			t.Errorf("%s: %d levels in persistent launches over %d iterations, want all (>= %d) in one", c.Name, levels, iters, c.Levels)
		}
		if !c.All && levels == 0 {
			t.Errorf("%s: no level ran in a persistent launch", c.Name)
		}
	}
}

// TestCUDABucketedLaunch: ordered SSSP on a queue runs its delta buckets
// inside persistent launches (kernels.SSSPPersistNfD64 and D32), the adaptive
// policy's launch_delta_factor times wider: on a weighted
// grid every bucket is filled by the launch itself, so the run takes a
// launch per frontier.MaxFusedLevels levels and at least a level per
// non-empty bucket; on the hub graphs launches run hub levels too, but stop
// at a level of more out-edges than they take and restart on an update
// vector the ordinary kernels left pending vertices in. Distances must
// match the CPU.
func TestCUDABucketedLaunch(t *testing.T) {
	cuda := testgraphs.OpenCUDA(t)
	g := testgraphs.Grid(120, 90).WithDerivedWeights(7)
	src := uint32(4321)
	want := kit.CPURun(t, g, src)
	for _, m := range []decider.Mapping{decider.Thread, decider.Block} {
		for _, delta := range []uint64{1, 16, 256, 1 << 40} {
			v := decider.Variant{Order: decider.Ordered, Mapping: m, Rep: decider.Queue}
			label := fmt.Sprintf("grid/%s/delta=%d", v, delta)
			got := kit.CompareGPU(t, label, g, src, want, []runtime.Option{runtime.WithBackend(cuda), runtime.WithVariant(v), sssp.WithDelta(delta)})
			buckets := map[uint64]bool{}
			for u := range g.NumVertices() {
				if d, ok := got.Distance(uint32(u)); ok {
					buckets[d/delta] = true
				}
			}
			st := got.Stats()
			maxIters := 1 + int(st.GPU.Levels/frontier.MaxFusedLevels) + 1
			if st.GPU.Levels < int64(len(buckets)) || st.Iterations > maxIters {
				t.Errorf("%s: %d levels over %d iterations for %d buckets, want every bucket in launches (at most %d iterations)",
					label, st.GPU.Levels, st.Iterations, len(buckets), maxIters)
			}
		}
	}
	// The adaptive policy's buckets inside launches are launch_delta_factor
	// / degree (about 4) times wider: with the widest, delta 1 takes fewer
	// levels than with none.
	levels := map[float64]int64{}
	for _, f := range []float64{0, 32, 1 << 20} {
		th, err := sssp.ParamsFor(runtime.WithBackend(cuda))
		if err != nil {
			t.Fatal(err)
		}
		th.DeltaFactor, th.Delta, th.BucketEdges, th.LaunchDeltaFactor = 0, 1, 0, f
		label := fmt.Sprintf("grid/adaptive-ordered/launch_delta_factor=%g", f)
		got := kit.CompareGPU(t, label, g, src, want, []runtime.Option{runtime.WithBackend(cuda), runtime.WithOrder(decider.Ordered), sssp.WithParams(th)})
		if levels[f] = got.Stats().GPU.Levels; levels[f] == 0 {
			t.Errorf("%s: no level ran in a persistent launch", label)
		}
	}
	if levels[1<<20] >= levels[0] {
		t.Errorf("delta 1: %d levels in launch buckets 2^18 wide, %d in buckets of 1: want fewer", levels[1<<20], levels[0])
	}
	oq := runtime.WithVariant(decider.Variant{Order: decider.Ordered, Mapping: decider.Thread, Rep: decider.Queue})
	backend := testgraphs.HubBackends(t)
	for _, c := range testgraphs.HubCases() {
		for _, delta := range []uint64{1, 8} {
			got := kit.CompareGPU(t, fmt.Sprintf("%s/delta=%d", c.Name, delta), c.G, 0, kit.CPURun(t, c.G, 0),
				[]runtime.Option{runtime.WithBackend(backend(c)), oq, sssp.WithDelta(delta)})
			if got.Stats().GPU.Levels == 0 {
				t.Errorf("%s/delta=%d: no level ran in a persistent launch", c.Name, delta)
			}
		}
	}
}

// TestCUDALocalLevels: unordered and bucketed SSSP launches run small
// frontiers in one block (gpu.WithLocalLevels) and hand larger ones,
// and bucketed launches' refills, back to the whole grid: on the beads
// graph (frontiers of one vertex and of 600 alternate) and grids of 40x40
// and 300x300 (frontiers of up to 300 vertices, over one block's edge
// limit), with local levels on and off, distances must match the CPU,
// local levels run only where they are on, and distances of at most
// frontier.SpecMaxBytes are copied behind the launch that finished the run
// (frontier.CUDATraversal.SpeculateOn).
func TestCUDALocalLevels(t *testing.T) {
	var beads *graph.Graph
	for _, c := range testgraphs.Cases() {
		if c.Name == "beads" {
			beads = c.Weighted()
		}
	}
	if beads == nil {
		t.Fatal("no beads graph in the shared table")
	}
	on, off := testgraphs.OpenCUDA(t), testgraphs.OpenCUDA(t, gpu.WithLocalLevels(0))
	for _, c := range []struct {
		name string
		g    *graph.Graph
	}{{"beads", beads}, {"grid40x40", testgraphs.Grid(40, 40).WithDerivedWeights(3)},
		{"grid300x300", testgraphs.Grid(300, 300).WithDerivedWeights(3)}} {
		want := kit.CPURun(t, c.g, 0)
		for _, order := range []decider.Order{decider.Unordered, decider.Ordered} {
			v := runtime.WithVariant(decider.Variant{Order: order, Mapping: decider.Thread, Rep: decider.Queue})
			for name, be := range map[string]*gpu.CUDA{"local": on, "no-local": off} {
				label := fmt.Sprintf("%s/%s/%s", c.name, order, name)
				gt := kit.CompareGPU(t, label, c.g, 0, want, []runtime.Option{runtime.WithBackend(be), v, sssp.WithDelta(16)}).Stats().GPU
				if gt.Levels == 0 {
					t.Errorf("%s: no level ran in a persistent launch", label)
				}
				if local := gt.LocalLevels > 0; local != (name == "local") {
					t.Errorf("%s: %d of %d levels local", label, gt.LocalLevels, gt.Levels)
				}
				// One launch runs the whole traversal (its buckets too),
				// so the distances are copied behind it where they are
				// small enough (32 bits each).
				if small := 4*int64(c.g.NumVertices()) <= frontier.SpecMaxBytes; gt.ResultBehindLaunch != small {
					t.Errorf("%s: distances copied behind the launch: %v, want %v", label, gt.ResultBehindLaunch, small)
				}
			}
		}
	}
}
