package cc

import (
	"context"
	"fmt"
	"io"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// Spec describes connected components to gearbox's drivers (see
// algorithms.Spec); ForestSpec the spanning forest.
var (
	Spec = &algorithms.Spec{
		Name:     "cc",
		Doc:      "connected components (weakly connected for directed graphs): each vertex labelled with its component's smallest id",
		Variants: variantNames[1:],
		Params: []algorithms.Param{
			{Key: "afforest_min_degree", Doc: "smallest average degree on which connected components run Afforest rather than union-find"},
			{Key: "afforest_min_arcs", Doc: "fewest arcs on which connected components run Afforest"},
			{Key: "afforest_min_skew", Doc: "smallest degree skew on which connected components run Afforest"},
		},
		ParamValues: func(l decider.KnobLayers, found bool) (decider.Knobs, error) {
			p, err := VariantPolicyFrom(l, found)
			return decider.KnobsOf(p), err
		},
		// EdgePolicy reads T1 (average degree) and T3 (bitmap or queue of
		// active edges) alone.
		Reads:   []string{"T1", "T3"},
		Benched: true,
		// The CC algorithms, and SV with each active-edge representation
		// forced (its policy switches between them).
		Statics: []algorithms.Static{
			{Name: "sv_BM", Options: []runtime.Option{WithVariant(SV), WithWorkset(decider.Bitmap)}},
			{Name: "sv_QU", Options: []runtime.Option{WithVariant(SV), WithWorkset(decider.Queue)}},
			{Name: "sv", Options: []runtime.Option{WithVariant(SV)}},
			{Name: "afforest", Options: []runtime.Option{WithVariant(Afforest)}},
			{Name: "unionfind", Options: []runtime.Option{WithVariant(UnionFind)}},
		},
		Options: variantOptions,
		Run: func(ctx context.Context, g *graph.Graph, _ uint32, opts ...runtime.Option) (*algorithms.Outcome, error) {
			return outcome(ctx, g, false, opts)
		},
		Reference: func(g *graph.Graph, _ uint32) error { Reference(g); return nil },
	}
	ForestSpec = &algorithms.Spec{
		Name:     "forest",
		Section:  "cc", // a forest is CC's run with its hooks recorded
		Doc:      "spanning forest (of the undirected version of directed graphs), with the component labels",
		Variants: variantNames[1:],
		Reads:    Spec.Reads,
		Options:  variantOptions,
		Run: func(ctx context.Context, g *graph.Graph, _ uint32, opts ...runtime.Option) (*algorithms.Outcome, error) {
			return outcome(ctx, g, true, opts)
		},
		Reference: func(g *graph.Graph, _ uint32) error { Reference(g); return nil },
	}
)

func init() {
	algorithms.Register(Spec)
	algorithms.Register(ForestSpec)
}

// variantOptions maps --variant to WithVariant.
var variantOptions = algorithms.VariantOptionsOf(ParseVariant, WithVariant)

// outcome runs CC, or a spanning forest when forest is set. Labels are
// written in the file's ids: each vertex gets the id of the smallest-id
// vertex of its component.
func outcome(ctx context.Context, g *graph.Graph, forest bool, opts []runtime.Option) (*algorithms.Outcome, error) {
	var r *Result
	var edges []Edge
	if forest {
		f, err := Forest(ctx, g, opts...)
		if err != nil {
			return nil, err
		}
		r, edges = &f.Result, f.Edges()
	} else {
		var err error
		if r, err = Run(ctx, g, opts...); err != nil {
			return nil, err
		}
	}
	o := &algorithms.Outcome{Stats: r.Stats(), Result: r,
		Edges: func() int64 { return max(g.NumEdges(), 1) },
		Summary: func() string {
			s := fmt.Sprintf("%d components, largest %d vertices (variant %s: %s)", r.NumComponents(), r.LargestSize(), r.Variant(), r.Reason())
			if forest {
				s += fmt.Sprintf(", forest of %d edges", len(edges))
			}
			return s
		},
		Verify:  func() error { return Verify(g, r.Labels()) },
		Release: r.Release,
	}
	ids := g.IDs()
	if forest {
		o.Verify = func() error { return VerifyForest(g, r.Labels(), edges) }
		o.Write = func(w io.Writer) error {
			return algorithms.WritePairs(w, g, len(edges), func(i int) (uint32, uint32) { return edges[i].U, edges[i].V })
		}
	} else {
		o.Write = func(w io.Writer) error {
			return algorithms.WriteValues(w, g, func(v uint32) (uint64, bool) { return ids.External(r.Label(v)), true })
		}
	}
	return o, nil
}
