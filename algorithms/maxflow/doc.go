// Package maxflow computes maximum flows and minimum cuts by push-relabel
// over a graph.Residual (paired arcs, 64-bit capacities).
//
// Solvers (Algorithm):
//
//   - HighestLabel (serial, the default): highest-label selection with
//     bucket lists, the gap heuristic and global relabels, the design of
//     Cherkassky and Goldberg's hi_pr.
//   - FIFO (serial): first-in first-out selection with global relabels.
//   - Sync (parallel, a runtime.Operator): the working set is the active
//     vertices (excess > 0, label < n). Each engine iteration is one
//     synchronous pass: pushes under the labels as the pass began (each arc
//     pair written by one vertex only, excess arriving through atomic
//     inboxes), then relabels computed before any is applied, so the flow
//     is the same for every worker count and processing order. The
//     decider picks thread or block mapping and a bitmap or queue for the
//     active set from its sampled size; block mapping cuts the set by arcs
//     but keeps each vertex whole (its excess is one budget spent in arc
//     order). A global relabel (backward BFS from the sink over arcs with
//     residual capacity) runs when the relabel work since the last one
//     passes Knobs.GlobalFreq's trigger or a label loses its last vertex
//     (a gap); a tail of at most Knobs.SerialBelow active vertices is
//     finished by the serial solver on the same state. The pass maps onto
//     a GPU thread or block per active vertex unchanged.
//
// On the cuda backend (runtime.WithBackend with a *gpu.CUDA; builds with
// the cuda tag) Auto and Sync run phase 1 on the GPU (the serial solvers
// run on the host whatever the backend)
// (kernels/maxflow.cu): the same synchronous pass as three launches (push,
// relabel, generation of the next active set) over a bitmap or a queue of
// active vertices, a thread or a warp per vertex as the decider picks,
// residual capacities and excesses in 64 bits, and the global relabel as a
// backward BFS on the device whose unreached vertices get label n (the
// gap heuristic's effect). Once Knobs.HostAfter passes in a row leave at
// most Knobs.SerialBelow active vertices, the preflow is copied back and
// the serial solver finishes phase 1 on the host; phase 2 always runs on
// the host from the device's maximum preflow. Result.Placement says which.
//
// Every solver ends with phase 2, which returns to the source the excess
// that cannot reach the sink, so Result holds a flow, not a preflow:
// Value, the flow on every arc (Flow), and the minimum cut whose source
// side is the set reachable from the source in the final residual network
// (the same for every maximum flow). Verify checks a flow and a cut by
// their properties alone.
//
// Capacities and excesses are int64: the capacities leaving the source
// must sum to at most math.MaxInt64 (else ErrCapacity), which bounds every
// excess; graph.NewResidual refuses parallel or paired arcs whose
// capacities sum past it. A source equal to the sink is refused
// (ErrTerminal), not answered 0.
package maxflow
