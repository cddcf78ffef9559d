package cc

import (
	"errors"
	"fmt"
	"slices"

	"github.com/gearbox-graph/gearbox/graph"
)

// ErrVerify is wrapped by every verification failure.
var ErrVerify = errors.New("cc: verification failed")

// uf is a serial union-find with path halving; union keeps the smaller id
// as the root, so find returns a component's smallest vertex.
type uf []uint32

func newUF(n int) uf {
	u := make(uf, n)
	for i := range u {
		u[i] = uint32(i)
	}
	return u
}

func (u uf) find(x uint32) uint32 {
	for u[x] != x {
		u[x] = u[u[x]]
		x = u[x]
	}
	return x
}

// union joins the sets of a and b and reports whether they were apart.
func (u uf) union(a, b uint32) bool {
	a, b = u.find(a), u.find(b)
	if a == b {
		return false
	}
	if a > b {
		a, b = b, a
	}
	u[b] = a
	return true
}

// Reference labels the components of g serially with union-find: the
// obviously correct answer the parallel variants are checked against.
func Reference(g *graph.Graph) []uint32 {
	n := g.NumVertices()
	u := newUF(n)
	for v := 0; v < n; v++ {
		for _, w := range g.Neighbors(uint32(v)) {
			u.union(uint32(v), w)
		}
	}
	for v := range u {
		u[v] = u.find(uint32(v))
	}
	return u
}

// Verify checks labels against g: one label per vertex, the endpoints of
// every arc share a label, every label is the smallest vertex of its
// component, and the labels equal those of a serial union-find.
func Verify(g *graph.Graph, labels []uint32) error {
	if g == nil {
		return fmt.Errorf("cc: verify: %w: nil graph", graph.ErrNil)
	}
	n := g.NumVertices()
	if len(labels) != n {
		return fmt.Errorf("%w: %d labels for %d vertices", ErrVerify, len(labels), n)
	}
	for v := 0; v < n; v++ {
		l := labels[v]
		if l > uint32(v) {
			return fmt.Errorf("%w: vertex %d has label %d, larger than itself", ErrVerify, v, l)
		}
		if labels[l] != l {
			return fmt.Errorf("%w: vertex %d has label %d but %d is labelled %d", ErrVerify, v, l, l, labels[l])
		}
		for _, w := range g.Neighbors(uint32(v)) {
			if labels[w] != l {
				return fmt.Errorf("%w: arc %d->%d joins labels %d and %d", ErrVerify, v, w, l, labels[w])
			}
		}
	}
	ref := Reference(g)
	for v := 0; v < n; v++ {
		if ref[v] != labels[v] {
			return fmt.Errorf("%w: vertex %d has label %d, serial union-find says %d (two components merged)", ErrVerify, v, labels[v], ref[v])
		}
	}
	return nil
}

// VerifyForest checks a spanning forest against g and its (verified)
// labels: every edge is an arc of g, no edge closes a cycle, every edge
// stays inside a component, and there are n - c edges, so every component
// is spanned by exactly one tree.
func VerifyForest(g *graph.Graph, labels []uint32, edges []Edge) error {
	n := g.NumVertices()
	if len(labels) != n {
		return fmt.Errorf("%w: %d labels for %d vertices", ErrVerify, len(labels), n)
	}
	comps := 0
	for v, l := range labels {
		if l == uint32(v) {
			comps++
		}
	}
	if len(edges) != n-comps {
		return fmt.Errorf("%w: forest has %d edges, want n - c = %d - %d = %d", ErrVerify, len(edges), n, comps, n-comps)
	}
	u := newUF(n)
	for i, e := range edges {
		if int64(e.U) >= int64(n) || int64(e.V) >= int64(n) {
			return fmt.Errorf("%w: forest edge %d (%d-%d) names a vertex outside 0..%d", ErrVerify, i, e.U, e.V, n-1)
		}
		if _, ok := slices.BinarySearch(g.Neighbors(e.U), e.V); !ok {
			return fmt.Errorf("%w: forest edge %d (%d->%d) is not an arc of the graph", ErrVerify, i, e.U, e.V)
		}
		if labels[e.U] != labels[e.V] {
			return fmt.Errorf("%w: forest edge %d (%d-%d) joins components %d and %d", ErrVerify, i, e.U, e.V, labels[e.U], labels[e.V])
		}
		if !u.union(e.U, e.V) {
			return fmt.Errorf("%w: forest edge %d (%d-%d) closes a cycle", ErrVerify, i, e.U, e.V)
		}
	}
	return nil
}
