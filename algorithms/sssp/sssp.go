package sssp

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/algorithms/internal/search"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/hostmem"
	"github.com/gearbox-graph/gearbox/runtime"
)

// ErrSource is wrapped when a run has no source or one out of range (one
// error for BFS and SSSP).
var ErrSource = search.ErrSource

var (
	// ErrUnweighted is wrapped when the graph has no weights.
	ErrUnweighted = errors.New("graph is unweighted")
	// ErrRealWeights is wrapped when the graph has float weights.
	ErrRealWeights = errors.New("graph has real (float) weights")
)

// WithDelta sets the bucket width of ordered variants (delta-stepping);
// 0 keeps the thresholds' (delta, or the width delta_factor derives from
// the graph). A given width also fixes work-targeted buckets' narrowest
// bucket and the buckets inside persistent launches.
func WithDelta(d uint64) runtime.Option { return runtime.WithValue(deltaKey{}, d) }

type deltaKey struct{}

// deltaSet returns WithDelta's width (0: none given).
func deltaSet(cfg *runtime.Config) uint64 {
	d, _ := cfg.Value(deltaKey{})
	w, _ := d.(uint64)
	return w
}

// deltaFor returns the bucket width of a run on g: WithDelta's, else the
// parameters' (derived from g's mean weight and degree where their
// delta_factor is set: Params.DeltaFor).
func deltaFor(cfg *runtime.Config, p Params, g *graph.Graph) uint64 {
	if d := deltaSet(cfg); d > 0 {
		return d
	}
	return p.DeltaForGraph(g)
}

// bucketDeltaFor is deltaFor for work-targeted buckets (the parameters'
// bucket_delta_factor; WithDelta still overrides).
func bucketDeltaFor(cfg *runtime.Config, p Params, g *graph.Graph) uint64 {
	if d := deltaSet(cfg); d > 0 {
		return d
	}
	return p.BucketDeltaForGraph(g)
}

// Result holds the distances of one SSSP run. Its sources, Reached,
// NumReached, Stats, the parent tree's Path and the exports are
// search.Result's.
type Result struct {
	search.Result
	delta uint64
}

// Delta returns the bucket width the run used.
func (r *Result) Delta() uint64 { return r.delta }

// Distance returns v's shortest-path distance from the source and whether
// v was reached. Vertices outside the graph are unreached.
func (r *Result) Distance(v uint32) (uint64, bool) { return r.Value(v) }

// MaxDistance returns the largest distance of a reached vertex and false
// when nothing was reached (an empty graph).
func (r *Result) MaxDistance() (uint64, bool) { return r.MaxValue() }

// All yields every reached vertex with its distance, in vertex order
// (unreached vertices are skipped, never given a sentinel distance).
func (r *Result) All() iter.Seq2[uint32, uint64] { return r.Values() }

type operator interface {
	runtime.Operator
	// Distances returns the distances (all-ones of their width for
	// unreached vertices), valid after the run.
	Distances() hostmem.Values
}

// request is what an SSSP operator is built from, on any backend.
type request struct {
	g      *graph.Graph
	src    uint32
	srcs   []uint32 // every source (src is the first)
	delta  uint64
	target int64 // bucket_edges: work-targeted buckets (0: fixed)
	merge  uint64
	// launchDelta is the bucket width inside persistent launches.
	launchDelta uint64
	// parents: WithParents (a GPU operator then builds the tree where
	// the weights allow: deviceParents).
	parents bool
}

// backends builds the operator for a run's backend: the CPU's here,
// sssp_cuda.go's (build tag cuda) from its init.
var backends algorithms.Backends[request, operator]

func init() {
	backends.RegisterCPU(func(c *runtime.CPU, r request) operator { return newCPU(c, r.g, r.srcs, r.delta, r.target, r.merge) })
}

// CheckGraph returns the error Run gives for a graph SSSP cannot use: nil,
// unweighted or float-weighted.
func CheckGraph(g *graph.Graph) error {
	if g == nil {
		return errors.New("sssp: nil graph")
	}
	switch g.WeightKind() {
	case graph.Unweighted:
		return fmt.Errorf("sssp: %w: give it integer weights, e.g. g.WithDerivedWeights(seed) (weights 1..255 hashed from the endpoints)", ErrUnweighted)
	case graph.RealWeights:
		return fmt.Errorf("sssp: %w: shortest paths need integer weights; load the graph with graph.LoadOptions.WeightScale (gearbox: --weight-scale) to scale and round them", ErrRealWeights)
	}
	return nil
}

// orderedFits applies the thresholds' order rule for the adaptive policy:
// ordered buckets on graphs large and dense enough (skewed graphs, larger
// still), unordered otherwise.
func orderedFits(g *graph.Graph, t Params) bool {
	n := int64(g.NumVertices())
	if n < t.OrderedMinVertices || float64(g.NumEdges()) < t.OrderedMinDegree*float64(n) {
		return false
	}
	return n >= t.OrderedMinVerticesSkewed || g.DegreeSkew() < t.BucketMinSkew
}

// Run computes shortest-path distances from src. The graph must have
// integer weights (see CheckGraph). Options choose the policy (default
// adaptive: ordered delta-stepping, or unordered where the thresholds'
// ordered_min_vertices/ordered_min_degree say the graph is too small or
// sparse for buckets, or ordered_min_vertices_skewed too small for a
// skewed graph), Delta (WithDelta; else the thresholds' delta, or
// one derived from the graph where their delta_factor is set), thresholds,
// backend, logger and trace. The pull variant does not apply to SSSP and is
// an error. An empty graph gives an empty result.
func Run(ctx context.Context, g *graph.Graph, src uint32, opts ...runtime.Option) (*Result, error) {
	return entry.One(ctx, g, src, opts)
}

// RunMulti computes every vertex's distance to the nearest of sources (a
// multi-source SSSP: one run that starts from all of them at distance 0).
// Duplicated sources count once; there must be at least one.
func RunMulti(ctx context.Context, g *graph.Graph, sources []uint32, opts ...runtime.Option) (*Result, error) {
	return entry.Multi(ctx, g, sources, opts)
}

// entry checks Run's and RunMulti's arguments and the graph before run.
var entry = search.Entry[*Result]{Name: "sssp", Check: CheckGraph, Run: run}

func run(ctx context.Context, g *graph.Graph, srcs []uint32, multi bool, opts []runtime.Option) (*Result, error) {
	n := g.NumVertices()
	cfg := runtime.NewConfigFor("sssp", opts...)
	par, err := paramsFor(cfg)
	if err != nil {
		return nil, err
	}
	if !cfg.Forced() && !orderedFits(g, par) {
		cfg = runtime.NewConfigFor("sssp", append(slices.Clip(opts), runtime.WithOrder(decider.Unordered))...)
	}
	delta := deltaFor(cfg, par, g)
	// Work-targeted buckets are the adaptive policy's; a static variant
	// keeps fixed ones.
	var target int64
	merge := uint64(1)
	if cfg.Adaptive() && par.BucketEdges > 0 && g.DegreeSkew() >= par.BucketMinSkew {
		bd := bucketDeltaFor(cfg, par, g)
		target, merge, delta = par.BucketEdges, mergedBins(delta, bd), bd
	}
	if n == 0 {
		return &Result{search.New("sssp", "distance", g, srcs, multi, hostmem.Values{}, runtime.Stats{}), delta}, nil
	}
	cpu, parents, err := search.Start("sssp", cfg, n, srcs, multi)
	if err != nil {
		return nil, err
	}
	launchDelta := delta // static variants keep their delta
	if cfg.Adaptive() && deltaSet(cfg) == 0 {
		launchDelta = par.LaunchDelta(delta, float64(g.NumEdges())/float64(n))
	}
	op, ok := backends.New(cfg.Backend(), request{g: g, src: srcs[0], srcs: srcs, delta: delta, target: target, merge: merge, launchDelta: launchDelta, parents: parents})
	if !ok {
		return nil, search.Unsupported("sssp", cfg, parents)
	}
	st, err := runtime.Run(ctx, "sssp", op, cfg)
	if err != nil {
		return nil, err
	}
	r := &Result{search.New("sssp", "distance", g, srcs, multi, op.Distances(), st), delta}
	if parents {
		if err := search.Parents(&r.Result, op, func() ([]uint32, error) {
			if cpu == nil { // a device run without a tree of its own (zero weights)
				return r.hostTree(g)
			}
			return parentsOf(cpu, g, srcs, op)
		}); err != nil {
			return nil, err
		}
	}
	return r, nil
}
