package cc

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/hostmem"
	"github.com/gearbox-graph/gearbox/runtime"
)

// Variant names a connected-components algorithm.
type Variant uint8

const (
	// Auto lets the VariantPolicy choose from the graph's statistics.
	Auto Variant = iota
	// SV is Soman et al.'s hooking with multilevel pointer jumping and edge
	// hiding, driven by an active-edge working set (bitmap or queue).
	SV
	// Afforest samples neighbours, then links only the edges of vertices
	// outside the largest sampled component.
	Afforest
	// UnionFind is asynchronous union-find over every edge (ECL-CC style).
	UnionFind
)

var variantNames = [...]string{Auto: "auto", SV: "sv", Afforest: "afforest", UnionFind: "unionfind"}

func (v Variant) String() string {
	if int(v) < len(variantNames) {
		return variantNames[v]
	}
	return fmt.Sprintf("Variant(%d)", uint8(v))
}

// Variants lists the concrete variants (every one but Auto).
func Variants() []Variant { return []Variant{SV, Afforest, UnionFind} }

// ErrUnknownVariant is returned by ParseVariant and Run for a variant name
// or value the package does not know.
var ErrUnknownVariant = errors.New("cc: unknown variant")

// ErrNilGraph is returned when the graph is nil.
var ErrNilGraph = errors.New("cc: nil graph")

// ErrOption is wrapped when an option has an invalid value.
var ErrOption = errors.New("cc: invalid option")

// ParseVariant maps a name ("auto", "sv", "afforest", "unionfind"; case
// ignored) to its Variant.
func ParseVariant(s string) (Variant, error) {
	return algorithms.ParseVariantName[Variant](s, variantNames[:], ErrUnknownVariant)
}

// options are a run's CC-specific settings, from the runtime.Options
// below (runtime.WithValue under keys of this package).
type options struct {
	variant Variant
	rounds  int
	seed    uint64
	vpol    VariantPolicy
	vpolSet bool // WithVariantPolicy given; else the thresholds'
	forest  bool
}

type (
	variantKey struct{}
	roundsKey  struct{}
	seedKey    struct{}
	vpolKey    struct{}
)

// WithVariant forces an algorithm (Auto, the default, lets the
// VariantPolicy choose).
func WithVariant(v Variant) runtime.Option { return runtime.WithValue(variantKey{}, v) }

// WithNeighborRounds sets Afforest's number of neighbour-sampling rounds
// (default 2, as in the paper and GAP).
func WithNeighborRounds(r int) runtime.Option { return runtime.WithValue(roundsKey{}, r) }

// WithSeed sets the seed of Afforest's component sampling. The labels do
// not depend on it; only the work done does.
func WithSeed(s uint64) runtime.Option { return runtime.WithValue(seedKey{}, s) }

// WithVariantPolicy replaces the thresholds of the algorithm choice (by
// default VariantPolicyFrom the run's knobs: the afforest_* keys of the
// backend's device sections of thresholds.toml, or of WithThresholdSet's,
// or runtime.WithKnobs').
func WithVariantPolicy(p VariantPolicy) runtime.Option { return runtime.WithValue(vpolKey{}, p) }

// WithWorkset fixes SV's working-set representation for the whole run
// (shorthand for a static runtime variant with block mapping).
func WithWorkset(r decider.Rep) runtime.Option {
	return runtime.WithVariant(decider.Variant{Mapping: decider.Block, Rep: r})
}

// optionsOf reads the CC options of cfg over the defaults.
func optionsOf(cfg *runtime.Config, forest bool) options {
	o := options{rounds: 2, seed: 27491095, forest: forest}
	if v, ok := cfg.Value(variantKey{}); ok {
		o.variant = v.(Variant)
	}
	if v, ok := cfg.Value(roundsKey{}); ok {
		o.rounds = v.(int)
	}
	if v, ok := cfg.Value(seedKey{}); ok {
		o.seed = v.(uint64)
	}
	if v, ok := cfg.Value(vpolKey{}); ok {
		o.vpol, o.vpolSet = v.(VariantPolicy), true
	}
	return o
}

// Result holds the component label of every vertex: the smallest internal
// vertex id of its component (for graphs loaded with sorted external ids,
// also the smallest external id).
type Result struct {
	labels  []uint32
	variant Variant
	reason  string
	stats   runtime.Stats
	// ids are the graph's file ids, for the exports.
	ids graph.IDMap
	// released is set by Release; the result is unusable after it.
	released bool

	once    sync.Once
	ncomp   int
	largest int
	bigLbl  uint32
}

// NumVertices returns the number of vertices labelled.
func (r *Result) NumVertices() int {
	r.live()
	return len(r.labels)
}

// Label returns v's component label (the smallest vertex id in v's
// component), or graph.NoVertex for v outside the graph.
func (r *Result) Label(v uint32) uint32 {
	r.live()
	if int64(v) >= int64(len(r.labels)) {
		return graph.NoVertex
	}
	return r.labels[v]
}

// Labels returns every vertex's label. Do not modify.
func (r *Result) Labels() []uint32 {
	r.live()
	return r.labels
}

// Release gives the labels' host memory back for reuse by a later run of
// the same size (see bfs.Result.Release); the result, and the slice
// Labels returned, must not be used afterwards (its methods panic).
func (r *Result) Release() {
	if r.released {
		return
	}
	r.released = true
	hostmem.Recycle(r.labels)
	r.labels = nil
}

func (r *Result) live() {
	if r.released {
		panic("cc: Result used after Release")
	}
}

// NumComponents returns the number of connected components (each isolated
// vertex counts as one; 0 for the empty graph).
func (r *Result) NumComponents() int { r.live(); r.summarise(); return r.ncomp }

// LargestSize returns the number of vertices in the largest component.
func (r *Result) LargestSize() int { r.live(); r.summarise(); return r.largest }

// LargestLabel returns the label of the largest component (the smallest
// label among equally large ones); graph.NoVertex for the empty graph.
func (r *Result) LargestLabel() uint32 { r.live(); r.summarise(); return r.bigLbl }

// Variant returns the algorithm that ran.
func (r *Result) Variant() Variant { return r.variant }

// Reason says why the variant was chosen ("forced" when it was given).
func (r *Result) Reason() string { return r.reason }

// Stats returns the run's statistics (trace included with WithTrace).
func (r *Result) Stats() runtime.Stats { return r.stats }

// Edge is an arc U->V of the graph (graph.Edge; the alias keeps cc's API).
type Edge = graph.Edge

// ForestResult is a spanning forest with its component labels: one tree per
// component, NumVertices - NumComponents edges.
type ForestResult struct {
	Result
	edges []Edge
}

// Edges returns the forest's edges, each an arc of the input graph, ordered
// by the vertex whose hook they performed. Do not modify.
func (f *ForestResult) Edges() []Edge { return f.edges }

// Run labels the connected components (weakly connected for directed
// graphs) of g.
func Run(ctx context.Context, g *graph.Graph, opts ...runtime.Option) (*Result, error) {
	if ctx == nil {
		return nil, runtime.CheckArgs("cc", ctx, g)
	}
	op, m, err := run(ctx, g, false, opts)
	if err != nil {
		return nil, err
	}
	return &Result{labels: op.Labels(), variant: m.variant, reason: m.reason, stats: m.stats, ids: g.IDs()}, nil
}

// Forest computes a spanning forest of g (of its undirected version for
// directed graphs) together with the component labels: each successful
// hook records the edge that performed it. With several workers the edges
// chosen may differ between runs (whichever hook wins a race); the labels
// and the number of edges never do.
func Forest(ctx context.Context, g *graph.Graph, opts ...runtime.Option) (*ForestResult, error) {
	if ctx == nil {
		return nil, runtime.CheckArgs("forest", ctx, g)
	}
	op, m, err := run(ctx, g, true, opts)
	if err != nil {
		return nil, err
	}
	return &ForestResult{
		Result: Result{labels: op.Labels(), variant: m.variant, reason: m.reason, stats: m.stats, ids: g.IDs()},
		edges:  op.ForestEdges(),
	}, nil
}

// operator is a runtime operator that also yields labels and forest edges
// once the engine has run it.
type operator interface {
	runtime.Operator
	Labels() []uint32
	ForestEdges() []Edge
}

// request is what a CC operator is built from, on any backend.
type request struct {
	g *graph.Graph
	v Variant
	o options
}

// backends builds the operator for a run's backend: the CPU's here,
// cc_cuda.go's (build tag cuda) from its init. A constructor reports false
// when it cannot run the variant.
var backends algorithms.Backends[request, operator]

func init() {
	backends.RegisterCPU(func(c *runtime.CPU, r request) operator { return newCPU(c, r.g, r.v, r.o) })
}

type meta struct {
	variant Variant
	reason  string
	stats   runtime.Stats
}

func run(ctx context.Context, g *graph.Graph, forest bool, opts []runtime.Option) (operator, meta, error) {
	if g == nil {
		return nil, meta{}, fmt.Errorf("%w (%w, %w)", ErrNilGraph, runtime.ErrBadArgument, graph.ErrNil)
	}
	// CC's default working-set policy decides every iteration from the
	// exact active-edge count; the user's policy or variant, later in the
	// list, overrides it. Every variant reads the thresholds of section
	// "cc" (the run's name, cc-<variant>, is not a section's).
	base := runtime.NewConfigFor("cc", opts...)
	o := optionsOf(base, forest)
	if o.variant > UnionFind {
		return nil, meta{}, fmt.Errorf("%w: %d", ErrUnknownVariant, uint8(o.variant))
	}
	if o.rounds < 0 {
		return nil, meta{}, fmt.Errorf("%w: %d neighbour rounds, want >= 0", ErrOption, o.rounds)
	}
	cfg := runtime.NewConfigFor("cc", append([]runtime.Option{runtime.WithPolicy(EdgePolicy(base.Thresholds()))}, opts...)...)
	v, reason := o.variant, "forced"
	if v == Auto {
		vp := o.vpol
		if !o.vpolSet {
			var err error
			if vp, err = VariantPolicyFrom(cfg.Knobs()); err != nil {
				return nil, meta{}, fmt.Errorf("%w: cc: %w", decider.ErrThresholds, err)
			}
		}
		v, reason = vp.Choose(StatsOf(g))
	}
	op, ok := backends.New(cfg.Backend(), request{g: g, v: v, o: o})
	if !ok {
		return nil, meta{}, fmt.Errorf("cc: backend %s, variant %v: %w", cfg.Backend().Name(), v, runtime.ErrUnsupported)
	}
	log := cfg.Logger()
	log.Debug().Str("variant", v.String()).Str("reason", reason).Msg("cc")
	st, err := runtime.Run(ctx, "cc-"+v.String(), op, cfg)
	if err != nil {
		return nil, meta{}, err
	}
	return op, meta{variant: v, reason: reason, stats: st}, nil
}
