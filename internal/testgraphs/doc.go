// Package testgraphs is the shared table of graphs every algorithm's tests
// run on: tiny hand-made graphs with known answers (path, star, two
// components, self-loop, isolated vertices, directed with an unreachable
// part, zero and huge weights) and deterministic pseudo-random ones, plus an
// R-MAT generator for benchmarks.
//
// Real graphs come from ../shared/datasets (Datasets, P2P31), skipped with
// ErrNoDatasets when absent; benchmark graphs from Bench.
//
// It may import graph and internal/par; only tests and benchmarks import it.
package testgraphs
