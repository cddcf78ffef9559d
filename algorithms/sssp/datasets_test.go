package sssp_test

import (
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/sssp"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// TestRealDatasets runs the adaptive policy, several deltas and every
// variant on the real graphs against Dijkstra.
func TestRealDatasets(t *testing.T) {
	opts := [][]runtime.Option{nil, {sssp.WithDelta(1)}, {sssp.WithDelta(1000)}}
	if !testing.Short() && !raceEnabled {
		for _, v := range decider.PushVariants() {
			opts = append(opts, []runtime.Option{runtime.WithVariant(v), sssp.WithDelta(64)})
		}
	}
	kit.RealDatasets(t, raceEnabled, opts, sssp.Verify)
}

// TestP2P31KnownDistances compares the adaptive policy, every push variant
// (one worker and five) and three deltas with gstest's published Dijkstra
// answer, which must cover every vertex.
func TestP2P31KnownDistances(t *testing.T) {
	configs := testgraphs.EveryConfig(decider.PushVariants())
	for _, d := range []uint64{1, 2, 50} {
		configs = append(configs, []runtime.Option{sssp.WithDelta(d)})
	}
	kit.P2P31(t, raceEnabled, configs, func(_, dist []int64) []int64 { return dist }, true)
}

// TestLDBCKnownDistances compares the adaptive policy and every push
// variant, on one worker and on five, with the LDBC Graphalytics
// validation answers (weights scaled by testgraphs.LDBCScale, exactly).
func TestLDBCKnownDistances(t *testing.T) {
	kit.LDBC(t, "SSSP", testgraphs.EveryConfig(decider.PushVariants()), testgraphs.LDBCScale)
}
