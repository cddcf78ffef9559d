package bfs_test

import (
	"context"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/bfs"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// TestRealDatasets runs the adaptive policy and every variant on the real
// graphs of ../shared/datasets against the serial reference.
func TestRealDatasets(t *testing.T) {
	if raceEnabled {
		t.Skip("real datasets are checked without the race detector (too slow under it)")
	}
	cases, err := testgraphs.Datasets()
	testgraphs.SkipNoDatasets(t, err)
	opts := [][]runtime.Option{nil}
	if !testing.Short() && !raceEnabled {
		for _, v := range decider.AllVariants() {
			opts = append(opts, []runtime.Option{runtime.WithVariant(v)})
		}
	}
	for _, c := range cases {
		for _, o := range opts {
			for _, s := range c.Sources {
				res, err := bfs.Run(context.Background(), c.G, s, o...)
				if err != nil {
					t.Fatalf("%s: %v", c.Name, err)
				}
				if err := bfs.Verify(c.G, res); err != nil {
					t.Fatalf("%s src %d %s: %v", c.Name, s, res.Stats().Policy, err)
				}
			}
		}
	}
}

// TestP2P31KnownDepths compares the adaptive policy and every variant, on
// one worker and on five, with gstest's published BFS answer.
func TestP2P31KnownDepths(t *testing.T) {
	if raceEnabled {
		t.Skip("checked without the race detector")
	}
	g, src, want, _, err := testgraphs.P2P31()
	testgraphs.SkipNoDatasets(t, err)
	for _, o := range testgraphs.EveryConfig(decider.AllVariants()) {
		res, err := bfs.Run(context.Background(), g, src, o...)
		if err != nil {
			t.Fatal(err)
		}
		for v, w := range want {
			if w == -2 {
				continue
			}
			d, ok := res.Depth(uint32(v))
			if (w >= 0) != ok || (ok && int64(d) != w) {
				t.Fatalf("vertex %d (external %d): depth %d ok=%v, gstest says %d", v, g.IDs().External(uint32(v)), d, ok, w)
			}
		}
	}
}

// TestLDBCKnownDepths compares the adaptive policy, pull and every static
// variant, on one worker and on five, with the LDBC Graphalytics
// validation answers.
func TestLDBCKnownDepths(t *testing.T) {
	cases, err := testgraphs.LDBC("BFS")
	testgraphs.SkipNoDatasets(t, err)
	if len(cases) != 4 {
		t.Fatalf("%d LDBC BFS graphs, want 4", len(cases))
	}
	for _, c := range cases {
		for _, o := range testgraphs.EveryConfig(decider.AllVariants()) {
			res, err := bfs.Run(context.Background(), c.G, c.Source, o...)
			if err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			for v, w := range c.Want {
				d, ok := res.Depth(uint32(v))
				if (w >= 0) != ok || (ok && float64(d) != w) {
					t.Fatalf("%s %s: vertex %d (external %d): depth %d ok=%v, LDBC says %v", c.Name, res.Stats().Policy, v, c.G.IDs().External(uint32(v)), d, ok, w)
				}
			}
		}
	}
}
