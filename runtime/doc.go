// Package runtime is gearbox's iteration engine: it runs an operator (BFS,
// SSSP, ...) iteration by iteration on a backend, generating the working set,
// inspecting it, asking a decider policy for the next variant and converting
// the working set when its representation changes (Li & Becchi, Fig. 8). It
// records statistics and a per-iteration trace of every run.
//
// It may import graph, workset, mapping, inspector and decider; algorithms
// import runtime, never the reverse.
package runtime
