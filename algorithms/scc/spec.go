package scc

import (
	"context"
	"fmt"
	"io"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// Spec describes strongly connected components to gearbox's drivers (see
// algorithms.Spec).
var Spec = &algorithms.Spec{
	Name:     section,
	Doc:      "strongly connected components (connected components of undirected graphs): each vertex labelled with its SCC's smallest id",
	Variants: variantNames[1:],
	Params: []algorithms.Param{
		{Key: "scc_fwbw_min_live", Doc: "fewest vertices left after the first trim on which strongly connected components run FW-BW before colouring"},
		{Key: "scc_fwbw_share", Doc: "share of the vertices left that a FW-BW round must label for another to follow (else colouring)"},
	},
	ParamValues: func(l decider.KnobLayers, found bool) (decider.Knobs, error) {
		p, err := PhasePolicyFrom(l, found)
		return decider.KnobsOf(p), err
	},
	Benched: true,
	Options: func(variant string, _ map[string]uint64) ([]runtime.Option, error) {
		v, err := ParseVariant(variant)
		if err != nil {
			return nil, fmt.Errorf("--variant: %w", err)
		}
		return []runtime.Option{WithVariant(v)}, nil
	},
	Run: func(ctx context.Context, g *graph.Graph, _ uint32, opts ...runtime.Option) (*algorithms.Outcome, error) {
		r, err := Run(ctx, g, opts...)
		if err != nil {
			return nil, err
		}
		return &algorithms.Outcome{Stats: r.Stats(), Result: r,
			Edges:   func() int64 { return max(g.NumEdges(), 1) },
			Summary: func() string { return summary(g, r) },
			Verify:  func() error { return Verify(g, r.Labels()) },
			Write:   func(w io.Writer) error { return WriteLabels(w, g, r) },
			Release: func() {},
		}, nil
	},
	Reference: func(g *graph.Graph, _ uint32) error { Reference(g); return nil },
}

func init() { algorithms.Register(Spec) }

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
