package graph_test

import (
	"testing"

	"github.com/gearbox-graph/gearbox/graph"
)

// profileOf returns a profile as degree -> vertices.
func profileOf(p *graph.DegreeProfile) map[int64]int64 {
	m := map[int64]int64{}
	for i := range p.Len() {
		d, c := p.At(i)
		if i > 0 {
			if prev, _ := p.At(i - 1); prev >= d {
				panic("degrees not ascending")
			}
		}
		m[d] = c
	}
	return m
}

func TestDegreeProfile(t *testing.T) {
	// A directed star 0 -> 1..hub plus a path hub+1 -> hub+2 -> hub+3 and
	// an isolated vertex: vertex 0's out-degree is above the dense table.
	const hub = 70000
	n := hub + 5
	el := &graph.EdgeList{NumVertices: n}
	for v := uint32(1); v <= hub; v++ {
		el.Src, el.Dst = append(el.Src, 0), append(el.Dst, v)
	}
	el.Src, el.Dst = append(el.Src, hub+1, hub+2), append(el.Dst, hub+2, hub+3)
	g, err := graph.Build(el, graph.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := g.DegreeProfile()
	if got, want := profileOf(out), map[int64]int64{hub: 1, 1: 2}; !equalMaps(got, want) {
		t.Errorf("out-degrees %v, want %v", got, want)
	}
	if out.AtLeast(0) != 3 || out.AtLeast(1) != 1 || out.AtLeast(2) != 0 {
		t.Errorf("AtLeast: %d %d %d, want 3 1 0", out.AtLeast(0), out.AtLeast(1), out.AtLeast(2))
	}
	if g.DegreeProfile() != out {
		t.Error("profile not cached")
	}
	// In-degrees: 1..hub and hub+2, hub+3 have one in-arc each.
	if got, want := profileOf(g.InDegreeProfile()), map[int64]int64{1: hub + 2}; !equalMaps(got, want) {
		t.Errorf("in-degrees %v, want %v", got, want)
	}
	// Undirected: both profiles are the degree distribution.
	u, err := graph.Build(el, graph.BuildOptions{Undirected: true})
	if err != nil {
		t.Fatal(err)
	}
	// The star's leaves and the path's ends have degree 1, its middle 2.
	want := map[int64]int64{hub: 1, 1: hub + 2, 2: 1}
	if got := profileOf(u.InDegreeProfile()); !equalMaps(got, want) {
		t.Errorf("undirected in-degrees %v, want %v", got, want)
	}
	var empty graph.EdgeList
	e, err := graph.Build(&empty, graph.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p := e.DegreeProfile(); p.Len() != 0 || p.AtLeast(0) != 0 {
		t.Errorf("empty graph: %d degrees, %d vertices", p.Len(), p.AtLeast(0))
	}
}

func equalMaps(a, b map[int64]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
