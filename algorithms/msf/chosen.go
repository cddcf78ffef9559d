package msf

import (
	"math/bits"
	"sort"

	"github.com/gearbox-graph/gearbox/internal/par"
)

// listChosen lists the arcs whose bits are set in words as edges in arc
// order. It runs over every worker: a 4M-vertex forest listed serially
// took longer than all of Borůvka's kernels on the grid.
func listChosen(words []uint32, off []int64, adj, w []uint32) []Edge {
	nw := par.Workers()
	count := make([]int64, nw+1)
	par.ForWorkers(len(words), func(wk, lo, hi int) {
		k := 0
		for _, x := range words[lo:hi] {
			k += bits.OnesCount32(x)
		}
		count[wk] = int64(k)
	})
	total := par.PrefixSum(count[:nw])
	out := make([]Edge, total)
	par.ForWorkers(len(words), func(wk, lo, hi int) {
		if lo >= hi {
			return
		}
		at := count[wk]
		first := int64(lo) * 32
		// The vertex owning arc first: the last u with off[u] <= first.
		u := sort.Search(len(off)-1, func(i int) bool { return off[i+1] > first })
		for i := lo; i < hi; i++ {
			for x := words[i]; x != 0; x &= x - 1 {
				e := int64(i)*32 + int64(bits.TrailingZeros32(x))
				for off[u+1] <= e {
					u++
				}
				out[at] = Edge{U: uint32(u), V: adj[e], Weight: w[e]}
				at++
			}
		}
	})
	return out
}
