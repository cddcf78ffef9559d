// Package graph holds gearbox's graph representation: a compressed sparse row
// (CSR) graph with uint32 vertex ids and int64 edge offsets, its parallel
// builder from edge lists, the loaders and writers for the field's file
// formats (MatrixMarket, SNAP, METIS, LDBC Graphalytics, DIMACS .gr/.max,
// GAP .el/.wel and gearbox's binary CSR) and the synthetic generators
// (Graph500 Kronecker, uniform random, 2-D grid).
//
// Load, Read, Save and Write handle the files; the documentation of Format
// says how each format's vertex ids map to internal ids (SNAP and
// Graphalytics ids are relabelled in sorted order and kept in an IDMap).
// Text inputs are parsed in parallel chunks with exact file:line errors
// wrapping ErrFormat; .gbx binary files are read straight into the CSR
// arrays and checked with a CRC-32C.
//
// Bad input never panics: every function that returns an error returns
// one for a nil graph, edge list or reader (wrapping ErrNil), for options
// out of range (ErrWeightScale, ErrGenSpec) and for graphs too large for
// the memory the process may use (ErrTooLarge, from internal/memlimit:
// the least of the RAM, the cgroup's limit and the rlimits). The accessors
// of a nil *Graph (NumVertices, NumEdges, WeightKind, ...) return zero
// values; the per-vertex ones (Degree, Neighbors) need a valid vertex of a
// non-nil graph, as slice indexing does.
//
// The weight rule is the same for every format: see weightParser in
// load_text.go and LoadOptions.WeightScale.
//
// It is the bottom of the dependency graph: it may import only the standard
// library, small well-kept libraries (gzip, logging),
// internal/par, internal/memlimit and internal/atomicfile. Nothing else in
// gearbox is imported here.
package graph
