package graph

import (
	"errors"
	"fmt"
	"testing"
)

func TestSubgraph(t *testing.T) {
	b := NewBuilder(BuilderOptions{})
	b.AddWeightedEdge(10, 20, 1)
	b.AddWeightedEdge(20, 30, 2)
	b.AddWeightedEdge(30, 10, 3)
	b.AddWeightedEdge(30, 40, 4)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	// 40, 10 and 30 (internal 3, 0, 2), one given twice.
	sub, err := Subgraph(g, []uint32{3, 0, 2, 0})
	if err != nil {
		t.Fatal(err)
	}
	if sub.NumVertices() != 3 || sub.NumEdges() != 2 || !sub.Directed() || sub.WeightKind() != IntWeights {
		t.Fatalf("n=%d m=%d directed=%v kind=%v", sub.NumVertices(), sub.NumEdges(), sub.Directed(), sub.WeightKind())
	}
	var arcs []string
	for v := uint32(0); v < 3; v++ {
		for i, u := range sub.Neighbors(v) {
			arcs = append(arcs, fmt.Sprintf("%d->%d:%d", sub.IDs().External(v), sub.IDs().External(u), sub.EdgeWeights(v)[i]))
		}
	}
	if got := fmt.Sprint(arcs); got != "[30->10:3 30->40:4]" {
		t.Errorf("arcs %s", got)
	}
	sub2 := &Graph{offsets: sub.offsets, adj: sub.adj, weights: sub.weights, wkind: sub.wkind, directed: true, ids: sub.ids}
	if err := sub2.validate(); err != nil {
		t.Errorf("subgraph invalid: %v", err)
	}
	if _, err := Subgraph(g, []uint32{4}); !errors.Is(err, ErrInvalid) {
		t.Errorf("vertex outside: %v", err)
	}
	if _, err := Subgraph(nil, nil); !errors.Is(err, ErrNil) {
		t.Errorf("nil graph: %v", err)
	}
	empty, err := Subgraph(g, nil)
	if err != nil || empty.NumVertices() != 0 {
		t.Errorf("empty subgraph: %v %d", err, empty.NumVertices())
	}
}
