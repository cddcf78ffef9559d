package graph

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestBuilderSparseIDs(t *testing.T) {
	b := NewBuilder(BuilderOptions{})
	b.AddEdge(1000, 7)
	b.AddEdge(7, 1<<40)
	b.AddEdge(7, 1<<40) // duplicate, dropped
	b.AddVertex(5)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if g.NumVertices() != 4 || g.NumEdges() != 2 || !g.Directed() || g.WeightKind() != Unweighted {
		t.Fatalf("n=%d m=%d directed=%v kind=%v", g.NumVertices(), g.NumEdges(), g.Directed(), g.WeightKind())
	}
	ids := g.IDs()
	want := []uint64{5, 7, 1000, 1 << 40}
	for v, x := range want {
		if got := ids.External(uint32(v)); got != x {
			t.Errorf("External(%d) = %d, want %d", v, got, x)
		}
	}
	u, _ := ids.Internal(1000)
	v, _ := ids.Internal(7)
	if nb := g.Neighbors(u); len(nb) != 1 || nb[0] != v {
		t.Errorf("neighbours of 1000: %v, want [%d]", nb, v)
	}
	if g.Dropped().Duplicates != 1 {
		t.Errorf("dropped %+v, want one duplicate", g.Dropped())
	}
}

func TestBuilderWeights(t *testing.T) {
	for _, tc := range []struct {
		name string
		w    []float64
		kind WeightKind
		err  string
	}{
		{"integral", []float64{1, 2, 4e9}, IntWeights, ""},
		{"real", []float64{1, 2.5, 3}, RealWeights, ""},
		{"over 32 bits", []float64{1, 5e9, 3}, RealWeights, ""},
		{"negative", []float64{1, -2, 3}, 0, "edge 1 has weight -2"},
		{"NaN", []float64{1, 2, math.NaN()}, 0, "edge 2 has weight NaN"},
		{"Inf", []float64{math.Inf(1), 2, 3}, 0, "edge 0 has weight +Inf"},
		{"too large", []float64{1, 1e39, 3}, 0, "edge 1 has weight 1e+39"},
		{"too small", []float64{1, 1e-50, 3}, 0, "edge 1 has weight 1e-50"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := FromEdges([]uint64{0, 1, 2}, []uint64{1, 2, 0}, tc.w, BuilderOptions{})
			if tc.err != "" {
				if !errors.Is(err, ErrWeight) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want ErrWeight naming %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if g.WeightKind() != tc.kind {
				t.Fatalf("kind %v, want %v", g.WeightKind(), tc.kind)
			}
			for v := uint32(0); v < 3; v++ {
				got := g.EdgeWeights(v)[0]
				want := tc.w[v]
				if tc.kind == RealWeights {
					if f := math.Float32frombits(got); f != float32(want) {
						t.Errorf("edge %d: weight %v, want %v", v, f, want)
					}
				} else if float64(got) != want {
					t.Errorf("edge %d: weight %d, want %v", v, got, want)
				}
			}
		})
	}
}

func TestBuilderMixedAndBounds(t *testing.T) {
	b := NewBuilder(BuilderOptions{})
	b.AddEdge(0, 1)
	b.AddWeightedEdge(1, 2, 3)
	if _, err := b.Build(); !errors.Is(err, ErrWeight) || !strings.Contains(err.Error(), "edge 1 has a weight but edge 0 has none") {
		t.Errorf("mixed weights: %v", err)
	}
	b = NewBuilder(BuilderOptions{NumVertices: 3, Undirected: true})
	b.AddEdge(0, 3)
	if _, err := b.Build(); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "edge 0 (0 -> 3)") {
		t.Errorf("out of range: %v", err)
	}
	b = NewBuilder(BuilderOptions{NumVertices: 5, Undirected: true})
	b.AddEdge(0, 3)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if g.NumVertices() != 5 || g.NumEdges() != 2 || g.Directed() || !g.IDs().Identity() {
		t.Errorf("n=%d m=%d directed=%v identity=%v", g.NumVertices(), g.NumEdges(), g.Directed(), g.IDs().Identity())
	}
	if _, err := FromEdges([]uint64{1}, nil, nil, BuilderOptions{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("short dst: %v", err)
	}
	var nb *Builder
	if _, err := nb.Build(); !errors.Is(err, ErrNil) {
		t.Errorf("nil builder: %v", err)
	}
	g, err = NewBuilder(BuilderOptions{}).Build()
	if err != nil || g.NumVertices() != 0 {
		t.Errorf("empty builder: %v, %d vertices", err, g.NumVertices())
	}
}

func TestStringBuilder(t *testing.T) {
	s := NewStringBuilder(BuilderOptions{Undirected: true})
	s.AddWeightedEdge("paris", "lyon", 465.5)
	s.AddWeightedEdge("lyon", "marseille", 315)
	s.AddVertex("nice")
	g, names, err := s.Build()
	if err != nil {
		t.Fatal(err)
	}
	if g.NumVertices() != 4 || g.NumEdges() != 4 || g.WeightKind() != RealWeights || names.Len() != 4 {
		t.Fatalf("n=%d m=%d kind=%v names=%d", g.NumVertices(), g.NumEdges(), g.WeightKind(), names.Len())
	}
	lyon, ok := names.Vertex("lyon")
	if !ok || names.Name(lyon) != "lyon" {
		t.Fatalf("lyon: %d %v", lyon, ok)
	}
	if nb := g.Neighbors(lyon); len(nb) != 2 {
		t.Errorf("lyon's neighbours %v", nb)
	}
	if _, ok := names.Vertex("rome"); ok {
		t.Error("rome found")
	}
	s.AddEdge("rome", "paris") // after Build: the names returned do not change
	if _, ok := names.Vertex("rome"); ok {
		t.Error("names changed after Build")
	}
}

func ExampleBuilder() {
	b := NewBuilder(BuilderOptions{Undirected: true})
	b.AddWeightedEdge(10, 20, 1.5)
	b.AddWeightedEdge(20, 30, 2)
	g, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := g.IDs().Internal(20)
	fmt.Println(g.NumVertices(), g.NumUndirectedEdges(), g.WeightKind())
	for _, u := range g.Neighbors(v) {
		fmt.Println("20 -", g.IDs().External(u))
	}
	// Output:
	// 3 2 real (float32)
	// 20 - 10
	// 20 - 30
}

func ExampleFromEdges() {
	g, err := FromEdges([]uint64{0, 1}, []uint64{1, 2}, []float64{3, 4}, BuilderOptions{})
	fmt.Println(g.NumVertices(), g.NumEdges(), g.WeightKind(), err)
	// Output: 3 2 integer <nil>
}

func ExampleStringBuilder() {
	s := NewStringBuilder(BuilderOptions{})
	s.AddEdge("alice", "bob")
	s.AddEdge("bob", "carol")
	g, names, err := s.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	bob, _ := names.Vertex("bob")
	for _, u := range g.Neighbors(bob) {
		fmt.Println("bob ->", names.Name(u))
	}
	// Output: bob -> carol
}
