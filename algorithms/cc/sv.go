package cc

import (
	"context"
	"sort"
	"sync/atomic"
	"time"

	"github.com/gearbox-graph/gearbox/internal/par"
)

// hook tries to re-point one root under the other for the edge u-v whose
// endpoints were seen in trees pu != pv. Orientation alternates between
// iterations (down: larger root under smaller; up: the reverse), so within
// one iteration every new pointer goes the same way and no cycle can form.
// The CAS makes each vertex hooked at most once in the whole run (a root
// never becomes one again), so the arc recorded for it is the one whose hook
// took effect. The corrected hook also re-points the endpoint on the hooked
// side, so later edges of that endpoint see the new tree in this iteration.
func (s *state) hook(pu, pv, u, v uint32, down bool) bool {
	src, dst, x := pu, pv, u
	if (pu < pv) == down {
		src, dst, x = pv, pu, v
	}
	if !atomic.CompareAndSwapUint32(&s.parent[src], src, dst) {
		return false // src was hooked by another edge; this one stays active
	}
	s.record(src, u, v)
	if x != src {
		atomic.StoreUint32(&s.parent[x], dst)
	}
	return true
}

// canonical reports whether arc u->v stands for its edge in SV's working
// set: for undirected graphs only the copy with u < v; for directed graphs
// every arc but self-loops.
func canonical(u, v uint32, directed bool) bool {
	if directed {
		return u != v
	}
	return u < v
}

// runSV is Soman et al.'s algorithm: each iteration hooks over the active
// edges (hiding those whose endpoints share a root), then jumps pointers
// until every tree is a star. It ends when no active edge is left, which
// must happen: while some active edge joins two trees, its hook or a rival
// one removes a root, and edges inside one tree are hidden when next read.
func (s *state) runSV(ctx context.Context) error {
	directed := s.g.Directed()
	edges := s.g.NumEdges()
	if !directed {
		edges /= 2
	}
	mode := WorksetBitmap
	var hidden []uint64
	var queue []uint64
	if s.cfg.workset == WorksetQueue {
		mode = WorksetQueue
		queue = s.buildQueue(nil)
	} else {
		hidden = make([]uint64, (s.g.NumEdges()+63)/64)
	}
	for iter := 0; ; iter++ {
		if err := ctxErr(ctx); err != nil {
			return err
		}
		t0 := time.Now()
		down := iter%2 == 0
		var active, hooks int64
		if mode == WorksetBitmap {
			active, hooks = s.hookBitmap(hidden, down, directed)
		} else {
			queue, active, hooks = s.hookQueue(queue, down)
		}
		if active == 0 {
			s.step(Step{Phase: "hook", Workset: mode}, t0)
			break
		}
		s.compress()
		s.step(Step{Phase: "hook+jump", Workset: mode, Active: active, Hooks: hooks}, t0)
		if mode == WorksetBitmap && s.cfg.workset == WorksetAuto && s.cfg.policy.UseQueue(active, edges) {
			queue = s.buildQueue(hidden)
			hidden = nil
			mode = WorksetQueue
		}
	}
	s.minLabels()
	return nil
}

// hookBitmap runs one hook pass over the arcs not yet hidden, vertex by
// vertex, and hides the arcs whose endpoints share a root. It returns the
// number of edges found joining two trees and the hooks made.
func (s *state) hookBitmap(hidden []uint64, down, directed bool) (int64, int64) {
	off, adj, p := s.offsets, s.adj, s.parent
	act, hk := newCounters(), newCounters()
	forParts(s.parts, func(t, lo, hi int) {
		var a, h int64
		word, bits := int64(-1), uint64(0)
		for u := lo; u < hi; u++ {
			uu := uint32(u)
			for e := off[u]; e < off[u+1]; e++ {
				v := adj[e]
				if !canonical(uu, v, directed) {
					continue
				}
				w, b := e>>6, uint64(1)<<(e&63)
				if atomic.LoadUint64(&hidden[w])&b != 0 {
					continue
				}
				pu, pv := atomic.LoadUint32(&p[u]), atomic.LoadUint32(&p[v])
				if pu == pv {
					// Neighbouring ranges may share a word: set bits
					// word by word with one atomic OR each.
					if w != word {
						if bits != 0 {
							atomic.OrUint64(&hidden[word], bits)
						}
						word, bits = w, 0
					}
					bits |= b
					continue
				}
				a++
				if s.hook(pu, pv, uu, v, down) {
					h++
				}
			}
		}
		if bits != 0 {
			atomic.OrUint64(&hidden[word], bits)
		}
		act.add(t, a)
		hk.add(t, h)
	})
	return act.sum(), hk.sum()
}

// hookQueue runs one hook pass over a queue of packed edges (u<<32 | v),
// compacting it in place to the edges that still joined two trees.
func (s *state) hookQueue(q []uint64, down bool) ([]uint64, int64, int64) {
	p := s.parent
	k := min(max(1, len(q)/(1<<12)), 32*par.Workers())
	parts := make([]int, k+1)
	for i := range parts {
		parts[i] = int(int64(len(q)) * int64(i) / int64(k))
	}
	kept := make([]int, k)
	hk := newCounters()
	forParts(parts, func(t, lo, hi int) {
		var h int64
		w := lo
		for i := lo; i < hi; i++ {
			x := q[i]
			u, v := uint32(x>>32), uint32(x)
			pu, pv := atomic.LoadUint32(&p[u]), atomic.LoadUint32(&p[v])
			if pu == pv {
				continue
			}
			q[w] = x
			w++
			if s.hook(pu, pv, u, v, down) {
				h++
			}
		}
		kept[sort.SearchInts(parts, lo)] = w - lo
		hk.add(t, h)
	})
	n := 0
	for i := 0; i < k; i++ {
		n += copy(q[n:], q[parts[i]:parts[i]+kept[i]])
	}
	return q[:n], int64(n), hk.sum()
}

// buildQueue collects the canonical arcs not hidden whose endpoints lie in
// different trees (every tree is a star here, so this is exact).
func (s *state) buildQueue(hidden []uint64) []uint64 {
	off, adj, p := s.offsets, s.adj, s.parent
	directed := s.g.Directed()
	local := make([][]uint64, len(s.parts)-1)
	forParts(s.parts, func(_, lo, hi int) {
		var out []uint64
		for u := lo; u < hi; u++ {
			uu := uint32(u)
			pu := p[u]
			for e := off[u]; e < off[u+1]; e++ {
				v := adj[e]
				if !canonical(uu, v, directed) || p[v] == pu {
					continue
				}
				if hidden != nil && hidden[e>>6]&(uint64(1)<<(e&63)) != 0 {
					continue
				}
				out = append(out, uint64(uu)<<32|uint64(v))
			}
		}
		local[sort.SearchInts(s.parts, lo)] = out
	})
	total := 0
	for _, l := range local {
		total += len(l)
	}
	q := make([]uint64, 0, total)
	for _, l := range local {
		q = append(q, l...)
	}
	return q
}
