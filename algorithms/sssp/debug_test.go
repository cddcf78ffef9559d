package sssp_test

import (
	"context"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/runtime"
	"os"
	"strconv"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/sssp"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
)

// TestDebugRun prints run statistics for GB_DEBUG=<bench graph> (skipped
// otherwise); GB_DELTA picks delta.
func TestDebugRun(t *testing.T) {
	name := os.Getenv("GB_DEBUG")
	if name == "" {
		t.Skip("set GB_DEBUG to a benchmark graph name")
	}
	g := testgraphs.Bench(name).WithDerivedWeights(1)
	d, _ := strconv.ParseUint(os.Getenv("GB_DELTA"), 10, 64)
	for _, s := range testgraphs.Sources(g, 3) {
		opts := []runtime.Option{sssp.WithDelta(d)}
		if vn := os.Getenv("GB_VARIANT"); vn != "" {
			v, err := decider.ParseVariant(vn)
			if err != nil {
				t.Fatal(err)
			}
			opts = append(opts, runtime.WithVariant(v))
		}
		res, err := sssp.Run(context.Background(), g, s, opts...)
		if err != nil {
			t.Fatal(err)
		}
		st := res.Stats()
		m, _ := res.MaxDistance()
		t.Logf("src %d: %d iterations, %d edges, wall %v, maxdist %d, variants %v", s, st.Iterations, st.EdgesRelaxed, st.Wall, m, st.Variants)
	}
}
