package bfs_test

import (
	"context"
	"errors"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/bfs"
	"github.com/gearbox-graph/gearbox/algorithms/internal/search/searchtest"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// checkBatch compares each batch row with a single-source run.
func checkBatch(t *testing.T, name string, g *graph.Graph, srcs []uint32, workers int) {
	t.Helper()
	rows := 0
	err := bfs.RunBatch(context.Background(), g, srcs, func(i int, depth []uint32) error {
		rows++
		r, err := bfs.Run(context.Background(), g, srcs[i])
		if err != nil {
			return err
		}
		for v := range uint32(g.NumVertices()) {
			d, ok := r.Depth(v)
			want := uint32(d)
			if !ok {
				want = bfs.BatchUnreached
			}
			if depth[v] != want {
				t.Fatalf("%s, %d workers: source %d, vertex %d: batch depth %d, single run %d", name, workers, srcs[i], v, depth[v], want)
			}
		}
		return nil
	}, runtime.WithWorkers(workers))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if rows != len(srcs) {
		t.Fatalf("%s: %d rows for %d sources", name, rows, len(srcs))
	}
}

func TestRunBatch(t *testing.T) {
	for _, c := range testgraphs.Cases() {
		n := c.G.NumVertices()
		if n == 0 {
			continue
		}
		var srcs []uint32
		for v := 0; v < n && len(srcs) < bfs.BatchWidth-1; v += max(1, n/70) {
			srcs = append(srcs, uint32(v))
		}
		srcs = append(srcs, srcs[0]) // a repeated source gets its own row
		for _, w := range []int{1, 4} {
			checkBatch(t, c.Name, c.G, srcs, w)
		}
	}
	g := testgraphs.Grid(3, 3)
	for _, srcs := range [][]uint32{nil, make([]uint32, bfs.BatchWidth+1)} {
		if err := bfs.RunBatch(context.Background(), g, srcs, func(int, []uint32) error { return nil }); !errors.Is(err, bfs.ErrBatch) {
			t.Errorf("%d sources: %v, want ErrBatch", len(srcs), err)
		}
	}
	if err := bfs.RunBatch(context.Background(), g, []uint32{9}, func(int, []uint32) error { return nil }); !errors.Is(err, bfs.ErrSource) {
		t.Errorf("source out of range: %v", err)
	}
	stop := errors.New("stop")
	if err := bfs.RunBatch(context.Background(), g, []uint32{1, 2}, func(int, []uint32) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("row error: %v", err)
	}
}

func TestRunBatchRealDatasets(t *testing.T) {
	for _, c := range searchtest.Datasets(t, raceEnabled) {
		srcs := append([]uint32{}, c.Sources...)
		for v := uint32(0); len(srcs) < 16; v++ {
			srcs = append(srcs, v)
		}
		checkBatch(t, c.Name, c.G, srcs, 3)
	}
}
