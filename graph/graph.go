package graph

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"sort"
	"sync"

	"github.com/gearbox-graph/gearbox/internal/splitmix64"
)

// MaxVertices is the largest vertex count a graph may have: ids are uint32
// and the value math.MaxUint32 is reserved as "no vertex".
const MaxVertices = math.MaxUint32

// NoVertex marks the absence of a vertex (an unreached parent, say).
const NoVertex = math.MaxUint32

// WeightKind says what a graph's edge weights are.
type WeightKind uint8

const (
	// Unweighted graphs carry no weights.
	Unweighted WeightKind = iota
	// IntWeights are unsigned 32-bit integers.
	IntWeights
	// RealWeights are float32 values stored as their bit patterns in the
	// uint32 weight array; non-negative float32 bit patterns order like the
	// integers, so atomic minimum works on them unchanged.
	RealWeights
)

func (k WeightKind) String() string {
	switch k {
	case Unweighted:
		return "unweighted"
	case IntWeights:
		return "integer"
	case RealWeights:
		return "real (float32)"
	}
	return fmt.Sprintf("WeightKind(%d)", uint8(k))
}

// ErrNil reports a nil graph, edge list, reader or writer given to a
// function of this package.
var ErrNil = errors.New("nil argument")

// ErrInvalid reports a CSR whose arrays break the graph's invariants.
var ErrInvalid = errors.New("invalid graph")

// Graph is an immutable CSR graph. Vertex ids are 0..NumVertices()-1; the
// adjacency list of v is Adj()[Offsets()[v]:Offsets()[v+1]], sorted by
// neighbour id. An undirected graph stores every edge in both directions.
type Graph struct {
	offsets  []int64
	adj      []uint32
	weights  []uint32
	wkind    WeightKind
	directed bool
	ids      IDMap
	derived  bool // weights were derived from a seed, not read
	dropped  Dropped

	// Max-flow problems (DIMACS .max) name a source and a sink.
	source, sink uint32
	terminals    bool

	tOnce sync.Once
	t     *Graph

	wOnce sync.Once
	meanW float64

	mwOnce  sync.Once
	maxW    uint32
	minOnce sync.Once
	minW    uint32

	dOnce  sync.Once
	maxDeg int64

	pOnce   sync.Once
	profile *DegreeProfile
}

// MeanWeight returns the mean arc weight: of the integer weights, or of the
// real ones (RealWeights), 1 for an unweighted graph and 0 for one without
// arcs. Summed in parallel on first use and cached (SSSP derives its bucket
// width from it on every run).
func (g *Graph) MeanWeight() float64 {
	if g == nil {
		return 0
	}
	g.wOnce.Do(func() {
		m := len(g.adj)
		switch {
		case m == 0:
			return
		case g.weights == nil:
			g.meanW = 1
			return
		}
		real := g.wkind == RealWeights
		sum := chunkReduce(m, func(lo, hi int) (s float64) {
			for _, w := range g.weights[lo:hi] {
				if real {
					s += float64(math.Float32frombits(w))
				} else {
					s += float64(w)
				}
			}
			return s
		}, func(a, b float64) float64 { return a + b })
		g.meanW = sum / float64(m)
	})
	return g.meanW
}

// MaxWeight returns the largest integer arc weight: 1 for an unweighted
// graph (unit weights) or one without arcs; for real weights (RealWeights)
// it is meaningless. Found in parallel on first use and cached: SSSP picks
// 32- or 64-bit distances from it on every run, and a serial scan of
// email-Enron's weights was an eighth of a 16-core run.
func (g *Graph) MaxWeight() uint32 {
	if g == nil {
		return 0
	}
	g.mwOnce.Do(func() { g.maxW = g.weightBound(false) })
	return g.maxW
}

// MinWeight returns the smallest integer arc weight: 1 for an unweighted
// graph or one without arcs (as MaxWeight). Found in parallel on first use
// and cached: a GPU SSSP's parent pass reads it on every run (a zero weight
// can make tight cycles, which its scan for a tight in-arc must avoid).
func (g *Graph) MinWeight() uint32 {
	if g == nil {
		return 0
	}
	g.minOnce.Do(func() { g.minW = g.weightBound(true) })
	return g.minW
}

// weightBound returns the smallest arc weight (lowest) or the largest,
// found in parallel; 1 without weights.
func (g *Graph) weightBound(lowest bool) uint32 {
	if len(g.weights) == 0 {
		return 1
	}
	pick := func(a, b uint32) uint32 {
		if lowest {
			return min(a, b)
		}
		return max(a, b)
	}
	return chunkReduce(len(g.weights), func(lo, hi int) uint32 {
		m := g.weights[lo]
		for _, w := range g.weights[lo+1 : hi] {
			if lowest {
				m = min(m, w)
			} else {
				m = max(m, w)
			}
		}
		return m
	}, pick)
}

// MaxDegree returns the largest out-degree (0 for a graph without
// vertices). Found in parallel on first use and cached (the connected
// components' variant choice reads it on every run).
func (g *Graph) MaxDegree() int64 {
	if g == nil {
		return 0
	}
	g.dOnce.Do(func() {
		g.maxDeg = chunkReduce(g.NumVertices(), func(lo, hi int) (m int64) {
			for v := lo; v < hi; v++ {
				m = max(m, g.offsets[v+1]-g.offsets[v])
			}
			return m
		}, max2)
	})
	return g.maxDeg
}

// DegreeSkew returns the largest out-degree over the average (0 without
// arcs): how far the graph is from uniform degrees (Kronecker graphs have
// hubs of thousands of times the average, uniform random ones about 2).
func (g *Graph) DegreeSkew() float64 {
	if g == nil {
		return 0
	}
	if g.NumEdges() == 0 {
		return 0
	}
	return float64(g.MaxDegree()) * float64(g.NumVertices()) / float64(g.NumEdges())
}

// max2 is max as a function value (chunkReduce's combine).
func max2[T cmp.Ordered](a, b T) T { return max(a, b) }

// chunkReduce reduces [0, n) in parallel: part over fixed chunks of 2^16,
// then combine over the chunks in order, so the result (a float sum too)
// does not depend on the number of workers.
func chunkReduce[T any](n int, part func(lo, hi int) T, combine func(a, b T) T) T {
	const grain = 1 << 16
	parts := make([]T, (n+grain-1)/grain)
	parFor(len(parts), 1, func(lo, hi int) {
		for c := lo; c < hi; c++ {
			parts[c] = part(c*grain, min((c+1)*grain, n))
		}
	})
	var acc T
	for i, x := range parts {
		if i == 0 {
			acc = x
		} else {
			acc = combine(acc, x)
		}
	}
	return acc
}

// Terminals returns the source and sink a max-flow input named, and whether
// it named them.
func (g *Graph) Terminals() (source, sink uint32, ok bool) {
	if g == nil {
		return 0, 0, false
	}
	return g.source, g.sink, g.terminals
}

// SetTerminals records a max-flow source and sink (used by loaders).
func (g *Graph) SetTerminals(source, sink uint32) error {
	if g == nil {
		return fmt.Errorf("%w: SetTerminals of a nil graph", ErrNil)
	}
	n := g.NumVertices()
	if int64(source) >= int64(n) || int64(sink) >= int64(n) {
		return fmt.Errorf("%w: terminals %d and %d outside 0..%d", ErrInvalid, source, sink, n-1)
	}
	g.source, g.sink, g.terminals = source, sink, true
	return nil
}

// New wraps CSR arrays in a Graph after checking them: offsets has n+1
// non-decreasing entries starting at 0 and ending at len(adj), every
// neighbour is below n, each list is sorted, and weights is nil (kind
// Unweighted) or as long as adj. The slices are owned by the graph
// afterwards.
func New(offsets []int64, adj []uint32, weights []uint32, kind WeightKind, directed bool, ids IDMap) (*Graph, error) {
	g := &Graph{offsets: offsets, adj: adj, weights: weights, wkind: kind, directed: directed, ids: ids}
	if err := g.validate(); err != nil {
		return nil, err
	}
	return g, nil
}

func (g *Graph) validate() error {
	if len(g.offsets) == 0 {
		return fmt.Errorf("%w: offsets array is empty (need n+1 entries)", ErrInvalid)
	}
	n := len(g.offsets) - 1
	if uint64(n) > MaxVertices {
		return fmt.Errorf("%w: %d vertices exceeds the limit %d", ErrInvalid, n, uint64(MaxVertices))
	}
	if g.offsets[0] != 0 || g.offsets[n] != int64(len(g.adj)) {
		return fmt.Errorf("%w: offsets run from %d to %d, want 0 to %d", ErrInvalid, g.offsets[0], g.offsets[n], len(g.adj))
	}
	if (g.wkind == Unweighted) != (g.weights == nil) || (g.weights != nil && len(g.weights) != len(g.adj)) {
		return fmt.Errorf("%w: %d weights for %d edges (kind %v)", ErrInvalid, len(g.weights), len(g.adj), g.wkind)
	}
	if g.ids.ids != nil && len(g.ids.ids) != n {
		return fmt.Errorf("%w: id map has %d entries for %d vertices", ErrInvalid, len(g.ids.ids), n)
	}
	g.ids.n = n
	errs := make([]error, 1)
	var mu sync.Mutex
	parFor(n, 1<<12, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			a, b := g.offsets[v], g.offsets[v+1]
			if a > b || a < 0 || b > int64(len(g.adj)) {
				mu.Lock()
				errs[0] = fmt.Errorf("%w: offsets of vertex %d run from %d to %d (%d edges in all)", ErrInvalid, v, a, b, len(g.adj))
				mu.Unlock()
				return
			}
			prev := int64(-1)
			for _, u := range g.adj[a:b] {
				if int64(u) >= int64(n) || int64(u) < prev {
					mu.Lock()
					errs[0] = fmt.Errorf("%w: vertex %d has neighbour %d (n=%d, lists must be sorted)", ErrInvalid, v, u, n)
					mu.Unlock()
					return
				}
				prev = int64(u)
			}
		}
	})
	return errs[0]
}

// NumVertices returns n.
func (g *Graph) NumVertices() int {
	if g == nil || len(g.offsets) == 0 {
		return 0
	}
	return len(g.offsets) - 1
}

// NumEdges returns the number of stored arcs: for an undirected graph every
// edge counts twice (once per direction), as in the GAP suite's "directed
// edges" count.
func (g *Graph) NumEdges() int64 {
	if g == nil {
		return 0
	}
	return int64(len(g.adj))
}

// NumUndirectedEdges returns the edge count a user of an undirected graph
// expects: arcs between distinct vertices count once per pair, self-loops
// once. For directed graphs it equals NumEdges.
func (g *Graph) NumUndirectedEdges() int64 {
	if g == nil {
		return 0
	}
	if g.directed {
		return g.NumEdges()
	}
	var loops int64
	for v := 0; v < g.NumVertices(); v++ {
		nb := g.Neighbors(uint32(v))
		i := sort.Search(len(nb), func(i int) bool { return nb[i] >= uint32(v) })
		for ; i < len(nb) && nb[i] == uint32(v); i++ {
			loops++
		}
	}
	return (g.NumEdges()-loops)/2 + loops
}

// Directed reports whether the graph is directed.
func (g *Graph) Directed() bool { return g != nil && g.directed }

// Offsets returns the CSR offsets (n+1 entries). Do not modify.
func (g *Graph) Offsets() []int64 {
	if g == nil {
		return nil
	}
	return g.offsets
}

// Adj returns the concatenated adjacency lists. Do not modify.
func (g *Graph) Adj() []uint32 {
	if g == nil {
		return nil
	}
	return g.adj
}

// Weights returns the edge weights parallel to Adj, or nil. For RealWeights
// they are float32 bit patterns. Do not modify.
func (g *Graph) Weights() []uint32 {
	if g == nil {
		return nil
	}
	return g.weights
}

// WeightKind says what Weights holds.
func (g *Graph) WeightKind() WeightKind {
	if g == nil {
		return Unweighted
	}
	return g.wkind
}

// DerivedWeights reports whether the weights were derived from a seed by
// WithDerivedWeights rather than read from the input.
func (g *Graph) DerivedWeights() bool {
	if g == nil {
		return false
	}
	return g.derived
}

// IDs returns the mapping between internal and external vertex ids.
func (g *Graph) IDs() IDMap {
	if g == nil {
		return IDMap{}
	}
	return g.ids
}

// Degree returns the out-degree of v.
func (g *Graph) Degree(v uint32) int64 { return g.offsets[v+1] - g.offsets[v] }

// Neighbors returns v's sorted out-neighbours. Do not modify.
func (g *Graph) Neighbors(v uint32) []uint32 { return g.adj[g.offsets[v]:g.offsets[v+1]] }

// EdgeWeights returns the weights of v's out-edges, parallel to
// Neighbors(v), or nil for an unweighted graph.
func (g *Graph) EdgeWeights(v uint32) []uint32 {
	if g.weights == nil {
		return nil
	}
	return g.weights[g.offsets[v]:g.offsets[v+1]]
}

// Transpose returns the graph with every arc reversed, built in parallel on
// first use and cached. An undirected graph is its own transpose.
func (g *Graph) Transpose() *Graph {
	if g == nil {
		return nil
	}
	if !g.directed {
		return g
	}
	g.tOnce.Do(func() {
		n := g.NumVertices()
		el := &EdgeList{NumVertices: n, WeightKind: g.wkind, IDs: g.ids}
		el.Src = make([]uint32, len(g.adj))
		el.Dst = make([]uint32, len(g.adj))
		if g.weights != nil {
			el.Weights = g.weights
		}
		parFor(n, 1<<12, func(lo, hi int) {
			for v := lo; v < hi; v++ {
				for e := g.offsets[v]; e < g.offsets[v+1]; e++ {
					el.Src[e] = g.adj[e]
					el.Dst[e] = uint32(v)
				}
			}
		})
		t, err := Build(el, BuildOptions{KeepSelfLoops: true, KeepDuplicates: true})
		if err != nil {
			panic(fmt.Sprintf("graph: transpose of a valid graph failed: %v", err)) // unreachable: inputs come from a valid CSR
		}
		t.derived = g.derived
		g.t = t
	})
	return g.t
}

// Bytes returns the memory held by the CSR arrays (not the cached
// transpose).
func (g *Graph) Bytes() int64 {
	if g == nil {
		return 0
	}
	return int64(len(g.offsets))*8 + int64(len(g.adj))*4 + int64(len(g.weights))*4 + int64(len(g.ids.ids))*8
}

// WithDerivedWeights returns a weighted copy of an unweighted graph sharing
// its structure, each edge weighted in [1,255] by a hash of its endpoints and
// the seed (the same weight in both directions of an undirected edge). A
// weighted graph is returned unchanged.
func (g *Graph) WithDerivedWeights(seed uint64) *Graph {
	if g == nil {
		return nil
	}
	if g.wkind != Unweighted {
		return g
	}
	w := make([]uint32, len(g.adj))
	parFor(g.NumVertices(), 1<<12, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			for e := g.offsets[v]; e < g.offsets[v+1]; e++ {
				a, b := uint64(v), uint64(g.adj[e])
				if !g.directed && a > b {
					a, b = b, a
				}
				w[e] = uint32(mix64(a<<32|b^seed*0x9e3779b97f4a7c15)%255) + 1
			}
		}
	})
	return &Graph{offsets: g.offsets, adj: g.adj, weights: w, wkind: IntWeights, directed: g.directed, ids: g.ids, derived: true}
}

// mix64 is the splitmix64 finaliser.
func mix64(x uint64) uint64 { return splitmix64.Mix(x) }

// IDMap maps internal vertex ids (0..n-1) to the ids of the input file and
// back. The zero value with base 0 is the identity; files with 1-based ids
// (MatrixMarket, DIMACS, METIS) use base 1; files with arbitrary ids (SNAP,
// Graphalytics) keep the sorted list of the ids that occur, so internal ids
// follow the order of the external ones.
type IDMap struct {
	base uint64
	ids  []uint64 // sorted; nil means external = base + internal
	n    int
}

// OffsetIDs returns the map external = base + internal for n vertices.
func OffsetIDs(base uint64, n int) IDMap { return IDMap{base: base, n: n} }

// SortedIDs returns the map whose internal id i stands for ids[i]; ids must
// be strictly increasing. A list equal to base..base+n-1 is stored as an
// offset map.
func SortedIDs(ids []uint64) (IDMap, error) {
	for i := 1; i < len(ids); i++ {
		if ids[i] <= ids[i-1] {
			return IDMap{}, fmt.Errorf("%w: vertex ids not strictly increasing at position %d (%d after %d)", ErrInvalid, i, ids[i], ids[i-1])
		}
	}
	if len(ids) == 0 || ids[len(ids)-1]-ids[0] == uint64(len(ids)-1) {
		var base uint64
		if len(ids) > 0 {
			base = ids[0]
		}
		return IDMap{base: base, n: len(ids)}, nil
	}
	return IDMap{ids: ids, n: len(ids)}, nil
}

// Identity reports whether external ids equal internal ones.
func (m IDMap) Identity() bool { return m.ids == nil && m.base == 0 }

// Base returns the offset of an offset map (0 for an explicit list).
func (m IDMap) Base() uint64 { return m.base }

// List returns the explicit sorted id list, or nil for an offset map.
func (m IDMap) List() []uint64 { return m.ids }

// External returns the input file's id of internal vertex v.
func (m IDMap) External(v uint32) uint64 {
	if m.ids != nil {
		return m.ids[v]
	}
	return m.base + uint64(v)
}

// Internal returns the internal id of the input file's id x, and whether
// such a vertex exists.
func (m IDMap) Internal(x uint64) (uint32, bool) {
	if m.ids != nil {
		i := sort.Search(len(m.ids), func(i int) bool { return m.ids[i] >= x })
		if i < len(m.ids) && m.ids[i] == x {
			return uint32(i), true
		}
		return 0, false
	}
	if x < m.base || x-m.base >= uint64(m.n) {
		return 0, false
	}
	return uint32(x - m.base), true
}

// Edge is an arc U->V of a graph, by internal vertex ids (for an undirected
// graph, either direction of the edge).
type Edge struct{ U, V uint32 }
