package msf

import (
	"errors"
	"fmt"
	"slices"

	"github.com/gearbox-graph/gearbox/graph"
)

// ErrVerify is wrapped by Verify's errors.
var ErrVerify = errors.New("msf: verification failed")

// Verify checks a forest against g by properties, independently of the
// algorithm that produced it: every edge exists in g (in either direction
// for undirected graphs) with that weight; the edges form a forest (no
// union joins one tree twice); there are n - c of them for g's c connected
// components (of its undirected reading), so every component is spanned;
// and the total weight equals that of a serial Kruskal over the same
// weights, which, the spanning forests of a graph all having n - c edges,
// makes it minimum. seed gives the derived weights of an unweighted g, as
// in Run. Errors wrap ErrVerify.
func Verify(g *graph.Graph, edges []Edge, seed uint64) error {
	in, err := prepare(g, seed)
	if err != nil {
		return err
	}
	wg := in.g
	n := wg.NumVertices()
	uf := newUnionFind(n)
	for i, e := range edges {
		if int64(e.U) >= int64(n) || int64(e.V) >= int64(n) {
			return fmt.Errorf("%w: edge %d (%d-%d) outside the %d vertices", ErrVerify, i, e.U, e.V, n)
		}
		if !hasArc(wg, e.U, e.V, e.Weight) && !hasArc(wg, e.V, e.U, e.Weight) {
			return fmt.Errorf("%w: edge %d (%d-%d weight %d) is not in the graph", ErrVerify, i, e.U, e.V, e.Weight)
		}
		if e.U == e.V || !uf.union(e.U, e.V) {
			return fmt.Errorf("%w: edge %d (%d-%d) closes a cycle", ErrVerify, i, e.U, e.V)
		}
	}
	comp := newUnionFind(n)
	c := n
	off, adj := wg.Offsets(), wg.Adj()
	for u := 0; u < n; u++ {
		for _, v := range adj[off[u]:off[u+1]] {
			if comp.union(uint32(u), v) {
				c--
			}
		}
	}
	if len(edges) != n-c {
		return fmt.Errorf("%w: %d edges, want %d (%d vertices, %d components)", ErrVerify, len(edges), n-c, n, c)
	}
	ref := kruskal(in)
	got, gotF := totals(edges, wg.WeightKind())
	want, wantF := totals(ref, wg.WeightKind())
	if wg.WeightKind() == graph.RealWeights {
		// Equal totals in float64: both sums run over float32 values; the
		// sets may differ only among equal weights, so a tiny rounding
		// difference of the summation order is tolerated.
		if d := gotF - wantF; d > 1e-9*max(1, wantF) || -d > 1e-9*max(1, wantF) {
			return fmt.Errorf("%w: total weight %v, Kruskal's %v", ErrVerify, gotF, wantF)
		}
	} else if got != want {
		return fmt.Errorf("%w: total weight %d, Kruskal's %d", ErrVerify, got, want)
	}
	return nil
}

// hasArc reports whether arc u->v of weight w is in g.
func hasArc(g *graph.Graph, u, v, w uint32) bool {
	nb, ws := g.Neighbors(u), g.EdgeWeights(u)
	i, _ := slices.BinarySearch(nb, v)
	for ; i < len(nb) && nb[i] == v; i++ {
		if ws[i] == w {
			return true
		}
	}
	return false
}
