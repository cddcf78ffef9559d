package sssp_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/sssp"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// BenchmarkSSSP runs every push variant and the adaptive policy on the
// benchmark graphs (derived weights 1..255, seed 1), cycling over 8 fixed
// sources, with the default delta and (for auto) a few others.
func BenchmarkSSSP(b *testing.B) {
	for _, gname := range []string{"kron20", "urand20", "grid2048"} {
		type cfg struct {
			name string
			opts []runtime.Option
		}
		cfgs := []cfg{{"variant=auto", nil}}
		for _, d := range []uint64{1, 8, 32} {
			cfgs = append(cfgs, cfg{fmt.Sprintf("variant=auto/delta=%d", d), []runtime.Option{sssp.WithDelta(d)}})
		}
		for _, v := range decider.PushVariants() {
			cfgs = append(cfgs, cfg{"variant=" + v.String(), []runtime.Option{runtime.WithVariant(v)}})
		}
		for _, c := range cfgs {
			b.Run("graph="+gname+"/"+c.name, func(b *testing.B) {
				if gname == "grid2048" && strings.HasPrefix(c.name, "variant=U_") {
					b.Skip("unordered (Bellman-Ford) on grid2048: already 7.6-8 s/op CPU on grid1024; not a candidate for the best static variant")
				}
				g := testgraphs.Bench(gname).WithDerivedWeights(1)
				kit.Bench(b, g, testgraphs.Sources(g, 8), c.opts)
			})
		}
	}
}
