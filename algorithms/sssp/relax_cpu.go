// SSSP relaxation kernels on the CPU.
//
// Ordered: delta-stepping (Meyer & Sanders, "Delta-stepping: a
// parallelizable shortest path algorithm", J. Algorithms 2003) with the
// current bucket as the working set, per-worker bins and bucket fusion
// (a worker keeps relaxing its own small bin of the current bucket without
// a global step, as in the GAP suite: Beamer, Asanović & Patterson, "The
// GAP Benchmark Suite", 2015). Delta = 1 is the paper's ordered variant
// (process only the minimum distance found by a reduction). Unordered: one
// unbounded bucket, Bellman-Ford style frontier relaxation (Li & Becchi,
// "Deploying Graph Algorithms on GPUs: an Adaptive Solution", IPDPS 2013).
// Every lowering is an atomic minimum on a uint64 distance.
package sssp

import (
	"github.com/gearbox-graph/gearbox/algorithms/internal/frontier"
	"github.com/gearbox-graph/gearbox/decider"
)

// smallWork is the pending-element count below which per-worker phases
// run on the caller instead of waking the pool.
const smallWork = 256

// fuseMax bounds the local bin a worker keeps processing on its own.
const fuseMax = 1000

func (o *cpuOp[D]) computeOrdered(m decider.Mapping) {
	low := o.cur * o.delta
	skip := o.bucketed
	o.binsUsed = true
	adj, wt := o.adj, o.wts
	o.adv.ForFrontier(o.frontier(), m, func(w int, u uint32, lo, hi int64) {
		du := o.load(u)
		if skip && (du < low || o.bucket(du) != o.cur) {
			return // stale: u moved to another bucket since it was filed
		}
		nbrs, wts := adj[lo:hi], wt[lo:hi]
		for i, x := range nbrs {
			if nd := du + uint64(wts[i]); o.lower(x, nd) {
				o.emitOrdered(w, x, nd)
			}
		}
		o.ws[w].edges += int64(len(nbrs))
	})
	// Bucket fusion: each worker drains its own small bins of the current
	// buckets, in order (a relaxation never lowers into an earlier bucket).
	// With a bucket target (the adaptive policy), a worker stops once its
	// relaxations this iteration reach its share of the target and its next
	// bin holds a grain of out-edges (queueEdges: what the next iteration
	// would spread over the workers; a smaller bin costs less than an
	// iteration), and it takes the next merged bucket only below its share.
	// Without the first bound one worker fused a source's neighbourhood
	// alone (email-Enron's first iteration: 74K edges on one of 16 workers);
	// with it kron:18 on 16 cores took 0.63-0.73 of its time, the rest
	// within noise (results/h100-host-cpu-2026-11-23-s21/). Without the
	// second, merged buckets made urand:18 1.25x slower on 16 cores (-s20/).
	pending := o.pendingIn(o.cur, o.last+1)
	if pending == 0 {
		return
	}
	par := pending >= smallWork
	share := o.target / int64(len(o.ws))
	// Run on the caller, the workers' fusions are one worker's: they share
	// one share, counted from the fusion's start.
	var seq int64
	o.pool.RunIf(par, func(w int) {
		ws := &o.ws[w]
		start := ws.edges
		spent := func() int64 {
			if par {
				return ws.edges
			}
			return seq + ws.edges - start
		}
		if !par {
			defer func() { seq += ws.edges - start }()
		}
		for idx := o.cur; idx <= o.last; idx++ {
			slot := idx % ringSize
			for n := len(ws.bins[slot]); n > 0; n = len(ws.bins[slot]) {
				items := ws.bins[slot]
				if n >= fuseMax || (share > 0 && spent() >= share && o.outEdges(items) >= queueEdges) {
					return // the bin waits for the next iteration, and so do the buckets after it
				}
				ws.bins[slot], ws.scratch = ws.scratch[:0], items
				ws.filed -= len(items)
				for _, u := range items {
					du := o.load(u)
					if o.bucket(du) != idx {
						continue
					}
					a, b := o.off[u], o.off[u+1]
					for i, x := range o.adj[a:b] {
						if nd := du + uint64(o.wts[a+int64(i)]); o.lower(x, nd) {
							o.emitOrdered(w, x, nd)
						}
					}
					ws.edges += b - a
				}
			}
			if spent() >= share {
				return
			}
		}
	})
}

// outEdges returns the out-degrees' sum of vs.
func (o *cpuOp[D]) outEdges(vs []uint32) int64 {
	var e int64
	for _, v := range vs {
		e += o.off[v+1] - o.off[v]
	}
	return e
}

func (o *cpuOp[D]) computeUnordered(m decider.Mapping) {
	adj, wt := o.adj, o.wts
	o.adv.ForFrontier(o.frontier(), m, func(w int, u uint32, lo, hi int64) {
		nbrs, wts := adj[lo:hi], wt[lo:hi]
		du := o.load(u)
		for i, x := range nbrs {
			if o.lower(x, du+uint64(wts[i])) {
				o.emitUnordered(w, x)
			}
		}
		o.ws[w].edges += int64(len(nbrs))
	})
}

// queueEdges is the out-edges a thread-mapped queue chunk holds at the
// graph's average degree, and the least a thread-mapped bitmap piece
// holds. A relaxation costs an atomic minimum and a bin append, several
// times BFS's visit, so SSSP spreads a queue from a quarter of BFS's
// edges: on 16 cores a 512x512 grid's small buckets then run on all
// workers.
const queueEdges = 1024

// grains are the advance's. Thread mapping over a bitmap claims
// word-aligned pieces of about equal out-edges (mapping.EdgeCuts), about
// 16 per worker and at least queueEdges edges each: pieces of equal word
// counts left email-Enron's SSSP waiting for the piece of its
// low-numbered hubs (15% of its arcs).
var grains = frontier.Grains{Queue: 64, QueueEdges: queueEdges, Edge: 4096, PiecesPerWorker: 16, PieceEdges: queueEdges}

// frontier returns the current working set for the advance.
func (o *cpuOp[D]) frontier() frontier.Set {
	if o.rep == decider.Queue {
		return frontier.QueueSet(o.curQ.Items(), -1)
	}
	return frontier.BitmapSet(o.curB, -1)
}
