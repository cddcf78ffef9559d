package bfs_test

import (
	"context"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/bfs"
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
				srcs := testgraphs.Sources(g, 8)
				var insp, conv, wall float64
				b.ResetTimer()
				cpu0 := testgraphs.CPUTime()
				for i := 0; i < b.N; i++ {
					res, err := bfs.Run(context.Background(), g, srcs[i%len(srcs)], opts...)
					if err != nil {
						b.Fatal(err)
					}
					st := res.Stats()
					insp += st.Inspection.Seconds()
					conv += st.Conversion.Seconds()
					wall += st.Wall.Seconds()
				}
				b.ReportMetric(float64(testgraphs.CPUTime()-cpu0)/1e6/float64(b.N), "cpu-ms/op")
				b.ReportMetric(100*insp/wall, "%inspect")
				b.ReportMetric(100*conv/wall, "%convert")
			})
		}
	}
}
