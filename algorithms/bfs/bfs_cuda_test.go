//go:build cuda

package bfs_test

// GPU tests: every variant, pull, the adaptive policy and fused levels on
// the GPU, compared element by element with the CPU backend. They skip when
// no CUDA driver or GPU is present. Real graphs come from
// ../../../shared/datasets (or $GEARBOX_DATASETS) and skip when absent.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gearbox-graph/gearbox/algorithms/bfs"
	"github.com/gearbox-graph/gearbox/algorithms/internal/search/searchtest"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// gpuConfigs are the CPU tests' configurations run on the GPU, plus fused
// multi-level launches.
func gpuConfigs(cuda, fused *gpu.CUDA) map[string][]runtime.Option {
	m := map[string][]runtime.Option{}
	for name, opts := range configs() {
		m[name] = append(slices.Clone(opts), runtime.WithBackend(cuda))
	}
	oq := decider.Variant{Order: decider.Ordered, Mapping: decider.Thread, Rep: decider.Queue}
	m["fused/O_T_QU"] = []runtime.Option{runtime.WithVariant(oq), runtime.WithBackend(fused)}
	m["fused/auto-eager"] = []runtime.Option{runtime.WithThresholds(eager()), runtime.WithBackend(fused)}
	m["fused/cycle"] = []runtime.Option{runtime.WithPolicy(testgraphs.Cycle(append(decider.AllVariants(), oq, oq)...)), runtime.WithBackend(fused)}
	return m
}

func TestCUDASharedTable(t *testing.T) {
	cuda := testgraphs.OpenCUDA(t, gpu.WithFusedLevels(0))
	fused := testgraphs.OpenCUDA(t, gpu.WithFusedLevels(64))
	runs := kit.CompareCases(t, testgraphs.Cases(), gpuConfigs(cuda, fused))
	t.Logf("%d GPU runs matched the CPU", runs)
}

func TestCUDAGenerated(t *testing.T) {
	cuda := testgraphs.OpenCUDA(t, gpu.WithFusedLevels(0))
	fused := testgraphs.OpenCUDA(t, gpu.WithFusedLevels(1024))
	kit.CompareCases(t, []testgraphs.Case{
		{Name: "rmat16", G: testgraphs.RMAT(16, 16, 1)},
		{Name: "rmat14-directed", G: testgraphs.RMATDirected(14, 8, 2)},
		{Name: "grid300x300", G: testgraphs.Grid(300, 300)},
		{Name: "random-20k", G: testgraphs.Random(20000, 60000, false, 3)},
	}, gpuConfigs(cuda, fused))
}

func TestCUDADatasets(t *testing.T) {
	cuda := testgraphs.OpenCUDA(t, gpu.WithFusedLevels(0))
	fused := testgraphs.OpenCUDA(t, gpu.WithFusedLevels(1024))
	cases := searchtest.MinimalDatasets(t, []string{"p2p-Gnutella31.txt", "email-Enron.txt", "rome99.gr"}, "email-Enron.txt")
	kit.CompareCases(t, cases, gpuConfigs(cuda, fused))
}

// TestCUDADeepLevels runs directed paths of up to 65536 levels (depths
// past one and two bytes, in the result and in its narrowed copy, the longest taking 16 persistent launches of
// MaxFusedLevels), with unreached vertices beside them, against the CPU,
// with and without persistent launches.
func TestCUDADeepLevels(t *testing.T) {
	// Narrow these small results too, so the copy's 8- and 16-bit
	// boundaries are crossed (compareBFS checks the width).
	defer func(m int) { searchtest.NarrowMin = m }(searchtest.NarrowMin)
	searchtest.NarrowMin = 1
	cuda := testgraphs.OpenCUDA(t, gpu.WithFusedLevels(0), gpu.WithNarrowMin(1))
	fused := testgraphs.OpenCUDA(t, gpu.WithNarrowMin(1))
	for _, length := range []int{251, 252, 253, 254, 255, 256, 65533, 65534, 65535, 65536} {
		n := length + 3 // depths 0..length, and two vertices never reached
		arcs := make([][2]uint32, 0, length+1)
		for v := 0; v < length; v++ {
			arcs = append(arcs, [2]uint32{uint32(v), uint32(v + 1)})
		}
		arcs = append(arcs, [2]uint32{uint32(n - 2), uint32(n - 1)})
		g := testgraphs.MustBuild(n, false, arcs, nil)
		want := kit.CPURun(t, g, 0)
		cfgs := map[string]*gpu.CUDA{"fused": fused}
		if length < 1000 { // 65K levels without persistent launches take seconds
			cfgs["plain"] = cuda
		}
		for name, be := range cfgs {
			got := kit.CompareGPU(t, fmt.Sprintf("path%d/%s", length, name), g, 0, want, []runtime.Option{runtime.WithBackend(be)})
			if d := got.MaxDepth(); d != length {
				t.Fatalf("path%d/%s: deepest level %d", length, name, d)
			}
		}
	}
}

// TestCUDACancel cancels a run between iterations: the error wraps
// context.Canceled and the backend stays usable with no memory held.
func TestCUDACancel(t *testing.T) {
	cuda := testgraphs.OpenCUDA(t)
	g := testgraphs.Grid(200, 200)
	before, err := cuda.LiveBytes()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	stop := cancelAfter{n: 5, cancel: cancel}
	_, err = bfs.Run(ctx, g, 0, runtime.WithBackend(cuda), runtime.WithPolicy(&stop))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: got %v, want context.Canceled", err)
	}
	if err := cuda.Trim(); err != nil { // the run's state went to the reuse pool
		t.Fatal(err)
	}
	after, err := cuda.LiveBytes()
	if err != nil {
		t.Fatal(err)
	}
	// The graph stays cached; the run's state is gone.
	if cached := gpu.GraphBytes(g); after != before+cached {
		t.Fatalf("live device bytes %d -> %d after a cancelled run, want +%d (the cached graph)", before, after, cached)
	}
	kit.CompareGPU(t, "after-cancel", g, 0, kit.CPURun(t, g, 0), []runtime.Option{runtime.WithBackend(cuda)})
}

// cancelAfter is a policy that cancels the run's context after n
// iterations.
type cancelAfter struct {
	n, i   int
	cancel func()
}

func (c *cancelAfter) Begin(decider.Info) decider.Decider { return c }
func (c *cancelAfter) String() string                     { return "cancel-after" }
func (c *cancelAfter) Initial() decider.Variant           { return decider.Variant{} }
func (c *cancelAfter) Next(decider.Observation) decider.Variant {
	c.i++
	if c.i == c.n {
		c.cancel()
	}
	return decider.Variant{}
}

// TestCUDANoLeak runs many traversals and checks the device's free memory
// returns to where it started once the graphs are evicted and the reuse
// pool trimmed.
func TestCUDANoLeak(t *testing.T) {
	cuda := testgraphs.OpenCUDA(t)
	gs := []*graph.Graph{testgraphs.RMAT(14, 8, 5), testgraphs.Grid(100, 100)}
	// Warm-up: the driver reserves some memory at first launches.
	for _, g := range gs {
		if _, err := bfs.Run(context.Background(), g, 0, runtime.WithBackend(cuda)); err != nil {
			t.Fatal(err)
		}
		if err := cuda.Evict(g); err != nil {
			t.Fatal(err)
		}
	}
	if err := cuda.Trim(); err != nil {
		t.Fatal(err)
	}
	free0, _, err := cuda.MemInfo()
	if err != nil {
		t.Fatal(err)
	}
	live0, _ := cuda.LiveBytes()
	for i := 0; i < 40; i++ {
		g := gs[i%2]
		v := decider.AllVariants()[i%9]
		if _, err := bfs.Run(context.Background(), g, uint32(i), runtime.WithBackend(cuda), runtime.WithVariant(v)); err != nil {
			t.Fatal(err)
		}
	}
	for _, g := range gs {
		if err := cuda.Evict(g); err != nil {
			t.Fatal(err)
		}
	}
	if err := cuda.Trim(); err != nil {
		t.Fatal(err)
	}
	live, _ := cuda.LiveBytes()
	free, _, err := cuda.MemInfo()
	if err != nil {
		t.Fatal(err)
	}
	if live != live0 || live != 0 {
		t.Errorf("gearbox holds %d device bytes after 40 runs, eviction and Trim (%d before)", live, live0)
	}
	if free != free0 {
		t.Errorf("free device memory %d after 40 runs and eviction, %d before", free, free0)
	}
}

// TestCUDAInsufficientMemory asks for more headroom than the GPU has: the
// run fails before allocating, with ErrInsufficientMemory and the numbers.
func TestCUDAInsufficientMemory(t *testing.T) {
	probe := testgraphs.OpenCUDA(t)
	total := probe.TotalMemory()
	cuda := testgraphs.OpenCUDA(t, gpu.WithMemoryHeadroom(total))
	_, err := bfs.Run(context.Background(), testgraphs.Grid(10, 10), 0, runtime.WithBackend(cuda))
	if !errors.Is(err, gpu.ErrInsufficientMemory) {
		t.Fatalf("got %v, want ErrInsufficientMemory", err)
	}
	var me *gpu.MemoryError
	if !errors.As(err, &me) || me.Free <= 0 || me.Need <= 0 {
		t.Fatalf("error %v does not carry the free and needed memory", err)
	}
	if live, _ := cuda.LiveBytes(); live != 0 {
		t.Fatalf("%d device bytes held after a refused run", live)
	}
}

// BenchmarkCUDABFS times whole BFS runs on the GPU (graph cached, one
// warm-up run) and reports the median run time and time per level.
// Graphs: kron20 (R-MAT scale 20, edge factor 16), grid2048 (2048x2048).
func BenchmarkCUDABFS(b *testing.B) {
	for _, gname := range []string{"kron20", "grid2048"} {
		var g *graph.Graph
		if gname == "grid2048" {
			g = testgraphs.Grid(2048, 2048)
		} else {
			g = testgraphs.Bench(gname)
		}
		src := testgraphs.Sources(g, 1)[0]
		type config struct {
			name  string
			fused int
			opts  []runtime.Option
		}
		def := gpu.DefaultFusedLevels // persistent launches for small frontiers
		cfgs := []config{
			{"auto", def, nil},
			{"auto-nofused", 0, nil},
			{"O_T_QU", def, []runtime.Option{runtime.WithVariant(decider.Variant{Rep: decider.Queue})}},
			{"O_T_QU-nofused", 0, []runtime.Option{runtime.WithVariant(decider.Variant{Rep: decider.Queue})}},
			{"O_T_BM", 0, []runtime.Option{runtime.WithVariant(decider.Variant{})}},
			{"O_B_QU", def, []runtime.Option{runtime.WithVariant(decider.Variant{Mapping: decider.Block, Rep: decider.Queue})}},
			{"O_B_QU-nofused", 0, []runtime.Option{runtime.WithVariant(decider.Variant{Mapping: decider.Block, Rep: decider.Queue})}},
		}
		if gname != "grid2048" { // pull scans every unvisited vertex each level: not for 4000 levels
			cfgs = append(cfgs, config{"pull", 0, []runtime.Option{runtime.WithVariant(decider.PullVariant)}},
				config{"U_B_BM", 0, []runtime.Option{runtime.WithVariant(decider.Variant{Order: decider.Unordered, Mapping: decider.Block})}})
		}
		for _, cfg := range cfgs {
			b.Run(fmt.Sprintf("graph=%s/variant=%s", gname, cfg.name), func(b *testing.B) {
				cuda := testgraphs.OpenCUDA(b, gpu.WithFusedLevels(cfg.fused))
				defer cuda.Close()
				opts := append(slices.Clone(cfg.opts), runtime.WithBackend(cuda))
				res, med := kit.TimeRuns(b, g, src, opts)
				levels := res.MaxDepth() + 1
				b.ReportMetric(float64(med.Nanoseconds())/1000/float64(levels), "us/level")
				b.ReportMetric(float64(g.NumEdges())/med.Seconds()/1e9, "GTEPS")
				b.ReportMetric(float64(levels), "levels")
				b.ReportMetric(float64(res.Stats().Iterations), "iterations")
				if gt := res.Stats().GPU; gt != nil {
					b.ReportMetric(float64(gt.Levels), "device_levels")
					b.ReportMetric(float64(gt.Kernels.Microseconds())/1000, "kernels_ms")
				}
			})
		}
	}
}

// TestCUDAStatsSplit checks the GPU time split: present on the GPU, the
// parts within the run's wall time, exact timing under tracing, the
// upload reported once (the graph stays cached) and absent on the CPU.
func TestCUDAStatsSplit(t *testing.T) {
	cuda := testgraphs.OpenCUDA(t)
	g := testgraphs.Grid(64, 64)
	for i, trace := range []bool{false, true, false} {
		res, err := bfs.Run(context.Background(), g, 0, runtime.WithBackend(cuda), runtime.WithTrace(trace))
		if err != nil {
			t.Fatal(err)
		}
		st := res.Stats()
		gt := st.GPU
		if gt == nil {
			t.Fatalf("run %d: no GPU times", i)
		}
		if gt.Kernels <= 0 || gt.Transfers <= 0 || gt.Launches <= 0 {
			t.Fatalf("run %d: kernels %v, transfers %v, %d launches: want all positive", i, gt.Kernels, gt.Transfers, gt.Launches)
		}
		if gt.Kernels+gt.Transfers > st.Wall {
			t.Fatalf("run %d: kernels %v + transfers %v exceed the wall time %v", i, gt.Kernels, gt.Transfers, st.Wall)
		}
		if (i == 0) != (gt.Upload > 0) {
			t.Fatalf("run %d: upload %v; want it on the first run only", i, gt.Upload)
		}
		if want := res.MaxDepth() + 1; gt.Levels > int64(want) {
			t.Fatalf("run %d: %d device levels, the BFS has %d", i, gt.Levels, want)
		}
	}
	cpu, err := bfs.Run(context.Background(), g, 0, runtime.WithWorkers(2))
	if err != nil {
		t.Fatal(err)
	}
	if cpu.Stats().GPU != nil {
		t.Fatal("CPU run reports GPU times")
	}
}

// TestCUDASharedGeneratedAndReal runs the shared table's generated graphs
// and every real dataset testgraphs knows (skipped when ../shared/datasets
// is absent) through all configurations, and checks the GPU's depths on
// gstest's p2p-31 against its published answers.
func TestCUDASharedGeneratedAndReal(t *testing.T) {
	cuda := testgraphs.OpenCUDA(t, gpu.WithFusedLevels(0))
	fused := testgraphs.OpenCUDA(t, gpu.WithFusedLevels(1024))
	cases := testgraphs.Generated()
	real, err := testgraphs.Datasets()
	if err != nil {
		t.Logf("real datasets skipped: %v", err)
	}
	kit.CompareCases(t, append(cases, real...), gpuConfigs(cuda, fused))
	kit.P2P31(t, false, [][]runtime.Option{{runtime.WithBackend(cuda)}}, func(depth, _ []int64) []int64 { return depth }, false)
}

// BenchmarkCUDATargets times BFS on the graphs of the speed targets
// (docs/kernels-notes.md): GEARBOX_BENCH_SPECS lists graph.Generate specs
// (default kron:20:16,grid:1024:1024; kron:22:16, urand:22:16 and
// grid:2048:2048 on the GPU machine). For each variant: one warm-up run
// (the graph is uploaded before), then one run from each of 8 sources
// (testgraphs.Sources); the median run time (Stats.Wall: upload and
// per-run set-up excluded, results copied back included) is reported and
// logged with the kernel time and levels.
func BenchmarkCUDATargets(b *testing.B) {
	kit.CUDATargets(b, "bfs", func(spec string) []searchtest.GPUConfig {
		cfgs := []searchtest.GPUConfig{
			{Name: "auto"}, {Name: "auto-nofused", Plain: true},
			{Name: "O_T_QU", Variant: searchtest.V(decider.Ordered, decider.Thread, decider.Queue)},
			{Name: "O_T_QU-nofused", Plain: true, Variant: searchtest.V(decider.Ordered, decider.Thread, decider.Queue)},
			{Name: "O_B_QU", Variant: searchtest.V(decider.Ordered, decider.Block, decider.Queue)},
			{Name: "U_B_QU-nofused", Plain: true, Variant: searchtest.V(decider.Unordered, decider.Block, decider.Queue)},
		}
		if !strings.HasPrefix(spec, "grid") {
			cfgs = append(cfgs, searchtest.GPUConfig{Name: "O_B_BM", Plain: true, Variant: searchtest.V(decider.Ordered, decider.Block, decider.Bitmap)},
				searchtest.GPUConfig{Name: "U_B_BM", Plain: true, Variant: searchtest.V(decider.Unordered, decider.Block, decider.Bitmap)},
				searchtest.GPUConfig{Name: "pull", Plain: true, Variant: &decider.PullVariant})
		}
		return cfgs
	}, true)
}

// TestCUDARelease: GPU runs into the memory of released results (reused
// without clearing) are still correct.
func TestCUDARelease(t *testing.T) { searchtest.CUDARelease(t, checkRelease) }

// BenchmarkCUDACallSplit splits the time of a whole bfs.Run call on the
// GPU (graph cached, result released before the next call, as a caller
// running many sources would) into the parts Stats reports: Setup (the
// operator's per-run device state), Wall (Start, iterations, result copy),
// within it Kernels and Transfers, and the rest of the call (result type,
// options, host allocation). Graphs: GEARBOX_SPLIT_SPECS (generator specs,
// or dataset file names under GEARBOX_DATASETS), default kron:18 and
// wiki-Vote. Medians over 8 sources x b.N are reported and logged.
func BenchmarkCUDACallSplit(b *testing.B) {
	specs := os.Getenv("GEARBOX_SPLIT_SPECS")
	if specs == "" {
		specs = "kron:18,wiki-Vote.txt"
	}
	cuda := testgraphs.OpenCUDA(b)
	for _, spec := range strings.Split(specs, ",") {
		var g *graph.Graph
		if strings.Contains(spec, ".") {
			dir, err := testgraphs.DatasetsDir()
			if err != nil {
				b.Skip(err)
			}
			if g, err = graph.Load(filepath.Join(dir, spec), graph.LoadOptions{}); err != nil {
				b.Fatal(err)
			}
		} else {
			var err error
			if g, err = graph.Generate(spec, graph.GenOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		srcs := testgraphs.Sources(g, 8)
		for _, variant := range []string{"auto", "O_T_QU"} {
			b.Run(fmt.Sprintf("graph=%s/variant=%s", spec, variant), func(b *testing.B) {
				opts := []runtime.Option{runtime.WithBackend(cuda)}
				if variant != "auto" {
					v, err := decider.ParseVariant(variant)
					if err != nil {
						b.Fatal(err)
					}
					opts = append(opts, runtime.WithVariant(v))
				}
				if res, err := bfs.Run(context.Background(), g, srcs[0], opts...); err != nil {
					b.Fatal(err)
				} else {
					res.Release()
				}
				var call, setup, wall, kern, xfer, rest []time.Duration
				for i := 0; i < b.N; i++ {
					for _, src := range srcs {
						t0 := time.Now()
						res, err := bfs.Run(context.Background(), g, src, opts...)
						el := time.Since(t0)
						if err != nil {
							b.Fatal(err)
						}
						st := res.Stats()
						res.Release()
						call = append(call, el)
						setup = append(setup, st.GPU.Setup)
						wall = append(wall, st.Wall)
						kern = append(kern, st.GPU.Kernels)
						xfer = append(xfer, st.GPU.Transfers)
						rest = append(rest, el-st.Wall-st.GPU.Setup)
					}
				}
				us := func(x []time.Duration) float64 { return float64(searchtest.MedianDur(x).Nanoseconds()) / 1e3 }
				b.ReportMetric(us(call), "call_us")
				b.ReportMetric(us(setup), "setup_us")
				b.ReportMetric(us(wall), "wall_us")
				b.ReportMetric(us(kern), "kernels_us")
				b.ReportMetric(us(xfer), "transfers_us")
				b.ReportMetric(us(rest), "rest_us")
				b.Logf("SPLIT bfs %s %s call %.1f us = setup %.1f + wall %.1f (kernels %.1f, transfers %.1f) + rest %.1f",
					spec, variant, us(call), us(setup), us(wall), us(kern), us(xfer), us(rest))
			})
		}
	}
}

// TestCUDAFusedHubs: a run fuses from its first level, and a frontier of
// hubs stays in the persistent launch (their blocks expand hubs of up to
// kernels.PersistMaxDeg out-edges, the whole grid larger ones), so every
// level of the BFS runs in it; a level of more out-edges than a launch
// takes runs on the ordinary kernels, without a launch that declines
// (which would hold launches off for the next iterations), and the rest in
// launches (testgraphs.HubCases). Depths must match the CPU either way.
func TestCUDAFusedHubs(t *testing.T) {
	oq := runtime.WithVariant(decider.Variant{Order: decider.Ordered, Mapping: decider.Thread, Rep: decider.Queue})
	backend := testgraphs.HubBackends(t)
	for _, c := range testgraphs.HubCases() {
		want := kit.CPURun(t, c.G, 0)
		if d := want.MaxDepth(); d != c.Levels-1 {
			t.Fatalf("%s: the CPU's deepest level is %d, want %d", c.Name, d, c.Levels-1)
		}
		got := kit.CompareGPU(t, c.Name, c.G, 0, want, []runtime.Option{runtime.WithBackend(backend(c)), oq})
		if levels, want := got.Stats().GPU.Levels, map[bool]int{true: c.Levels, false: c.Levels - 1}[c.All]; levels != int64(want) {
			t.Errorf("%s: %d levels ran in persistent launches, want %d of %d", c.Name, levels, want, c.Levels)
		}
	}
}

// TestCUDALocalLevels: a persistent launch runs a frontier of at most
// kernels.PersistLocalVertices vertices and the local edge limit in one
// block, and hands larger ones back to the whole grid. On a path and a
// 30x30 grid from a corner (at most 30 vertices a level) every level is
// local; on an R-MAT graph the small first and last levels are; on the
// beads graph the frontiers alternate between one
// vertex of 600 out-edges (local) and 600 vertices (grid-wide), so the
// launch changes hands at every level; on a 300x300 grid from a corner the
// levels of more than 256 vertices (over 1024 out-edges) are grid-wide and
// the others local; with local levels off none is local; under a frontier
// limit below PersistLocalVertices, local levels stop at the limit too.
// Depths must match the CPU in every case.
func TestCUDALocalLevels(t *testing.T) {
	var beads *graph.Graph
	for _, c := range testgraphs.Cases() {
		if c.Name == "beads" {
			beads = c.G
		}
	}
	if beads == nil {
		t.Fatal("no beads graph in the shared table")
	}
	path := testgraphs.MustBuild(300, false, func() (a [][2]uint32) {
		for v := uint32(0); v+1 < 300; v++ {
			a = append(a, [2]uint32{v, v + 1})
		}
		return a
	}(), nil)
	on, off := testgraphs.OpenCUDA(t), testgraphs.OpenCUDA(t, gpu.WithLocalLevels(0))
	oq := runtime.WithVariant(decider.Variant{Order: decider.Ordered, Mapping: decider.Thread, Rep: decider.Queue})
	for _, c := range []struct {
		name string
		g    *graph.Graph
		all  bool // every level local
	}{{"path300", path, true}, {"grid30x30", testgraphs.Grid(30, 30), true}, {"beads", beads, false},
		{"grid300x300", testgraphs.Grid(300, 300), false}, {"rmat12", testgraphs.RMAT(12, 8, 3), false}} {
		want := kit.CPURun(t, c.g, 0)
		levels := int64(want.MaxDepth() + 1)
		for name, be := range map[string]*gpu.CUDA{"local": on, "no-local": off} {
			label := c.name + "/" + name
			gt := kit.CompareGPU(t, label, c.g, 0, want, []runtime.Option{runtime.WithBackend(be), oq}).Stats().GPU
			if gt.Levels != levels {
				t.Errorf("%s: %d levels in persistent launches, want all %d", label, gt.Levels, levels)
			}
			switch {
			case name == "no-local" && gt.LocalLevels != 0:
				t.Errorf("%s: %d local levels with local levels off", label, gt.LocalLevels)
			case name == "local" && c.all && gt.LocalLevels != levels:
				t.Errorf("%s: %d of %d levels local, want all", label, gt.LocalLevels, levels)
			case name == "local" && !c.all && (gt.LocalLevels == 0 || gt.LocalLevels == levels):
				t.Errorf("%s: %d of %d levels local, want some", label, gt.LocalLevels, levels)
			}
		}
	}
	// Local levels keep the launch's frontier limit: under a limit of 8,
	// the 30x30 grid from a corner (level d holds min(d+1, 59-d)
	// vertices) runs its first and last 8 levels in launches, all of them
	// local, and the rest on the ordinary kernels.
	g := testgraphs.Grid(30, 30)
	capped := testgraphs.OpenCUDA(t, gpu.WithFusedLevels(8))
	gt := kit.CompareGPU(t, "grid30x30/limit8", g, 0, kit.CPURun(t, g, 0), []runtime.Option{runtime.WithBackend(capped), oq}).Stats().GPU
	if gt.Levels != 16 || gt.LocalLevels != 16 {
		t.Errorf("grid30x30/limit8: %d levels in launches, %d local, want 16 and 16", gt.Levels, gt.LocalLevels)
	}
}

// TestCUDAResultBehindLaunch: a result of at most frontier.SpecMaxBytes is
// copied behind each persistent launch, and kept when that launch
// finished the traversal: on paths (one launch; four, the last finishing)
// and on a 30x30 grid under a frontier limit of 8 (a launch that does not
// finish, ordinary iterations, then one that does). Where the traversal
// ends on the ordinary kernels (a star's 20 leaves over the limit, after
// a launch that ran its centre; no launches at all), and where the result
// is too large, it is read as before. Depths must match the CPU in every
// case.
func TestCUDAResultBehindLaunch(t *testing.T) {
	star := make([][2]uint32, 0, 20)
	for i := uint32(1); i <= 20; i++ {
		star = append(star, [2]uint32{0, i})
	}
	pathOf := func(n int) *graph.Graph {
		a := make([][2]uint32, 0, n-1)
		for v := uint32(0); int(v)+1 < n; v++ {
			a = append(a, [2]uint32{v, v + 1})
		}
		return testgraphs.MustBuild(n, false, a, nil)
	}
	on, capped, none := testgraphs.OpenCUDA(t), testgraphs.OpenCUDA(t, gpu.WithFusedLevels(8)),
		testgraphs.OpenCUDA(t, gpu.WithFusedLevels(0))
	oq := runtime.WithVariant(decider.Variant{Order: decider.Ordered, Mapping: decider.Thread, Rep: decider.Queue})
	for _, c := range []struct {
		name   string
		g      *graph.Graph
		be     *gpu.CUDA
		behind bool
	}{
		{"path100", pathOf(100), on, true},
		{"path16000", pathOf(16000), on, true},  // four launches, 64000 bytes of depths
		{"path20000", pathOf(20000), on, false}, // 80000 bytes: over frontier.SpecMaxBytes
		{"grid30x30/limit8", testgraphs.Grid(30, 30), capped, true},
		{"star20/limit8", testgraphs.MustBuild(21, true, star, nil), capped, false},
		{"path100/no-launches", pathOf(100), none, false},
	} {
		want := kit.CPURun(t, c.g, 0)
		for rep := range 2 { // the second run reuses the first's released memory
			got := kit.CompareGPU(t, c.name, c.g, 0, want, []runtime.Option{runtime.WithBackend(c.be), oq})
			gt := got.Stats().GPU
			if gt.ResultBehindLaunch != c.behind {
				t.Errorf("%s/run%d: result copied behind the launch: %v, want %v (%d levels in launches)",
					c.name, rep, gt.ResultBehindLaunch, c.behind, gt.Levels)
			}
			got.Release()
		}
	}
}

// TestCUDAPullLaunch: the adaptive policy's pull levels run inside one
// persistent launch (kernels.BFSPullPersist), which goes back to push
// inside the launch once the frontier shrinks. With launches off, and for the static pull
// variant, pulls are single kernels. Depths must match the CPU in every
// case.
func TestCUDAPullLaunch(t *testing.T) {
	on, off := testgraphs.OpenCUDA(t), testgraphs.OpenCUDA(t, gpu.WithFusedLevels(0))
	// Under a frontier limit of 64 a push launch stops before the large
	// levels, which the adaptive policy then decides (without it, a push
	// launch runs every level of the small graphs).
	capped := testgraphs.OpenCUDA(t, gpu.WithFusedLevels(64))
	thr := eager()
	thr.PullMinEdges = 0
	pull := runtime.WithVariant(decider.PullVariant)
	auto := runtime.WithThresholds(thr)
	for _, c := range []struct {
		name string
		g    *graph.Graph
		be   *gpu.CUDA // for the adaptive policy
	}{
		{"rmat12", testgraphs.RMAT(12, 8, 3), capped},
		{"rmat12-directed", testgraphs.RMATDirected(12, 8, 5), capped},
		// Large enough (2M arcs, hubs) for push launches to stop before
		// the large levels under the default limit.
		{"rmat16-tail", withTail(testgraphs.RMAT(16, 16, 3), 40), on},
		{"grid30x30", testgraphs.Grid(30, 30), capped},
	} {
		src := uint32(0)
		for c.g.Degree(src) == 0 {
			src++
		}
		want := kit.CPURun(t, c.g, src)
		levels := int64(want.MaxDepth() + 1)

		for name, be := range map[string]*gpu.CUDA{"pull": on, "pull-no-launch": off} {
			st := kit.CompareGPU(t, c.name+"/"+name, c.g, src, want, []runtime.Option{runtime.WithBackend(be), pull}).Stats()
			if st.Counters["pull_levels"] != 0 || int64(st.Iterations) != levels {
				t.Errorf("%s/%s: %d iterations, %d pulled in launches; want %d single pulls", c.name, name, st.Iterations, st.Counters["pull_levels"], levels)
			}
		}

		st := kit.CompareGPU(t, c.name+"/auto", c.g, src, want, []runtime.Option{runtime.WithBackend(c.be), auto, runtime.WithTrace(true)}).Stats()
		var inPulls, pulled int64 // levels of the iterations that pulled; levels pulled in launches
		for _, it := range st.Trace {
			if it.Variant.Direction == decider.Pull {
				inPulls += int64(it.Levels)
			}
			pulled += it.Counts["pull_levels"]
		}
		if pulled != st.Counters["pull_levels"] {
			t.Errorf("%s/auto: the trace has %d levels pulled in launches, the statistics %d", c.name, pulled, st.Counters["pull_levels"])
		}
		if strings.HasPrefix(c.name, "rmat") && st.Counters["pull_levels"] == 0 {
			t.Errorf("%s/auto: no level pulled in a launch", c.name)
		}
		// The tail's frontiers of one vertex send the launch back to push:
		// the tail's levels after the R-MAT part's (at most 10 deep here)
		// are pushed in the launch.
		if c.name == "rmat16-tail" && inPulls < st.Counters["pull_levels"]+30 {
			t.Errorf("%s/auto: %d levels in pull launches, %d of them pulled; want 30 or more of the tail's 40 pushed in them",
				c.name, inPulls, st.Counters["pull_levels"])
		}
		st = kit.CompareGPU(t, c.name+"/auto-no-launch", c.g, src, want, []runtime.Option{runtime.WithBackend(off), auto}).Stats()
		if st.Counters["pull_levels"] != 0 {
			t.Errorf("%s/auto-no-launch: %d levels pulled in launches with launches off", c.name, st.Counters["pull_levels"])
		}
	}

	// Five pull levels in one launch, so its two frontier bitmaps are each
	// written twice: layers of 1, 64, 64, 64, 8 and 1 vertices, each
	// vertex with arcs from all of the layer before (a layer's vertices
	// find their parent at their first in-arc, and the later layers' scans
	// stay under PULL_LOSS times the frontier's out-edges). Push runs the
	// first level (1 vertex, 64 out-edges, under pull_min_edges), pull the
	// rest: Beamer's rules are set never to go back. The push level is a
	// launch, which leaves a queue: the pull launch takes it as it is
	// (no conversion before it, though exact timing would show one).
	layered := layers(1, 64, 64, 64, 8, 1)
	lthr := eager()
	lthr.PullMinEdges, lthr.Alpha, lthr.Beta = 1000, 1e9, 1e9
	small := testgraphs.OpenCUDA(t, gpu.WithFusedLevels(32))
	st := kit.CompareGPU(t, "layered/auto", layered, 0, kit.CPURun(t, layered, 0), []runtime.Option{runtime.WithBackend(small), runtime.WithThresholds(lthr), runtime.WithTrace(true)}).Stats()
	if st.Counters["pull_levels"] != 5 || st.Variants[decider.PullVariant.String()] != 1 {
		t.Errorf("layered/auto: %d levels pulled in %d pull iterations; want 5 in 1", st.Counters["pull_levels"], st.Variants[decider.PullVariant.String()])
	}
	if n := len(st.Trace); n != 2 || st.Trace[1].Counts["pull_levels"] != 5 || st.Trace[1].Levels != 5 {
		t.Errorf("layered/auto: trace %+v; want a push level, then a pull launch of 5 levels, all pulled", st.Trace)
	}
	if st.Conversion != 0 || st.GPU.Levels != 6 {
		t.Errorf("layered/auto: conversion %v, %d levels in launches; want none, and all 6", st.Conversion, st.GPU.Levels)
	}
}

// layers returns a directed graph of layers of the given sizes, each
// vertex with arcs from every vertex of the layer before; vertex 0 is the
// first layer's first.
func layers(sizes ...int) *graph.Graph {
	var arcs [][2]uint32
	first := 0
	for l := 1; l < len(sizes); l++ {
		prev := first
		first += sizes[l-1]
		for u := prev; u < first; u++ {
			for v := first; v < first+sizes[l]; v++ {
				arcs = append(arcs, [2]uint32{uint32(u), uint32(v)})
			}
		}
	}
	return testgraphs.MustBuild(first+sizes[len(sizes)-1], false, arcs, nil)
}

// withTail returns g with a path of k new vertices hanging off vertex 0
// (both directions).
func withTail(g *graph.Graph, k int) *graph.Graph {
	n := g.NumVertices()
	var arcs [][2]uint32
	for v := 0; v < n; v++ {
		for _, u := range g.Neighbors(uint32(v)) {
			arcs = append(arcs, [2]uint32{uint32(v), u})
		}
	}
	prev := uint32(0)
	for i := 0; i < k; i++ {
		w := uint32(n + i)
		arcs = append(arcs, [2]uint32{prev, w}, [2]uint32{w, prev})
		prev = w
	}
	return testgraphs.MustBuild(n+k, false, arcs, nil)
}
