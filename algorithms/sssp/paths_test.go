package sssp_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/sssp"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// arcWeight returns the least weight of an arc u->v of g, and false when
// there is none.
func arcWeight(g *graph.Graph, u, v uint32) (uint64, bool) {
	best, ok := uint64(0), false
	ws := g.EdgeWeights(u)
	for i, x := range g.Neighbors(u) {
		if x == v && (!ok || uint64(ws[i]) < best) {
			best, ok = uint64(ws[i]), true
		}
	}
	return best, ok
}

// checkTree checks r's parents: every parent edge is an arc of g with
// dist[p] + w == dist[v] (some parallel arc of that weight), and Path(v)
// runs from a source over arcs whose weights sum to Distance(v).
func checkTree(g *graph.Graph, r *sssp.Result) error {
	if !r.HasParents() {
		return errors.New("no parents recorded")
	}
	srcs := r.Sources()
	for v := range uint32(g.NumVertices()) {
		d, reached := r.Distance(v)
		p, hasP := r.Parent(v)
		isSrc := slices.Contains(srcs, v)
		switch {
		case !reached || isSrc:
			if hasP {
				return fmt.Errorf("vertex %d (source %v, reached %v) has parent %d", v, isSrc, reached, p)
			}
			continue
		case !hasP:
			return fmt.Errorf("vertex %d at distance %d has no parent", v, d)
		}
		dp, _ := r.Distance(p)
		tight := false
		ws := g.EdgeWeights(p)
		for i, x := range g.Neighbors(p) {
			tight = tight || x == v && dp+uint64(ws[i]) == d
		}
		if !tight {
			return fmt.Errorf("parent edge %d->%d is not a tight arc (distances %d, %d)", p, v, dp, d)
		}
		path, ok := r.Path(v)
		if !ok || path[len(path)-1] != v || !slices.Contains(srcs, path[0]) {
			return fmt.Errorf("Path(%d) = %v, %v", v, path, ok)
		}
		var sum uint64
		for i := 0; i+1 < len(path); i++ {
			w, ok := arcWeight(g, path[i], path[i+1])
			if !ok {
				return fmt.Errorf("Path(%d) step %d->%d is not an arc", v, path[i], path[i+1])
			}
			sum += w
		}
		if sum != d {
			return fmt.Errorf("Path(%d) weighs %d, distance %d", v, sum, d)
		}
	}
	return nil
}

func TestParentsEveryVariant(t *testing.T) {
	ctx := context.Background()
	for _, c := range testgraphs.Cases() {
		g := c.Weighted()
		for name, opts := range configs() {
			for _, src := range c.Sources {
				res, err := sssp.Run(ctx, g, src, append(slices.Clip(opts), sssp.WithParents())...)
				if err != nil {
					t.Fatalf("%s/%s/src=%d: %v", c.Name, name, src, err)
				}
				if err := checkTree(g, res); err != nil {
					t.Fatalf("%s/%s/src=%d: %v", c.Name, name, src, err)
				}
			}
		}
	}
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
		if err := checkTree(g, r); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRunMulti: multi-source distances are the minimum over the single
// sources.
func TestRunMulti(t *testing.T) {
	ctx := context.Background()
	for _, c := range testgraphs.Cases() {
		g := c.Weighted()
		n := g.NumVertices()
		if n == 0 {
			continue
		}
		srcs := testgraphs.Sources(g, 3)
		if len(srcs) == 0 {
			srcs = []uint32{0}
		}
		srcs = append(srcs, srcs[0])
		want := make([]uint64, n)
		for i := range want {
			want[i] = ^uint64(0)
		}
		for _, s := range srcs {
			r, err := sssp.Run(ctx, g, s)
			if err != nil {
				t.Fatal(err)
			}
			for v, d := range r.All() {
				want[v] = min(want[v], d)
			}
		}
		for name, opts := range configs() {
			r, err := sssp.RunMulti(ctx, g, srcs, append(slices.Clip(opts), sssp.WithParents())...)
			if err != nil {
				t.Fatalf("%s/%s: %v", c.Name, name, err)
			}
			for v := range uint32(n) {
				d, ok := r.Distance(v)
				if !ok {
					d = ^uint64(0)
				}
				if d != want[v] {
					t.Fatalf("%s/%s: vertex %d: distance %d, the minimum over single sources is %d", c.Name, name, v, d, want[v])
				}
			}
			if err := checkTree(g, r); err != nil {
				t.Fatalf("%s/%s: %v", c.Name, name, err)
			}
		}
	}
	if _, err := sssp.RunMulti(ctx, testgraphs.Grid(2, 2).WithDerivedWeights(1), nil); !errors.Is(err, sssp.ErrSource) {
		t.Fatalf("no sources: %v, want ErrSource", err)
	}
}

func TestParentsRealDatasets(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("real datasets: not under -race or -short")
	}
	cases, err := testgraphs.Datasets()
	testgraphs.SkipNoDatasets(t, err)
	for _, c := range cases {
		g := c.Weighted()
		for _, w := range []int{1, 4} {
			r, err := sssp.Run(context.Background(), g, c.Sources[0], runtime.WithWorkers(w), sssp.WithParents())
			if err != nil {
				t.Fatal(err)
			}
			if err := checkTree(g, r); err != nil {
				t.Fatalf("%s, %d workers: %v", c.Name, w, err)
			}
		}
	}
}

func TestParentsUnsupportedElsewhere(t *testing.T) {
	g := testgraphs.Grid(3, 3).WithDerivedWeights(1)
	if _, err := sssp.Run(context.Background(), g, 0, runtime.WithBackend(testgraphs.OtherBackend{}), sssp.WithParents()); !errors.Is(err, runtime.ErrUnsupported) || !strings.Contains(err.Error(), "WithParents") {
		t.Fatalf("parents on another backend: %v, want ErrUnsupported naming WithParents", err)
	}
	if _, err := sssp.RunMulti(context.Background(), g, []uint32{0, 1}, runtime.WithBackend(testgraphs.OtherBackend{})); !errors.Is(err, runtime.ErrUnsupported) {
		t.Fatalf("several sources on another backend: %v, want ErrUnsupported", err)
	}
}
