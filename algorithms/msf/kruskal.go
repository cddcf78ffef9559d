package msf

import (
	"slices"

	"github.com/gearbox-graph/gearbox/algorithms/internal/edgeset"
)

// kruskal is the serial reference: the canonical edges' keys
// weight<<32|id sorted, then a union-find (path halving, union by size)
// admits each edge joining two trees. The forest is returned in id order.
func kruskal(in *input) []Edge {
	g := in.g
	off, adj, w := g.Offsets(), g.Adj(), g.Weights()
	n := g.NumVertices()
	keys := make([]uint64, 0, in.edges)
	ends := make([]uint64, 0, in.edges)
	weightOf := make([]uint32, 0, in.edges)
	for u := 0; u < n; u++ {
		for e := off[u]; e < off[u+1]; e++ {
			if v := adj[e]; edgeset.Canonical(uint32(u), v, in.directed) {
				keys = append(keys, uint64(w[e])<<32|uint64(len(keys)))
				ends = append(ends, uint64(u)<<32|uint64(v))
				weightOf = append(weightOf, w[e])
			}
		}
	}
	slices.Sort(keys)
	uf := newUnionFind(n)
	picked := make([]uint32, 0, max(n-1, 0))
	for _, k := range keys {
		id := uint32(k)
		x := ends[id]
		if uf.union(uint32(x>>32), uint32(x)) {
			picked = append(picked, id)
			if len(picked) == n-1 {
				break
			}
		}
	}
	slices.Sort(picked)
	out := make([]Edge, len(picked))
	for i, id := range picked {
		x := ends[id]
		out[i] = Edge{U: uint32(x >> 32), V: uint32(x), Weight: uint32(weightOf[id])}
	}
	return out
}

// unionFind is a serial union-find with path halving and union by size.
type unionFind struct {
	parent []uint32
	size   []uint32
}

func newUnionFind(n int) *unionFind {
	u := &unionFind{parent: make([]uint32, n), size: make([]uint32, n)}
	for i := range u.parent {
		u.parent[i] = uint32(i)
		u.size[i] = 1
	}
	return u
}

func (u *unionFind) find(x uint32) uint32 {
	p := u.parent
	for p[x] != x {
		p[x] = p[p[x]]
		x = p[x]
	}
	return x
}

// union joins the trees of a and b and reports whether they were apart.
func (u *unionFind) union(a, b uint32) bool {
	a, b = u.find(a), u.find(b)
	if a == b {
		return false
	}
	if u.size[a] < u.size[b] {
		a, b = b, a
	}
	u.parent[b] = a
	u.size[a] += u.size[b]
	return true
}
