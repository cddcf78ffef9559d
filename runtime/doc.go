// Package runtime is gearbox's iteration engine: it runs an operator (BFS,
// SSSP, ...) iteration by iteration on a backend, generating the working set,
// inspecting it, asking a decider policy for the next variant and converting
// the working set when its representation changes (Li & Becchi, Fig. 8). It
// records statistics and a per-iteration trace of every run.
//
// # Design
//
// The engine (Run) never touches graph data. It drives an Operator, which is
// one algorithm implemented for one backend and owns that backend's state
// (host slices and a mapping.Pool on the CPU; device buffers and kernels on
// a GPU). Per iteration the engine calls
//
//	Step({v, ...})  process the current working set with variant v and
//	                build the next one in v's representation, returning
//	                the counts it gets for free (edges, size, out-degree
//	                sum) and, for a step of several levels, their number
//	Inspect         every SampleEvery iterations (inspector.Sampler, timed):
//	                the working set's size (optionally out-degree sum)
//	policy.Next     decider.Decider picks the next variant
//	Convert(rep)    only when the representation changes (timed)
//
// until Done. Context cancellation is checked between iterations. What an
// operator can do beyond that (generate both representations at once,
// convert inside a pull step) it declares in OperatorInfo; a device
// operator reports its time split through DeviceTimes, and a backend takes
// what it needs from the run's knobs through Backend.Configure. The
// operator interface is backend-neutral: a CUDA operator implements the same
// methods with kernels (Step = one expand kernel per variant and the
// generation's bitmap flags or queue compaction, Inspect = a reduction,
// Convert = bitmap<->queue kernels). Algorithms pick the implementation by the
// backend's concrete type: algorithms/bfs/bfs_cpu.go for *CPU, and a
// bfs_cuda.go (build tag cuda) that registers a constructor for the CUDA
// backend type (*gpu.CUDA).
//
// Vertex-centric operators (BFS, SSSP, push-relabel max-flow,
// st-connectivity) use vertex ids as working-set elements; edge-centric ones
// (connected-components hooking, Boruvka MST, whose working set is the
// active edges) use edge ids and report decider.Info.Universe = number of
// edges, so T3 stays a fraction of the possible elements. Direction (pull)
// is offered only by operators that set Info.CanPull. Order is interpreted
// by the operator: level-synchronous vs label-correcting BFS; for SSSP a
// bucket width (Delta for ordered, unbounded for unordered).
//
// # Configuration
//
// Algorithms take ...Option: WithVariant (Static policy), WithPolicy,
// WithThresholds, WithThresholdSet, WithOrder, WithLogger (each
// iteration logged at debug level: the decision trace), WithTrace
// (Stats.Trace), WithBackend / WithWorkers, and WithValue for an
// algorithm's own options (sssp.WithDelta, sssp.WithParams,
// cc.WithVariant), which the engine does not read. The default is the
// Adaptive policy with the backend device's default thresholds on a CPU
// backend with GOMAXPROCS workers. Algorithms build their Config with
// NewConfigFor(name), so the per-algorithm sections of a thresholds file
// ([gpu."<device>".bfs]) apply to them. WithThresholds sets the decider's
// thresholds only; the keys the algorithms and the backend own reach them
// as Config.Knobs (the thresholds file's layers, WithKnobs on top), which
// each owner decodes itself: Config knows no algorithm's parameters.
//
// It may import graph, workset, mapping, inspector and decider; algorithms
// import runtime, never the reverse. It does not import gpu or kernels:
// the CUDA backend (gpu.CUDA) satisfies Backend by its methods, and the
// GPU working set and kits live in workset and algorithms/internal.
//
// # Concurrency
//
// A *graph.Graph is read-only once built (its transpose is built once, on
// first use, under a sync.Once), so any number of runs may share it. Runs
// of any algorithm may share one CPU backend from several goroutines at
// once: each run takes its own worker pool and result memory, and gives the
// result it gives alone (algorithms/all's TestConcurrentRuns, under -race
// in CI). A result belongs to the goroutine that got it; after Release it
// must not be used. A CUDA backend (gpu.New) does its device work one call
// at a time on its own locked OS thread; runs sharing one from several
// goroutines are not tested: give each goroutine its own backend (several
// may be open, one per GPU or per stream of work) or run them in turn.
package runtime
