package apsp

import (
	"errors"
	"testing"

	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
)

// TestChooseGPU: the GPU model's choices (no GPU needed).
func TestChooseGPU(t *testing.T) {
	// A path of 100k vertices: 32-bit distances, FW's 1e15 steps lose to
	// 100k searches of 2e5 arcs on 16 workers even where the matrix fits.
	arcs := make([][2]uint32, 0, 100_000)
	for v := uint32(1); v < 100_000; v++ {
		arcs = append(arcs, [2]uint32{v - 1, v})
	}
	path := testgraphs.MustBuild(100_000, true, arcs, nil)
	grid := testgraphs.Grid(128, 128)
	if b := gpuBits(grid); b != 16 {
		t.Fatalf("grid: %d bits, want 16 (longest path 254 hops)", b)
	}
	if b := gpuBits(path); b != 32 {
		t.Fatalf("path: %d bits, want 32", b)
	}
	for _, c := range []struct {
		name  string
		g     *graph.Graph
		m     Method
		bits  int
		bound int64
		want  Method
		err   error
	}{
		{"grid", grid, Auto, 16, 80 << 30, FW, nil},
		// Over the bound: Auto takes the CPU's searches, a forced FW is refused.
		{"grid over the bound", grid, Auto, 16, 1 << 20, Sources, nil},
		{"forced FW over the bound", grid, FW, 16, 1 << 20, "", ErrTooLarge},
		{"forced sources", grid, Sources, 16, 80 << 30, Sources, nil},
		{"long path", path, Auto, 32, 1 << 40, Sources, nil},
	} {
		m, why, err := chooseGPU(c.g, c.m, c.bits, c.bound, 16)
		if c.err != nil {
			if !errors.Is(err, c.err) {
				t.Fatalf("%s: %v, want %v", c.name, err, c.err)
			}
			continue
		}
		if err != nil || m != c.want || why == "" {
			t.Fatalf("%s: %v %q %v, want %v with a reason", c.name, m, why, err, c.want)
		}
	}

	// The component bound holds on the undirected cases, weighted or not.
	checked := 0
	for _, c := range testgraphs.Cases() {
		if c.G.Directed() || c.G.NumVertices() > 300 || c.Name == "huge-weights" {
			continue
		}
		for _, g := range []*graph.Graph{c.G, c.Weighted()} {
			b := componentBound(g)
			for _, row := range Reference(g) {
				for _, d := range row {
					if d != Unreachable && int64(d) > b {
						t.Fatalf("%s: distance %d above the bound %d", c.Name, d, b)
					}
				}
			}
			checked++
		}
	}
	if checked < 4 {
		t.Fatalf("bound checked on %d graphs", checked)
	}
}
