package maxflow

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// ErrNoSink is wrapped when a run through the registry has neither a
// target (algorithms.WithTarget) nor a graph that names its sink.
var ErrNoSink = errors.New("maxflow needs a sink vertex")

type algKey struct{}

// Spec describes max-flow to gearbox's drivers. `gearbox run maxflow`
// parses its own flags (several terminals, --cut), so the CLI only reads
// its name and doc here; other drivers run it from one source to the
// target.
var Spec = &algorithms.Spec{
	Name:     "maxflow",
	Doc:      "maximum flow and minimum cut by push-relabel (its own flags: gearbox run maxflow -h)",
	Sourced:  true,
	Targeted: true,
	OwnFlags: true,
	Variants: []string{"hl", "fifo", "sync"},
	Options: func(variant string, _ map[string]uint64) ([]runtime.Option, error) {
		a, err := ParseAlgorithm(variant)
		if err != nil {
			return nil, err
		}
		return []runtime.Option{runtime.WithValue(algKey{}, a)}, nil
	},
	Run: func(ctx context.Context, g *graph.Graph, src uint32, opts ...runtime.Option) (*algorithms.Outcome, error) {
		t, ok := algorithms.TargetOf(opts...)
		if !ok {
			if _, sink, terms := g.Terminals(); terms {
				t, ok = sink, true
			}
		}
		if !ok {
			return nil, fmt.Errorf("maxflow: %w", ErrNoSink)
		}
		r, err := graph.NewResidual(g)
		if err != nil {
			return nil, err
		}
		var a Algorithm // Auto
		if v, ok := runtime.NewConfig(opts...).Value(algKey{}); ok {
			a = v.(Algorithm)
		}
		res, err := Run(ctx, r, src, t, WithAlgorithm(a), WithRuntime(opts...))
		if err != nil {
			return nil, err
		}
		return &algorithms.Outcome{Stats: res.Stats(),
			Edges: func() int64 { return max(int64(len(r.Head)), 1) },
			Summary: func() string {
				s := fmt.Sprintf("flow value: %d, minimum cut capacity %d, %d vertices on its source side (%v)",
					res.Value(), res.CutCapacity(), len(res.SourceSide()), res.Algorithm())
				if p := res.Placement(); p != "host" {
					s += "; " + p
				}
				return s
			},
			Verify: func() error {
				side := make([]bool, r.NumVertices())
				for _, v := range res.SourceSide() {
					side[v] = true
				}
				return Verify(r, src, t, res.Flows(), res.Value(), side)
			},
			Write:   func(w io.Writer) error { return writeFlows(w, g, r, res.Flows()) },
			Release: func() {},
		}, nil
	},
}

func init() { algorithms.Register(Spec) }

// writeFlows writes one "u v flow" line per arc that carries flow, in
// g's file ids.
func writeFlows(w io.Writer, g *graph.Graph, r *graph.Residual, flows []int64) error {
	bw := bufio.NewWriter(w)
	ids := g.IDs()
	for u := 0; u < r.NumVertices(); u++ {
		for e := r.Off[u]; e < r.Off[u+1]; e++ {
			if flows[e] > 0 {
				fmt.Fprintf(bw, "%d %d %d\n", ids.External(uint32(u)), ids.External(r.Head[e]), flows[e])
			}
		}
	}
	return bw.Flush()
}
