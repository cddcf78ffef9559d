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
// Paths and many sources (CPU backend; the GPU's refuses them with
// runtime.ErrUnsupported for now):
//
//	res, err := bfs.Run(ctx, g, src, bfs.WithParents())
//	p, ok := res.Path(t)      // internal ids, src first; PathIDs: file ids
//	res, err := bfs.RunMulti(ctx, g, []uint32{a, b, c}) // depth to the nearest
//	err := bfs.RunBatch(ctx, g, srcs, func(i int, depth []uint32) error { ... })
//
// RunBatch runs up to 64 independent searches in one traversal (a bit per
// source per vertex); package apsp uses it for unweighted graphs of small
// diameter.
//
// Spec registers it with the algorithms registry; the operator for a
// backend comes from the package's backend table (the cuda build adds its
// constructor).
//
// It may import algorithms, graph, runtime, decider, workset, mapping and
// inspector.
package bfs
