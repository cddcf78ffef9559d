package sssp

import (
	"fmt"
	"math"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// Params are SSSP's own keys of a thresholds file ([cpu.sssp],
// [gpu."<device>".sssp]; a device section's keys apply too, under the
// algorithm's). The decider's keys (T1, T2, ...) are decider.Thresholds.
type Params struct {
	// Delta is the bucket width for ordered variants (1 = process only
	// the minimum distance each iteration) where DeltaFactor is 0.
	Delta uint64 `toml:"delta"`
	// DeltaFactor, when > 0, derives the bucket width from the graph
	// instead (DeltaFor): DeltaFactor x mean arc weight / mean out-degree,
	// the form of Davidson et al.'s heuristic (IPDPS 2014): buckets then
	// hold about the same number of relaxations whatever the weights'
	// scale and the graph's degree. One fixed width cannot: on the CPU
	// the best width ran from 8 (kron:18) to 2048 (rome99, weights in
	// metres), and delta 32 made rome99 4.6x slower than 1024.
	DeltaFactor float64 `toml:"delta_factor"`
	// OrderedMinVertices and OrderedMinDegree choose the adaptive SSSP's
	// order per graph: ordered buckets on graphs with at least this many
	// vertices and this average out-degree, unordered (Bellman-Ford-style)
	// below. On a GPU an iteration has a fixed cost, so small or
	// high-diameter graphs do better with fewer, larger unordered rounds;
	// on the CPU (0, 0) keeps every graph ordered.
	OrderedMinVertices int64   `toml:"ordered_min_vertices"`
	OrderedMinDegree   float64 `toml:"ordered_min_degree"`
	// OrderedMinVerticesSkewed, when above OrderedMinVertices, is the
	// order rule's vertex floor for graphs of degree skew at least
	// BucketMinSkew (those whose ordered buckets are work-targeted): a
	// hub relaxes much of such a graph at once, and unordered rounds
	// converge in a few iterations where ordered buckets take many
	// (thresholds.toml's H100 sssp section has the measurements). 0: no
	// separate floor.
	OrderedMinVerticesSkewed int64 `toml:"ordered_min_vertices_skewed"`
	// BucketEdges, when > 0 (and the graph's degree skew is at least
	// BucketMinSkew), makes the adaptive SSSP's ordered buckets
	// work-targeted: each iteration takes the minimum's bucket and the
	// delta-wide buckets after it until they hold this many out-edges
	// (every pending vertex when all of them hold fewer), so delta becomes
	// the narrowest bucket. Static variants keep fixed buckets. One fixed
	// width cannot fit a whole run: the early and late buckets are nearly
	// empty, and each iteration has a fixed cost. On the CPU backend it
	// counts out-edges per worker, and a merged iteration is at most 8
	// times the graph's delta wide. 0: fixed buckets.
	BucketEdges int64 `toml:"bucket_edges"`
	// BucketMinSkew is the degree skew (largest over average out-degree)
	// below which buckets stay fixed whatever BucketEdges says: on
	// uniform graphs merged buckets re-relax vertices whose distances are
	// still falling (0: no floor).
	BucketMinSkew float64 `toml:"bucket_min_skew"`
	// BucketDeltaFactor, when > 0, derives the narrowest bucket of
	// work-targeted buckets (BucketEdges) as DeltaFactor derives delta,
	// with this factor instead: such buckets widen over whole delta-wide
	// bins by themselves, so their bins can be finer than the fixed
	// buckets of graphs without them (0: the graph's delta).
	BucketDeltaFactor float64 `toml:"bucket_delta_factor"`
	// BucketDeltaMinSkew is the degree skew below which BucketDeltaFactor
	// does not apply (the narrowest work-targeted bucket is the graph's
	// delta): merged buckets re-relax a hub's out-edges whenever its
	// distance falls inside one, so skewed graphs gain from narrower bins
	// while uniform ones only take more iterations. 0: no floor.
	BucketDeltaMinSkew float64 `toml:"bucket_delta_min_skew"`
	// LaunchDeltaFactor, when > 0, widens the adaptive SSSP's fixed
	// buckets inside GPU persistent launches on sparse graphs: to delta x
	// LaunchDeltaFactor / mean out-degree where that exceeds delta (see
	// LaunchDelta). Inside a launch a bucket costs a scan of the update
	// vector, not a host iteration, and the levels are the cost. Static
	// variants keep delta.
	LaunchDeltaFactor float64 `toml:"launch_delta_factor"`
}

// DefaultParams returns the built-in CPU parameters, the values of the
// shipped thresholds.toml's [cpu.sssp] section.
func DefaultParams() Params {
	return Params{Delta: 32, DeltaFactor: 4, BucketEdges: 4096, BucketDeltaFactor: 2, BucketDeltaMinSkew: 8}
}

// GPUBase returns CPU parameters p as the base of a GPU's, without the
// CPU's work-targeted buckets: the CPU's bucket_edges counts per worker, a
// GPU's counts edges, so a GPU without its own has fixed buckets, and the
// CPU's narrower bins for them (bucket_delta_factor from
// bucket_delta_min_skew) were measured on its own buckets. A GPU
// section's missing keys and DeviceParams both start from it.
func (p Params) GPUBase() Params {
	p.BucketEdges, p.BucketDeltaFactor, p.BucketDeltaMinSkew = 0, 0, 0
	return p
}

// DeviceParams returns the parameters of a GPU without a thresholds
// section: a GPU iteration costs tens of microseconds, so buckets are
// wider and smaller graphs run unordered. The order rule was measured on
// the H100 (results/h100-2026-11-22-s10/ and -s11/tune-order/): ordered
// from 2^18 vertices at any degree (urand:18-20 ran 1.2-1.8x faster
// ordered; the 2048x2048 grid, 4 arcs per vertex, 65 ms ordered at delta
// 256 against 99 unordered), but on graphs of degree skew at least
// bucket_min_skew only from 2^21: a hub relaxes much of such a graph at
// once, and unordered rounds won on kron:18-20 (1.1-1.5x) and email-Enron
// (3.5x).
func DeviceParams() Params {
	p := DefaultParams().GPUBase()
	p.Delta = 256
	// A fixed delta: deriving it from the graph (the CPU's delta_factor)
	// had not been measured on a GPU when these defaults were set.
	p.DeltaFactor = 0
	p.OrderedMinVertices = 1 << 18
	p.OrderedMinDegree = 0
	p.OrderedMinVerticesSkewed = 1 << 21
	p.BucketMinSkew = 64 // what counts as skewed (work-targeted buckets stay off: bucket_edges 0)
	return p
}

// ParamsFrom decodes SSSP's keys from the layers of a thresholds lookup
// (decider.ThresholdSet.KnobsFor, runtime.Config.Knobs): DefaultParams
// under the CPU layers, GPUBase and the GPU layers on a GPU, or
// DeviceParams under the GPU layers where the set has no section for the
// GPU (found false). Errors name the key; out-of-range values are errors
// (Validate).
func ParamsFrom(layers decider.KnobLayers, found bool) (Params, error) {
	p := DefaultParams()
	// Delta is unsigned: a negative value would be refused as one, not by
	// its range.
	for _, k := range layers.All() {
		if d, ok := k["delta"].(int64); ok && d < 1 {
			return p, fmt.Errorf("%w: delta = %d, want >= 1", decider.ErrThresholds, d)
		}
	}
	if err := decider.DecodeKnobs(&p, layers.CPU...); err != nil {
		return p, err
	}
	if layers.OnGPU {
		p = p.GPUBase()
		if !found {
			p = DeviceParams()
		}
		if err := decider.DecodeKnobs(&p, layers.GPU...); err != nil {
			return p, err
		}
	}
	return p, p.Validate()
}

// WithParams sets the run's SSSP parameters, in place of the thresholds'
// (WithDelta still overrides the bucket width). A typed option rather
// than keys (runtime.WithKnobs): a library caller sets a field, and the
// engine stays free of SSSP.
func WithParams(p Params) runtime.Option { return runtime.WithValue(paramsKey{}, p) }

type paramsKey struct{}

// ParamsFor returns the parameters a run with opts would use (WithParams',
// else those its thresholds give on its backend).
func ParamsFor(opts ...runtime.Option) (Params, error) {
	return paramsFor(runtime.NewConfigFor("sssp", opts...))
}

// paramsFor returns the run's parameters: WithParams', else those its
// thresholds give.
func paramsFor(cfg *runtime.Config) (Params, error) {
	if v, ok := cfg.Value(paramsKey{}); ok {
		p := v.(Params)
		return p, p.Validate()
	}
	p, err := ParamsFrom(cfg.Knobs())
	if err != nil {
		return p, fmt.Errorf("%w: sssp: %w", decider.ErrThresholds, err)
	}
	return p, nil
}

// Validate checks every value's range; the error names the key.
func (p Params) Validate() error {
	for _, c := range []struct {
		key  string
		bad  bool
		val  any
		want string
	}{
		{"delta", p.Delta < 1, p.Delta, ">= 1"},
		{"delta_factor", !finiteNonNeg(p.DeltaFactor), p.DeltaFactor, ">= 0 (0 = use delta)"},
		{"bucket_edges", p.BucketEdges < 0, p.BucketEdges, ">= 0 (0 = fixed buckets)"},
		{"bucket_min_skew", !finiteNonNeg(p.BucketMinSkew), p.BucketMinSkew, "a finite value >= 0"},
		{"launch_delta_factor", !finiteNonNeg(p.LaunchDeltaFactor), p.LaunchDeltaFactor, "a finite value >= 0 (0 = delta)"},
		{"bucket_delta_factor", !finiteNonNeg(p.BucketDeltaFactor), p.BucketDeltaFactor, "a finite value >= 0 (0 = the graph's delta)"},
		{"bucket_delta_min_skew", !finiteNonNeg(p.BucketDeltaMinSkew), p.BucketDeltaMinSkew, "a finite value >= 0 (0 = no floor)"},
		{"ordered_min_vertices", p.OrderedMinVertices < 0, p.OrderedMinVertices, ">= 0"},
		{"ordered_min_degree", !finiteNonNeg(p.OrderedMinDegree), p.OrderedMinDegree, "a finite value >= 0"},
		{"ordered_min_vertices_skewed", p.OrderedMinVerticesSkewed < 0, p.OrderedMinVerticesSkewed, ">= 0"},
	} {
		if c.bad {
			return fmt.Errorf("%w: %s = %v, want %s", decider.ErrThresholds, c.key, c.val, c.want)
		}
	}
	return nil
}

// finiteNonNeg reports whether x is a finite value >= 0 (not NaN).
func finiteNonNeg(x float64) bool { return x >= 0 && !math.IsInf(x, 1) }

// maxDelta bounds a derived bucket width (a graph of huge weights and
// tiny degree would otherwise ask for more than distances can hold).
const maxDelta = 1 << 40

// DeltaFor returns the bucket width for a graph whose arcs weigh
// meanWeight on average and whose vertices have meanDegree out-arcs on
// average: Delta, or, where DeltaFactor > 0, DeltaFactor x meanWeight /
// meanDegree rounded to the nearest power of two (on a log scale), within
// [1, 2^40]. A power of two turns each relaxation's bucket division into a
// shift (on the CPU, delta 35 ran kron:18 14% slower than 32), and the
// heuristic is no finer than a factor of two anyway.
func (p Params) DeltaFor(meanWeight, meanDegree float64) uint64 {
	if !(p.DeltaFactor > 0) {
		return p.Delta
	}
	d := p.DeltaFactor * meanWeight / max(meanDegree, 1)
	switch {
	case !(d >= 1): // also NaN
		return 1
	case d >= maxDelta:
		return maxDelta
	}
	return 1 << uint(math.Round(math.Log2(d)))
}

// DeltaForGraph is DeltaFor with g's mean arc weight and out-degree; with
// no DeltaFactor it returns Delta without reading the weights.
func (p Params) DeltaForGraph(g *graph.Graph) uint64 {
	if !(p.DeltaFactor > 0) {
		return p.Delta
	}
	return p.DeltaFor(g.MeanWeight(), float64(g.NumEdges())/float64(max(g.NumVertices(), 1)))
}

// BucketDeltaForGraph is DeltaForGraph for work-targeted buckets: with
// BucketDeltaFactor in place of DeltaFactor where it is > 0 and g's degree
// skew is at least BucketDeltaMinSkew.
func (p Params) BucketDeltaForGraph(g *graph.Graph) uint64 {
	if p.BucketDeltaFactor > 0 && (p.BucketDeltaMinSkew <= 0 || g.DegreeSkew() >= p.BucketDeltaMinSkew) {
		p.DeltaFactor = p.BucketDeltaFactor
	}
	return p.DeltaForGraph(g)
}

// LaunchDelta returns the bucket width of the adaptive SSSP's buckets
// inside persistent launches on a graph of mean out-degree meanDegree, for
// a run of bucket width delta: delta x LaunchDeltaFactor / meanDegree
// where that factor exceeds 1, rounded to the nearest power of two on a log
// scale where delta is a power of two (else to the nearest integer),
// within [delta, 2^40]; else delta.
func (p Params) LaunchDelta(delta uint64, meanDegree float64) uint64 {
	f := p.LaunchDeltaFactor / max(meanDegree, 1)
	if !(f > 1) || delta == 0 {
		return delta
	}
	d := float64(delta) * f
	switch {
	case d >= maxDelta:
		return max(delta, maxDelta)
	case delta&(delta-1) == 0:
		return max(delta, 1<<uint(math.Round(math.Log2(d))))
	}
	return max(delta, uint64(math.Round(d)))
}
