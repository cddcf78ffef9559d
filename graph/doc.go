// Package graph holds gearbox's graph representation: a compressed sparse row
// (CSR) graph with uint32 vertex ids and int64 edge offsets, its parallel
// builder from edge lists, the loaders and writers for the field's file
// formats (MatrixMarket, SNAP, METIS, LDBC Graphalytics, DIMACS .gr/.max,
// GAP .el/.wel and gearbox's binary CSR) and the synthetic generators
// (Graph500 Kronecker, uniform random, 2-D grid).
//
// It is the bottom of the dependency graph: it may import only the standard
// library and small well-kept libraries (progress bar, logging). Nothing in
// gearbox is imported here.
package graph
