// Package stcon answers st-connectivity queries: is t reachable from s,
// in how many hops, and by which shortest path. It runs the two-colour
// search of Harish, Vineet & Narayanan's GPU graph algorithms (section V):
// one BFS from s along out-arcs and one from t along in-arcs, expanding
// one side per level (the side whose frontier has fewer arcs) on the
// vertex-frontier kit, and stopping inside the level where the colours
// meet (the advance's early exit). Queries on the same graph reuse their
// buffers, so many of them (gearbox run stcon --pairs FILE) cost what
// they visit, not the graph's size each.
//
//	gearbox run stcon --gen kron:12 --source 3 --target 17 --out path.txt
//
// CPU backend only for now; the GPU backend gives runtime.ErrUnsupported.
package stcon
