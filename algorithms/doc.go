// Package algorithms groups gearbox's operators, one package per algorithm
// (bfs, sssp, ...). Each algorithm package holds the operator for the
// runtime, a simple serial reference and a property-checking verifier.
package algorithms
