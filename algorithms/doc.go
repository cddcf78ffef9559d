// Package algorithms is gearbox's registry of algorithms, one Spec value
// per algorithm (as golang.org/x/tools/go/analysis makes each analyzer one
// Analyzer value every driver reads). The algorithm packages (bfs, sssp, cc)
// each build their Spec and Register it in an init function; the drivers
// (gearbox run, bench and tune, tuning's sweeps, the thresholds loader)
// iterate All instead of keeping lists of their own:
//
//	for _, s := range algorithms.All() {
//		opts, err := s.Options("auto", nil)
//		out, err := s.Run(ctx, g, src, append(opts, runtime.WithWorkers(4))...)
//		fmt.Println(s.Name, out.Summary(), out.Verify())
//		out.Release()
//	}
//
// The registry is a leaf the algorithm packages import (it imports graph,
// decider and runtime only), so an algorithm registers itself and a program
// holds the algorithms it links: algorithms/all links every shipped one,
// for the drivers. The other way round (a registry importing the
// algorithms) would make algorithms/all the registry and cycle as soon as
// an algorithm composes another through it.
//
// A Spec holds the algorithm's name and one-line doc, whether it takes a
// source or weights, its static variants, its knobs (Params: thresholds
// keys, run's flags, tune's ranges), the decider keys it reads, and Run,
// which returns an Outcome every driver reports alike: statistics, the
// edges of MTEPS, a summary line, a verifier, the --out writer and
// Release. A Spec's Params are the single list of the thresholds keys the
// algorithm owns (BackendParams the backends'): ParseThresholds and
// LoadThresholds check a thresholds file's per-algorithm sections against
// the registered names, refuse a key that neither the decider nor an
// owner has, and have each owner decode its keys for every device and
// algorithm (Spec.ParamValues), so a bad value fails when the file is
// read. Values gives those keys' effective values for one lookup.
//
// Backends is the per-algorithm table of operator constructors by backend
// kind, one signature per algorithm: the cuda build's files register
// theirs from an init function, and Run asks the table.
//
// Adding an algorithm touches: its package under algorithms/ (operator,
// reference, verifier, and a spec.go with its Spec and Register call, its
// backend table and the cuda file's one init line), one line in
// algorithms/all/all.go, and its kernels (kernels/*.cu, kernels/names.go)
// for a GPU backend. No driver changes: run, bench and tune read its Spec.
//
// It may import graph, decider and runtime; algorithm packages import it.
package algorithms
