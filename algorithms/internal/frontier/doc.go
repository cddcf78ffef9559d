// Package frontier is the vertex-frontier kit: what the vertex-centric
// operators (BFS, SSSP, max-flow's global relabel, st-connectivity) share
// to advance over a working set of vertices.
//
// On the CPU, Advance.ForFrontier is the one advance: thread or block
// mapping (mapping.Pool) over a queue or bitmap working set (Set), calling
// a visitor per vertex with the CSR positions of the out-arcs it should
// handle. The visitor loops over those arcs itself, so the hot loop pays
// one indirect call per vertex (or per piece of a hub's neighbourhood),
// not per arc. ForArcs is the arc-level form on top of it, with an arc
// filter that sees the arc's CSR position (so a caller can check values
// held in an arc-indexed array, such as residual capacities) and an early
// exit. BFS is a small reusable level-synchronous BFS over the kit, along
// out-arcs or in-arcs, that other operators call as a sub-step.
//
// On the GPU (build tag cuda), CUDATraversal is what the GPU BFS and SSSP
// operators share: the device graph, the working set, persistent
// multi-level launches and the result copied behind them.
//
// Its CPU files import graph, workset, mapping and decider only; the cuda
// files add gpu, kernels, internal/hostmem and runtime (the operator
// contract's StepRequest and StepResult). It must not import an algorithm.
package frontier
