// Package workset provides the two working-set representations of the
// runtime, a bitmap and a queue, with parallel construction from an update
// vector and conversions between them.
//
// Behind the cuda build tag, CUDA is the GPU's vertex working set: the
// update vector, the working-set buffers in either representation and the
// control block through which the generation kernels report the next
// set's size and out-degree. The operator says which updated vertices a
// generation keeps (Select: all of them for BFS, a distance bucket for
// SSSP), and the set keeps its own time and counts (CUDATimes).
//
// The CPU half may import only the standard library (and mapping for
// parallel loops); the cuda half also gpu, kernels and decider.
package workset
