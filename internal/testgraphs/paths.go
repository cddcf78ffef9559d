package testgraphs

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// Everything returns the shared table, the generated graphs and the real
// datasets (logging, not failing, when those are absent): the graphs the
// GPU's parent and path tests compare with the CPU on.
func Everything(tb testing.TB) []Case {
	tb.Helper()
	cases := append(Cases(), Generated()...)
	real, err := Datasets()
	if err != nil {
		tb.Logf("real datasets skipped: %v", err)
	}
	return append(cases, real...)
}

// CompareWithCPU runs every case from each of its sources on the CPU (two
// workers: the reference) and in every configuration of cfgs, each run
// with extra options too, and hands both results to check. graphOf picks
// the graph of a case (Case.Weighted for SSSP).
func CompareWithCPU[R any](t *testing.T, cases []Case, graphOf func(Case) *graph.Graph, cfgs map[string][]runtime.Option, extra []runtime.Option,
	run func(context.Context, *graph.Graph, uint32, ...runtime.Option) (R, error), check func(label string, g *graph.Graph, want, got R)) {
	t.Helper()
	ctx := context.Background()
	runs := 0
	for _, c := range cases {
		g := graphOf(c)
		for _, src := range c.Sources {
			want, err := run(ctx, g, src, append([]runtime.Option{runtime.WithWorkers(2)}, extra...)...)
			if err != nil {
				t.Fatalf("%s/src=%d: cpu: %v", c.Name, src, err)
			}
			for name, opts := range cfgs {
				label := fmt.Sprintf("%s/%s/src=%d", c.Name, name, src)
				got, err := run(ctx, g, src, append(slices.Clone(opts), extra...)...)
				if err != nil {
					t.Fatalf("%s: %v", label, err)
				}
				check(label, g, want, got)
				runs++
			}
		}
	}
	t.Logf("%d runs compared with the CPU's", runs)
}

// Released is a result that gives its memory back (bfs.Result,
// sssp.Result).
type Released interface {
	Stats() runtime.Stats
	Release()
}

// BenchParents times run (bfs.Run, sssp.Run) on backend with parents off
// and on (withParents) on kron:22 and the 2048x2048 grid (BenchSpec; with
// derived weights when weighted), the graphs of the parents' cost target:
// one warm-up run (the graph is uploaded), then one run from each of 8
// sources (Sources), reporting the median wall time (Stats.Wall), the
// median parent pass (the counter parent_pass_ns) and, with parents, the
// cost against the median without. Sub-benchmarks are named
// graph=SPEC/parents=off|on.
func BenchParents[R Released](b *testing.B, backend runtime.Backend, weighted bool, withParents runtime.Option,
	run func(context.Context, *graph.Graph, uint32, ...runtime.Option) (R, error)) {
	one := func(b *testing.B, g *graph.Graph, src uint32, parents bool) (wall, pass time.Duration) {
		opts := []runtime.Option{runtime.WithBackend(backend)}
		if parents {
			opts = append(opts, withParents)
		}
		r, err := run(context.Background(), g, src, opts...)
		if err != nil {
			b.Fatal(err)
		}
		defer r.Release()
		return r.Stats().Wall, time.Duration(r.Stats().Counters["parent_pass_ns"])
	}
	for _, spec := range []string{"kron:22", "grid:2048:2048"} {
		g := BenchSpec(b, spec)
		if weighted && g.WeightKind() == graph.Unweighted {
			g = g.WithDerivedWeights(1)
		}
		srcs := Sources(g, 8)
		var off time.Duration
		for _, parents := range []bool{false, true} {
			b.Run(fmt.Sprintf("graph=%s/parents=%s", spec, map[bool]string{false: "off", true: "on"}[parents]), func(b *testing.B) {
				one(b, g, srcs[0], parents)
				var walls, passes []time.Duration
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					for _, s := range srcs {
						w, p := one(b, g, s, parents)
						walls, passes = append(walls, w), append(passes, p)
					}
				}
				b.StopTimer()
				wall, pass := median(walls), median(passes)
				b.ReportMetric(ms(wall), "median_ms")
				b.ReportMetric(ms(pass), "parent_pass_ms")
				if !parents {
					off = wall
				} else if off > 0 {
					b.ReportMetric(100*(ms(wall)/ms(off)-1), "parents_cost_%")
				}
			})
		}
	}
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
