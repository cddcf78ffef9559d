// Package apsp computes all-pairs shortest paths, two ways, and chooses
// between them by a cost model.
//
//   - FW: blocked Floyd-Warshall (Floyd, "Algorithm 97: Shortest path",
//     CACM 1962; blocked after Venkataraman, Sahni & Mukhopadhyaya, "A
//     blocked all-pairs shortest-path algorithm", JEA 2003, and the min-plus
//     tiles of Volkov & Demmel's GPU version as Harish et al. use it,
//     section VII). It keeps the whole n x n matrix in memory and costs n^3
//     min-plus steps whatever the graph's density: the method for small or
//     dense graphs.
//   - Sources: one single-source search per vertex (BFS on unweighted
//     graphs, Dijkstra on weighted ones), the sources spread over the
//     workers, each row handed to the caller as soon as its block of
//     sources is done, so the n^2 results never need to be in memory at
//     once (gonum's JohnsonAllPaths is likewise a composition of
//     single-source searches). It costs about n (m + n log n): the method
//     for sparse graphs.
//
// Auto picks the cheaper by that model, unless the matrix would not fit in
// the memory limit, and says why. Distances are uint32; a pair with no path
// gets Unreachable. Unweighted graphs give hop counts. Every finite
// distance must stay below MaxDistance (the largest possible one, (n-1)
// times the largest weight, is checked before the run), so that a tile's
// a+b never wraps and the result is exact, never silently wrong.
//
// On the GPU (WithBackend with the cuda backend, build tag cuda), FW runs
// on the device (kernels/apsp.cu): the matrix is built there from the
// graph's CSR, padded to 64-vertex tiles, each round of blocked FW is one
// launch (the diagonal tile's closure recomputed by the blocks of its row
// and column, so phases 1 and 2 need no launches of their own), and every
// relaxation is one DPX add-min (__viaddmin_s32, or __viaddmin_s16x2 on two
// packed 16-bit distances when every distance stays at or below
// MaxDistance16: half the memory and half the instructions). Rows come
// back to the host in blocks and go to the RowFunc in order. Result.Kernel
// is the rounds' time alone, Setup and Transfer the rest. With a GPU
// backend, Auto weighs FW on the GPU against the CPU's searches (the
// Sources method runs on the CPU) and takes the searches when the matrix
// does not fit the device's memory (or WithMemoryLimit); a forced FW that
// does not fit is refused with the sizes.
//
// It may import graph, runtime, gpu, kernels, mapping and internal/par;
// only cmd and the algorithm registry import it.
package apsp
