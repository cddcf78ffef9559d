// Package msf computes minimum spanning forests: one minimum spanning tree
// per connected component, isolated vertices and disconnected graphs
// included. A directed graph is read as undirected (every arc but a
// self-loop is an edge; Result.Directed says so), and an unweighted one is
// given the seeded weights in [1,255] that SSSP uses
// (graph.WithDerivedWeights; Result.DerivedWeights says so). Negative, NaN
// and infinite weights are refused (ErrWeight).
//
// Ties are broken by (weight, edge id), an edge's id being its position
// among the canonical arcs (u < v for undirected graphs) in CSR order, so
// the forest is unique: every variant, backend and worker count returns
// the same edges, in id order. The total weight is exact: int64 for integer
// weights; float32 weights are summed in float64 in edge-id order.
//
// The variants are Borůvka rounds run as an operator on the runtime
// engine, over the edge-set kit's working set of edges still crossing
// components (Universe = #edges, so the engine's policy picks a bitmap
// while most edges are active and a compacted queue once few are, and
// thread or block mapping for the adjacency-list bitmap pass). A round
// finds each component's lightest crossing edge with a 64-bit atomic
// minimum on weight<<32 | id, hooks every component under the other end
// of its edge (the key is unique, so the only cycles are pairs that chose
// the same edge; the smaller root stays), flattens the union-find by
// pointer jumping, and hides the edges now inside one component.
//
//   - EA: an edge array of 16-byte records (key, u, v) in source order
//     (Zaitsev & Kalgin's edge array with edge filtering, reduction of the
//     per-component minimum, and a compact memory layout).
//   - AL: the adjacency lists themselves (CSR), with no edge array.
//   - ECL: EA preceded by ECL-MST's filter: a weight threshold sampled to
//     admit about 3n light edges; their forest first, then the remaining
//     edges filtered against it (filter-Kruskal).
//   - Kruskal: the serial reference (sort, union-find), never chosen by
//     Auto.
//
// Auto (VariantPolicy) picks ECL when the average degree is at least 4 and
// there are more than 3n edges, else EA. Verify checks any forest by its
// properties against a serial Kruskal.
package msf
