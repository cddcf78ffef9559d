package sssp_test

import (
	"context"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/sssp"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

func TestParentsEveryVariant(t *testing.T) {
	kit.EveryConfig(t, []runtime.Option{sssp.WithParents()}, kit.CheckTree)
}

// TestParentsZeroWeights: zero-weight cycles make every arc of the cycle
// tight; the tree must still lead back to the source.
func TestParentsZeroWeights(t *testing.T) {
	arcs := [][2]uint32{{0, 1}, {1, 2}, {2, 1}, {2, 3}, {3, 1}, {3, 4}}
	g := testgraphs.MustBuild(5, false, arcs, []uint32{5, 0, 0, 0, 0, 2})
	for _, w := range []int{1, 3} {
		r, err := sssp.Run(context.Background(), g, 0, runtime.WithWorkers(w), sssp.WithParents())
		if err != nil {
			t.Fatal(err)
		}
		if err := kit.CheckTree(g, r); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRunMulti: multi-source distances are the minimum over the single
// sources.
func TestRunMulti(t *testing.T) { kit.MultiMatchesSingle(t) }

func TestParentsRealDatasets(t *testing.T) { kit.ParentsOnDatasets(t, raceEnabled) }

func TestParentsUnsupportedElsewhere(t *testing.T) { kit.UnsupportedElsewhere(t) }
