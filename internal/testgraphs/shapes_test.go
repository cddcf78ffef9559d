package testgraphs

import "testing"

// TestHubsAndFanShapes checks the GPU tests' hub graphs: vertex and arc
// counts, and the degrees of the frontier each is built for.
func TestHubsAndFanShapes(t *testing.T) {
	h := Hubs([]int{2, 5}, 3) // 0, 2 hubs, 7 leaves, 3 path vertices
	if n, m := h.NumVertices(), h.NumEdges(); n != 1+2+7+3 || m != 2+2*7+2 {
		t.Errorf("Hubs: %d vertices, %d arcs", n, m)
	}
	if d1, d2 := h.Degree(1), h.Degree(2); d1 != 2 || d2 != 5 {
		t.Errorf("Hubs: hub degrees %d, %d, want 2, 5", d1, d2)
	}
	f := Fan(3, 4, 5, 2) // 0, 3 mids, 12 hubs, 5 leaves, 2 path vertices
	if n, m := f.NumVertices(), f.NumEdges(); n != 1+3+12+5+2 || m != 3+12+12*5+5+1 {
		t.Errorf("Fan: %d vertices, %d arcs", n, m)
	}
	for v := uint32(4); v < 16; v++ {
		if d := f.Degree(v); d != 5 {
			t.Errorf("Fan: hub %d has %d out-edges, want 5", v, d)
		}
	}
}
