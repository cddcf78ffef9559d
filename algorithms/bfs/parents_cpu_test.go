package bfs_test

import (
	"context"
	"slices"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/bfs"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
)

// TestParentsSameTree checks that every variant and worker count gives the
// same tree: each vertex's parent is its first in-arc from the level above.
func TestParentsSameTree(t *testing.T) {
	ctx := context.Background()
	for _, c := range testgraphs.Cases() {
		in := c.G.Transpose()
		for name, opts := range configs() {
			for _, src := range c.Sources {
				r, err := bfs.Run(ctx, c.G, src, append(slices.Clip(opts), bfs.WithParents())...)
				if err != nil {
					t.Fatalf("%s/%s/src=%d: %v", c.Name, name, src, err)
				}
				for v := range uint32(c.G.NumVertices()) {
					d, ok := r.Depth(v)
					want, wantOK := uint32(0), false
					for _, u := range in.Neighbors(v) {
						if du, ok2 := r.Depth(u); ok && d > 0 && ok2 && du+1 == d {
							want, wantOK = u, true
							break
						}
					}
					if p, pOK := r.Parent(v); p != want || pOK != wantOK {
						t.Fatalf("%s/%s/src=%d: vertex %d (depth %d): parent %d (%v), want %d (%v)", c.Name, name, src, v, d, p, pOK, want, wantOK)
					}
				}
			}
		}
	}
}
