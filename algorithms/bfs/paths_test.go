package bfs_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/bfs"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

func TestParentsEveryVariant(t *testing.T) {
	kit.EveryConfig(t, []runtime.Option{bfs.WithParents()}, bfs.Verify, kit.CheckTree)
}

func TestNoParentsByDefault(t *testing.T) {
	g := testgraphs.Grid(4, 4)
	r, err := bfs.Run(context.Background(), g, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r.HasParents() {
		t.Fatal("a run without WithParents has parents")
	}
	if _, ok := r.Path(5); ok {
		t.Fatal("Path without parents reported a path")
	}
}

func TestPathIDs(t *testing.T) {
	// Vertex ids 10, 20, 30 in the file: a path 10 -> 20 -> 30.
	g := fileIDGraph(t, []uint64{10, 20, 30}, []uint32{0, 1}, []uint32{1, 2}, false)
	r, err := bfs.Run(context.Background(), g, 0, bfs.WithParents())
	if err != nil {
		t.Fatal(err)
	}
	got, ok := r.PathIDs(2)
	if !ok || !slices.Equal(got, []uint64{10, 20, 30}) {
		t.Fatalf("PathIDs(2) = %v, %v; want [10 20 30]", got, ok)
	}
}

// TestRunMulti: a multi-source BFS's depths are the minimum over the
// single-source runs, with 1 and several workers and every variant.
func TestRunMulti(t *testing.T) { kit.MultiMatchesSingle(t) }

// TestParentsRealDatasets checks parent trees on the real graphs.
func TestParentsRealDatasets(t *testing.T) { kit.ParentsOnDatasets(t, raceEnabled) }

func TestParentsUnsupportedElsewhere(t *testing.T) {
	kit.UnsupportedElsewhere(t)
	g := testgraphs.Grid(3, 3)
	if err := bfs.RunBatch(context.Background(), g, []uint32{0, 1}, func(int, []uint32) error { return nil }, runtime.WithBackend(testgraphs.OtherBackend{})); !errors.Is(err, runtime.ErrUnsupported) {
		t.Fatalf("a batch on another backend: %v, want ErrUnsupported", err)
	}
}
