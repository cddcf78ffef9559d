package sssp_test

import (
	"context"
	"math"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/sssp"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// TestRealDatasets runs the adaptive policy, several deltas and every
// variant on the real graphs against Dijkstra.
func TestRealDatasets(t *testing.T) {
	if raceEnabled {
		t.Skip("real datasets are checked without the race detector (too slow under it)")
	}
	cases, err := testgraphs.Datasets()
	testgraphs.SkipNoDatasets(t, err)
	opts := [][]runtime.Option{nil, {sssp.WithDelta(1)}, {sssp.WithDelta(1000)}}
	if !testing.Short() && !raceEnabled {
		for _, v := range decider.PushVariants() {
			opts = append(opts, []runtime.Option{runtime.WithVariant(v), sssp.WithDelta(64)})
		}
	}
	for _, c := range cases {
		g := c.Weighted()
		for _, o := range opts {
			for _, s := range c.Sources {
				res, err := sssp.Run(context.Background(), g, s, o...)
				if err != nil {
					t.Fatalf("%s: %v", c.Name, err)
				}
				if err := sssp.Verify(g, res); err != nil {
					t.Fatalf("%s src %d %s: %v", c.Name, s, res.Stats().Policy, err)
				}
			}
		}
	}
}

// TestP2P31KnownDistances compares the adaptive policy, every push variant
// (one worker and five) and three deltas with gstest's published Dijkstra
// answer.
func TestP2P31KnownDistances(t *testing.T) {
	if raceEnabled {
		t.Skip("checked without the race detector")
	}
	g, src, _, want, err := testgraphs.P2P31()
	testgraphs.SkipNoDatasets(t, err)
	configs := testgraphs.EveryConfig(decider.PushVariants())
	for _, d := range []uint64{1, 2, 50} {
		configs = append(configs, []runtime.Option{sssp.WithDelta(d)})
	}
	for _, o := range configs {
		res, err := sssp.Run(context.Background(), g, src, o...)
		if err != nil {
			t.Fatal(err)
		}
		for v, w := range want {
			if w == -2 {
				continue
			}
			if w < -1 {
				t.Fatalf("vertex %d: published answer %d is neither a distance nor unreachable (-1)", v, w)
			}
			got, ok := res.Distance(uint32(v))
			if (w >= 0) != ok || (ok && int64(got) != w) {
				t.Fatalf("%s: vertex %d (external %d): %d ok=%v, gstest says %d", res.Stats().Policy, v, g.IDs().External(uint32(v)), got, ok, w)
			}
		}
	}
}

// TestLDBCKnownDistances compares the adaptive policy and every push
// variant, on one worker and on five, with the LDBC Graphalytics
// validation answers (weights scaled by testgraphs.LDBCScale, exactly).
func TestLDBCKnownDistances(t *testing.T) {
	cases, err := testgraphs.LDBC("SSSP")
	testgraphs.SkipNoDatasets(t, err)
	if len(cases) != 4 {
		t.Fatalf("%d LDBC SSSP graphs, want 4", len(cases))
	}
	for _, c := range cases {
		for _, o := range testgraphs.EveryConfig(decider.PushVariants()) {
			res, err := sssp.Run(context.Background(), c.G, c.Source, o...)
			if err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			for v, w := range c.Want {
				got, ok := res.Distance(uint32(v))
				if (w >= 0) != ok || (ok && float64(got) != math.Round(w*testgraphs.LDBCScale)) {
					t.Fatalf("%s %s: vertex %d (external %d): %d ok=%v, LDBC says %v (x%d)", c.Name, res.Stats().Policy, v, c.G.IDs().External(uint32(v)), got, ok, w, testgraphs.LDBCScale)
				}
			}
		}
	}
}
