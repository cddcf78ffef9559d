package bfs_test

import (
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/bfs"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// TestRealDatasets runs the adaptive policy and every variant on the real
// graphs of ../shared/datasets against the serial reference.
func TestRealDatasets(t *testing.T) {
	opts := [][]runtime.Option{nil}
	if !testing.Short() && !raceEnabled {
		for _, v := range decider.AllVariants() {
			opts = append(opts, []runtime.Option{runtime.WithVariant(v)})
		}
	}
	kit.RealDatasets(t, raceEnabled, opts, bfs.Verify)
}

// TestP2P31KnownDepths compares the adaptive policy and every variant, on
// one worker and on five, with gstest's published BFS answer (which skips
// some vertices).
func TestP2P31KnownDepths(t *testing.T) {
	kit.P2P31(t, raceEnabled, testgraphs.EveryConfig(decider.AllVariants()), func(depth, _ []int64) []int64 { return depth }, false)
}

// TestLDBCKnownDepths compares the adaptive policy, pull and every static
// variant, on one worker and on five, with the LDBC Graphalytics
// validation answers.
func TestLDBCKnownDepths(t *testing.T) {
	kit.LDBC(t, "BFS", testgraphs.EveryConfig(decider.AllVariants()), 1)
}
