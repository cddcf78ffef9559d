package scc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// none is the label of a vertex whose SCC is not known yet.
const none = graph.NoVertex

// section is the thresholds section (and runtime.NewConfigFor name) of
// SCC's runs.
const section = "scc"

// Variant names a strongly-connected-components algorithm.
type Variant uint8

const (
	// Auto lets the PhasePolicy steer Multistep.
	Auto Variant = iota
	// FWBW is forward-backward search with trimming: every round searches
	// forward and backward from one pivot per partition, labels the
	// pivots' SCCs and splits each partition in three (Fleischer,
	// Hendrickson & Pinar), trimming between rounds.
	FWBW
	// Coloring is trimming and colouring alone: every round propagates
	// the smallest vertex id forward, then searches backward from each
	// colour's root (Orzan).
	Coloring
	// Multistep is Slota et al.'s order: trim, FW-BW while it peels large
	// SCCs (the giant one first, from the pivot of largest degree
	// product), then colouring for the many small ones left.
	Multistep
)

var variantNames = [...]string{Auto: "auto", FWBW: "fwbw", Coloring: "coloring", Multistep: "multistep"}

func (v Variant) String() string {
	if v > Multistep {
		return "Variant(" + strconv.Itoa(int(v)) + ")"
	}
	return variantNames[v]
}

// Variants lists the concrete variants (every one but Auto).
func Variants() []Variant { return []Variant{FWBW, Coloring, Multistep} }

var (
	// ErrUnknownVariant is returned for a variant name or value the
	// package does not know.
	ErrUnknownVariant = errors.New("scc: unknown variant")
	// ErrVerify is wrapped by Verify's errors.
	ErrVerify = errors.New("scc: verification failed")
)

// ParseVariant maps a name ("auto", "fwbw", "coloring", "multistep"; case
// ignored) to its Variant.
func ParseVariant(s string) (Variant, error) {
	return algorithms.ParseVariantName[Variant](s, variantNames[:], ErrUnknownVariant)
}

type (
	variantKey struct{}
	policyKey  struct{}
)

// WithVariant forces an algorithm (Auto, the default, is Multistep under
// the PhasePolicy of the run's thresholds).
func WithVariant(v Variant) runtime.Option { return runtime.WithValue(variantKey{}, v) }

// WithPhasePolicy replaces the thresholds of the phase choice (by default
// PhasePolicyFrom the run's knobs: the scc_* keys of [cpu.scc] or
// [gpu."<device>".scc]).
func WithPhasePolicy(p PhasePolicy) runtime.Option { return runtime.WithValue(policyKey{}, p) }

// Result holds every vertex's SCC label: the smallest internal vertex id
// of its strongly connected component, whatever the variant, backend and
// worker count.
type Result struct {
	labels  []uint32
	ids     graph.IDMap // the graph file's, for the exports
	stats   runtime.Stats
	variant Variant
	reason  string

	once    sync.Once
	ncomp   int
	largest int
	bigLbl  uint32
}

// NumVertices returns the number of vertices labelled.
func (r *Result) NumVertices() int { return len(r.labels) }

// Label returns v's SCC label, or graph.NoVertex for v outside the graph.
func (r *Result) Label(v uint32) uint32 {
	if int64(v) >= int64(len(r.labels)) {
		return graph.NoVertex
	}
	return r.labels[v]
}

// Labels returns every vertex's label. Do not modify.
func (r *Result) Labels() []uint32 { return r.labels }

// NumComponents returns the number of SCCs (a vertex on no cycle is one).
func (r *Result) NumComponents() int { r.count(); return r.ncomp }

// LargestSize returns the number of vertices of the largest SCC.
func (r *Result) LargestSize() int { r.count(); return r.largest }

// LargestLabel returns the label of the largest SCC (the smallest among
// equally large ones); graph.NoVertex for the empty graph.
func (r *Result) LargestLabel() uint32 { r.count(); return r.bigLbl }

// Variant returns the algorithm that ran.
func (r *Result) Variant() Variant { return r.variant }

// Reason says why the variant was chosen ("forced" when it was given).
func (r *Result) Reason() string { return r.reason }

// Stats returns the run's statistics; Counters holds the vertices each
// phase labelled (trimmed, fwbw, colored) and the phases run.
func (r *Result) Stats() runtime.Stats { return r.stats }

// LabelID returns v's label as the file id of its SCC's smallest vertex.
func (r *Result) LabelID(v uint32) uint64 { return r.ids.External(r.labels[v]) }

// count tallies the SCCs once: a label is a vertex id, so sizes index by
// it.
func (r *Result) count() {
	r.once.Do(func() {
		r.bigLbl = graph.NoVertex
		sizes := make([]int32, len(r.labels))
		for _, l := range r.labels {
			sizes[l]++
		}
		for l, s := range sizes {
			if s == 0 {
				continue
			}
			r.ncomp++
			if int(s) > r.largest {
				r.largest, r.bigLbl = int(s), uint32(l)
			}
		}
	})
}

// request is what a backend's operator is built from.
type request struct {
	g   *graph.Graph
	v   Variant
	pol PhasePolicy
}

// operator is a runtime operator that yields the labels once run.
type operator interface {
	runtime.Operator
	Labels() []uint32
}

// backends builds the operator for a run's backend: the CPU's here,
// scc_cuda.go's (build tag cuda) from its init.
var backends algorithms.Backends[request, operator]

func init() {
	backends.RegisterCPU(func(c *runtime.CPU, r request) operator { return newCPU(c.NewPool(), r) })
}

// Run labels the strongly connected components of g. An undirected graph
// is its own transpose: its SCCs are its connected components, with the
// labels cc gives. Options: WithVariant, WithPhasePolicy and the
// runtime's (backend or worker count, logger, trace, thresholds, a mapping
// for the searches' advances through a static decider.Variant).
func Run(ctx context.Context, g *graph.Graph, opts ...runtime.Option) (*Result, error) {
	if err := runtime.CheckArgs(section, ctx, g); err != nil {
		return nil, err
	}
	cfg := runtime.NewConfigFor(section, opts...)
	v, reason := Multistep, "auto: multistep, phases steered by the phase policy"
	if x, ok := cfg.Value(variantKey{}); ok && x.(Variant) != Auto {
		v, reason = x.(Variant), "forced"
	}
	if v > Multistep {
		return nil, fmt.Errorf("%w: %d", ErrUnknownVariant, uint8(v))
	}
	pol, err := policyOf(cfg)
	if err != nil {
		return nil, err
	}
	op, ok := backends.New(cfg.Backend(), request{g: g, v: v, pol: pol})
	if !ok {
		return nil, fmt.Errorf("scc: backend %s, variant %v: %w", cfg.Backend().Name(), v, runtime.ErrUnsupported)
	}
	log := cfg.Logger()
	log.Debug().Str("variant", v.String()).Str("reason", reason).Msg("scc")
	st, err := runtime.Run(ctx, "scc-"+v.String(), op, cfg)
	if err != nil {
		return nil, err
	}
	return &Result{labels: op.Labels(), variant: v, reason: reason, stats: st, ids: g.IDs()}, nil
}

// policyOf returns WithPhasePolicy's policy, or the thresholds'.
func policyOf(cfg *runtime.Config) (PhasePolicy, error) {
	x, given := cfg.Value(policyKey{})
	if given {
		p := x.(PhasePolicy)
		return p, p.Validate()
	}
	p, err := PhasePolicyFrom(cfg.Knobs())
	if err != nil && !errors.Is(err, decider.ErrThresholds) {
		err = fmt.Errorf("%w: scc: %w", decider.ErrThresholds, err)
	}
	return p, err
}

// Summary is what encoding/json gives for a Result: never the n labels.
type Summary struct {
	Vertices int `json:"vertices"`
	// Components counts the SCCs, LargestSize the vertices of the largest.
	Components  int `json:"components"`
	LargestSize int `json:"largest_size"`
	// Variant and Reason are what ran and why.
	Variant string        `json:"variant"`
	Reason  string        `json:"reason"`
	Stats   runtime.Stats `json:"stats"`
}

// MarshalJSON encodes the result's Summary.
func (r *Result) MarshalJSON() ([]byte, error) {
	return json.Marshal(Summary{Vertices: len(r.labels), Components: r.NumComponents(), LargestSize: r.LargestSize(),
		Variant: r.variant.String(), Reason: r.reason, Stats: r.stats})
}

// Spec describes strongly connected components to gearbox's drivers (see
// algorithms.Spec).
var Spec = &algorithms.Spec{
	Name:     section,
	Doc:      "strongly connected components (connected components of undirected graphs): each vertex labelled with its SCC's smallest id",
	Variants: variantNames[1:],
	InArcs:   true, // the trim and the backward searches read the transpose
	// The engine's policy picks the searches' mapping from the average
	// degree (T1) and the vertices left (T2); the representation it picks
	// is not used.
	Reads: []string{"T1", "T2"},
	Params: []algorithms.Param{
		{Key: "scc_fwbw_min_live", Doc: "fewest vertices left after the first trim on which strongly connected components run FW-BW before colouring"},
		{Key: "scc_fwbw_share", Doc: "share of the vertices left that a FW-BW round must label for another to follow (else colouring)"},
	},
	ParamValues: paramValues,
	Benched:     true,
	Options: func(variant string, _ map[string]uint64) ([]runtime.Option, error) {
		v, err := ParseVariant(variant)
		opts := []runtime.Option{WithVariant(v)}
		if err != nil {
			return nil, fmt.Errorf("--variant: %w", err)
		}
		return opts, nil
	},
	Run: func(ctx context.Context, g *graph.Graph, _ uint32, opts ...runtime.Option) (*algorithms.Outcome, error) {
		r, err := Run(ctx, g, opts...)
		return outcome(g, r), err
	},
	Reference: func(g *graph.Graph, _ uint32) error { Reference(g); return nil },
}

func init() { algorithms.Register(Spec) }

// outcome is r as the drivers report it (nil for no result).
func outcome(g *graph.Graph, r *Result) *algorithms.Outcome {
	if r == nil {
		return nil
	}
	return &algorithms.Outcome{Stats: r.Stats(), Result: r, Release: func() {},
		Edges:   func() int64 { return max(g.NumEdges(), 1) },
		Summary: func() string { return summary(g, r) },
		Verify:  func() error { return Verify(g, r.Labels()) },
		Write:   func(w io.Writer) error { return WriteLabels(w, g, r) },
	}
}

func summary(g *graph.Graph, r *Result) string {
	note := ""
	if !g.Directed() {
		note = " (undirected: the connected components)"
	}
	c := r.Stats().Counters
	return fmt.Sprintf("%d SCCs%s, largest %d vertices; labelled by trim %d, FW-BW %d, colouring %d (variant %s: %s)",
		r.NumComponents(), note, r.LargestSize(), c["trimmed"], c["fwbw"], c["colored"], r.Variant(), r.Reason())
}

// WriteLabels writes one "id label" line per vertex in g's file ids, the
// label the file id of the SCC's smallest vertex.
func WriteLabels(w io.Writer, g *graph.Graph, r *Result) error {
	return algorithms.WriteValues(w, g, func(v uint32) (uint64, bool) { return r.LabelID(v), true })
}
