//go:build cuda

package searchtest

import (
	"context"
	"fmt"
	"os"
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

// MedianDur returns the median of x (the upper one of an even count).
func MedianDur(x []time.Duration) time.Duration {
	s := slices.Clone(x)
	slices.Sort(s)
	return s[len(s)/2]
}

// MS is d in milliseconds.
func MS(d time.Duration) float64 { return d.Seconds() * 1e3 }

// NarrowMin is the backend option WithNarrowMin of the runs CompareGPU
// checks (tests that lower it set it while they run).
var NarrowMin = gpu.DefaultNarrowMin

// CUDARelease runs check, the package's release test, on the GPU, then on a
// backend that narrows every result (gpu.WithNarrowMin(1): results
// narrowed are recycled at their width) with NarrowMin set to 1
// meanwhile. Runs into the memory of released results, reused without
// clearing, must stay correct.
func CUDARelease(t *testing.T, check func(t *testing.T, opts ...runtime.Option)) {
	check(t, runtime.WithBackend(testgraphs.OpenCUDA(t)))
	defer func(m int) { NarrowMin = m }(NarrowMin)
	NarrowMin = 1
	check(t, runtime.WithBackend(testgraphs.OpenCUDA(t, gpu.WithNarrowMin(1))))
}

// CPURun is the GPU tests' reference: the run from src on the CPU backend.
func (s Search[R]) CPURun(t *testing.T, g *graph.Graph, src uint32) R {
	t.Helper()
	want, err := s.Run(context.Background(), g, src, runtime.WithWorkers(2))
	if err != nil {
		t.Fatalf("cpu: %v", err)
	}
	return want
}

// CompareGPU runs the search from src with opts (a GPU backend) and fails
// the test where the result differs from want (the CPU's) in a value,
// does not pass Verify, or was copied to the host at another width than
// the fewest of 8, 16 and 32 bits whose all-ones (unreached) lies above
// its largest value (32 below NarrowMin vertices; 64-bit values are
// copied as they are).
func (s Search[R]) CompareGPU(t *testing.T, label string, g *graph.Graph, src uint32, want R, opts []runtime.Option) R {
	t.Helper()
	got, err := s.Run(context.Background(), g, src, opts...)
	if err != nil {
		t.Fatalf("%s: gpu: %v", label, err)
	}
	if got.NumVertices() != want.NumVertices() {
		t.Fatalf("%s: %d %ss on the GPU, %d on the CPU", label, got.NumVertices(), s.What, want.NumVertices())
	}
	testgraphs.CompareValues(t, label, s.What, want.NumVertices(), want.Value, got.Value)
	if err := s.Verify(g, got); err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	gt := got.Stats().GPU
	if gt == nil || gt.ResultBits == 64 {
		return got
	}
	m, _ := got.MaxValue()
	bits := 32
	switch {
	case got.NumVertices() < NarrowMin:
	case m < 0xFF:
		bits = 8
	case m < 0xFFFF:
		bits = 16
	}
	if gt.ResultBits != bits {
		t.Fatalf("%s: %ss copied as %d bits (%d vertices, largest %d), want %d", label, s.What, gt.ResultBits, got.NumVertices(), m, bits)
	}
	return got
}

// GPUConfig is one configuration of CUDATargets: on the backend with
// persistent launches off where Plain is set, else at their default; the
// static Variant where set, else the adaptive policy; plus Opts.
type GPUConfig struct {
	Name    string
	Plain   bool
	Variant *decider.Variant
	Opts    []runtime.Option
}

// V is the push variant o_m_r, for GPUConfig.Variant.
func V(o decider.Order, m decider.Mapping, r decider.Rep) *decider.Variant {
	return &decider.Variant{Order: o, Mapping: m, Rep: r}
}

// CUDATargets times the search (name: "bfs", "sssp") on the graphs of the
// speed targets, GEARBOX_BENCH_SPECS (graph.Generate specs, default
// kron:20:16,grid:1024:1024; weighted where the search is: derived
// weights, seed 1), under the configurations configs gives for each spec,
// as sub-benchmarks graph=<spec>/variant=<config> (GPUTargets).
func (s Search[R]) CUDATargets(b *testing.B, name string, configs func(spec string) []GPUConfig, levels bool) {
	specs := os.Getenv("GEARBOX_BENCH_SPECS")
	if specs == "" {
		specs = "kron:20:16,grid:1024:1024"
	}
	cuda := testgraphs.OpenCUDA(b)
	plain := testgraphs.OpenCUDA(b, gpu.WithFusedLevels(0))
	for _, spec := range strings.Split(specs, ",") {
		g0, err := graph.Generate(spec, graph.GenOptions{})
		if err != nil {
			b.Fatal(err)
		}
		g := s.graph(testgraphs.Case{G: g0})
		srcs := testgraphs.Sources(g, 8)
		for _, cfg := range configs(spec) {
			b.Run(fmt.Sprintf("graph=%s/variant=%s", spec, cfg.Name), func(b *testing.B) {
				be := cuda
				if cfg.Plain {
					be = plain
				}
				opts := []runtime.Option{runtime.WithBackend(be)}
				if cfg.Variant != nil {
					opts = append(opts, runtime.WithVariant(*cfg.Variant))
				}
				s.GPUTargets(b, name, spec, cfg.Name, g, srcs, append(opts, cfg.Opts...), levels)
			})
		}
	}
}

// GPUTargets times the search with opts (a GPU backend) on g, the graph
// of spec: a warm-up run from srcs[0], then b.N rounds of one run per
// source. It reports the median run time (Stats.Wall) and kernel time, and
// logs them as "TARGET <name> <spec> <config> ..." with the iterations
// and device levels of the last round; levels adds the runs' levels
// (BFS's depths + 1) to both.
func (s Search[R]) GPUTargets(b *testing.B, name, spec, config string, g *graph.Graph, srcs []uint32, opts []runtime.Option, levels bool) {
	if _, err := s.Run(context.Background(), g, srcs[0], opts...); err != nil {
		b.Fatal(err)
	}
	var walls, kern []time.Duration
	var lvls, iters, lv []int
	for i := 0; i < b.N; i++ {
		walls, kern, lvls, iters, lv = walls[:0], kern[:0], lvls[:0], iters[:0], lv[:0]
		for _, src := range srcs {
			res, err := s.Run(context.Background(), g, src, opts...)
			if err != nil {
				b.Fatal(err)
			}
			st := res.Stats()
			walls = append(walls, st.Wall)
			kern = append(kern, st.GPU.Kernels)
			if m, ok := res.MaxValue(); ok {
				lvls = append(lvls, int(m)+1)
			} else {
				lvls = append(lvls, 0)
			}
			iters = append(iters, st.Iterations)
			lv = append(lv, int(st.GPU.Levels))
		}
	}
	med := MedianDur(walls)
	b.ReportMetric(float64(med.Microseconds())/1000, "median_ms")
	b.ReportMetric(float64(MedianDur(kern).Microseconds())/1000, "kernels_ms")
	levelsNote := ""
	if levels {
		b.ReportMetric(float64(slices.Max(lvls)), "max_levels")
		levelsNote = fmt.Sprintf(" levels %v", lvls)
	}
	b.Logf("TARGET %s %s %s median %.3f ms (kernels %.3f ms; min %.3f max %.3f)%s iterations %v device-levels %v",
		name, spec, config, MS(med), MS(MedianDur(kern)), MS(slices.Min(walls)), MS(slices.Max(walls)), levelsNote, iters, lv)
}
