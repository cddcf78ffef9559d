package apsp

import (
	"errors"
	"testing"

	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
)

// TestChooseGPU: the GPU model's choices (no GPU needed).
func TestChooseGPU(t *testing.T) {
	grid := testgraphs.Grid(128, 128)
	if b := gpuBits(grid); b != 16 {
		t.Fatalf("grid: %d bits, want 16 (longest path 254 hops)", b)
	}
	m, why, err := chooseGPU(grid, Auto, 16, 80<<30, 16)
	if err != nil || m != FW || why == "" {
		t.Fatalf("grid: %v %q %v", m, why, err)
	}
	// Over the bound: Auto takes the CPU's searches, a forced FW is refused.
	if m, _, err := chooseGPU(grid, Auto, 16, 1<<20, 16); err != nil || m != Sources {
		t.Fatalf("grid over the bound: %v %v", m, err)
	}
	if _, _, err := chooseGPU(grid, FW, 16, 1<<20, 16); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("forced FW over the bound: %v", err)
	}
	if m, _, err := chooseGPU(grid, Sources, 16, 80<<30, 16); err != nil || m != Sources {
		t.Fatalf("forced sources: %v %v", m, err)
	}
	// A path of 100k vertices: 32-bit distances, FW's 1e15 steps lose to
	// 100k searches of 2e5 arcs on 16 workers even where the matrix fits.
	arcs := make([][2]uint32, 0, 100_000)
	for v := uint32(1); v < 100_000; v++ {
		arcs = append(arcs, [2]uint32{v - 1, v})
	}
	path := testgraphs.MustBuild(100_000, true, arcs, nil)
	if b := gpuBits(path); b != 32 {
		t.Fatalf("path: %d bits, want 32", b)
	}
	if m, why, err := chooseGPU(path, Auto, 32, 1<<40, 16); err != nil || m != Sources {
		t.Fatalf("long path: %v %q %v", m, why, err)
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
