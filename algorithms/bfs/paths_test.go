package bfs_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/bfs"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// checkTree checks r's parents: every reached non-source vertex has a
// parent one level closer over an arc of g, sources and unreached
// vertices have none, and Path(v) is an arc path from a source of
// Depth(v) arcs.
func checkTree(g *graph.Graph, r *bfs.Result) error {
	if !r.HasParents() {
		return errors.New("no parents recorded")
	}
	srcs := r.Sources()
	for v := range uint32(g.NumVertices()) {
		d, reached := r.Depth(v)
		p, hasP := r.Parent(v)
		switch {
		case !reached || d == 0:
			if hasP {
				return fmt.Errorf("vertex %d (depth %d, reached %v) has parent %d", v, d, reached, p)
			}
			if _, ok := r.Path(v); ok != reached {
				return fmt.Errorf("vertex %d: Path ok %v, reached %v", v, ok, reached)
			}
			continue
		case !hasP:
			return fmt.Errorf("vertex %d at depth %d has no parent", v, d)
		}
		if dp, _ := r.Depth(p); dp+1 != d || !slices.Contains(g.Neighbors(p), v) {
			return fmt.Errorf("parent edge %d->%d is not tight (depths %d, %d) or not an arc", p, v, dp, d)
		}
		path, ok := r.Path(v)
		if !ok || len(path) != d+1 || path[len(path)-1] != v || !slices.Contains(srcs, path[0]) {
			return fmt.Errorf("Path(%d) = %v, %v; want %d arcs from a source", v, path, ok, d)
		}
		for i := 0; i+1 < len(path); i++ {
			if !slices.Contains(g.Neighbors(path[i]), path[i+1]) {
				return fmt.Errorf("Path(%d) step %d->%d is not an arc", v, path[i], path[i+1])
			}
		}
	}
	return nil
}

func TestParentsEveryVariant(t *testing.T) {
	ctx := context.Background()
	for _, c := range testgraphs.Cases() {
		for name, opts := range configs() {
			for _, src := range c.Sources {
				res, err := bfs.Run(ctx, c.G, src, append(slices.Clip(opts), bfs.WithParents())...)
				if err != nil {
					t.Fatalf("%s/%s/src=%d: %v", c.Name, name, src, err)
				}
				if err := bfs.Verify(c.G, res); err != nil {
					t.Fatalf("%s/%s/src=%d: %v", c.Name, name, src, err)
				}
				if err := checkTree(c.G, res); err != nil {
					t.Fatalf("%s/%s/src=%d: %v", c.Name, name, src, err)
				}
			}
		}
	}
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
	el := &graph.EdgeList{Src: []uint32{0, 1}, Dst: []uint32{1, 2}, NumVertices: 3}
	ids, err := graph.SortedIDs([]uint64{10, 20, 30})
	if err != nil {
		t.Fatal(err)
	}
	el.IDs = ids
	g, err := graph.Build(el, graph.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
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
func TestRunMulti(t *testing.T) {
	ctx := context.Background()
	for _, c := range testgraphs.Cases() {
		n := c.G.NumVertices()
		if n == 0 {
			continue
		}
		srcs := testgraphs.Sources(c.G, 3)
		if len(srcs) == 0 {
			srcs = []uint32{0}
		}
		srcs = append(srcs, srcs[0]) // a repeated source counts once
		want := make([]int, n)
		for i := range want {
			want[i] = -1
		}
		for _, s := range srcs {
			r, err := bfs.Run(ctx, c.G, s)
			if err != nil {
				t.Fatal(err)
			}
			for v, d := range r.All() {
				if want[v] < 0 || d < want[v] {
					want[v] = d
				}
			}
		}
		for name, opts := range configs() {
			r, err := bfs.RunMulti(ctx, c.G, srcs, append(slices.Clip(opts), bfs.WithParents())...)
			if err != nil {
				t.Fatalf("%s/%s: %v", c.Name, name, err)
			}
			for v := range uint32(n) {
				d, ok := r.Depth(v)
				if !ok {
					d = -1
				}
				if d != want[v] {
					t.Fatalf("%s/%s: vertex %d: depth %d, the minimum over single sources is %d", c.Name, name, v, d, want[v])
				}
			}
			if err := checkTree(c.G, r); err != nil {
				t.Fatalf("%s/%s: %v", c.Name, name, err)
			}
		}
	}
	if _, err := bfs.RunMulti(ctx, testgraphs.Grid(2, 2), nil); !errors.Is(err, bfs.ErrSource) {
		t.Fatalf("no sources: %v, want ErrSource", err)
	}
	if _, err := bfs.RunMulti(ctx, testgraphs.Grid(2, 2), []uint32{0, 9}); !errors.Is(err, bfs.ErrSource) {
		t.Fatalf("a source out of range: %v, want ErrSource", err)
	}
}

// TestParentsRealDatasets checks parent trees on the real graphs.
func TestParentsRealDatasets(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("real datasets: not under -race or -short")
	}
	cases, err := testgraphs.Datasets()
	testgraphs.SkipNoDatasets(t, err)
	for _, c := range cases {
		for _, w := range []int{1, 4} {
			r, err := bfs.Run(context.Background(), c.G, c.Sources[0], runtime.WithWorkers(w), bfs.WithParents())
			if err != nil {
				t.Fatal(err)
			}
			if err := checkTree(c.G, r); err != nil {
				t.Fatalf("%s, %d workers: %v", c.Name, w, err)
			}
		}
	}
}

func TestParentsUnsupportedElsewhere(t *testing.T) {
	g := testgraphs.Grid(3, 3)
	if _, err := bfs.Run(context.Background(), g, 0, runtime.WithBackend(testgraphs.OtherBackend{}), bfs.WithParents()); !errors.Is(err, runtime.ErrUnsupported) || !strings.Contains(err.Error(), "WithParents") {
		t.Fatalf("parents on another backend: %v, want ErrUnsupported naming WithParents", err)
	}
	if _, err := bfs.RunMulti(context.Background(), g, []uint32{0, 1}, runtime.WithBackend(testgraphs.OtherBackend{})); !errors.Is(err, runtime.ErrUnsupported) {
		t.Fatalf("several sources on another backend: %v, want ErrUnsupported", err)
	}
	if err := bfs.RunBatch(context.Background(), g, []uint32{0, 1}, func(int, []uint32) error { return nil }, runtime.WithBackend(testgraphs.OtherBackend{})); !errors.Is(err, runtime.ErrUnsupported) {
		t.Fatalf("a batch on another backend: %v, want ErrUnsupported", err)
	}
}
