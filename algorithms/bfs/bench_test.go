package bfs_test

import (
	"testing"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// BenchmarkBFS runs every variant and the adaptive policy on the benchmark
// graphs, cycling over 8 fixed sources. Reported extra metrics: inspection
// and conversion time as a fraction of the run.
func BenchmarkBFS(b *testing.B) {
	for _, gname := range []string{"kron20", "urand20", "grid2048"} {
		variants := map[string][]runtime.Option{"auto": nil}
		for _, v := range decider.AllVariants() {
			variants[v.String()] = []runtime.Option{runtime.WithVariant(v)}
		}
		for _, vname := range append([]string{"auto", "pull"}, decider.ValidNames()[:8]...) {
			opts := variants[vname]
			b.Run("graph="+gname+"/variant="+vname, func(b *testing.B) {
				if gname == "grid2048" && vname == "pull" {
					b.Skip("static pull scans every unvisited vertex on each of grid2048's ~4000 levels: measured 54-90 s/op")
				}
				g := testgraphs.Bench(gname)
				kit.Bench(b, g, testgraphs.Sources(g, 8), opts)
			})
		}
	}
}
