// Package sssp is single-source shortest paths with non-negative integer
// weights on gearbox's adaptive runtime. Order is a bucket width: ordered
// variants process the minimum-distance bucket of width Delta each
// iteration (Delta = 1: only the minimum distance, the paper's findmin;
// larger: delta-stepping), unordered variants one unbounded bucket
// (Bellman-Ford style). Zero weights are allowed: a zero-weight arc puts its
// target in the bucket being processed, which is drained again (by bucket
// fusion or the next iteration on the same bucket) before moving on; since
// a vertex re-enters a bucket only when its distance strictly drops, this
// terminates. Weights are uint32; distances are computed in 32 bits when
// (n-1) * max weight < 2^32-1 (no simple path can exceed it) and in 64 bits
// otherwise, so no path length overflows. It includes a binary-heap
// Dijkstra reference and a property-checking verifier.
//
//	res, err := sssp.Run(ctx, g, src, sssp.WithDelta(16))
//	d, ok := res.Distance(v)
//
// WithParents records a shortest-path tree (Result.Parent, Path, PathIDs)
// and RunMulti gives each vertex its distance to the nearest of several
// sources; both on the CPU backend (the GPU's refuses them with
// runtime.ErrUnsupported for now).
//
// WithDelta is SSSP's own runtime.Option (the engine's Config holds no
// bucket width). Params are SSSP's keys of a thresholds file (delta,
// delta_factor, the bucket and order keys; [cpu.sssp],
// [gpu."<device>".sssp]), decoded from the run's knobs (ParamsFrom of
// runtime.Config.Knobs) or given whole with WithParams; DefaultParams are
// the CPU's, DeviceParams those of a GPU without a section. Spec registers
// SSSP with the algorithms registry, its Params listing the same keys;
// the operator for a backend comes from the package's backend table.
//
// It may import algorithms, graph, runtime, decider, workset, mapping and
// inspector.
package sssp
