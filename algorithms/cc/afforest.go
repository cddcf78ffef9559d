package cc

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/gearbox-graph/gearbox/internal/par"
)

// counters are per-worker tallies, padded so workers do not share a cache
// line.
type counters []int64

func newCounters() counters { return make(counters, 8*par.Workers()) }

func (c counters) add(worker int, x int64) { c[8*worker] += x }

func (c counters) sum() int64 {
	var s int64
	for i := 0; i < len(c); i += 8 {
		s += c[i]
	}
	return s
}

func ctxErr(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("cc: %w", err)
	}
	return nil
}

// link unites the trees of u and v, hooking the larger root under the
// smaller with a CAS (Afforest's Link), and records arc u->v when it hooks.
// Parent pointers only ever decrease, so every root is its tree's smallest
// vertex. It reports whether this call performed the hook.
func (s *state) link(u, v uint32) bool {
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

// runAfforest links each vertex to its first `rounds` neighbours, compressing
// after each round, finds the most frequent root in a sample, and then links
// the remaining edges of the vertices outside that component only: every
// edge leaving the largest component is seen from its other endpoint.
// Directed graphs have no in-edges at hand, so their final pass covers every
// vertex (arcs inside the big component return at once).
func (s *state) runAfforest(ctx context.Context, rounds int) error {
	off, adj, n := s.offsets, s.adj, s.n
	directed := s.g.Directed()
	hooks := newCounters()
	for r := 0; r < rounds; r++ {
		if err := ctxErr(ctx); err != nil {
			return err
		}
		t0 := time.Now()
		h0 := hooks.sum()
		var active atomic.Int64
		forRange(n, 1<<14, func(t, lo, hi int) {
			var h, a int64
			for u := lo; u < hi; u++ {
				e := off[u] + int64(r)
				if e < off[u+1] {
					a++
					if s.link(uint32(u), adj[e]) {
						h++
					}
				}
			}
			hooks.add(t, h)
			active.Add(a)
		})
		s.compress()
		s.step(Step{Phase: fmt.Sprintf("sample-round-%d", r), Active: active.Load(), Hooks: hooks.sum() - h0}, t0)
		if active.Load() == 0 {
			break
		}
	}
	if err := ctxErr(ctx); err != nil {
		return err
	}
	t0 := time.Now()
	h0 := hooks.sum()
	c, _ := s.frequentRoot(1024)
	var active atomic.Int64
	forParts(s.parts, func(t, lo, hi int) {
		var h, a int64
		p := s.parent
		for u := lo; u < hi; u++ {
			if !directed && atomic.LoadUint32(&p[u]) == c {
				continue
			}
			start := off[u] + int64(rounds)
			if start >= off[u+1] {
				continue
			}
			a++
			for _, v := range adj[start:off[u+1]] {
				if s.link(uint32(u), v) {
					h++
				}
			}
		}
		hooks.add(t, h)
		active.Add(a)
	})
	s.compress()
	s.labels = s.parent
	s.step(Step{Phase: "link-rest", Active: active.Load(), Hooks: hooks.sum() - h0}, t0)
	return nil
}

// frequentRoot samples k vertices' roots and returns the most frequent one
// (ties to the smaller id) and its sample count.
func (s *state) frequentRoot(k int) (uint32, int) {
	if s.n == 0 {
		return 0, 0
	}
	rng := rand.New(rand.NewPCG(s.cfg.seed, 0x9e3779b97f4a7c15))
	counts := make(map[uint32]int, k)
	for i := 0; i < k; i++ {
		counts[s.parent[rng.IntN(s.n)]]++
	}
	var best uint32
	bc := -1
	for r, c := range counts {
		if c > bc || (c == bc && r < best) {
			best, bc = r, c
		}
	}
	return best, bc
}

// findRoot follows parent pointers to the root, halving the path on the way
// (ECL-CC's intermediate pointer jumping; valid because parents only
// decrease).
func (s *state) findRoot(v uint32) uint32 {
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

// runUnionFind is ECL-CC on the CPU: every vertex first points at its
// smallest smaller neighbour, then every edge is united with CAS hooks of
// the larger root under the smaller, then all paths are compressed.
func (s *state) runUnionFind(ctx context.Context) error {
	off, adj, n := s.offsets, s.adj, s.n
	directed := s.g.Directed()
	p := s.parent
	t0 := time.Now()
	var inits atomic.Int64
	forRange(n, 1<<14, func(_, lo, hi int) {
		var h int64
		for v := lo; v < hi; v++ {
			if off[v] < off[v+1] && adj[off[v]] < uint32(v) {
				p[v] = adj[off[v]]
				s.record(uint32(v), uint32(v), adj[off[v]])
				h++
			}
		}
		inits.Add(h)
	})
	s.step(Step{Phase: "init", Active: int64(n), Hooks: inits.Load()}, t0)
	if err := ctxErr(ctx); err != nil {
		return err
	}
	t0 = time.Now()
	hooks := newCounters()
	forParts(s.parts, func(t, lo, hi int) {
		var h int64
		for v := lo; v < hi; v++ {
			nbrs := adj[off[v]:off[v+1]]
			if len(nbrs) == 0 {
				continue
			}
			vr := s.findRoot(uint32(v))
			for _, u := range nbrs {
				if u >= uint32(v) {
					if !directed {
						break // the other endpoint handles it
					}
					if u == uint32(v) {
						continue
					}
				}
				ur := s.findRoot(u)
				for vr != ur {
					if vr < ur {
						if atomic.CompareAndSwapUint32(&p[ur], ur, vr) {
							s.record(ur, uint32(v), u)
							h++
							break
						}
						ur = s.findRoot(ur)
					} else {
						if atomic.CompareAndSwapUint32(&p[vr], vr, ur) {
							s.record(vr, uint32(v), u)
							h++
							vr = ur
							break
						}
						vr = s.findRoot(vr)
					}
				}
			}
		}
		hooks.add(t, h)
	})
	s.compress()
	s.labels = s.parent
	s.step(Step{Phase: "union+compress", Active: s.g.NumEdges(), Hooks: hooks.sum()}, t0)
	return nil
}
