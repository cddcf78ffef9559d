// Package gonumview presents a gearbox *graph.Graph through the interfaces
// of gonum.org/v1/gonum/graph, so gonum's algorithms (path.DijkstraFrom,
// network.PageRank, betweenness, ...) run on a graph gearbox loaded without
// copying it: every method reads the CSR arrays.
//
// Node ids are gearbox's internal vertex ids (0..n-1) as int64; map them to
// the file's ids with the graph's IDs(). A directed graph is a
// graph.WeightedDirected (To reads the graph's cached transpose, built on
// first use); an undirected one is also a graph.WeightedUndirected. Edge
// weights are the graph's: integer or float32 ones as float64, 1 on an
// unweighted graph. Parallel arcs (graphs built with KeepDuplicates) show
// as one edge, the first of the list.
//
// It may import graph and gonum's graph packages only.
package gonumview

import (
	"math"
	"slices"

	"github.com/gearbox-graph/gearbox/graph"
	gg "gonum.org/v1/gonum/graph"
)

// View is a gearbox graph seen as a gonum graph. It is safe for concurrent
// use, as the graph is.
type View struct {
	g *graph.Graph
}

// Compile-time checks of the interfaces a View offers.
var (
	_ gg.WeightedDirected   = (*View)(nil)
	_ gg.WeightedUndirected = (*View)(nil)
)

// New returns the view of g.
func New(g *graph.Graph) *View { return &View{g: g} }

// Graph returns the gearbox graph viewed.
func (v *View) Graph() *graph.Graph { return v.g }

// Node is a vertex: its internal id.
type Node int64

// ID returns the vertex's internal id.
func (n Node) ID() int64 { return int64(n) }

func (v *View) has(id int64) bool { return id >= 0 && id < int64(v.g.NumVertices()) }

// Node returns the vertex id, or nil outside the graph.
func (v *View) Node(id int64) gg.Node {
	if !v.has(id) {
		return nil
	}
	return Node(id)
}

// Nodes returns every vertex, in id order.
func (v *View) Nodes() gg.Nodes { return &rangeNodes{n: int64(v.g.NumVertices()), i: -1} }

// From returns id's out-neighbours.
func (v *View) From(id int64) gg.Nodes {
	if !v.has(id) {
		return gg.Empty
	}
	return &listNodes{list: v.g.Neighbors(uint32(id)), i: -1}
}

// To returns id's in-neighbours (its out-neighbours in an undirected
// graph).
func (v *View) To(id int64) gg.Nodes {
	if !v.has(id) {
		return gg.Empty
	}
	return &listNodes{list: v.g.Transpose().Neighbors(uint32(id)), i: -1}
}

// arc returns the position in the adjacency array of the arc u -> w.
func arc(g *graph.Graph, u, w int64) (int64, bool) {
	if u < 0 || w < 0 || u >= int64(g.NumVertices()) || w >= int64(g.NumVertices()) {
		return 0, false
	}
	i, ok := slices.BinarySearch(g.Neighbors(uint32(u)), uint32(w))
	return g.Offsets()[u] + int64(i), ok
}

// weightAt is the weight of the arc at position e.
func (v *View) weightAt(e int64) float64 {
	switch v.g.WeightKind() {
	case graph.IntWeights:
		return float64(v.g.Weights()[e])
	case graph.RealWeights:
		return float64(math.Float32frombits(v.g.Weights()[e]))
	}
	return 1
}

// HasEdgeFromTo reports whether the arc u -> w exists.
func (v *View) HasEdgeFromTo(u, w int64) bool { _, ok := arc(v.g, u, w); return ok }

// HasEdgeBetween reports whether an arc joins x and y either way.
func (v *View) HasEdgeBetween(x, y int64) bool { return v.HasEdgeFromTo(x, y) || v.HasEdgeFromTo(y, x) }

// Edge returns the arc u -> w, or nil.
func (v *View) Edge(u, w int64) gg.Edge {
	if e := v.WeightedEdge(u, w); e != nil {
		return e
	}
	return nil
}

// WeightedEdge returns the arc u -> w with its weight, or nil.
func (v *View) WeightedEdge(u, w int64) gg.WeightedEdge {
	e, ok := arc(v.g, u, w)
	if !ok {
		return nil
	}
	return Edge{F: Node(u), T: Node(w), W: v.weightAt(e)}
}

// Weight returns the weight of the arc x -> y: 0 and true for x == y, as
// gonum's simple graphs do for a node without a self-loop; +Inf and false
// without an arc.
func (v *View) Weight(x, y int64) (float64, bool) {
	if e, ok := arc(v.g, x, y); ok {
		return v.weightAt(e), true
	}
	if x == y && v.has(x) {
		return 0, true
	}
	return math.Inf(1), false
}

// EdgeBetween returns the edge joining x and y (undirected use).
func (v *View) EdgeBetween(x, y int64) gg.Edge {
	if e := v.WeightedEdgeBetween(x, y); e != nil {
		return e
	}
	return nil
}

// WeightedEdgeBetween returns the weighted edge joining x and y, x -> y
// first.
func (v *View) WeightedEdgeBetween(x, y int64) gg.WeightedEdge {
	if e := v.WeightedEdge(x, y); e != nil {
		return e
	}
	if e := v.WeightedEdge(y, x); e != nil {
		return e.ReversedEdge().(gg.WeightedEdge)
	}
	return nil
}

// Edge is an arc with its weight.
type Edge struct {
	F, T Node
	W    float64
}

// From returns the tail.
func (e Edge) From() gg.Node { return e.F }

// To returns the head.
func (e Edge) To() gg.Node { return e.T }

// Weight returns the weight.
func (e Edge) Weight() float64 { return e.W }

// ReversedEdge returns the arc the other way round, same weight.
func (e Edge) ReversedEdge() gg.Edge { return Edge{F: e.T, T: e.F, W: e.W} }

// rangeNodes iterates 0..n-1 without a slice.
type rangeNodes struct{ n, i int64 }

func (r *rangeNodes) Next() bool {
	if r.i+1 >= r.n {
		r.i = r.n
		return false
	}
	r.i++
	return true
}
func (r *rangeNodes) Len() int { return int(max(r.n-r.i-1, 0)) }
func (r *rangeNodes) Reset()   { r.i = -1 }
func (r *rangeNodes) Node() gg.Node {
	if r.i < 0 || r.i >= r.n {
		return nil
	}
	return Node(r.i)
}

// listNodes iterates an adjacency list in place; repeated ids (parallel
// arcs) are skipped.
type listNodes struct {
	list []uint32
	i    int
}

func (l *listNodes) Next() bool {
	for l.i+1 < len(l.list) {
		l.i++
		if l.i == 0 || l.list[l.i] != l.list[l.i-1] {
			return true
		}
	}
	l.i = len(l.list)
	return false
}

// Len counts the arcs left (parallel arcs included: an upper bound on a
// graph built with KeepDuplicates, exact otherwise).
func (l *listNodes) Len() int { return max(len(l.list)-l.i-1, 0) }
func (l *listNodes) Reset()   { l.i = -1 }
func (l *listNodes) Node() gg.Node {
	if l.i < 0 || l.i >= len(l.list) {
		return nil
	}
	return Node(l.list[l.i])
}
