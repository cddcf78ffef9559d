// Package workset provides the two working-set representations of the
// runtime, a bitmap and a queue, with parallel construction from an update
// vector and conversions between them.
//
// It may import only the standard library (and mapping for parallel loops).
package workset
