package bfs_test

import (
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/internal/search/searchtest"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/runtime"
)

// BenchmarkBFS runs every variant and the adaptive policy on the benchmark
// graphs, cycling over 8 fixed sources. Reported extra metrics: inspection
// and conversion time as a fraction of the run.
func BenchmarkBFS(b *testing.B) {
	variants := map[string][]runtime.Option{"auto": nil}
	for _, v := range decider.AllVariants() {
		variants[v.String()] = []runtime.Option{runtime.WithVariant(v)}
	}
	var configs []searchtest.BenchConfig
	for _, vname := range append([]string{"auto", "pull"}, decider.ValidNames()[:8]...) {
		configs = append(configs, searchtest.BenchConfig{Name: "variant=" + vname, Opts: variants[vname]})
	}
	kit.Benchmark(b, configs, func(gname, config string) string {
		if gname == "grid2048" && config == "variant=pull" {
			return "static pull scans every unvisited vertex on each of grid2048's ~4000 levels: measured 54-90 s/op"
		}
		return ""
	})
}
