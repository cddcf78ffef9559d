package maxflow

import (
	"sync/atomic"

	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/mapping"
)

// ArcFilter says whether the BFS may walk arc e (an index into the residual
// arrays). The global relabel walks arcs backwards: from u it reaches w
// over the arc w->u, so it is asked about Rev of u's arc.
type ArcFilter func(e int64) bool

// backwardBFS labels every vertex with its distance to root over the arcs
// that filter admits (nil: those with res[e] > 0, tested inline, which
// halves a global relabel's time against a call per arc), walked backwards; d must hold unset for every vertex
// but those fixed beforehand (the blocked terminal), which the BFS never
// enters. It returns the largest distance found. Level-synchronous: a
// level of under bfsSerial vertices runs on the caller, a larger one on
// the pool's workers with a compare-and-swap per label, so the labels do
// not depend on the worker count (a BFS distance is unique).
//
// This is the seam for the shared frontier kit (algorithms/internal/frontier,
// not on main yet): its advance with an arc filter replaces this function.
func backwardBFS(pool *mapping.Pool, r *graph.Residual, root uint32, d []uint32, unset uint32, res []int64, filter ArcFilter, scratch *[2][]uint32) uint32 {
	off, head, rev := r.Off, r.Head, r.Rev
	d[root] = 0
	cur := append((*scratch)[0][:0], root)
	next := (*scratch)[1][:0]
	var level uint32
	workers := 1
	if pool != nil {
		workers = pool.Workers()
	}
	bufs := make([][]uint32, workers)
	inline := filter == nil
	if inline {
		filter = func(e int64) bool { return res[e] > 0 }
	}
	for len(cur) > 0 {
		nl := level + 1
		if (workers == 1 || len(cur) < bfsSerial) && inline {
			for _, u := range cur {
				for e := off[u]; e < off[u+1]; e++ {
					w := head[e]
					if d[w] == unset && res[rev[e]] > 0 {
						d[w] = nl
						next = append(next, w)
					}
				}
			}
		} else if workers == 1 || len(cur) < bfsSerial {
			for _, u := range cur {
				for e := off[u]; e < off[u+1]; e++ {
					w := head[e]
					if d[w] == unset && filter(rev[e]) {
						d[w] = nl
						next = append(next, w)
					}
				}
			}
		} else {
			pool.Thread(len(cur), 256, func(wk, lo, hi int) {
				b := bufs[wk]
				for _, u := range cur[lo:hi] {
					for e := off[u]; e < off[u+1]; e++ {
						w := head[e]
						if atomic.LoadUint32(&d[w]) == unset && filter(rev[e]) && atomic.CompareAndSwapUint32(&d[w], unset, nl) {
							b = append(b, w)
						}
					}
				}
				bufs[wk] = b
			})
			for i, b := range bufs {
				next = append(next, b...)
				bufs[i] = b[:0]
			}
		}
		if len(next) == 0 {
			break
		}
		level = nl
		cur, next = next, cur[:0]
	}
	scratch[0], scratch[1] = cur, next
	return level
}

// bfsSerial is the frontier size below which a BFS level runs on the
// caller: waking the workers costs about as much as a few hundred arcs.
const bfsSerial = 512
