//go:build cuda

package searchtest

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

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
// as sub-benchmarks graph=<spec>/variant=<config>: a warm-up run from the
// first of 8 fixed sources, then b.N rounds of one run per source. It
// reports the median run time (Stats.Wall) and kernel time, and logs them
// as "TARGET <name> <spec> <config> ..." with the iterations and device
// levels of the last round; levels adds the runs' levels (BFS's depths +
// 1) to both.
func (s Search[R]) CUDATargets(b *testing.B, name string, configs func(spec string) []GPUConfig, levels bool) {
	specs := os.Getenv("GEARBOX_BENCH_SPECS")
	if specs == "" {
		specs = "kron:20:16,grid:1024:1024"
	}
	cuda := testgraphs.OpenCUDA(b)
	plain := testgraphs.OpenCUDA(b, gpu.WithFusedLevels(0))
	for _, spec := range strings.Split(specs, ",") {
		g := s.graph(testgraphs.Case{G: testgraphs.BenchSpec(b, spec)})
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
				opts = append(opts, cfg.Opts...)
				if _, err := s.Run(context.Background(), g, srcs[0], opts...); err != nil {
					b.Fatal(err)
				}
				var walls, kern durations
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
				med := walls.median()
				b.ReportMetric(float64(med.Microseconds())/1000, "median_ms")
				b.ReportMetric(float64(kern.median().Microseconds())/1000, "kernels_ms")
				levelsNote := ""
				if levels {
					b.ReportMetric(float64(slices.Max(lvls)), "max_levels")
					levelsNote = fmt.Sprintf(" levels %v", lvls)
				}
				b.Logf("TARGET %s %s %s median %.3f ms (kernels %.3f ms; min %.3f max %.3f)%s iterations %v device-levels %v",
					name, spec, cfg.Name, MS(med), MS(kern.median()), MS(walls.min()), MS(walls.max()), levelsNote, iters, lv)
			})
		}
	}
}
