package gonumview_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/sssp"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/graph/gonumview"
	"gonum.org/v1/gonum/graph/network"
	"gonum.org/v1/gonum/graph/path"
)

// gonum's Dijkstra on the view gives gearbox's SSSP distances.
func TestDijkstraMatchesSSSP(t *testing.T) {
	grid, err := graph.Generate("grid:12:9", graph.GenOptions{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	dir, err := graph.FromEdges(
		[]uint64{0, 0, 1, 2, 3, 5, 6},
		[]uint64{1, 2, 3, 3, 4, 6, 5},
		[]float64{4, 1, 1, 2, 7, 1, 1}, graph.BuilderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for name, g := range map[string]*graph.Graph{"grid": grid, "directed": dir} {
		t.Run(name, func(t *testing.T) {
			if g.WeightKind() == graph.Unweighted {
				g = g.WithDerivedWeights(1)
			}
			res, err := sssp.Run(context.Background(), g, 0)
			if err != nil {
				t.Fatal(err)
			}
			sp := path.DijkstraFrom(gonumview.Node(0), gonumview.New(g))
			for v := 0; v < g.NumVertices(); v++ {
				want := sp.WeightTo(int64(v))
				d, ok := res.Distance(uint32(v))
				switch {
				case math.IsInf(want, 1) && ok:
					t.Errorf("vertex %d: gonum unreachable, gearbox %d", v, d)
				case !math.IsInf(want, 1) && (!ok || float64(d) != want):
					t.Errorf("vertex %d: gonum %v, gearbox %d (reached %v)", v, want, d, ok)
				}
			}
		})
	}
}

func TestViewMethods(t *testing.T) {
	g, err := graph.FromEdges([]uint64{0, 0, 2}, []uint64{1, 2, 1}, []float64{1.5, 2, 3}, graph.BuilderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	v := gonumview.New(g)
	if v.Node(3) != nil || v.Node(-1) != nil || v.Node(2) == nil {
		t.Error("Node range")
	}
	if n := v.Nodes(); n.Len() != 3 {
		t.Errorf("Nodes().Len() = %d", n.Len())
	}
	to := v.To(1)
	var in []int64
	for to.Next() {
		in = append(in, to.Node().ID())
	}
	if fmt.Sprint(in) != "[0 2]" || to.Len() != 0 {
		t.Errorf("To(1) = %v, Len after = %d", in, to.Len())
	}
	if w, ok := v.Weight(0, 1); !ok || w != 1.5 {
		t.Errorf("Weight(0,1) = %v %v", w, ok)
	}
	if _, ok := v.Weight(1, 0); ok {
		t.Error("Weight(1,0) exists")
	}
	if !v.HasEdgeBetween(1, 0) || v.HasEdgeFromTo(1, 0) {
		t.Error("HasEdgeBetween / HasEdgeFromTo")
	}
	if e := v.WeightedEdgeBetween(1, 2); e == nil || e.From().ID() != 1 || e.Weight() != 3 {
		t.Errorf("WeightedEdgeBetween(1,2) = %v", e)
	}
	if v.Edge(1, 0) != nil {
		t.Error("Edge(1,0) not nil")
	}
}

// PageRank from gonum on a graph gearbox built (by hand: r1 =
// 0.12834375/0.385875 = 0.3326 with damping 0.85).
func ExampleNew() {
	b := graph.NewBuilder(graph.BuilderOptions{})
	for _, e := range [][2]uint64{{1, 2}, {2, 3}, {3, 1}, {4, 1}} {
		b.AddEdge(e[0], e[1])
	}
	g, _ := b.Build()
	rank := network.PageRank(gonumview.New(g), 0.85, 1e-9)
	v, _ := g.IDs().Internal(1)
	fmt.Printf("rank of vertex 1: %.3f\n", rank[int64(v)])
	// Output: rank of vertex 1: 0.333
}
