// Package inspector computes statistics about a graph (once per graph: sizes,
// degree distribution, isolated vertices) and samples the working set of a
// running traversal (its size and optionally the summed out-degree of the
// frontier), measuring its own cost so the runtime can report it.
//
// It may import graph, workset and internal/par; it must not import runtime,
// decider or any algorithm.
package inspector
