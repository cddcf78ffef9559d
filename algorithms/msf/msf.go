package msf

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/algorithms/internal/edgeset"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/hostmem"
	"github.com/gearbox-graph/gearbox/internal/par"
	"github.com/gearbox-graph/gearbox/runtime"
)

// Variant names a minimum spanning forest algorithm.
type Variant uint8

const (
	// Auto lets the VariantPolicy choose from the graph's statistics.
	Auto Variant = iota
	// EA is Borůvka over an edge array with edge filtering and a reduced
	// source-side minimum (Zaitsev & Kalgin's optimised EA).
	EA
	// AL is Borůvka over the adjacency lists (CSR), without an edge array.
	AL
	// ECL is EA preceded by ECL-MST's light-edge filter: when the average
	// degree is at least 4, a sampled weight threshold first admits about 3n
	// light edges, then the rest join (filter-Kruskal style).
	ECL
	// Kruskal is the serial reference: sort by (weight, id), union-find.
	// Never chosen by Auto.
	Kruskal
)

var variantNames = [...]string{Auto: "auto", EA: "ea", AL: "al", ECL: "ecl", Kruskal: "kruskal"}

func (v Variant) String() string {
	if int(v) < len(variantNames) {
		return variantNames[v]
	}
	return fmt.Sprintf("Variant(%d)", uint8(v))
}

// Variants lists the concrete variants (every one but Auto).
func Variants() []Variant { return []Variant{EA, AL, ECL, Kruskal} }

// ErrUnknownVariant is returned by ParseVariant and Run for a variant name
// or value the package does not know.
var ErrUnknownVariant = errors.New("msf: unknown variant")

// ParseVariant maps a name ("auto", "ea", "al", "ecl", "kruskal"; case
// ignored) to its Variant.
func ParseVariant(s string) (Variant, error) {
	return algorithms.ParseVariantName[Variant](s, variantNames[:], ErrUnknownVariant)
}

var (
	// ErrNilGraph is returned when the graph is nil.
	ErrNilGraph = errors.New("msf: nil graph")
	// ErrWeight is returned for a negative, NaN or infinite weight.
	ErrWeight = errors.New("msf: invalid weight")
	// ErrTooLarge is returned for a graph with more arcs than 32-bit edge
	// ids can number.
	ErrTooLarge = errors.New("msf: graph too large")
)

// DefaultSeed is the seed of the weights derived for unweighted graphs when
// WithSeed is not given.
const DefaultSeed = 1

// options are a run's MSF-specific settings, from the runtime.Options
// below (under runtime.Keys of this package).
type options struct {
	variant Variant
	seed    uint64
	vpol    VariantPolicy
}

var (
	variantKey = runtime.NewKey[Variant]("msf variant")
	seedKey    = runtime.NewKey[uint64]("msf seed")
	vpolKey    = runtime.NewKey[VariantPolicy]("msf variant policy")
)

// WithVariant forces an algorithm (Auto, the default, lets the
// VariantPolicy choose).
func WithVariant(v Variant) runtime.Option { return variantKey.Option(v) }

// WithSeed sets the seed of the weights derived for an unweighted graph
// (graph.WithDerivedWeights, as SSSP uses; default DefaultSeed).
func WithSeed(s uint64) runtime.Option { return seedKey.Option(s) }

// WithVariantPolicy replaces the algorithm choice's thresholds.
func WithVariantPolicy(p VariantPolicy) runtime.Option { return vpolKey.Option(p) }

// optionsOf reads the MSF options of cfg over the defaults.
func optionsOf(cfg *runtime.Config) options {
	o := options{seed: DefaultSeed, vpol: DefaultVariantPolicy()}
	variantKey.Into(cfg, &o.variant)
	seedKey.Into(cfg, &o.seed)
	vpolKey.Into(cfg, &o.vpol)
	return o
}

// Edge is an edge of the forest by internal vertex ids (U < V for
// undirected inputs; the arc's direction for directed ones) and its weight
// as stored: an integer, or a float32 bit pattern for real weights.
type Edge struct {
	U, V   uint32
	Weight uint32
}

// Result is a minimum spanning forest: one minimum spanning tree per
// connected component (of the undirected reading of a directed graph),
// ties broken by (weight, edge id) where an edge's id is its position among
// the canonical arcs in CSR order, so every variant, backend and worker
// count gives the same forest.
type Result struct {
	edges    []Edge
	buf      []Edge // the host memory edges lie in, for Release (GPU runs)
	kind     graph.WeightKind
	derived  bool
	directed bool
	ncomp    int
	total    int64
	totalF   float64
	variant  Variant
	reason   string
	stats    runtime.Stats
}

// Edges returns the forest's edges in edge-id order (nil after Release).
// Do not modify.
func (r *Result) Edges() []Edge { return r.edges }

// Release gives the forest's host memory back for reuse by a later GPU run
// on a graph of as many vertices (repeated runs then skip its preparation
// and copy into memory registered with the driver). Edges returns nil
// afterwards; the other methods still answer.
func (r *Result) Release() {
	if r.buf != nil {
		hostmem.Recycle(r.buf)
	}
	r.buf, r.edges = nil, nil
}

// NumComponents returns the number of connected components (isolated
// vertices count; 0 for the empty graph): NumVertices - len(Edges).
func (r *Result) NumComponents() int { return r.ncomp }

// TotalWeight returns the forest's weight for integer weights (derived
// ones included), exact in int64; for real weights it is the float sum
// rounded to the nearest integer (see TotalWeightFloat).
func (r *Result) TotalWeight() int64 {
	if r.kind == graph.RealWeights {
		return int64(math.Round(r.totalF))
	}
	return r.total
}

// TotalWeightFloat returns the forest's weight as a float64: for real
// (float32) weights summed in float64 in edge-id order, so it is the same
// for every run; for integer weights the exact total converted.
func (r *Result) TotalWeightFloat() float64 {
	if r.kind == graph.RealWeights {
		return r.totalF
	}
	return float64(r.total)
}

// WeightOf returns an edge's weight as a float64.
func (r *Result) WeightOf(e Edge) float64 {
	if r.kind == graph.RealWeights {
		return float64(math.Float32frombits(e.Weight))
	}
	return float64(e.Weight)
}

// WeightKind says what the edges' weights are (integer for derived ones).
func (r *Result) WeightKind() graph.WeightKind { return r.kind }

// DerivedWeights reports whether the input was unweighted and the weights
// were derived from the seed (graph.WithDerivedWeights).
func (r *Result) DerivedWeights() bool { return r.derived }

// Directed reports whether the input was directed and read as undirected
// (every arc but self-loops an edge).
func (r *Result) Directed() bool { return r.directed }

// Variant returns the algorithm that ran.
func (r *Result) Variant() Variant { return r.variant }

// Reason says why the variant was chosen ("forced" when it was given).
func (r *Result) Reason() string { return r.reason }

// Stats returns the engine's statistics (Kruskal, which does not run on
// the engine, reports one iteration, its wall time and the edges read).
func (r *Result) Stats() runtime.Stats { return r.stats }

// input is a checked graph ready for a variant.
type input struct {
	g        *graph.Graph // weighted
	directed bool
	derived  bool
	edges    int64 // canonical edges
}

// prepare weighs an unweighted graph, refuses bad weights and counts the
// canonical edges.
func prepare(g *graph.Graph, seed uint64) (*input, error) {
	if g == nil {
		return nil, ErrNilGraph
	}
	in := &input{g: g, directed: g.Directed(), derived: g.DerivedWeights()}
	if g.WeightKind() == graph.Unweighted {
		in.g, in.derived = derive(g, seed), true
	}
	if m := in.g.NumEdges(); m > math.MaxUint32 {
		return nil, fmt.Errorf("%w: %d arcs, limit %d (32-bit edge ids)", ErrTooLarge, m, int64(math.MaxUint32))
	}
	if in.g.WeightKind() == graph.RealWeights {
		for e, w := range in.g.Weights() {
			f := math.Float32frombits(w)
			if w>>31 != 0 && f != 0 || math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
				return nil, fmt.Errorf("%w: arc %d has weight %v (want finite, >= 0)", ErrWeight, e, f)
			}
		}
	}
	in.edges = countEdges(in.g, in.directed)
	return in, nil
}

// lastDerived remembers the last weighted copy made for an unweighted
// graph, weakly: repeated runs on one graph (--repeat, benchmarks) reuse it
// while something else keeps it alive, notably the GPU's graph cache, which
// is keyed by the graph and would otherwise upload every run's copy anew.
var lastDerived struct {
	sync.Mutex
	src, out weak.Pointer[graph.Graph]
	seed     uint64
}

// derive returns g with derived weights (graph.WithDerivedWeights).
func derive(g *graph.Graph, seed uint64) *graph.Graph {
	lastDerived.Lock()
	defer lastDerived.Unlock()
	if lastDerived.src.Value() == g && lastDerived.seed == seed {
		if d := lastDerived.out.Value(); d != nil {
			return d
		}
	}
	d := g.WithDerivedWeights(seed)
	lastDerived.src, lastDerived.out, lastDerived.seed = weak.Make(g), weak.Make(d), seed
	return d
}

// countEdges counts the canonical arcs (the edges of the undirected
// reading), in parallel.
func countEdges(g *graph.Graph, directed bool) int64 {
	if !directed {
		// Every edge but a self-loop is stored twice, a self-loop once.
		return g.NumEdges() - g.NumUndirectedEdges()
	}
	off, adj := g.Offsets(), g.Adj()
	var total atomic.Int64
	par.For(g.NumVertices(), 1<<12, func(lo, hi int) {
		var k int64
		for u := lo; u < hi; u++ {
			for e := off[u]; e < off[u+1]; e++ {
				if adj[e] != uint32(u) {
					k++
				}
			}
		}
		total.Add(k)
	})
	return total.Load()
}

// operator is a runtime operator that yields the forest's edges, in id
// order, once the engine has run it.
type operator interface {
	runtime.Operator
	forest() []Edge
}

// summedForest is an operator whose forest lies in host memory kept for
// reuse (hostmem.Slice; the result's Release gives it back) and which
// summed the edges' weights itself (exact for integer weights; a float
// total is still summed on the host, in id order).
type summedForest interface {
	recycled() (buf []Edge, weight int64)
}

// request is what a backend's constructor gets: the checked input and the
// variant.
type request struct {
	in *input
	v  Variant
}

// backends builds operators for the backends other than the CPU (the cuda
// build registers "cuda"); a constructor reports false when it cannot run
// the variant.
var backends algorithms.Backends[request, operator]

// Run computes the minimum spanning forest of g. Options: WithVariant,
// WithSeed, WithVariantPolicy and the runtime's (backend or worker count,
// logger, trace, thresholds, and a policy or fixed decider.Variant for
// Borůvka's working set: Rep picks bitmap or queue of active edges,
// Mapping thread or block distribution of the adjacency-list pass).
func Run(ctx context.Context, g *graph.Graph, opts ...runtime.Option) (*Result, error) {
	if g == nil {
		return nil, fmt.Errorf("%w (%w, %w)", ErrNilGraph, runtime.ErrBadArgument, graph.ErrNil)
	}
	if err := runtime.CheckArgs("mst", ctx, g); err != nil {
		return nil, err
	}
	base := runtime.NewConfigFor(section, opts...)
	o := optionsOf(base)
	if o.variant > Kruskal {
		return nil, fmt.Errorf("%w: %d", ErrUnknownVariant, uint8(o.variant))
	}
	in, err := prepare(g, o.seed)
	if err != nil {
		return nil, err
	}
	cfg := runtime.NewConfigFor(section, append([]runtime.Option{runtime.WithPolicy(edgeset.Policy("msf-edges", base.Thresholds()))}, opts...)...)
	v, reason := o.variant, "forced"
	if v == Auto {
		v, reason = o.vpol.Choose(statsOf(in))
	}
	res := &Result{kind: in.g.WeightKind(), derived: in.derived, directed: in.directed, variant: v, reason: reason}
	if v == Kruskal {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t0 := time.Now()
		res.edges = kruskal(in)
		res.stats = runtime.Stats{Algorithm: "msf-kruskal", Backend: "cpu (serial)", Policy: "none", Iterations: 1, Variants: map[string]int{"kruskal": 1}, Wall: time.Since(t0), EdgesRelaxed: in.edges}
	} else {
		var op operator
		switch b := cfg.Backend().(type) {
		case *runtime.CPU:
			switch v {
			case AL:
				op = newAL(b.NewPool(), in)
			case ECL:
				op = newEA(b.NewPool(), in, lightThreshold(in))
			default:
				op = newEA(b.NewPool(), in, noKey)
			}
		default:
			var ok bool
			if op, ok = backends.New(b, request{in: in, v: v}); !ok {
				return nil, fmt.Errorf("msf: backend %s, variant %v: %w", b.Name(), v, runtime.ErrUnsupported)
			}
		}
		log := cfg.Logger()
		log.Debug().Str("variant", v.String()).Str("reason", reason).Msg("msf")
		st, err := runtime.Run(ctx, "msf-"+v.String(), op, cfg)
		if err != nil {
			return nil, err
		}
		res.stats = st
		res.edges = op.forest()
		if s, ok := op.(summedForest); ok {
			var w int64
			res.buf, w = s.recycled()
			if res.kind != graph.RealWeights {
				res.ncomp = g.NumVertices() - len(res.edges)
				res.total = w
				return res, nil
			}
		}
	}
	res.ncomp = g.NumVertices() - len(res.edges)
	res.total, res.totalF = totals(res.edges, res.kind)
	return res, nil
}

// totals sums the weights in edge-id order: exactly in int64 for integer
// weights, in float64 for float32 ones.
func totals(edges []Edge, kind graph.WeightKind) (int64, float64) {
	var t int64
	var f float64
	for _, e := range edges {
		if kind == graph.RealWeights {
			f += float64(math.Float32frombits(e.Weight))
		} else {
			t += int64(e.Weight)
		}
	}
	return t, f
}
