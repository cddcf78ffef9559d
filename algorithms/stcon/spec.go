package stcon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// ErrNoTarget is wrapped when a run through the registry has no target
// (algorithms.WithTarget).
var ErrNoTarget = errors.New("stcon needs a target vertex")

// Spec describes st-connectivity to gearbox's drivers.
var Spec = &algorithms.Spec{
	Name:     "stcon",
	Section:  "bfs", // its runs read BFS's thresholds section
	Doc:      "st-connectivity: is --target reachable from --source, in how many hops, by which path (a search from both ends)",
	Sourced:  true,
	Targeted: true,
	InArcs:   true,
	Variants: []string{"thread", "block"},
	Options: func(variant string, _ map[string]uint64) ([]runtime.Option, error) {
		switch variant {
		case "auto":
			return nil, nil
		case "thread":
			return []runtime.Option{WithMapping(decider.Thread)}, nil
		case "block":
			return []runtime.Option{WithMapping(decider.Block)}, nil
		}
		return nil, fmt.Errorf("--variant %q: stcon's are auto, thread and block", variant)
	},
	Run: func(ctx context.Context, g *graph.Graph, src uint32, opts ...runtime.Option) (*algorithms.Outcome, error) {
		t, ok := algorithms.TargetOf(opts...)
		if !ok {
			return nil, fmt.Errorf("stcon: %w", ErrNoTarget)
		}
		r, err := Run(ctx, g, src, t, opts...)
		if err != nil {
			return nil, err
		}
		return &algorithms.Outcome{Stats: r.Stats(),
			Edges:   func() int64 { return max(r.Arcs, 1) },
			Summary: func() string { return Summary(g, r) },
			Verify:  func() error { return Verify(g, r) },
			Write:   func(w io.Writer) error { return WritePath(w, r) },
			Release: func() {},
			Path: func(v uint32) ([]uint32, bool) {
				if v != t {
					return nil, false
				}
				return r.Path()
			},
		}, nil
	},
}

func init() { algorithms.Register(Spec) }

// Summary is one line about r in g's file ids.
func Summary(g *graph.Graph, r *Result) string {
	ids := g.IDs()
	s, t := ids.External(r.Source()), ids.External(r.Target())
	if h, ok := r.Hops(); ok {
		return fmt.Sprintf("%d -> %d: reachable, %d hops (%d vertices labelled, %d arcs examined)", s, t, h, r.Visited, r.Arcs)
	}
	return fmt.Sprintf("%d -> %d: not reachable (%d vertices labelled, %d arcs examined)", s, t, r.Visited, r.Arcs)
}

// WritePath writes r's path one file id a line from s to t, or the single
// word none.
func WritePath(w io.Writer, r *Result) error {
	p, ok := r.PathIDs()
	if !ok {
		_, err := io.WriteString(w, "none\n")
		return err
	}
	var buf []byte
	for _, v := range p {
		buf = strconv.AppendUint(buf, v, 10)
		buf = append(buf, '\n')
	}
	_, err := w.Write(buf)
	return err
}
