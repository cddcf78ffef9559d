package bfs_test

import (
	"context"
	"errors"
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
	if errors.Is(err, testgraphs.ErrNoDatasets) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
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

// TestP2P31KnownDepths compares with gstest's published BFS answer.
func TestP2P31KnownDepths(t *testing.T) {
	if raceEnabled {
		t.Skip("checked without the race detector")
	}
	g, src, want, _, err := testgraphs.P2P31()
	if errors.Is(err, testgraphs.ErrNoDatasets) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range [][]runtime.Option{nil, {runtime.WithVariant(decider.PullVariant)}} {
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
