// Package bfs is breadth-first search on gearbox's adaptive runtime: hop
// depths from one source in every variant of the decision space (ordered
// level-synchronous or unordered label-correcting; thread or block mapping;
// bitmap or queue working set; push or pull direction), with a serial
// reference and a property-checking verifier.
//
//	res, err := bfs.Run(ctx, g, src)                    // adaptive policy
//	res, err := bfs.Run(ctx, g, src, runtime.WithVariant(v))
//	d, ok := res.Depth(v)
//
// Spec registers it with the algorithms registry; the operator for a
// backend comes from the package's backend table (the cuda build adds its
// constructor).
//
// It may import algorithms, graph, runtime, decider, workset, mapping and
// inspector.
package bfs
