package cc

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/gearbox-graph/gearbox/graph"
)

// Variant names a connected-components algorithm.
type Variant uint8

const (
	// Auto lets the policy choose from the graph's statistics.
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

// ParseVariant maps a name ("auto", "sv", "afforest", "unionfind"; case
// ignored) to its Variant.
func ParseVariant(s string) (Variant, error) {
	for i, name := range variantNames {
		if strings.EqualFold(s, name) {
			return Variant(i), nil
		}
	}
	return Auto, fmt.Errorf("%w %q (want one of %s)", ErrUnknownVariant, s, strings.Join(variantNames[:], ", "))
}

// Workset names the representation of SV's active-edge working set.
type Workset uint8

const (
	// WorksetAuto starts with a bitmap and compacts into a queue when the
	// active-edge count falls below the policy's threshold.
	WorksetAuto Workset = iota
	// WorksetBitmap keeps a bitmap over arcs for the whole run.
	WorksetBitmap
	// WorksetQueue compacts the active edges into a queue from the start.
	WorksetQueue
)

func (w Workset) String() string {
	switch w {
	case WorksetAuto:
		return "auto"
	case WorksetBitmap:
		return "bitmap"
	case WorksetQueue:
		return "queue"
	}
	return fmt.Sprintf("Workset(%d)", uint8(w))
}

type config struct {
	variant   Variant
	workset   Workset
	rounds    int
	seed      uint64
	policy    Policy
	log       zerolog.Logger
	forest    bool
	hasPolicy bool
}

// Option configures Run and Forest.
type Option func(*config)

// WithVariant forces a variant (Auto, the default, lets the policy choose).
func WithVariant(v Variant) Option { return func(c *config) { c.variant = v } }

// WithWorkset forces SV's working-set representation.
func WithWorkset(w Workset) Option { return func(c *config) { c.workset = w } }

// WithNeighborRounds sets Afforest's number of neighbour-sampling rounds
// (default 2, as in the paper and GAP).
func WithNeighborRounds(r int) Option { return func(c *config) { c.rounds = r } }

// WithSeed sets the seed of Afforest's component sampling (the labels do not
// depend on it; only the work done does).
func WithSeed(s uint64) Option { return func(c *config) { c.seed = s } }

// WithPolicy replaces the default decision thresholds.
func WithPolicy(p Policy) Option { return func(c *config) { c.policy, c.hasPolicy = p, true } }

// WithLogger sets the logger for per-iteration debug events.
func WithLogger(l zerolog.Logger) Option { return func(c *config) { c.log = l } }

// Step is one iteration (or phase) of a run, as recorded in the trace.
type Step struct {
	Iteration int
	Phase     string  // "hook+jump", "sample", "link", "compress", ...
	Workset   Workset // SV's representation in this iteration
	Active    int64   // active edges (SV) or vertices linked (others) at the start
	Hooks     int64   // successful hooks
	Elapsed   time.Duration
}

// Stats describes a finished run.
type Stats struct {
	Variant    Variant
	Reason     string // why the policy chose the variant
	Iterations int
	Hooks      int64
	Elapsed    time.Duration
	Trace      []Step
}

// Result holds the component label of every vertex: the smallest internal
// vertex id of its component.
type Result struct {
	labels []uint32
	stats  Stats

	once    sync.Once
	ncomp   int
	largest int
	bigLbl  uint32
}

// Label returns v's component label (the smallest vertex id in v's
// component).
func (r *Result) Label(v uint32) uint32 { return r.labels[v] }

// Labels returns every vertex's label. Do not modify.
func (r *Result) Labels() []uint32 { return r.labels }

// NumComponents returns the number of connected components (isolated
// vertices count as one each; 0 for the empty graph).
func (r *Result) NumComponents() int { r.summarise(); return r.ncomp }

// LargestSize returns the number of vertices in the largest component.
func (r *Result) LargestSize() int { r.summarise(); return r.largest }

// LargestLabel returns the label of the largest component (the smallest
// label among equally large ones); graph.NoVertex for the empty graph.
func (r *Result) LargestLabel() uint32 { r.summarise(); return r.bigLbl }

// Stats returns the run's statistics and trace.
func (r *Result) Stats() Stats { return r.stats }

// Edge is an arc U->V of the graph.
type Edge struct{ U, V uint32 }

// ForestResult is a spanning forest with its component labels: one tree per
// component, NumVertices - NumComponents edges.
type ForestResult struct {
	Result
	edges []Edge
}

// Edges returns the forest's edges, each an arc of the input graph, ordered
// by the vertex they hooked. Do not modify.
func (f *ForestResult) Edges() []Edge { return f.edges }

// Run labels the connected components (weakly connected for directed
// graphs) of g.
func Run(ctx context.Context, g *graph.Graph, opts ...Option) (*Result, error) {
	s, err := run(ctx, g, false, opts)
	if err != nil {
		return nil, err
	}
	return &Result{labels: s.labels, stats: s.stats}, nil
}

// Forest computes a spanning forest of g (of its undirected version for
// directed graphs) together with the component labels. With several workers
// the edges chosen may differ from run to run (whichever hook wins); the
// labels and the edge count never do.
func Forest(ctx context.Context, g *graph.Graph, opts ...Option) (*ForestResult, error) {
	s, err := run(ctx, g, true, opts)
	if err != nil {
		return nil, err
	}
	f := &ForestResult{Result: Result{labels: s.labels, stats: s.stats}}
	f.edges = s.forestEdges()
	return f, nil
}

func run(ctx context.Context, g *graph.Graph, forest bool, opts []Option) (*state, error) {
	if g == nil {
		return nil, ErrNilGraph
	}
	c := config{rounds: 2, seed: 27491095, log: zerolog.Nop(), forest: forest}
	for _, o := range opts {
		o(&c)
	}
	if !c.hasPolicy {
		c.policy = DefaultPolicy()
	}
	if c.variant > UnionFind {
		return nil, fmt.Errorf("%w: %d", ErrUnknownVariant, uint8(c.variant))
	}
	if c.workset > WorksetQueue {
		return nil, fmt.Errorf("cc: unknown workset %d", uint8(c.workset))
	}
	if c.rounds < 0 {
		return nil, fmt.Errorf("cc: neighbour rounds %d, want >= 0", c.rounds)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("cc: %w", err)
	}
	start := time.Now()
	s := newState(g, c)
	v, reason := c.variant, "forced"
	if v == Auto {
		v, reason = c.policy.ChooseVariant(graphStats(g))
	}
	s.stats.Variant, s.stats.Reason = v, reason
	c.log.Debug().Str("variant", v.String()).Str("reason", reason).Int("n", s.n).Int64("arcs", g.NumEdges()).Msg("cc start")
	var err error
	switch v {
	case SV:
		err = s.runSV(ctx)
	case Afforest:
		err = s.runAfforest(ctx, c.rounds)
	case UnionFind:
		err = s.runUnionFind(ctx)
	}
	if err != nil {
		return nil, err
	}
	s.stats.Elapsed = time.Since(start)
	return s, nil
}
