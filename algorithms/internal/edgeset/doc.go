// Package edgeset is the CPU kit of edge-centric operators (hooking
// connected components, Borůvka's minimum spanning forest): a working set
// of active edges whose universe is the graph's edges, held either as a
// bitmap of hidden edges (one bit per arc or edge slot; the pass reads every
// slot and skips the hidden ones) or as a compacted queue of elements the
// operator defines (packed endpoints, edge records). The kit gives the
// scaffolding around the operators' hot loops, which stay in the operators:
// passes over a CSR bitmap under thread or block mapping, word-batched
// hiding, in-place parallel compaction of a queue, generation of a queue in
// vertex order, the conversion helpers, and the working-set policy (Li &
// Becchi's rule on Universe = #edges). The GPU half (CUDAForest,
// CUDAEdges) lives in the *_cuda.go files.
package edgeset
