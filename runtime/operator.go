package runtime

import (
	"github.com/gearbox-graph/gearbox/decider"
)

// Operator is one algorithm implemented on one backend: the per-iteration
// steps the engine drives (Li & Becchi, Fig. 8). It owns its state and
// working sets (host slices on the CPU, device buffers on a GPU), so the
// engine never touches data and is the same for every backend.
//
// The engine calls, in order:
//
//	Info, Start(v0), then while !Done():
//	    Compute(v); Generate(v.Rep); [Inspect]; decide v'; [Convert(v'.Rep)]
//	Close (always, also after errors)
//
// Vertex-centric operators (BFS, SSSP, push-relabel, st-connectivity) use
// vertex ids as working-set elements; edge-centric ones (hooking connected
// components, Boruvka) use arc or edge ids and report Universe = #edges.
type Operator interface {
	// Info describes the run to the policy: sizes, the initial working
	// set size and whether pull is implemented.
	Info() decider.Info
	// Start builds the initial working set in v's representation.
	Start(v decider.Variant) error
	// Compute runs one iteration with variant v over the current working
	// set, recording updates for the next one; it returns the number of
	// edges relaxed (examined).
	Compute(v decider.Variant) (edges int64, err error)
	// Generate turns the updates into the next working set in
	// representation r (the same as Compute's variant) and returns the
	// counts it gets for free (-1 where unknown): its size and the summed
	// out-degree of its elements.
	Generate(r decider.Rep) (size, degree int64, err error)
	// Inspect measures the current working set: its size and, when degree
	// is set, its summed out-degree (the inspector's sample).
	Inspect(degree bool) (size, degreeSum int64)
	// Convert changes the current working set's representation to r.
	Convert(r decider.Rep) error
	// Done reports whether no work is left.
	Done() bool
	// Close releases the operator's resources (worker pool, device
	// memory). Results stay readable through the algorithm's own methods.
	Close() error
}

// DualGenerator is implemented by operators that can generate a working
// set in both representations at once, which makes a later Convert free.
// Before each Compute the engine sets the summed out-degree of the current
// working set from which its generation should (decider.DualFrom: where
// the policy may change representation after it; math.MaxInt64: never, 0:
// always). The second representation costs a generation a bitmap's n/8
// bytes of stores: on the H100 writing it in every generation made
// adaptive SSSP on the 2048x2048 grid (2430 iterations, never a bitmap)
// 12% slower.
type DualGenerator interface {
	SetDualFrom(degree int64)
}

// ConvertDeferrer is implemented by operators whose next iteration may
// take the working set in its present representation although variant v
// names another (the GPU BFS's pull launch sets a queue into its bitmap
// itself, inside the launch). Before a conversion the engine asks; where
// DefersConvert(v) is true it leaves the working set as it is, and
// Compute(v) must accept it.
type ConvertDeferrer interface {
	DefersConvert(v decider.Variant) bool
}

// LevelFuser is implemented by operators whose iteration may run several
// levels at once (the GPU backend's persistent launches). Fused reports
// what the last iteration ran. After an iteration of several levels the
// engine samples the working set at once (it is no longer the one the
// sampling period assumed) and passes the hidden degree on
// (decider.Observation.HiddenDegree).
type LevelFuser interface {
	Fused() Fusion
}

// Fusion is what an iteration of several levels ran.
type Fusion struct {
	// Levels is the levels it ran (0 or 1: one).
	Levels int
	// HiddenDegree is the summed out-degree of the working sets those
	// levels generated and consumed inside it, which the policy never saw.
	HiddenDegree int64
	// Pulled is how many of the levels pulled (BFS's pull launches, which
	// go back to push inside them).
	Pulled int
}
