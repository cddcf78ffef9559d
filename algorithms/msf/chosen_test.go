package msf

import (
	"math/bits"
	"slices"
	"testing"

	"github.com/gearbox-graph/gearbox/internal/testgraphs"
)

// TestListChosen: the parallel listing of a bitmap of chosen arcs equals
// the serial walk, in arc order, for sparse and dense choices.
func TestListChosen(t *testing.T) {
	g := testgraphs.RMAT(12, 8, 3).WithDerivedWeights(1)
	off, adj, w := g.Offsets(), g.Adj(), g.Weights()
	m := len(adj)
	for _, every := range []int{1, 3, 97, 5000} {
		words := make([]uint32, (m+31)/32)
		for e := 0; e < m; e += every {
			words[e/32] |= 1 << (e % 32)
		}
		var want []Edge
		u := 0
		for i, x := range words {
			for ; x != 0; x &= x - 1 {
				e := int64(i)*32 + int64(bits.TrailingZeros32(x))
				for off[u+1] <= e {
					u++
				}
				want = append(want, Edge{U: uint32(u), V: adj[e], Weight: w[e]})
			}
		}
		if got := listChosen(words, off, adj, w); !slices.Equal(got, want) {
			t.Fatalf("every %d: %d edges, want %d (first differences not shown)", every, len(got), len(want))
		}
	}
	if got := listChosen(make([]uint32, 4), off, adj, w); len(got) != 0 {
		t.Fatalf("no bits: %d edges", len(got))
	}
}
