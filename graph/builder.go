package graph

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
)

// ErrWeight reports an edge weight the weight rule refuses: negative, NaN,
// infinite, or beyond what float32 holds.
var ErrWeight = errors.New("invalid edge weight")

// BuilderOptions controls a Builder, FromEdges and StringBuilder. The zero
// value builds a directed graph whose vertices are the ids that occur,
// without self-loops or duplicate arcs (of duplicates the one of least
// weight is kept), as the loaders do.
type BuilderOptions struct {
	// Undirected stores every edge in both directions.
	Undirected bool
	// KeepSelfLoops keeps edges v -> v.
	KeepSelfLoops bool
	// KeepDuplicates keeps parallel edges.
	KeepDuplicates bool
	// NumVertices > 0 fixes the vertex count: ids must then lie in
	// 0..NumVertices-1 and are the internal ids (vertices without edges
	// included). 0 infers the vertices from the ids given (AddEdge,
	// AddVertex), relabelled densely in sorted order and kept in the
	// graph's IDMap, as SNAP files are.
	NumVertices int
}

// Builder collects edges given with any uint64 ids and builds a Graph
// from them. Weights are float64: a graph whose weights are all integers
// below 2^32 gets IntWeights, any other RealWeights (float32). Weights are
// checked by the rule the loaders follow: a negative, NaN or infinite
// weight, or one float32 cannot hold (over its largest value, or non-zero
// below its smallest), is an error naming the edge's index (its position
// among the AddEdge/AddWeightedEdge calls). Either every edge has a weight
// or none has.
//
// A Builder is not safe for concurrent use. Build may be called again
// after more edges are added.
type Builder struct {
	opt      BuilderOptions
	src, dst []uint64
	w        []float64
	weighted int // index of the first weighted edge, -1 if none
	plain    int // index of the first unweighted edge, -1 if none
	extra    []uint64
}

// NewBuilder returns an empty builder.
func NewBuilder(opt BuilderOptions) *Builder {
	return &Builder{opt: opt, weighted: -1, plain: -1}
}

// AddEdge adds the unweighted edge u -> v (u - v when undirected).
func (b *Builder) AddEdge(u, v uint64) {
	if b.plain < 0 {
		b.plain = len(b.src)
	}
	b.src = append(b.src, u)
	b.dst = append(b.dst, v)
	if b.w != nil {
		b.w = append(b.w, 1)
	}
}

// AddWeightedEdge adds the edge u -> v of weight w.
func (b *Builder) AddWeightedEdge(u, v uint64, w float64) {
	if b.weighted < 0 {
		b.weighted = len(b.src)
		b.w = make([]float64, len(b.src), max(cap(b.src), 16))
		for i := range b.w {
			b.w[i] = 1
		}
	}
	b.src = append(b.src, u)
	b.dst = append(b.dst, v)
	b.w = append(b.w, w)
}

// AddVertex makes sure vertex id exists, with or without edges.
func (b *Builder) AddVertex(id uint64) { b.extra = append(b.extra, id) }

// NumEdges returns the number of edges added.
func (b *Builder) NumEdges() int { return len(b.src) }

// Build makes the graph. Its IDs() map internal vertices back to the ids
// given.
func (b *Builder) Build() (*Graph, error) {
	if b == nil {
		return nil, fmt.Errorf("%w: Build of a nil Builder", ErrNil)
	}
	if b.weighted >= 0 && b.plain >= 0 {
		return nil, fmt.Errorf("%w: edge %d has a weight but edge %d has none: give every edge a weight or none", ErrWeight, b.weighted, b.plain)
	}
	return fromEdges(b.src, b.dst, b.w, b.extra, b.opt)
}

// FromEdges builds a graph from parallel slices: edge i is src[i] ->
// dst[i] with weight w[i] (w nil for an unweighted graph), with ids and
// weights as a Builder takes them. The slices are not kept.
func FromEdges(src, dst []uint64, w []float64, opt BuilderOptions) (*Graph, error) {
	if len(src) != len(dst) {
		return nil, fmt.Errorf("%w: %d sources but %d destinations", ErrInvalid, len(src), len(dst))
	}
	if w != nil && len(w) != len(src) {
		return nil, fmt.Errorf("%w: %d weights for %d edges", ErrInvalid, len(w), len(src))
	}
	return fromEdges(src, dst, w, nil, opt)
}

func fromEdges(src, dst []uint64, w []float64, extra []uint64, opt BuilderOptions) (*Graph, error) {
	m := len(src)
	if opt.NumVertices < 0 || uint64(opt.NumVertices) > MaxVertices {
		return nil, fmt.Errorf("%w: BuilderOptions.NumVertices %d outside 0..%d", ErrInvalid, opt.NumVertices, uint64(MaxVertices))
	}
	el := &EdgeList{Src: make([]uint32, m), Dst: make([]uint32, m)}
	if opt.NumVertices > 0 {
		n := uint64(opt.NumVertices)
		el.NumVertices = opt.NumVertices
		for i := range m {
			if src[i] >= n || dst[i] >= n {
				return nil, fmt.Errorf("%w: edge %d (%d -> %d) names a vertex outside 0..%d (BuilderOptions.NumVertices)", ErrInvalid, i, src[i], dst[i], n-1)
			}
			el.Src[i], el.Dst[i] = uint32(src[i]), uint32(dst[i])
		}
		for _, x := range extra {
			if x >= n {
				return nil, fmt.Errorf("%w: vertex %d outside 0..%d (BuilderOptions.NumVertices)", ErrInvalid, x, n-1)
			}
		}
	} else {
		ids := make([]uint64, 0, 2*m+len(extra))
		ids = append(append(append(ids, src...), dst...), extra...)
		slices.Sort(ids)
		ids = slices.Compact(ids)
		if uint64(len(ids)) > MaxVertices {
			return nil, fmt.Errorf("%w: %d distinct vertex ids exceed the limit %d", ErrInvalid, len(ids), uint64(MaxVertices))
		}
		idx := func(x uint64) uint32 { i, _ := slices.BinarySearch(ids, x); return uint32(i) }
		parFor(m, 1<<14, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				el.Src[i], el.Dst[i] = idx(src[i]), idx(dst[i])
			}
		})
		el.NumVertices = len(ids)
		idm, err := SortedIDs(ids)
		if err != nil {
			return nil, err
		}
		el.IDs = idm
	}
	if w != nil {
		kind, ws, err := convertWeights(w)
		if err != nil {
			return nil, err
		}
		el.WeightKind, el.Weights = kind, ws
	}
	return Build(el, BuildOptions{Undirected: opt.Undirected, KeepSelfLoops: opt.KeepSelfLoops, KeepDuplicates: opt.KeepDuplicates})
}

// convertWeights applies the weight rule to float64 weights: IntWeights
// when every weight is an integer below 2^32, else float32 RealWeights.
func convertWeights(w []float64) (WeightKind, []uint32, error) {
	integral := true
	for i, x := range w {
		switch {
		case math.IsNaN(x) || math.IsInf(x, 0):
			return 0, nil, fmt.Errorf("%w: edge %d has weight %v (weights must be finite)", ErrWeight, i, x)
		case x < 0:
			return 0, nil, fmt.Errorf("%w: edge %d has weight %v (weights must not be negative)", ErrWeight, i, x)
		case x > math.MaxFloat32:
			return 0, nil, fmt.Errorf("%w: edge %d has weight %v, over float32's largest value %g", ErrWeight, i, x, math.MaxFloat32)
		case x != 0 && float32(x) == 0:
			return 0, nil, fmt.Errorf("%w: edge %d has weight %v, non-zero but below float32's smallest value %g", ErrWeight, i, x, math.SmallestNonzeroFloat32)
		}
		if integral && (x != math.Trunc(x) || x > math.MaxUint32) {
			integral = false
		}
	}
	out := make([]uint32, len(w))
	if integral {
		for i, x := range w {
			out[i] = uint32(x)
		}
		return IntWeights, out, nil
	}
	for i, x := range w {
		out[i] = math.Float32bits(float32(x) + 0) // +0 turns -0 into 0
	}
	return RealWeights, out, nil
}

// StringBuilder builds a graph whose vertices are named by strings. Each
// name gets the next integer id on first use (0, 1, 2, ...), so the
// graph's internal vertex v is Names()[v] and its IDs() are the identity.
type StringBuilder struct {
	b     *Builder
	index map[string]uint32
	names []string
}

// NewStringBuilder returns an empty builder of string-named vertices.
// opt.NumVertices must be 0.
func NewStringBuilder(opt BuilderOptions) *StringBuilder {
	return &StringBuilder{b: NewBuilder(opt), index: map[string]uint32{}}
}

func (s *StringBuilder) id(name string) uint64 {
	if v, ok := s.index[name]; ok {
		return uint64(v)
	}
	v := uint32(len(s.names))
	s.index[name] = v
	s.names = append(s.names, name)
	return uint64(v)
}

// AddEdge adds the unweighted edge a -> b.
func (s *StringBuilder) AddEdge(a, b string) { s.b.AddEdge(s.id(a), s.id(b)) }

// AddWeightedEdge adds the edge a -> b of weight w.
func (s *StringBuilder) AddWeightedEdge(a, b string, w float64) {
	s.b.AddWeightedEdge(s.id(a), s.id(b), w)
}

// AddVertex makes sure the vertex named name exists.
func (s *StringBuilder) AddVertex(name string) { s.b.AddVertex(s.id(name)) }

// Build makes the graph and returns it with the names of its vertices:
// internal vertex v is names.Name(v).
func (s *StringBuilder) Build() (*Graph, *Names, error) {
	if s == nil {
		return nil, nil, fmt.Errorf("%w: Build of a nil StringBuilder", ErrNil)
	}
	if s.b.opt.NumVertices != 0 {
		return nil, nil, fmt.Errorf("%w: a StringBuilder numbers its vertices itself: BuilderOptions.NumVertices must be 0, not %d", ErrInvalid, s.b.opt.NumVertices)
	}
	if uint64(len(s.names)) > MaxVertices {
		return nil, nil, fmt.Errorf("%w: %d vertex names exceed the limit %d", ErrInvalid, len(s.names), uint64(MaxVertices))
	}
	opt := s.b.opt
	opt.NumVertices = len(s.names)
	b := *s.b
	b.opt = opt
	g, err := b.Build()
	if err != nil {
		return nil, nil, err
	}
	return g, &Names{names: slices.Clone(s.names), index: maps.Clone(s.index)}, nil
}

// Names maps the vertices of a StringBuilder's graph to their names and
// back.
type Names struct {
	names []string
	index map[string]uint32
}

// Name returns the name of internal vertex v ("" outside the graph).
func (n *Names) Name(v uint32) string {
	if n == nil || int64(v) >= int64(len(n.names)) {
		return ""
	}
	return n.names[v]
}

// Vertex returns the internal vertex named name, and whether there is one.
func (n *Names) Vertex(name string) (uint32, bool) {
	if n == nil {
		return 0, false
	}
	v, ok := n.index[name]
	return v, ok
}

// Len returns the number of names.
func (n *Names) Len() int {
	if n == nil {
		return 0
	}
	return len(n.names)
}
