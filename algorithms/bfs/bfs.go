package bfs

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"
	"time"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/hostmem"
	"github.com/gearbox-graph/gearbox/runtime"
)

// ErrSource is wrapped when the source vertex is out of range.
var ErrSource = errors.New("source vertex out of range")

// unreached is the internal depth of a vertex not (yet) reached; it never
// leaves the package (Depth reports ok=false instead).
const unreached = math.MaxUint32

// Result holds the depths of one BFS.
type Result struct {
	src  uint32
	srcs []uint32 // RunMulti's sources (nil: src alone)
	// parent is WithParents' tree (nil without it).
	parent []uint32
	// depth is held at the width the run produced (8 bits from a GPU run
	// of fewer than 255 levels; hostmem.Values).
	depth hostmem.Values
	stats runtime.Stats
	// ids are the graph's file ids, for the exports.
	ids graph.IDMap
	// released is set by Release; the result is unusable after it.
	released bool
}

// Source returns the source vertex (RunMulti's first).
func (r *Result) Source() uint32 { return r.src }

// Sources returns the run's sources: RunMulti's, or Run's one.
func (r *Result) Sources() []uint32 {
	if r.srcs != nil {
		return r.srcs
	}
	return []uint32{r.src}
}

// NumVertices returns the number of vertices of the graph searched.
func (r *Result) NumVertices() int {
	r.live()
	return r.depth.Len()
}

// Depth returns v's hop distance from the source and whether v was
// reached. Vertices outside the graph are unreached.
func (r *Result) Depth(v uint32) (int, bool) {
	r.live()
	d, ok := r.depth.At(v)
	return int(d), ok
}

// Reached reports whether v was reached from the source.
func (r *Result) Reached(v uint32) bool {
	_, ok := r.Depth(v)
	return ok
}

// NumReached returns the number of reached vertices (the source included).
func (r *Result) NumReached() int {
	r.live()
	c := 0
	for range r.depth.All() {
		c++
	}
	return c
}

// MaxDepth returns the largest depth of a reached vertex (-1 when nothing
// was reached, i.e. for an empty graph).
func (r *Result) MaxDepth() int {
	r.live()
	m := -1
	for _, d := range r.depth.All() {
		m = max(m, int(d))
	}
	return m
}

// All yields every reached vertex with its depth, in vertex order
// (unreached vertices are skipped, never given a sentinel depth).
func (r *Result) All() iter.Seq2[uint32, int] {
	r.live()
	return func(yield func(uint32, int) bool) {
		for v, d := range r.depth.All() {
			if !yield(v, int(d)) {
				return
			}
		}
	}
}

// Stats returns the run's statistics.
func (r *Result) Stats() runtime.Stats { return r.stats }

// request is what a BFS operator is built from, on any backend.
type request struct {
	g    *graph.Graph
	src  uint32
	srcs []uint32 // every source (src is the first)
	cfg  *runtime.Config
}

// backends builds the operator for a run's backend: the CPU's here,
// bfs_cuda.go's (build tag cuda) from its init.
var backends algorithms.Backends[request, operator]

func init() {
	backends.RegisterCPU(func(c *runtime.CPU, r request) operator { return newCPU(c, r.g, r.srcs, parentsSet(r.cfg)) })
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
	return run(ctx, g, []uint32{src}, false, opts)
}

// RunMulti computes every vertex's hop distance to the nearest of sources
// (a multi-source BFS: one traversal that starts from all of them at
// depth 0). Duplicated sources count once; there must be at least one.
func RunMulti(ctx context.Context, g *graph.Graph, sources []uint32, opts ...runtime.Option) (*Result, error) {
	if len(sources) == 0 {
		return nil, fmt.Errorf("bfs: %w: no sources", ErrSource)
	}
	return run(ctx, g, sources, true, opts)
}

func run(ctx context.Context, g *graph.Graph, srcs []uint32, multi bool, opts []runtime.Option) (*Result, error) {
	if err := runtime.CheckArgs("bfs", ctx, g); err != nil {
		return nil, err
	}
	src := srcs[0]
	keep := []uint32(nil)
	if multi {
		keep = slices.Clone(srcs)
	}
	n := g.NumVertices()
	if n == 0 {
		return &Result{src: src, srcs: keep, ids: g.IDs()}, nil
	}
	for _, s := range srcs {
		if int64(s) >= int64(n) {
			return nil, fmt.Errorf("bfs: %w: source %d, graph has %d vertices (0..%d)", ErrSource, s, n, n-1)
		}
	}
	cfg := runtime.NewConfigFor("bfs", opts...)
	parents := parentsSet(cfg)
	cpu, isCPU := cfg.Backend().(*runtime.CPU)
	if multi && len(srcs) > 1 && !isCPU {
		return nil, fmt.Errorf("bfs: several sources (RunMulti) on backend %s: %w (the CPU backend runs them)", cfg.Backend().Name(), runtime.ErrUnsupported)
	}
	if parents && !isCPU {
		return nil, fmt.Errorf("bfs: parents (WithParents) on backend %s: %w (the CPU backend records them)", cfg.Backend().Name(), runtime.ErrUnsupported)
	}
	op, ok := backends.New(cfg.Backend(), request{g: g, src: src, srcs: srcs, cfg: cfg})
	if !ok {
		return nil, fmt.Errorf("bfs: backend %s: %w", cfg.Backend().Name(), runtime.ErrUnsupported)
	}
	st, err := runtime.Run(ctx, "bfs", op, cfg)
	if err != nil {
		return nil, err
	}
	r := &Result{src: src, srcs: keep, depth: op.Depths(), stats: st, ids: g.IDs()}
	if parents {
		t0 := time.Now()
		if r.parent = op.(*cpuOp).Parents(); r.parent == nil {
			r.parent = parentsOf(cpu, g, op.(*cpuOp).depth)
		}
		addParentPass(&r.stats, time.Since(t0))
	}
	return r, nil
}

// Release gives the result's host memory back for reuse by a later run's
// result of the same size, which then skips allocating and faulting in
// fresh pages (on the H100's host about 60 µs per MiB). Call it when done
// with a result, for example between sources; the result, and any slice
// taken from it, must not be used afterwards (its methods panic).
func (r *Result) Release() {
	if r.released {
		return
	}
	r.released = true
	r.depth.Release()
	r.depth = hostmem.Values{}
	hostmem.Recycle(r.parent)
	r.parent = nil
}

func (r *Result) live() {
	if r.released {
		panic("bfs: Result used after Release")
	}
}
