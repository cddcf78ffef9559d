package msf

import (
	"context"
	"io"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// section is the thresholds section (and runtime.NewConfigFor name) of
// MSF's runs: the registry's name, mst.
const section = "mst"

// Spec describes the minimum spanning forest to gearbox's drivers (see
// algorithms.Spec) as "mst".
var Spec = &algorithms.Spec{
	Name:     section,
	Doc:      "minimum spanning forest (of the undirected reading of directed graphs): forest weight, edges and components; --out writes u v w per edge",
	Weighted: true,
	Variants: variantNames[1:],
	// The edge-set policy reads T1 (average degree) and T3 (bitmap or
	// queue of active edges) alone.
	Reads:   []string{"T1", "T3"},
	Benched: true,
	Statics: []algorithms.Static{
		{Name: "ea", Options: []runtime.Option{WithVariant(EA)}},
		{Name: "ea_QU", Options: []runtime.Option{WithVariant(EA), runtime.WithVariant(decider.Variant{Mapping: decider.Block, Rep: decider.Queue})}},
		{Name: "al", Options: []runtime.Option{WithVariant(AL)}},
		{Name: "al_BM_block", Options: []runtime.Option{WithVariant(AL), runtime.WithVariant(decider.Variant{Mapping: decider.Block, Rep: decider.Bitmap})}},
		{Name: "ecl", Options: []runtime.Option{WithVariant(ECL)}},
	},
	Options: algorithms.VariantOptionsOf(ParseVariant, WithVariant),
	Run: func(ctx context.Context, g *graph.Graph, _ uint32, opts ...runtime.Option) (*algorithms.Outcome, error) {
		r, err := Run(ctx, g, opts...)
		if err != nil {
			return nil, err
		}
		return &algorithms.Outcome{Stats: r.Stats(),
			Edges:   func() int64 { return max(g.NumEdges(), 1) },
			Summary: func() string { return summary(r) },
			Verify:  func() error { return Verify(g, r.Edges(), DefaultSeed) },
			Write:   func(w io.Writer) error { return WriteForest(w, g, r) },
			Release: r.Release,
		}, nil
	},
	Reference: func(g *graph.Graph, _ uint32) error {
		_, err := Run(context.Background(), g, WithVariant(Kruskal))
		return err
	},
}

func init() { algorithms.Register(Spec) }
