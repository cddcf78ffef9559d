// Push (top-down) BFS kernels on the CPU: every working-set vertex relaxes
// its out-edges.
//
// Ordered: level-synchronous BFS, a vertex is claimed once by compare-and-
// swap from "unreached" to level+1 (Merrill, Garland & Grimshaw, "Scalable
// GPU Graph Traversal", PPoPP 2012). Unordered: label-correcting BFS, an
// atomic minimum of depth[u]+1 using u's current depth, re-adding a vertex
// each time it is lowered (Li & Becchi, "Deploying Graph Algorithms on
// GPUs: an Adaptive Solution", IPDPS 2013, unordered variants). Thread and
// block mappings and bitmap/queue working sets follow Li & Becchi.
package bfs

import (
	"sync/atomic"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/mapping"
)

func (o *cpuOp) push(v decider.Variant) {
	if v.Order == decider.Ordered {
		nd := o.level + 1
		o.forFrontier(v.Mapping, func(w int, _ uint32, nbrs []uint32) {
			for _, x := range nbrs {
				if atomic.LoadUint32(&o.depth[x]) == unreached &&
					atomic.CompareAndSwapUint32(&o.depth[x], unreached, nd) {
					o.emit(w, x)
				}
			}
			o.cnt[w].edges += int64(len(nbrs))
		})
		return
	}
	o.forFrontier(v.Mapping, func(w int, u uint32, nbrs []uint32) {
		nd := o.loadDepth(u) + 1
		for _, x := range nbrs {
			for {
				old := atomic.LoadUint32(&o.depth[x])
				if old <= nd {
					break
				}
				if atomic.CompareAndSwapUint32(&o.depth[x], old, nd) {
					o.emit(w, x)
					break
				}
			}
		}
		o.cnt[w].edges += int64(len(nbrs))
	})
}

// Grains: elements per claimed chunk (thread mapping over a queue) and
// edges per chunk (block mapping).
const (
	queueGrain = 64
	edgeGrain  = 4096
)

// Thread mapping over a bitmap whose working set has more than edgeGrain
// out-edges claims word-aligned pieces of about equal out-edges of the
// graph (mapping.EdgeCuts), piecesPerWorker per worker and at least
// edgeGrain edges each, so that no piece holds a cluster of hubs with small
// ids (as sssp does, where it took email-Enron's SSSP to 0.64-0.69 of its
// time on 8 and 16 cores; BFS measured within noise of pieces of equal
// word counts on nine graphs, results/h100-host-cpu-2026-11-23-s23/). A
// smaller working set runs on the caller: on rome99 on two cores, waking
// the pool for 53 words made each bitmap level 5.2 µs against 2.8 for a
// queue's.
const piecesPerWorker = 16

// forFrontier calls fn(worker, u, part of u's out-neighbours) for the
// current frontier under the given mapping: whole neighbourhoods (thread)
// or edge-balanced pieces of them (block).
func (o *cpuOp) forFrontier(m decider.Mapping, fn func(w int, u uint32, nbrs []uint32)) {
	off, adj := o.off, o.adj
	switch {
	case o.rep == decider.Queue && m == decider.Thread:
		items := o.curQ.Items()
		o.pool.Thread(len(items), o.grain(queueGrain), func(w, lo, hi int) {
			for _, u := range items[lo:hi] {
				fn(w, u, adj[off[u]:off[u+1]])
			}
		})
	case o.rep == decider.Queue:
		items := o.curQ.Items()
		pref := o.pool.DegreePrefix(items, off, &o.pref)
		o.pool.Block(pref, edgeGrain, func(w, lo, hi int, eLo, eHi int64) {
			for i := lo; i < hi; i++ {
				u := items[i]
				from, to := mapping.Clip(pref[i], pref[i+1], eLo, eHi)
				if from < to {
					fn(w, u, adj[off[u]+from:off[u]+to])
				}
			}
		})
	case m == decider.Thread:
		words := o.curB.Words()
		visit := func(w, lo, hi int) {
			for i := lo; i < hi; i++ {
				for b := words[i]; b != 0; b &= b - 1 {
					u := uint32(i*64 + trailingZeros(b))
					fn(w, u, adj[off[u]:off[u+1]])
				}
			}
		}
		if o.deg <= edgeGrain {
			visit(0, 0, len(words))
			break
		}
		if o.cuts == nil {
			o.cuts = mapping.EdgeCuts(off, piecesPerWorker*o.pool.Workers(), edgeGrain)
		}
		o.pool.Pieces(o.cuts, visit)
	default:
		cur := o.curB
		words := cur.Words()
		o.pool.Block(off, edgeGrain, func(w, lo, hi int, eLo, eHi int64) {
			for u := lo; u < hi; u++ {
				if words[u>>6] == 0 {
					u |= 63 // skip the rest of an empty word
					continue
				}
				if !cur.Get(uint32(u)) {
					continue
				}
				a, b := max(off[u], eLo), min(off[u+1], eHi)
				if a < b {
					fn(w, uint32(u), adj[a:b])
				}
			}
		})
	}
}

// grain returns the thread-mapping chunk size in elements: at least min,
// and about edgeGrain edges at the graph's average degree, so a small
// working set of low-degree vertices (thousands of tiny iterations on a
// grid) runs on the caller instead of waking the pool for a few hundred
// edges.
func (o *cpuOp) grain(min int) int {
	n := len(o.off) - 1
	if n == 0 {
		return min
	}
	avg := max(o.adjLen()/int64(n), 1)
	return max(min, int(edgeGrain/avg))
}

func (o *cpuOp) adjLen() int64 { return int64(len(o.adj)) }
