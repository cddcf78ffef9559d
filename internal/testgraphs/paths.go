package testgraphs

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gearbox-graph/gearbox/graph"
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

// ParentRun is one run of BenchParents: its wall time (Stats.Wall) and
// the part of it the parent pass took (0 without parents).
type ParentRun func(g *graph.Graph, src uint32, parents bool) (wall, pass time.Duration, err error)

// BenchParents times run with parents off and on on each graph spec
// (BenchSpec; weighted with derived weights when weighted): one warm-up
// run (the graph is uploaded), then one run from each of 8 sources
// (Sources), reporting the median wall time, the median parent pass and,
// with parents, the pass's share of the run without them. Sub-benchmarks
// are named graph=SPEC/parents=off|on.
func BenchParents(b *testing.B, specs []string, weighted bool, run ParentRun) {
	for _, spec := range specs {
		g := BenchSpec(b, spec)
		if weighted && g.WeightKind() == graph.Unweighted {
			g = g.WithDerivedWeights(1)
		}
		srcs := Sources(g, 8)
		var off time.Duration
		for _, parents := range []bool{false, true} {
			b.Run(fmt.Sprintf("graph=%s/parents=%s", spec, map[bool]string{false: "off", true: "on"}[parents]), func(b *testing.B) {
				if _, _, err := run(g, srcs[0], parents); err != nil {
					b.Fatal(err)
				}
				var walls, passes []time.Duration
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					for _, s := range srcs {
						w, p, err := run(g, s, parents)
						if err != nil {
							b.Fatal(err)
						}
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
