package sssp_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/internal/search/searchtest"
	"github.com/gearbox-graph/gearbox/algorithms/sssp"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/runtime"
)

// BenchmarkSSSP runs every push variant and the adaptive policy on the
// benchmark graphs (derived weights 1..255, seed 1), cycling over 8 fixed
// sources, with the default delta and (for auto) a few others.
func BenchmarkSSSP(b *testing.B) {
	configs := []searchtest.BenchConfig{{Name: "variant=auto"}}
	for _, d := range []uint64{1, 8, 32} {
		configs = append(configs, searchtest.BenchConfig{Name: fmt.Sprintf("variant=auto/delta=%d", d), Opts: []runtime.Option{sssp.WithDelta(d)}})
	}
	for _, v := range decider.PushVariants() {
		configs = append(configs, searchtest.BenchConfig{Name: "variant=" + v.String(), Opts: []runtime.Option{runtime.WithVariant(v)}})
	}
	kit.Benchmark(b, configs, func(gname, config string) string {
		if gname == "grid2048" && strings.HasPrefix(config, "variant=U_") {
			return "unordered (Bellman-Ford) on grid2048: already 7.6-8 s/op CPU on grid1024; not a candidate for the best static variant"
		}
		return ""
	})
}
