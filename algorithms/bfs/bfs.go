package bfs

import (
	"context"
	"iter"
	"math"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/algorithms/internal/search"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/hostmem"
	"github.com/gearbox-graph/gearbox/runtime"
)

// ErrSource is wrapped when a run has no source or one out of range (one
// error for BFS and SSSP).
var ErrSource = search.ErrSource

// unreached is the internal depth of a vertex not (yet) reached; it never
// leaves the package (Depth reports ok=false instead).
const unreached = math.MaxUint32

// Result holds the depths of one BFS. Its sources, Reached, NumReached,
// Stats, the parent tree's Path and the exports are search.Result's.
type Result struct {
	search.Result
}

// Depth returns v's hop distance from the source and whether v was
// reached. Vertices outside the graph are unreached.
func (r *Result) Depth(v uint32) (int, bool) {
	d, ok := r.Value(v)
	return int(d), ok
}

// MaxDepth returns the largest depth of a reached vertex (-1 when nothing
// was reached, i.e. for an empty graph).
func (r *Result) MaxDepth() int {
	m, ok := r.MaxValue()
	if !ok {
		return -1
	}
	return int(m)
}

// All yields every reached vertex with its depth, in vertex order
// (unreached vertices are skipped, never given a sentinel depth).
func (r *Result) All() iter.Seq2[uint32, int] {
	values := r.Values()
	return func(yield func(uint32, int) bool) {
		for v, d := range values {
			if !yield(v, int(d)) {
				return
			}
		}
	}
}

// request is what a BFS operator is built from, on any backend.
type request struct {
	g    *graph.Graph
	src  uint32
	srcs []uint32 // every source (src is the first)
	cfg  *runtime.Config
	// parents: WithParents (a GPU operator then builds the tree).
	parents bool
}

// backends builds the operator for a run's backend: the CPU's here,
// bfs_cuda.go's (build tag cuda) from its init.
var backends algorithms.Backends[request, operator]

func init() {
	backends.RegisterCPU(func(c *runtime.CPU, r request) operator { return newCPU(c, r.g, r.srcs) })
}

// operator is the runtime operator plus access to its depths.
type operator interface {
	runtime.Operator
	// Depths returns the final depths, valid after the run.
	Depths() hostmem.Values
}

// Run computes BFS depths from src. Options choose the policy (default
// adaptive), thresholds, backend, logger and trace, and WithParents a
// parent tree. An empty graph gives an empty result; a source outside the
// graph is an error.
func Run(ctx context.Context, g *graph.Graph, src uint32, opts ...runtime.Option) (*Result, error) {
	return entry.One(ctx, g, src, opts)
}

// RunMulti computes every vertex's hop distance to the nearest of sources
// (a multi-source BFS: one traversal that starts from all of them at
// depth 0). Duplicated sources count once; there must be at least one.
func RunMulti(ctx context.Context, g *graph.Graph, sources []uint32, opts ...runtime.Option) (*Result, error) {
	return entry.Multi(ctx, g, sources, opts)
}

// entry checks Run's and RunMulti's arguments before run.
var entry = search.Entry[*Result]{Name: "bfs", Run: run}

func run(ctx context.Context, g *graph.Graph, srcs []uint32, multi bool, opts []runtime.Option) (*Result, error) {
	n := g.NumVertices()
	if n == 0 {
		return &Result{search.New("bfs", "depth", g, srcs, multi, hostmem.Values{}, runtime.Stats{})}, nil
	}
	cfg := runtime.NewConfigFor("bfs", opts...)
	cpu, parents, err := search.Start("bfs", cfg, n, srcs, multi)
	if err != nil {
		return nil, err
	}
	op, ok := backends.New(cfg.Backend(), request{g: g, src: srcs[0], srcs: srcs, cfg: cfg, parents: parents})
	if !ok {
		return nil, search.Unsupported("bfs", cfg, parents)
	}
	st, err := runtime.Run(ctx, "bfs", op, cfg)
	if err != nil {
		return nil, err
	}
	r := &Result{search.New("bfs", "depth", g, srcs, multi, op.Depths(), st)}
	if parents {
		if err := search.Parents(&r.Result, op, func() ([]uint32, error) {
			if cpu == nil {
				return nil, search.Unsupported("bfs", cfg, true)
			}
			return parentsOf(cpu, g, op.(*cpuOp).depth), nil
		}); err != nil {
			return nil, err
		}
	}
	return r, nil
}
