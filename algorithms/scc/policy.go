package scc

import (
	"errors"
	"fmt"
	"math"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// PhasePolicy steers Multistep between its phases. Its fields are SCC's
// own keys of a thresholds file ([cpu.scc], [gpu."<device>".scc]; a
// device section's keys apply too, under the algorithm's).
type PhasePolicy struct {
	// FWBWMinLive is the number of vertices left after the first trim
	// from which Multistep runs FW-BW before colouring: on fewer, one
	// search's fixed passes cost more than colouring's first round, which
	// labels a giant SCC too.
	FWBWMinLive int64 `toml:"scc_fwbw_min_live"`
	// FWBWShare is the share of the vertices left before a FW-BW round
	// that its SCCs must hold for another FW-BW round to follow: once the
	// pivots' SCCs are small, one colouring round labels many SCCs where a
	// FW-BW round labels one per partition.
	FWBWShare float64 `toml:"scc_fwbw_share"`
}

// DefaultPhasePolicy returns the built-in policy: FW-BW first on graphs
// of 1024 vertices or more, again while a round labels a tenth of what is
// left.
func DefaultPhasePolicy() PhasePolicy { return PhasePolicy{FWBWMinLive: 1024, FWBWShare: 0.1} }

// PhasePolicyFrom decodes the policy from the layers of a thresholds
// lookup (decider.ThresholdSet.KnobsFor, runtime.Config.Knobs) over
// DefaultPhasePolicy. Errors name the key.
func PhasePolicyFrom(layers decider.KnobLayers, _ bool) (PhasePolicy, error) {
	p := DefaultPhasePolicy()
	if err := decider.DecodeKnobs(&p, layers.All()...); err != nil {
		return p, err
	}
	return p, p.Validate()
}

// paramValues is Spec.ParamValues: the policy's keys and their values.
func paramValues(l decider.KnobLayers, found bool) (decider.Knobs, error) {
	p, err := PhasePolicyFrom(l, found)
	return decider.KnobsOf(p), err
}

// Validate checks the policy; the error names the key.
func (p PhasePolicy) Validate() error {
	switch {
	case p.FWBWMinLive < 0:
		return fmt.Errorf("%w: scc_fwbw_min_live = %d, want >= 0", decider.ErrThresholds, p.FWBWMinLive)
	case !(p.FWBWShare >= 0 && p.FWBWShare <= 1) || math.IsNaN(p.FWBWShare):
		return fmt.Errorf("%w: scc_fwbw_share = %v, want 0..1", decider.ErrThresholds, p.FWBWShare)
	}
	return nil
}

// errStuck is an internal error: a phase labelled nothing, or more than
// was left.
var errStuck = errors.New("scc: internal error")

// phase is one kind of step, named as its count in Stats.Counters.
type phase string

const (
	trim     phase = "trimmed"
	fwbw     phase = "fwbw"
	colour   phase = "colored"
	finished phase = "finished"
)

// progress is what the choice of the next phase looks at.
type progress struct {
	done      phase   // the phase just run
	last      phase   // the last phase other than a trim (trim: none yet)
	live      int64   // vertices without a label
	fwbwShare float64 // the last FW-BW round's labelled share of the vertices left before it
}

// next returns the phase after p.done: a trim after every search phase,
// then the variant's search phase, Multistep's chosen by the policy.
func (pol PhasePolicy) next(v Variant, p progress) phase {
	switch {
	case p.live == 0:
		return finished
	case p.done != trim:
		return trim
	case v == FWBW:
		return fwbw
	case v == Coloring:
		return colour
	case p.last == trim && p.live >= pol.FWBWMinLive:
		return fwbw
	case p.last == fwbw && p.fwbwShare >= pol.FWBWShare:
		return fwbw
	}
	return colour
}

// phases is one backend's work of each phase; each returns the vertices
// it labelled and the arcs it examined. m is the engine's mapping for the
// advances.
type phases interface {
	trim(m decider.Mapping) (labelled, arcs int64, err error)
	fwbw(m decider.Mapping) (labelled, arcs int64, err error)
	colour(m decider.Mapping) (labelled, arcs int64, err error)
}

// driver is the runtime.Operator side every backend shares: one step per
// phase, the next chosen by the policy from the vertices left.
type driver struct {
	g    *graph.Graph
	impl phases
	v    Variant
	pol  PhasePolicy
	n    int
	m    int64
	p    progress
	ph   phase // the next step's
}

func newDriver(impl phases, r request) driver {
	d := driver{g: r.g, impl: impl, v: r.v, pol: r.pol, n: r.g.NumVertices(), m: r.g.NumEdges()}
	d.p = progress{done: colour, last: trim, live: int64(d.n)}
	d.ph = d.pol.next(d.v, d.p) // a trim first, or finished
	return d
}

func (d *driver) Info() runtime.OperatorInfo {
	return runtime.OperatorInfo{Info: decider.Info{N: d.n, M: d.m, Universe: int64(d.n), InitialSize: int64(d.n)}}
}

func (d *driver) Done() bool { return d.ph == finished }

// Start does nothing: the operator was made ready when built.
func (d *driver) Start(decider.Variant) error { return nil }

// DeviceTimes is nil: a host operator.
func (d *driver) DeviceTimes() *runtime.GPUTimes { return nil }

// Inspect returns the vertices without a label.
func (d *driver) Inspect(bool) (int64, int64) { return d.p.live, -1 }

// Convert does nothing: every phase keeps its own working sets.
func (d *driver) Convert(decider.Rep) error { return nil }

// Step runs the phase the last one chose.
func (d *driver) Step(req runtime.StepRequest) (runtime.StepResult, error) {
	ph := d.ph
	run := map[phase]func(decider.Mapping) (int64, int64, error){trim: d.impl.trim, fwbw: d.impl.fwbw, colour: d.impl.colour}[ph]
	lab, arcs, err := run(req.Variant.Mapping)
	if err != nil {
		return runtime.StepResult{}, err
	}
	if lab > d.p.live || lab == 0 && ph != trim {
		// Every search phase labels at least each partition's pivot or
		// root: anything else is a bug, not a reason to loop forever.
		return runtime.StepResult{}, fmt.Errorf("%w: %s phase labelled %d of %d vertices left", errStuck, ph, lab, d.p.live)
	}
	if ph == fwbw {
		d.p.fwbwShare = float64(lab) / float64(d.p.live)
	}
	d.p.live -= lab
	if ph != trim {
		d.p.last = ph
	}
	d.p.done = ph
	d.ph = d.pol.next(d.v, d.p)
	return runtime.StepResult{Edges: arcs, Size: d.p.live, Degree: -1,
		Counts: map[string]int64{string(ph): lab, string(ph) + "_steps": 1}}, nil
}
