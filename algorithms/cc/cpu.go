package cc

import (
	"sync/atomic"

	"github.com/gearbox-graph/gearbox/algorithms/internal/edgeset"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/hostmem"
	"github.com/gearbox-graph/gearbox/internal/par"
	"github.com/gearbox-graph/gearbox/runtime"
)

// newCPU returns the CPU operator of variant v.
func newCPU(b *runtime.CPU, g *graph.Graph, v Variant, o options) operator {
	s := newBase(b, g, o.forest)
	switch v {
	case SV:
		return newSV(s)
	case UnionFind:
		return &ufOp{phased{base: s}}
	}
	return &afforestOp{phased: phased{base: s}, rounds: o.rounds, seed: o.seed}
}

// base is the state every CPU variant shares: the parent array of the
// hooking forest and, when a spanning forest is wanted, the arc that hooked
// each vertex.
type base struct {
	edgeset.Host
	g        *graph.Graph
	n        int
	off      []int64
	adj      []uint32
	directed bool
	parent   []uint32
	// hook[v] is the arc u->w whose hook made v a non-root, packed as
	// u<<32 | w (one write per hook). A hook is a CAS of parent[v] from v,
	// and a non-root never becomes a root again, so each vertex is hooked
	// at most once.
	hook   []uint64
	labels []uint32
}

func newBase(b *runtime.CPU, g *graph.Graph, forest bool) base {
	s := base{Host: edgeset.NewHost(b.NewPool()), g: g, n: g.NumVertices(), off: g.Offsets(), adj: g.Adj(), directed: g.Directed()}
	s.parent = hostmem.Slice[uint32](s.n)() // reuses a released result's memory
	s.Pool.Thread(s.n, 1<<14, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			s.parent[v] = uint32(v)
		}
	})
	if forest {
		s.hook = make([]uint64, s.n)
	}
	s.Finished = s.n == 0
	return s
}

// Labels returns the final labels (valid once the run is done).
func (s *base) Labels() []uint32 {
	if s.labels == nil {
		return []uint32{}
	}
	return s.labels
}

// ForestEdges lists the hooking arc of every non-root vertex, in vertex
// order. It runs after the engine has closed the pool, so it uses par.
func (s *base) ForestEdges() []Edge {
	if s.hook == nil {
		return nil
	}
	const chunk = 1 << 15
	k := (s.n + chunk - 1) / chunk
	count := make([]int64, k+1)
	par.For(k, 1, func(lo, hi int) {
		for c := lo; c < hi; c++ {
			var m int64
			for v := c * chunk; v < min((c+1)*chunk, s.n); v++ {
				if s.parent[v] != uint32(v) {
					m++
				}
			}
			count[c] = m
		}
	})
	edges := make([]Edge, par.PrefixSum(count))
	par.For(k, 1, func(lo, hi int) {
		for c := lo; c < hi; c++ {
			i := count[c]
			for v := c * chunk; v < min((c+1)*chunk, s.n); v++ {
				if s.parent[v] != uint32(v) {
					x := s.hook[v]
					edges[i] = Edge{U: uint32(x >> 32), V: uint32(x)}
					i++
				}
			}
		}
	})
	return edges
}

// record notes that arc u->v hooked root r.
func (s *base) record(r, u, v uint32) {
	if s.hook != nil {
		s.hook[r] = uint64(u)<<32 | uint64(v)
	}
}

// compress makes every tree a star (multilevel pointer jumping): each
// vertex points at its root afterwards.
func (s *base) compress() {
	p := s.parent
	s.Pool.Thread(s.n, 1<<14, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			x := atomic.LoadUint32(&p[v])
			y := atomic.LoadUint32(&p[x])
			if x == y {
				continue
			}
			for {
				z := atomic.LoadUint32(&p[y])
				if z == y {
					break
				}
				y = z
			}
			atomic.StoreUint32(&p[v], y)
		}
	})
}

// minLabels turns a star forest with arbitrary roots into labels naming each
// component's smallest vertex.
func (s *base) minLabels() {
	p := s.parent
	low := make([]uint32, s.n)
	s.Pool.Thread(s.n, 1<<14, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			low[v] = graph.NoVertex
		}
	})
	s.Pool.Thread(s.n, 1<<14, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			r := p[v]
			for {
				cur := atomic.LoadUint32(&low[r])
				if uint32(v) >= cur || atomic.CompareAndSwapUint32(&low[r], cur, uint32(v)) {
					break
				}
			}
		}
	})
	s.Pool.Thread(s.n, 1<<14, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			if r := p[v]; r != uint32(v) { // roots already hold their minimum
				low[v] = low[r]
			}
		}
	})
	s.labels = low
}

// link unites the trees of u and v, hooking the larger root under the
// smaller with a CAS (Afforest's Link), and records arc u->v when it hooks.
// Parent pointers only ever decrease, so every root is its tree's smallest
// vertex. It reports whether this call performed the hook.
func (s *base) link(u, v uint32) bool {
	p := s.parent
	p1 := atomic.LoadUint32(&p[u])
	p2 := atomic.LoadUint32(&p[v])
	for p1 != p2 {
		high, low := p1, p2
		if high < low {
			high, low = low, high
		}
		ph := atomic.LoadUint32(&p[high])
		if ph == low {
			return false
		}
		if ph == high && atomic.CompareAndSwapUint32(&p[high], high, low) {
			s.record(high, u, v)
			return true
		}
		p1 = atomic.LoadUint32(&p[atomic.LoadUint32(&p[high])])
		p2 = atomic.LoadUint32(&p[low])
	}
	return false
}

// findRoot follows parent pointers to the root, re-pointing each vertex on
// the way at its grandparent (ECL-CC's intermediate pointer jumping; valid
// because parents only decrease).
func (s *base) findRoot(v uint32) uint32 {
	p := s.parent
	cur := atomic.LoadUint32(&p[v])
	if cur == v {
		return cur
	}
	prev := v
	for {
		next := atomic.LoadUint32(&p[cur])
		if next >= cur {
			return cur
		}
		atomic.StoreUint32(&p[prev], next)
		prev, cur = cur, next
	}
}

// summarise counts components and finds the largest; done lazily (the
// operator's pool is gone by then, so it uses par) so runs that only need
// labels do not pay for it.
func (r *Result) summarise() {
	r.once.Do(func() {
		n := len(r.labels)
		r.bigLbl = graph.NoVertex
		if n == 0 {
			return
		}
		sizes := make([]uint32, n)
		var roots atomic.Int64
		par.For(n, 1<<14, func(lo, hi int) {
			// Runs of equal labels are counted locally to keep atomic
			// traffic on a giant component's counter low.
			var cur uint32 = graph.NoVertex
			var cnt uint32
			nr := 0
			for v := lo; v < hi; v++ {
				l := r.labels[v]
				if l == uint32(v) {
					nr++
				}
				if l != cur {
					if cnt > 0 {
						atomic.AddUint32(&sizes[cur], cnt)
					}
					cur, cnt = l, 0
				}
				cnt++
			}
			if cnt > 0 {
				atomic.AddUint32(&sizes[cur], cnt)
			}
			roots.Add(int64(nr))
		})
		r.ncomp = int(roots.Load())
		for v, sz := range sizes {
			if int(sz) > r.largest {
				r.largest, r.bigLbl = int(sz), uint32(v)
			}
		}
	})
}
