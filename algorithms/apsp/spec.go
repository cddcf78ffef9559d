package apsp

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// Spec describes APSP to gearbox's drivers (gearbox run apsp). Its
// variants force a method; auto lets the cost model choose. A run keeps
// no matrix: it counts the reachable pairs and keeps three rows for
// --verify. The registry writes --out after the run (Outcome.Write), so
// --out runs APSP a second time, streaming the rows into the file in
// FormatBinary, after checking that the file system has room.
var Spec = &algorithms.Spec{
	Name:       "apsp",
	Doc:        "all-pairs shortest paths: blocked Floyd-Warshall (the GPU's DPX add-min) or one search per source, chosen by a cost model",
	Variants:   []string{string(FW), string(Sources)},
	CheckGraph: checkWeights,
	Options: func(variant string, _ map[string]uint64) ([]runtime.Option, error) {
		m, err := ParseMethod(variant)
		if err != nil {
			return nil, fmt.Errorf("--variant: %w", err)
		}
		return []runtime.Option{runtime.WithValue(methodKey{}, m)}, nil
	},
	Run: func(ctx context.Context, g *graph.Graph, _ uint32, opts ...runtime.Option) (*algorithms.Outcome, error) {
		return outcome(ctx, g, opts)
	},
	Reference: func(g *graph.Graph, src uint32) error {
		if g.NumVertices() == 0 {
			return nil
		}
		return VerifyRow(g, src, rowOf(g, src))
	},
}

func init() { algorithms.Register(Spec) }

type methodKey struct{}

// optionsFrom turns the registry's runtime options into Run's.
func optionsFrom(opts []runtime.Option) []Option {
	cfg := runtime.NewConfigFor("apsp", opts...)
	out := []Option{WithBackend(cfg.Backend()), WithLogger(cfg.Logger())}
	if m, ok := cfg.Value(methodKey{}); ok {
		out = append(out, WithMethod(m.(Method)))
	}
	return out
}

func outcome(ctx context.Context, g *graph.Graph, opts []runtime.Option) (*algorithms.Outcome, error) {
	n := g.NumVertices()
	keep := map[uint32][]uint32{}
	if n > 0 {
		keep[0], keep[uint32(n/2)], keep[uint32(n-1)] = nil, nil, nil
	}
	var pairs int64
	var longest uint32
	res, err := Run(ctx, g, func(src uint32, d []uint32) error {
		for _, x := range d {
			if x != Unreachable {
				pairs++
				longest = max(longest, x)
			}
		}
		if _, ok := keep[src]; ok {
			keep[src] = append([]uint32(nil), d...)
		}
		return nil
	}, optionsFrom(opts)...)
	if err != nil {
		return nil, err
	}
	st := runtime.Stats{Algorithm: "apsp", Backend: res.Backend, Policy: string(res.Method) + ": " + res.Reason, Iterations: max(res.Rounds, 1), Wall: res.Wall}
	if res.Bits > 0 {
		st.GPU = &runtime.GPUTimes{Kernels: res.Kernel, Transfers: res.Transfer, Setup: res.Setup}
	}
	return &algorithms.Outcome{Stats: st,
		// Every pair's distance from every arc: n m, the sources' work.
		Edges: func() int64 { return max(int64(n)*g.NumEdges(), 1) },
		Summary: func() string {
			s := fmt.Sprintf("%d x %d distances: %d pairs reachable, longest %d (%s", n, n, pairs, longest, res.Method)
			if res.Bits > 0 {
				s += fmt.Sprintf(" on the GPU, %d-bit, %d rounds, kernel %.3f ms, setup %.3f ms, transfer %.3f ms", res.Bits, res.Rounds,
					res.Kernel.Seconds()*1e3, res.Setup.Seconds()*1e3, res.Transfer.Seconds()*1e3)
			}
			return s + ": " + res.Reason + ")"
		},
		Verify: func() error {
			for src, d := range keep {
				if err := VerifyRow(g, src, d); err != nil {
					return err
				}
			}
			return nil
		},
		Write: func(w io.Writer) error {
			if f, ok := w.(*os.File); ok && f.Name() != os.Stdout.Name() {
				if need, err := OutputBytes(g, FormatBinary); err != nil {
					return err
				} else if err := CheckSpace(f.Name(), need); err != nil {
					return err
				}
			}
			out, err := NewWriter(w, g, FormatBinary)
			if err != nil {
				return err
			}
			if _, err := Run(ctx, g, out.Rows, optionsFrom(opts)...); err != nil {
				return err
			}
			return out.Close()
		},
		Release: func() {},
	}, nil
}

// rowOf is one row by the CPU's search (the registry's serial reference).
func rowOf(g *graph.Graph, src uint32) []uint32 {
	d := make([]uint32, g.NumVertices())
	s := newSearcher(g)
	s.run(src, d)
	return d
}
