// Package cc computes connected components and spanning forests.
//
// Three variants share one output convention: every vertex is labelled with
// the smallest internal vertex id of its component, so every variant and
// backend gives identical labels. Directed graphs give weakly connected
// components (every arc u->v is treated as an undirected edge).
//
//   - SV: hooking and multilevel pointer jumping after Soman, Kothapalli &
//     Narayanan, "Some GPU algorithms for graph connected components and
//     spanning tree" (2010). Hooking alternates orientation between
//     iterations, every tree is a star after each round, and an edge whose
//     endpoints share a root is hidden and never read again. Its working set
//     is the set of still-active edges, kept as a bitmap over arcs while most
//     are active and compacted into a queue of edges when few remain.
//   - Afforest: neighbour sampling, then linking only the edges of vertices
//     outside the largest (sampled) component (Sutton, Ben-Nun & Barak,
//     "Optimizing Parallel Graph Connectivity Computation via Subgraph
//     Sampling", IPDPS 2018).
//   - UnionFind: asynchronous union-find with intermediate pointer jumping in
//     the style of ECL-CC (Jaiganesh & Burtscher, HPDC 2018).
//
// Spanning forests (Soman et al., section 3) record the edge that performed
// each successful hook. The package also holds a serial reference
// (union-find) and property-checking verifiers.
//
// Every variant runs as a runtime.Operator under the runtime engine (stats,
// trace, cancellation between iterations). SV's working-set representation
// is chosen by EdgePolicy, a decider.Policy over the active-edge count; the
// algorithm itself by VariantPolicy from graph statistics, or forced with
// WithVariant. Options are runtime.Options, as for every algorithm: CC's
// own (WithVariant, WithNeighborRounds, WithSeed, WithVariantPolicy,
// WithWorkset) beside runtime's (backend, logger, trace, thresholds).
// Spec and ForestSpec register cc and forest with the algorithms registry.
// The policy's floors are CC's keys of the run's thresholds (the
// afforest_* keys of [cpu.cc] or [gpu."<device>".cc], decoded by
// VariantPolicyFrom from runtime.Config.Knobs; DeviceVariantPolicy on a
// GPU without a section): on the CPU Afforest wins on every graph that is
// not too sparse, on a GPU only on large graphs with hubs.
//
// It may import algorithms, graph, runtime, decider, mapping and
// internal/par; only cmd, tuning and algorithms/all import it.
package cc
