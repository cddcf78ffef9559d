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
//	Info, DeviceTimes, Start(v0), then while !Done():
//	    Step({v, ...}); [Inspect]; decide v'; [Convert(v'.Rep)]
//	Close (always, also after errors), DeviceTimes
//
// What an operator can do beyond that is data it declares (OperatorInfo)
// or returns (StepResult), never an optional interface the engine probes.
//
// Vertex-centric operators (BFS, SSSP, push-relabel, st-connectivity) use
// vertex ids as working-set elements; edge-centric ones (hooking connected
// components, Boruvka) use arc or edge ids and report Universe = #edges.
type Operator interface {
	// Info describes the run to the policy (sizes, the initial working
	// set size, whether pull is implemented) and declares the operator's
	// capabilities.
	Info() OperatorInfo
	// Start builds the initial working set in v's representation.
	Start(v decider.Variant) error
	// Step runs one iteration with variant req.Variant over the current
	// working set and generates the next working set in the variant's
	// representation, returning what it counted.
	Step(req StepRequest) (StepResult, error)
	// Inspect measures the current working set: its size and, when degree
	// is set, its summed out-degree (the inspector's sample).
	Inspect(degree bool) (size, degreeSum int64)
	// Convert changes the current working set's representation to r.
	Convert(r decider.Rep) error
	// Done reports whether no work is left.
	Done() bool
	// DeviceTimes returns the split of a device's time so far (after
	// Close: the whole run's); nil for an operator that runs on the host.
	DeviceTimes() *GPUTimes
	// Close releases the operator's resources (worker pool, device
	// memory). Results stay readable through the algorithm's own methods.
	Close() error
}

// OperatorInfo is what an operator tells the engine before a run: the
// policy's description of the run, and the capabilities the engine adapts
// its calls to.
type OperatorInfo struct {
	decider.Info
	// DualGeneration reports that a step can generate the working set in
	// both representations at once, which makes a later Convert free; the
	// engine then sets StepRequest.DualFrom on every step.
	DualGeneration bool
	// PullConverts reports that a pull step takes the working set in
	// either representation and converts it itself where it must (the GPU
	// BFS's pull launch sets a queue into its bitmap inside the launch):
	// the engine does not convert before a pull step, and Step must accept
	// the working set as it is.
	PullConverts bool
}

// StepRequest is what the engine asks of one step.
type StepRequest struct {
	// Variant is the variant to run.
	Variant decider.Variant
	// DualFrom is the smallest summed out-degree of the current working
	// set from which its generation should write both representations
	// (decider.DualFrom: where the policy may change representation after
	// it; math.MaxInt64: never, 0: always). The second representation
	// costs a generation a bitmap's n/8 bytes of stores: on the H100
	// writing it in every generation made adaptive SSSP on the 2048x2048
	// grid (2430 iterations, never a bitmap) 12% slower. math.MaxInt64
	// for operators that do not declare DualGeneration.
	DualFrom int64
	// ExactTiming asks a device operator to synchronise before each read
	// of its results, so that device work and transfers are timed apart
	// (GPUTimes); the engine sets it when tracing.
	ExactTiming bool
}

// StepResult is what one step did and the counts it got for free.
type StepResult struct {
	// Edges is the number of edges relaxed (examined).
	Edges int64
	// Size and Degree are the next working set's size and the summed
	// out-degree of its elements; -1 where unknown.
	Size, Degree int64
	// Levels is the levels the step ran (0 or 1: one; more for a
	// persistent GPU launch). After a step of several levels the engine
	// samples the working set at once (it is no longer the one the
	// sampling period assumed).
	Levels int
	// HiddenDegree is the summed out-degree of the working sets a step of
	// several levels generated and consumed inside it, which the policy
	// never saw (decider.Observation.HiddenDegree).
	HiddenDegree int64
	// Counts are operator-specific counts of the step (the GPU BFS's
	// "pull_levels"), summed per run into Stats.Counters and kept per
	// iteration in the trace (so a step returns a map of its own, never
	// one it changes later); nil for none.
	Counts map[string]int64
}
