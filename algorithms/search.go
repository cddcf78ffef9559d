package algorithms

import (
	"context"
	"io"

	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// Search is what SearchSpec's outcomes read of the result of a sourced
// search that gives each reached vertex a value (bfs's hop depths, sssp's
// distances) and may record a parent tree.
type Search interface {
	Stats() runtime.Stats
	// Value returns v's value and whether v was reached.
	Value(v uint32) (uint64, bool)
	HasParents() bool
	Parent(v uint32) (uint32, bool)
	Path(t uint32) ([]uint32, bool)
	Release()
}

// SearchSpec completes s, the spec of such a search, and returns it. It
// sets Sourced, Benched, Parents (parents, the package's WithParents),
// Options where s has none (VariantOptions), and Run: run from the source,
// then an Outcome whose edges are the reached vertices' arcs, whose line
// is summary's, which checks by verify, and which writes the values (and
// the parents, where the run recorded them) for --out.
func SearchSpec[R Search](s *Spec, parents func() runtime.Option,
	run func(ctx context.Context, g *graph.Graph, src uint32, opts ...runtime.Option) (R, error),
	summary func(g *graph.Graph, src uint32, r R) string, verify func(g *graph.Graph, r R) error) *Spec {
	s.Sourced, s.Benched, s.Parents = true, true, parents
	if s.Options == nil {
		s.Options = func(variant string, _ map[string]uint64) ([]runtime.Option, error) { return VariantOptions(variant) }
	}
	s.Run = func(ctx context.Context, g *graph.Graph, src uint32, opts ...runtime.Option) (*Outcome, error) {
		r, err := run(ctx, g, src, opts...)
		if err != nil {
			return nil, err
		}
		return &Outcome{Stats: r.Stats(), Result: r,
			Edges:   func() int64 { return ReachedArcs(g, r.Value) },
			Summary: func() string { return summary(g, src, r) },
			Verify:  func() error { return verify(g, r) },
			Write: func(w io.Writer) error {
				if r.HasParents() {
					return WriteValuesParents(w, g, r.Value, r.Parent)
				}
				return WriteValues(w, g, r.Value)
			},
			Release: r.Release,
			Path:    r.Path,
		}, nil
	}
	return s
}
