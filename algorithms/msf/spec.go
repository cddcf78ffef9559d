package msf

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"

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
	Options: func(variant string, _ map[string]uint64) ([]runtime.Option, error) {
		if variant == "auto" {
			return nil, nil
		}
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

// summary is the run's line: forest weight W, E edges, C components.
func summary(r *Result) string {
	w := strconv.FormatInt(r.TotalWeight(), 10)
	if r.WeightKind() == graph.RealWeights {
		w = strconv.FormatFloat(r.TotalWeightFloat(), 'g', -1, 64)
	}
	note := ""
	if r.Directed() {
		note = " (directed input read as undirected)"
	}
	if r.DerivedWeights() {
		note += " (derived weights)"
	}
	return fmt.Sprintf("forest weight %s, %d edges, %d components%s (variant %s: %s)", w, len(r.Edges()), r.NumComponents(), note, r.Variant(), r.Reason())
}

// WriteForest writes one "u v w" line per forest edge, in g's file ids
// (g is the graph the forest was computed on).
func WriteForest(w io.Writer, g *graph.Graph, r *Result) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	var buf []byte
	ids := g.IDs()
	real := r.WeightKind() == graph.RealWeights
	for _, e := range r.Edges() {
		buf = strconv.AppendUint(buf[:0], ids.External(e.U), 10)
		buf = append(buf, ' ')
		buf = strconv.AppendUint(buf, ids.External(e.V), 10)
		buf = append(buf, ' ')
		if real {
			buf = strconv.AppendFloat(buf, r.WeightOf(e), 'g', -1, 32)
		} else {
			buf = strconv.AppendUint(buf, uint64(e.Weight), 10)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}
