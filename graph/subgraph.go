package graph

import (
	"fmt"
	"slices"
)

// Subgraph returns the subgraph of g induced by vertices (internal ids, in
// any order, repeats ignored): those vertices and every arc of g between
// two of them, with their weights. Its vertices keep g's order and the
// file's ids (IDs() maps them to the ids g's file gave them), so a
// component cut out of a SNAP graph still answers to its SNAP ids. A
// vertex outside g is an error.
func Subgraph(g *Graph, vertices []uint32) (*Graph, error) {
	if g == nil {
		return nil, fmt.Errorf("%w: Subgraph of a nil graph", ErrNil)
	}
	n := g.NumVertices()
	keep := slices.Clone(vertices)
	slices.Sort(keep)
	keep = slices.Compact(keep)
	if len(keep) > 0 && int64(keep[len(keep)-1]) >= int64(n) {
		return nil, fmt.Errorf("%w: Subgraph of vertex %d, graph has %d vertices (0..%d)", ErrInvalid, keep[len(keep)-1], n, n-1)
	}
	newID := make([]uint32, n)
	for i := range newID {
		newID[i] = NoVertex
	}
	for i, v := range keep {
		newID[v] = uint32(i)
	}
	// Counts first, then fill: each kept list stays sorted, as the
	// mapping keeps the vertices' order.
	offsets := make([]int64, len(keep)+1)
	parFor(len(keep), 1<<10, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			var c int64
			for _, u := range g.Neighbors(keep[i]) {
				if newID[u] != NoVertex {
					c++
				}
			}
			offsets[i+1] = c
		}
	})
	for i := range keep {
		offsets[i+1] += offsets[i]
	}
	adj := make([]uint32, offsets[len(keep)])
	var w []uint32
	if g.weights != nil {
		w = make([]uint32, len(adj))
	}
	parFor(len(keep), 1<<10, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			v := keep[i]
			o := offsets[i]
			ws := g.EdgeWeights(v)
			for j, u := range g.Neighbors(v) {
				if nu := newID[u]; nu != NoVertex {
					adj[o] = nu
					if w != nil {
						w[o] = ws[j]
					}
					o++
				}
			}
		}
	})
	ext := make([]uint64, len(keep))
	for i, v := range keep {
		ext[i] = g.ids.External(v)
	}
	ids, err := SortedIDs(ext)
	if err != nil {
		return nil, err // unreachable: External is increasing in the internal id
	}
	sub := &Graph{offsets: offsets, adj: adj, weights: w, wkind: g.wkind, directed: g.directed, ids: ids, derived: g.derived}
	if g.terminals && newID[g.source] != NoVertex && newID[g.sink] != NoVertex {
		sub.source, sub.sink, sub.terminals = newID[g.source], newID[g.sink], true
	}
	return sub, nil
}
