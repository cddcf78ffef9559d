package testgraphs

import "github.com/gearbox-graph/gearbox/decider"

// Cycle is a test policy that changes variant every iteration, round robin
// over vs: it exercises every conversion and mixes orders and directions
// within one run.
func Cycle(vs ...decider.Variant) decider.Policy { return cycle{vs} }

type cycle struct{ vs []decider.Variant }

func (c cycle) Begin(decider.Info) decider.Decider { return &cycleRun{vs: c.vs} }
func (c cycle) String() string                     { return "cycle" }

type cycleRun struct {
	vs []decider.Variant
	i  int
}

func (c *cycleRun) Initial() decider.Variant { return c.vs[0] }
func (c *cycleRun) Next(decider.Observation) decider.Variant {
	c.i++
	return c.vs[c.i%len(c.vs)]
}

// OtherBackend is a runtime.Backend that no algorithm has an operator for:
// it stands for a non-CPU backend (the GPU's, in the cuda build) in tests
// of what only the CPU backend supports.
type OtherBackend struct{}

func (OtherBackend) Name() string                       { return "other" }
func (OtherBackend) Device() string                     { return "other" }
func (OtherBackend) Configure(decider.KnobLayers) error { return nil }
