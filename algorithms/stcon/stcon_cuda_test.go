//go:build cuda

package stcon_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gearbox-graph/gearbox/algorithms/stcon"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// TestCUDAMatchesBFS: the GPU's answers against a serial BFS (check:
// reachability, hop count, and the path an arc path of that many hops from
// s to t) on the shared table, the generated graphs and the real datasets,
// directed and undirected, s = t and unreachable targets among the pairs;
// the graphs alternate, so each one's searcher replaces the last's.
func TestCUDAMatchesBFS(t *testing.T) {
	cuda := testgraphs.OpenCUDA(t)
	for _, c := range testgraphs.Everything(t) {
		n := c.G.NumVertices()
		if n == 0 {
			continue
		}
		ps := pairs(n, 40)
		for _, s := range c.Sources {
			ps = append(ps, [2]uint32{s, ps[len(ps)-1][1]}, [2]uint32{s, s})
		}
		check(t, c.Name+"/cuda", c.G, ps, runtime.WithBackend(cuda))
	}
}

// TestCUDALongPaths: paths longer than the control block carries back
// (read from the device queue) and searches of more levels than one
// launch runs (resumed launches): a directed chain of 20000 vertices end
// to end and back, and a grid corner to corner.
func TestCUDALongPaths(t *testing.T) {
	cuda := testgraphs.OpenCUDA(t)
	const n = 20000
	arcs := make([][2]uint32, n-1)
	for i := range arcs {
		arcs[i] = [2]uint32{uint32(i), uint32(i + 1)}
	}
	chain := testgraphs.MustBuild(n, false, arcs, nil)
	check(t, "chain/cuda", chain, [][2]uint32{{0, n - 1}, {n - 1, 0}, {17, n / 2}, {n / 2, n / 2}}, runtime.WithBackend(cuda))
	grid := testgraphs.Grid(300, 300)
	check(t, "grid/cuda", grid, [][2]uint32{{0, 300*300 - 1}, {299, 300 * 299}}, runtime.WithBackend(cuda))
	r, err := stcon.Run(context.Background(), chain, 0, n-1, runtime.WithBackend(cuda))
	if err != nil {
		t.Fatal(err)
	}
	if it := r.Stats().Iterations; it != n-1 {
		t.Fatalf("chain: %d levels expanded, want %d (each arc once, one side or the other)", it, n-1)
	}
}

func TestCUDACancel(t *testing.T) {
	cuda := testgraphs.OpenCUDA(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := stcon.Run(ctx, testgraphs.Grid(5, 5), 0, 24, runtime.WithBackend(cuda)); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	// The searcher is still usable.
	check(t, "after-cancel", testgraphs.Grid(5, 5), [][2]uint32{{0, 24}}, runtime.WithBackend(cuda))
}

// BenchmarkCUDAStcon: 100 st-queries on kron:22 with their paths, the
// graph on the device (seed 004's STCON benchmark; the target is under 20
// ms for all 100). The pairs join non-isolated vertices (testgraphs.Sources),
// so most are reachable; the total of the 100 is reported (median over
// b.N rounds), with the reachable ones and their mean hops.
func BenchmarkCUDAStcon(b *testing.B) {
	cuda := testgraphs.OpenCUDA(b)
	for _, spec := range []string{"kron:22"} {
		g := testgraphs.BenchSpec(b, spec)
		vs := testgraphs.Sources(g, 200)
		b.Run(fmt.Sprintf("graph=%s/queries=100", spec), func(b *testing.B) {
			ctx := context.Background()
			if _, err := stcon.Run(ctx, g, vs[0], vs[1], runtime.WithBackend(cuda)); err != nil { // uploads the graph
				b.Fatal(err)
			}
			var totals []time.Duration
			reach, hops := 0, 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				reach, hops = 0, 0
				t0 := time.Now()
				for q := 0; q+1 < len(vs); q += 2 {
					r, err := stcon.Run(ctx, g, vs[q], vs[q+1], runtime.WithBackend(cuda))
					if err != nil {
						b.Fatal(err)
					}
					if h, ok := r.Hops(); ok {
						reach, hops = reach+1, hops+h
					}
				}
				totals = append(totals, time.Since(t0))
			}
			b.StopTimer()
			slices.Sort(totals)
			b.ReportMetric(float64(totals[len(totals)/2].Microseconds())/1000, "ms_per_100")
			b.ReportMetric(float64(reach), "reachable")
			b.ReportMetric(float64(hops)/float64(max(reach, 1)), "mean_hops")
		})
	}
}
