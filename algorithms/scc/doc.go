// Package scc labels the strongly connected components of a directed
// graph: every vertex gets the smallest internal vertex id of its SCC, so
// every variant, backend and worker count gives identical labels. An
// undirected graph is its own transpose: its SCCs are its connected
// components, labelled as cc labels them.
//
// The algorithms:
//
//   - Forward-backward search (FW-BW): the vertices reached both forward
//     and backward from a pivot are its SCC, and every other SCC lies
//     inside the forward-only, the backward-only or the unreached part, so
//     the parts are searched independently (L. K. Fleischer, B. Hendrickson
//     & A. Pinar, "On identifying strongly connected components in
//     parallel", IPDPS Workshops 2000). Here every partition is searched at
//     once, one pivot each (its vertex of largest in- times out-degree),
//     by the vertex-frontier kit's BFS along out-arcs and, over the
//     transpose, along in-arcs, an arc filter keeping each search inside
//     its partition.
//   - Trimming: a vertex without an in- or out-arc inside its partition is
//     an SCC alone; peeling it may expose others (McLendon et al.), so
//     trimming repeats, here as a worklist of arc counts.
//   - Colouring: every vertex takes the smallest id of the vertices that
//     reach it; a vertex that keeps its own id roots an SCC, the vertices
//     of its colour that reach it (Orzan's colouring, 2004).
//   - Multistep: trim, FW-BW while its rounds label large SCCs (the giant
//     one first), then colouring for the many small SCCs left (G. M.
//     Slota, S. Rajamanickam & K. Madduri, "BFS and Coloring-Based
//     Parallel Algorithms for Strongly Connected Components and Related
//     Problems", IPDPS 2014). The PhasePolicy decides when FW-BW gives way
//     to colouring, from the vertices left and the share the last round
//     labelled (the scc_* keys of the run's thresholds).
//
// Every variant runs as a runtime.Operator under the runtime engine, one
// iteration per phase (stats, trace, cancellation between phases); the
// engine's mapping drives the advances of the searches. The cuda build
// runs the same phases on the GPU (kernels/scc.cu). Reference is a serial
// Tarjan (R. E. Tarjan, "Depth-first search and linear graph algorithms",
// SIAM J. Comput. 1(2), 1972) without recursion, and Verify compares with
// it.
//
//	gearbox run scc --gen kron:16 --verify --out labels.txt
//
// It may import algorithms, graph, runtime, decider, mapping and workset;
// only cmd, tuning and algorithms/all import it.
package scc
