// Package sssp is single-source shortest paths with non-negative integer
// weights on gearbox's adaptive runtime. Order is a bucket width: ordered
// variants process the minimum-distance bucket of width Delta each
// iteration (Delta = 1: only the minimum distance, the paper's findmin;
// larger: delta-stepping), unordered variants one unbounded bucket
// (Bellman-Ford style). Zero weights are allowed; weights are uint32 and
// distances uint64, so no path length overflows. It includes a binary-heap
// Dijkstra reference and a property-checking verifier.
//
//	res, err := sssp.Run(ctx, g, src, sssp.WithDelta(16))
//	d, ok := res.Distance(v)
//
// It may import graph, runtime, decider, workset, mapping and inspector.
package sssp
